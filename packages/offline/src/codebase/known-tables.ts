/**
 * The knowledge table itself: per ecosystem, the packages that say something about a
 * system's shape (frameworks, stores, ORMs, services, test tools), named as a reader writes
 * them. Read through `knownPackage` (known-packages.ts), which also matches prefixes.
 */

import { GO } from './known-go.ts';
import { MAVEN } from './known-jvm.ts';
import { NPM } from './known-node.ts';
import { COMPOSER } from './known-php.ts';
import { PYPI } from './known-python.ts';
import { GEM } from './known-ruby.ts';
import { CARGO } from './known-rust.ts';
import type { Ecosystem, Table } from './known-table.ts';

export type { Ecosystem, Kind, Known, Table } from './known-table.ts';

/**
 * Every ecosystem's table, keyed by the package's name as the ecosystem compares it.
 *
 * @example
 * TABLES.npm.pg; // [{ name: 'PostgreSQL', kind: 'store' }]
 */
export const TABLES: Record<Ecosystem, Table> = {
  npm: NPM,
  pypi: PYPI,
  go: GO,
  cargo: CARGO,
  maven: MAVEN,
  gem: GEM,
  composer: COMPOSER,
};
