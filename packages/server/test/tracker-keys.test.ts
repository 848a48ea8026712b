/**
 * Where the sealing key comes from and how a rotation re-seals (docs/security.md, "Tracker
 * credentials"): a key generated into the data directory on the embedded default, none on
 * PostgreSQL without PGS_ENCRYPTION_KEY, keys read from the configuration and never quoted
 * in its errors, and every connection sealed again with the current key after a rotation.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import type { Database } from '../src/storage/db.ts';
import { accounts, trackerConnections } from '../src/storage/schema.ts';
import { sealContext } from '../src/trackers/connections.ts';
import { KEY_FILE, resealAll, sealerOf } from '../src/trackers/keys.ts';
import { keyIdOf, open, seal, sealedKeyId } from '../src/trackers/sealed.ts';
import { memoryDatabase } from './helpers/database.ts';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'pgs-keys-'));
});
afterAll(async () => rm(dataDir, { recursive: true, force: true }));

const config = (overrides: Partial<Parameters<typeof sealerOf>[0]> = {}) => ({
  encryptionKey: undefined,
  encryptionKeysPrevious: [],
  databaseUrl: undefined,
  dataDir,
  ...overrides,
});

describe('the sealing key', () => {
  it('is generated into the data directory (0600) on first use, and the same on the next start', async () => {
    const first = await sealerOf(config()).ring();
    const file = path.join(dataDir, KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64')).toEqual(first.current);
    const again = await sealerOf(config()).ring();
    expect(again.current).toEqual(first.current);
  });

  it('is absent on PostgreSQL without PGS_ENCRYPTION_KEY: ENCRYPTION_NOT_CONFIGURED', async () => {
    const sealer = sealerOf(config({ databaseUrl: 'postgres://db/pgs', dataDir: '/nonexistent' }));
    await expect(sealer.seal('x', 'c')).rejects.toMatchObject({
      code: 'ENCRYPTION_NOT_CONFIGURED',
    });
  });

  it('comes from PGS_ENCRYPTION_KEY and PGS_ENCRYPTION_KEYS_PREVIOUS, never quoted when wrong', () => {
    const key = randomBytes(32).toString('base64');
    const old = randomBytes(32).toString('base64');
    const read = loadConfig({ PGS_ENCRYPTION_KEY: key, PGS_ENCRYPTION_KEYS_PREVIOUS: ` ${old} ,` });
    expect(read.encryptionKey?.toString('base64')).toBe(key);
    expect(read.encryptionKeysPrevious.map((k) => k.toString('base64'))).toEqual([old]);
    expect(read.connectionsAllowPrivate).toBe(false);
    expect(read.trackerReconcileSeconds).toBe(300);
    const short = randomBytes(16).toString('base64');
    expect(() => loadConfig({ PGS_ENCRYPTION_KEY: short })).toThrow(ConfigError);
    expect(() => loadConfig({ PGS_ENCRYPTION_KEY: short })).not.toThrow(short);
    expect(() => loadConfig({ PGS_ENCRYPTION_KEYS_PREVIOUS: `${key},nope` })).toThrow(
      /PGS_ENCRYPTION_KEYS_PREVIOUS is invalid/,
    );
    expect(() => loadConfig({ PGS_TRACKER_RECONCILE_SECONDS: '1' })).toThrow(ConfigError);
  });
});

describe('a rotation', () => {
  let database: Database;
  beforeAll(async () => {
    database = await memoryDatabase();
  });
  afterAll(async () => database?.close());

  it('re-seals every connection with the current key; a row no key opens is counted, left alone', async () => {
    const old = randomBytes(32);
    const lost = randomBytes(32);
    const current = randomBytes(32);
    await database.db.insert(accounts).values({ id: 'acct_keys' });
    const insert = async (id: string, key: Buffer) =>
      database.db.insert(trackerConnections).values({
        id,
        accountId: 'acct_keys',
        mode: 'test',
        provider: 'github',
        name: id,
        target: { owner: 'acme', repo: 'booking' },
        credentials: seal(
          { current: key, previous: [] },
          '{"token":"t"}',
          sealContext.credentials(id),
        ),
        webhookSecret: seal({ current: key, previous: [] }, 'whs', sealContext.webhookSecret(id)),
      });
    await insert('tc_old', old);
    await insert('tc_lost', lost);
    await insert('tc_current', current);
    const ring = { current, previous: [old] };
    expect(await resealAll(database.db, ring)).toEqual({ resealed: 1, unopenable: 1 });
    const [row] = await database.db
      .select()
      .from(trackerConnections)
      .where(eq(trackerConnections.id, 'tc_old'));
    expect(sealedKeyId(row!.credentials)).toBe(keyIdOf(current));
    expect(
      open({ current, previous: [] }, row!.credentials, sealContext.credentials('tc_old')),
    ).toBe('{"token":"t"}');
    expect(await resealAll(database.db, ring)).toEqual({ resealed: 0, unopenable: 1 });
  });
});
