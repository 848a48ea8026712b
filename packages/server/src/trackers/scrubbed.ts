/**
 * A connection's client whose failures never carry its credentials: each
 * {@link TrackerRequestError} a call throws is rethrown with its reason scrubbed of every
 * credential string and cut to a bounded length (retry.ts), so whatever reads the reason
 * (a sync's items, a 422's details, a log line) gets words a user may see.
 */
import type { TrackerClient, TrackerCredentials } from './providers/provider.ts';
import { TrackerRequestError } from './providers/provider.ts';
import { bounded, scrub } from './retry.ts';

/** Every string of the credentials, to scrub from anything a tracker says back. */
export function secretsOf(credentials: unknown): string[] {
  if (typeof credentials !== 'object' || credentials === null) return [];
  return Object.values(credentials).filter(
    (value): value is string => typeof value === 'string' && value.length >= 4,
  );
}

/** `error` with a clean reason when it is a tracker's refusal; anything else as it was. */
export function cleanError(error: unknown, secrets: readonly string[]): unknown {
  if (!(error instanceof TrackerRequestError)) return error;
  const reason = bounded(scrub(error.reason, secrets));
  return reason === error.reason ? error : new TrackerRequestError(reason, error.options);
}

/**
 * `client` with every method's failure cleaned by {@link cleanError}.
 *
 * @example
 * const client = scrubbedClient(adapter.connect(options), options.credentials);
 */
export function scrubbedClient(
  client: TrackerClient,
  credentials: TrackerCredentials,
): TrackerClient {
  const secrets = secretsOf(credentials);
  const clean =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      call(...args).catch((error: unknown) => {
        throw cleanError(error, secrets);
      });
  return {
    verify: clean(client.verify.bind(client)),
    findMarked: clean(client.findMarked.bind(client)),
    get: clean(client.get.bind(client)),
    create: clean(client.create.bind(client)),
    update: clean(client.update.bind(client)),
    setState: clean(client.setState.bind(client)),
  };
}
