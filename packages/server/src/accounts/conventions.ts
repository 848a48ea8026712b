import { type Conventions, canonicalLanguage } from '@pgs/contract';
import { DomainError } from '../errors.ts';
import type { Db } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import {
  type ConventionsRow,
  findConventions,
  insertConventions,
} from '../storage/sql/conventions.ts';

/** A version of house conventions as the API shows it: its members, its number and date. */
export type ConventionsView = Conventions & { version: number; createdAt: string };

const view = (row: ConventionsRow): ConventionsView => ({
  version: row.version,
  ...(row.body as Conventions),
  createdAt: row.createdAt.toISOString(),
});

/**
 * House conventions per account and mode (docs/conventions.md): each `put` writes a new
 * version; a project records the version it was created under, so every version stays.
 *
 * @example
 * const written = await conventions.put(principal, { stack: { required: ['PostgreSQL'] } });
 * (await conventions.get(principal)).version === written.version; // true
 */
export class HouseConventions {
  readonly #db: Db;
  readonly #now: () => number;

  constructor(db: Db, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
  }

  /**
   * The current version, or `version`; throws DomainError RESOURCE_NOT_FOUND when there is
   * none (none set yet, or no such version of this account and mode).
   */
  async get(owner: { accountId: string; mode: Mode }, version?: number): Promise<ConventionsView> {
    const row = await findConventions(this.#db, owner.accountId, owner.mode, version);
    if (row === undefined) {
      throw new DomainError(
        'RESOURCE_NOT_FOUND',
        version === undefined
          ? 'No house conventions are set for this account in this mode.'
          : `Version ${version} of the house conventions does not exist.`,
        {
          resource_type: 'conventions',
          resource_id: version === undefined ? 'current' : `${version}`,
        },
      );
    }
    return view(row);
  }

  /**
   * Writes the next version, exactly as given but for `language`, stored in its canonical
   * BCP 47 form; throws DomainError VALIDATION_ERROR for a tag that is none.
   */
  async put(owner: { accountId: string; mode: Mode }, body: Conventions): Promise<ConventionsView> {
    const stored = normalised(body);
    const row = await this.#db.transaction(async (tx) => {
      // The same conventions again (a retried PUT) are the current version, not a new one.
      const current = await findConventions(tx, owner.accountId, owner.mode);
      if (current !== undefined && canonicalJson(current.body) === canonicalJson(stored))
        return current;
      return insertConventions(tx, { ...owner, body: stored, createdAt: new Date(this.#now()) });
    });
    return view(row);
  }
}

/** The body as stored: the language canonical, lists without blanks or repeats. */
function normalised(body: Conventions): Conventions {
  const out: Conventions = { ...body };
  if (body.language !== undefined) {
    const language = canonicalLanguage(body.language);
    if (language === undefined) {
      throw new DomainError('VALIDATION_ERROR', 'language must be a BCP 47 language tag.', {
        invalid_fields: { language: 'must be a BCP 47 language tag (de, pt-BR)' },
      });
    }
    out.language = language;
  }
  const list = (items: string[] | undefined) =>
    items === undefined
      ? undefined
      : [...new Set(items.map((item) => item.trim()))].filter(Boolean);
  if (body.stack !== undefined) {
    const required = list(body.stack.required);
    const forbidden = list(body.stack.forbidden);
    out.stack = {
      ...(required === undefined ? {} : { required }),
      ...(forbidden === undefined ? {} : { forbidden }),
    };
    const both = (required ?? []).filter((tech) =>
      (forbidden ?? []).some((banned) => banned.toLowerCase() === tech.toLowerCase()),
    );
    if (both.length > 0) {
      throw new DomainError(
        'VALIDATION_ERROR',
        'A technology cannot be both required and forbidden.',
        {
          invalid_fields: { stack: `both required and forbidden: ${both.join(', ')}` },
        },
      );
    }
  }
  if (body.compliance !== undefined) out.compliance = list(body.compliance)!;
  if (body.naming !== undefined) out.naming = list(body.naming)!;
  return out;
}

/** JSON with object keys sorted, so two equal bodies compare equal whatever their order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}
