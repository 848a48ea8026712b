/**
 * The shape of the knowledge table (known-tables.ts) and the two helpers its ecosystems'
 * tables are written with.
 */

export type Ecosystem = 'npm' | 'pypi' | 'go' | 'cargo' | 'maven' | 'gem' | 'composer';

export type Kind =
  | 'framework'
  | 'store'
  | 'cache'
  | 'orm'
  | 'migrations'
  | 'service'
  | 'testing'
  | 'build'
  | 'runtime'
  | 'library';

/** What a package is, named as a reader would write it. */
export interface Known {
  name: string;
  kind: Kind;
  /** For a service or a library: what it is used for, e.g. `payments`, `SMS`. */
  purpose?: string;
}

export type Table = Record<string, Known[]>;

/** `{ express: 'Express' }` → entries of one kind; `'Stripe|payments'` carries a purpose. */
export function of(kind: Kind, names: Record<string, string>): Table {
  const out: Table = {};
  for (const [key, value] of Object.entries(names)) {
    const [name, purpose] = value.split('|') as [string, string | undefined];
    out[key] = [purpose ? { name, kind, purpose } : { name, kind }];
  }
  return out;
}

/** Tables merged, so that one package can be two things (django: a framework and an ORM). */
export function merge(...tables: Table[]): Table {
  const out: Table = {};
  for (const table of tables)
    for (const [key, known] of Object.entries(table)) out[key] = [...(out[key] ?? []), ...known];
  return out;
}
