import type { Command } from '../context.ts';
import { integerValue, stringValue } from '../context.ts';
import { UsageError } from '../errors.ts';
import { ADMIN_OPTIONS, expectPositionals, modeValue } from './common.ts';

const CREATE = 'keys create';
const REVOKE = 'keys revoke';

/**
 * `pgs keys create`: a new API key, for a new account unless `--account` is given.
 *
 * @example
 * pgs keys create --mode test --credits 50 --json
 */
export const keysCreate: Command = {
  name: CREATE,
  summary: 'Create an API key (for a new account unless --account is given)',
  usage: 'pgs keys create --mode test|live [--account ID] [--credits N] [--name NAME] [--json]',
  credential: 'admin',
  help: `Creates an API key and prints it. The key is shown only once: store it.

Options:
  --mode test|live       the key's mode; test and live keys see separate projects and credits
  --account ID           an existing account (acct_...); default: a new account
  --credits N            grant N credits in the key's mode
  --name NAME            a label for the key

With --json, prints one line: {"key","keyId","accountId","mode"}.

Example:
  pgs keys create --mode test --credits 50`,
  options: {
    ...ADMIN_OPTIONS,
    mode: { type: 'string' },
    account: { type: 'string' },
    credits: { type: 'string' },
    name: { type: 'string' },
  },
  async run(ctx) {
    expectPositionals(ctx.positionals, 0, CREATE);
    const mode = modeValue(ctx.values, CREATE);
    const accountId = stringValue(ctx.values, 'account')?.trim() || undefined;
    const credits = integerValue(ctx.values, 'credits', CREATE);
    const name = stringValue(ctx.values, 'name');
    if (name !== undefined && name.trim() === '') {
      throw new UsageError('--name must not be empty', `pgs ${CREATE}`);
    }

    const admin = await ctx.admin();
    const created = await admin.keys.create({ mode, accountId, credits, name });

    if (ctx.json) {
      const { key, keyId, accountId: account } = created;
      ctx.print(JSON.stringify({ key, keyId, accountId: account, mode: created.mode }));
      return;
    }
    const granted = created.creditsGranted ?? credits ?? 0;
    ctx.print(
      [
        `Created a ${created.mode} API key${accountId ? '' : ' for a new account'}.`,
        '',
        `  API key   ${created.key}`,
        `  Key id    ${created.keyId}`,
        `  Account   ${created.accountId}`,
        `  Credits   ${granted > 0 ? `${granted} ${created.mode} credits granted` : 'none granted'}`,
        '',
        'This key is shown only once: store it now, e.g.',
        `  export PGS_API_KEY=${created.key}`,
        `Revoke it with: pgs keys revoke ${created.keyId}`,
      ].join('\n'),
    );
  },
};

/**
 * `pgs keys revoke KEY_ID`: the key stops working on its next request.
 *
 * @example
 * pgs keys revoke key_01JD6WQ8V4Z9K3M2N5P7R8S0TA
 */
export const keysRevoke: Command = {
  name: REVOKE,
  summary: 'Revoke an API key',
  usage: 'pgs keys revoke KEY_ID [--json]',
  credential: 'admin',
  help: `Revokes an API key; it stops working on its next request. Revoking twice is not an error.

Arguments:
  KEY_ID                 the key's id (key_...), as printed by pgs keys create

With --json, prints the revoked key as one line:
  {"keyId","accountId","mode","prefix","name","createdAt","revokedAt"}.`,
  options: { ...ADMIN_OPTIONS },
  async run(ctx) {
    const keyId = ctx.positionals[0]?.trim();
    if (!keyId) throw new UsageError('missing KEY_ID', `pgs ${REVOKE}`);
    expectPositionals(ctx.positionals, 1, REVOKE);

    const admin = await ctx.admin();
    const revoked = await admin.keys.revoke(keyId);

    if (ctx.json) {
      ctx.print(JSON.stringify(revoked));
      return;
    }
    ctx.print(
      `Revoked ${revoked.mode} key ${revoked.keyId} (${revoked.prefix}) of account ` +
        `${revoked.accountId}${revoked.revokedAt ? ` at ${revoked.revokedAt}` : ''}.`,
    );
  },
};
