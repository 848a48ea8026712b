/**
 * The scale-out bench's proof that nothing was lost: every project terminal and completed
 * with each document of its plan exactly once, each charged its price, each account's
 * balance exactly its credits less those charges, the ledger exact by SQL and by the
 * server's own audit (`GET /admin/v1/audit`).
 */
import type pg from 'pg';
import { documentPlan } from '../packages/server/src/runs/catalogue.ts';
import { priceOf } from '../packages/server/src/runs/pricing.ts';
import { ledgerProblems } from '../packages/server/test/chaos/ledger.ts';

/** A project created by the burst: its id, the key that created it and that key's account. */
export interface Created {
  id: string;
  key: string;
  accountId: string;
  /** Index of the API process that answered its creation. */
  api: number;
}

type ProjectType = 'web' | 'mobile' | 'mcp';

/** GET with a bearer token; status and parsed body. */
async function get(base: string, path: string, token: string) {
  const res = await fetch(`${base}${path}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: the checks read the fields they compare
  return { status: res.status, json: (text ? JSON.parse(text) : undefined) as any };
}

/**
 * Every problem found, one sentence each (at most the first 20 of each kind are worth
 * printing); empty when everything holds. Each project is read on the API process that did
 * not create it, so a read across processes is part of the proof.
 */
export async function scaleOutProblems(options: {
  created: Created[];
  apis: string[];
  adminToken: string;
  /** Credits each account started with. */
  credits: number;
  pool: pg.Pool;
}): Promise<string[]> {
  const { created, apis, adminToken, credits, pool } = options;
  const problems: string[] = [];
  const charged = new Map<string, number>();
  // A few at a time: the verification should not become a load test of its own.
  for (let i = 0; i < created.length; i += 20) {
    await Promise.all(
      created.slice(i, i + 20).map(async (p) => {
        const res = await get(apis[(p.api + 1) % apis.length]!, `/api/v1/projects/${p.id}`, p.key);
        const data = res.json?.data;
        if (res.status !== 200 || data === undefined) {
          problems.push(`${p.id}: GET answered ${res.status}`);
          return;
        }
        if (data.status !== 'completed') {
          problems.push(`${p.id}: ${data.status} ${JSON.stringify(data.error ?? null)}`);
          return;
        }
        const type = data.project.type as ProjectType;
        const kinds = (data.project.documents as { type: string }[]).map((d) => d.type).sort();
        const plan = documentPlan(type)
          .map((d) => d.kind)
          .sort();
        if (kinds.join() !== plan.join()) {
          problems.push(`${p.id}: documents [${kinds}] are not its plan [${plan}] once each`);
        }
        if (data.metadata.creditsConsumed !== priceOf(type)) {
          problems.push(`${p.id}: charged ${data.metadata.creditsConsumed}, not ${priceOf(type)}`);
        }
        charged.set(p.accountId, (charged.get(p.accountId) ?? 0) + priceOf(type));
      }),
    );
  }
  const balances = await pool.query<{ account_id: string; balance: string }>(
    `select account_id, balance from credit_balances where mode = 'live'`,
  );
  for (const row of balances.rows) {
    const expected = credits - (charged.get(row.account_id) ?? 0);
    if (Number(row.balance) !== expected) {
      problems.push(`account ${row.account_id}: balance ${row.balance}, expected ${expected}`);
    }
  }
  problems.push(...(await ledgerProblems(async (text) => (await pool.query(text)).rows)));
  const audit = await get(apis[0]!, '/admin/v1/audit', adminToken);
  if (audit.status !== 200 || audit.json?.data?.ok !== true) {
    problems.push(
      `GET /admin/v1/audit: ${audit.status} ${JSON.stringify(audit.json).slice(0, 500)}`,
    );
  }
  return problems;
}
