import type { Command } from '../context.ts';
import { integerValue, requireString } from '../context.ts';
import { UsageError } from '../errors.ts';
import { ADMIN_OPTIONS, API_OPTIONS, expectPositionals, modeValue } from './common.ts';

const NAME = 'credits grant';

/**
 * `pgs credits`: the balance of the API key's account in the key's mode.
 *
 * @example
 * pgs credits --json
 */
export const creditsShow: Command = {
  name: 'credits',
  summary: "Show the credit balance of the API key's mode",
  usage: 'pgs credits [--json]',
  credential: 'api-key',
  help: `Shows the credits of the API key's account in the key's mode (live and test keys
have separate balances): what is available to spend, and what projects still in
progress hold in reserve (already taken from the balance).

With --json, prints one line: {"mode","balance","reserved"}.

Operators add credits with: pgs credits grant --account ID --mode test|live --amount N`,
  options: { ...API_OPTIONS },
  async run(ctx) {
    expectPositionals(ctx.positionals, 0, 'credits');
    const { mode, balance, reserved } = await ctx.client().credits.get({ signal: ctx.io.signal });
    if (ctx.json) {
      ctx.print(JSON.stringify({ mode, balance, reserved }));
      return;
    }
    ctx.print(
      `${balance} ${mode} credits available` +
        (reserved > 0 ? `, ${reserved} reserved by projects in progress` : '') +
        '.',
    );
  },
};

/**
 * `pgs credits grant`: credits for an account in one mode.
 *
 * @example
 * pgs credits grant --account acct_01JD6WQ8V4Z9K3M2N5P7R8S0TA --mode test --amount 100
 */
export const creditsGrant: Command = {
  name: NAME,
  summary: 'Grant credits to an account in one mode',
  usage: 'pgs credits grant --account ID --mode test|live --amount N [--json]',
  credential: 'admin',
  help: `Grants credits to an account in one mode and prints the new balance.

Options:
  --account ID           the account (acct_...)
  --mode test|live       which balance to credit
  --amount N             a positive integer

With --json, prints one line: {"accountId","mode","amount","balance"}.`,
  options: {
    ...ADMIN_OPTIONS,
    account: { type: 'string' },
    mode: { type: 'string' },
    amount: { type: 'string' },
  },
  async run(ctx) {
    expectPositionals(ctx.positionals, 0, NAME);
    const accountId = requireString(ctx.values, 'account', NAME);
    const mode = modeValue(ctx.values, NAME);
    const amount = integerValue(ctx.values, 'amount', NAME, { min: 1 });
    if (amount === undefined) throw new UsageError('missing --amount', `pgs ${NAME}`);

    const admin = await ctx.admin();
    const grant = await admin.credits.grant({ accountId, mode, amount });

    if (ctx.json) {
      const { accountId: account, mode: m, amount: a, balance } = grant;
      ctx.print(JSON.stringify({ accountId: account, mode: m, amount: a, balance }));
      return;
    }
    ctx.print(
      `Granted ${grant.amount} ${grant.mode} credits to ${grant.accountId}; ` +
        `the ${grant.mode} balance is now ${grant.balance}.`,
    );
  },
};
