/**
 * Where the sealing key comes from (docs/security.md, "Tracker credentials"): the
 * configuration's `PGS_ENCRYPTION_KEY`; on the embedded database without one, a key
 * generated into the data directory (mode 0600) the first time a connection needs it, so
 * `npm install && npm start` works; on PostgreSQL without one, nothing, and connections are
 * refused with 503 ENCRYPTION_NOT_CONFIGURED (processes sharing a database must share a key,
 * which a generated file cannot promise).
 */
import path from 'node:path';
import type { Config } from '../config.ts';
import { ensureSecretFile } from '../storage/data-dir.ts';
import type { Db } from '../storage/db.ts';
import { listSealedConnections, resealConnection } from '../storage/sql/trackers.ts';
import { sealContext } from './connections.ts';
import {
  decodeKey,
  type KeyRing,
  keyIdOf,
  newEncryptionKey,
  open,
  Sealer,
  seal,
  sealedKeyId,
} from './sealed.ts';

/** The file the embedded default keeps its generated key in, inside the data directory. */
export const KEY_FILE = 'encryption-key';

/**
 * The process's sealer, loading its key on first use.
 *
 * @example
 * const sealer = sealerOf(loadConfig());
 */
export function sealerOf(
  config: Pick<Config, 'encryptionKey' | 'encryptionKeysPrevious' | 'databaseUrl' | 'dataDir'>,
): Sealer {
  return new Sealer(async () => {
    const previous = config.encryptionKeysPrevious;
    if (config.encryptionKey !== undefined) return { current: config.encryptionKey, previous };
    if (config.databaseUrl !== undefined) return undefined;
    const text = await ensureSecretFile(path.join(config.dataDir, KEY_FILE), newEncryptionKey);
    const current = decodeKey(text);
    if (current === undefined) {
      throw new Error(`${KEY_FILE} in the data directory does not hold a 32-byte base64 key`);
    }
    return { current, previous };
  });
}

/**
 * Re-seals with the current key every connection sealed with another (after a rotation:
 * the new key in `PGS_ENCRYPTION_KEY`, the old in `PGS_ENCRYPTION_KEYS_PREVIOUS`). A row
 * another process re-sealed meanwhile is left as it is; one no configured key opens is
 * counted, not changed.
 *
 * @example
 * const { resealed, unopenable } = await resealAll(db, ring);
 */
export async function resealAll(
  db: Db,
  ring: KeyRing,
): Promise<{ resealed: number; unopenable: number }> {
  const current = keyIdOf(ring.current);
  let resealed = 0;
  let unopenable = 0;
  for (const row of await listSealedConnections(db)) {
    if (sealedKeyId(row.credentials) === current && sealedKeyId(row.webhookSecret) === current)
      continue;
    try {
      const again = (text: string, context: string) =>
        seal(ring, open(ring, text, context), context);
      const now = {
        credentials: again(row.credentials, sealContext.credentials(row.id)),
        webhookSecret: again(row.webhookSecret, sealContext.webhookSecret(row.id)),
      };
      if (await resealConnection(db, row.id, row, now)) resealed++;
    } catch {
      unopenable++;
    }
  }
  return { resealed, unopenable };
}
