import type { Command } from '../context.ts';
import { integerValue, requireString } from '../context.ts';
import { UsageError } from '../errors.ts';
import { ADMIN_OPTIONS, expectPositionals, modeValue } from './common.ts';

const NAME = 'credits grant';

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
