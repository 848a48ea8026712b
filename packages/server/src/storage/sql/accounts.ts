import { asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import { accounts, apiKeys, creditBalances } from '../schema.ts';

export type Mode = 'live' | 'test';
export type AccountRow = typeof accounts.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function insertAccount(
  tx: Tx,
  row: { id: string; name: string | null },
): Promise<AccountRow> {
  const [created] = await tx.insert(accounts).values(row).returning();
  return created!;
}

export async function findAccount(tx: Tx, id: string): Promise<AccountRow | undefined> {
  const [row] = await tx.select().from(accounts).where(eq(accounts.id, id));
  return row;
}

export async function countAccounts(tx: Tx): Promise<number> {
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(accounts);
  return row?.n ?? 0;
}

export async function insertApiKey(
  tx: Tx,
  row: {
    id: string;
    accountId: string;
    mode: Mode;
    keyHash: string;
    prefix: string;
    name: string | null;
  },
): Promise<ApiKeyRow> {
  const [created] = await tx.insert(apiKeys).values(row).returning();
  return created!;
}

/** The key with this hash and its account, revoked or not. */
export async function findApiKeyByHash(tx: Tx, keyHash: string): Promise<ApiKeyRow | undefined> {
  const [row] = await tx.select().from(apiKeys).where(eq(apiKeys.keyHash, keyHash));
  return row;
}

export async function listApiKeys(tx: Tx, accountId: string): Promise<ApiKeyRow[]> {
  return tx
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.accountId, accountId))
    .orderBy(asc(apiKeys.createdAt));
}

/** Sets `revoked_at` once; revoking again keeps the first time. */
export async function revokeApiKey(tx: Tx, id: string, at: Date): Promise<ApiKeyRow | undefined> {
  const [row] = await tx
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${at.toISOString()}::timestamptz)` })
    .where(eq(apiKeys.id, id))
    .returning();
  return row;
}

export async function listBalances(
  tx: Tx,
  accountId: string,
): Promise<{ mode: Mode; balance: number }[]> {
  return tx
    .select({ mode: creditBalances.mode, balance: creditBalances.balance })
    .from(creditBalances)
    .where(eq(creditBalances.accountId, accountId));
}
