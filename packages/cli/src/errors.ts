/**
 * A mistake in the command line: unknown command, bad flag or bad value (exit 2).
 *
 * @example
 * throw new UsageError('--mode must be test or live', 'pgs keys create --help');
 */
export class UsageError extends Error {
  override name = 'UsageError';
  /** The command whose `--help` to point at, e.g. `pgs keys create`. */
  readonly command: string;

  constructor(message: string, command = 'pgs') {
    super(message);
    this.command = command;
  }
}

/**
 * No admin token was found; the message says every place that was looked at (exit 3).
 *
 * @example
 * throw new MissingTokenError('no admin token: ...');
 */
export class MissingTokenError extends Error {
  override name = 'MissingTokenError';
}
