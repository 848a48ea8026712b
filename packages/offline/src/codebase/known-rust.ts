import { merge, of, type Table } from './known-table.ts';

/**
 * The knowledge table of Cargo (Cargo.toml): the Rust crates that say something about a
 * system's shape.
 */
export const CARGO: Table = merge(
  of('framework', {
    'actix-web': 'Actix Web',
    axum: 'axum',
    rocket: 'Rocket',
    warp: 'warp',
    tonic: 'gRPC',
  }),
  of('runtime', { tokio: 'Tokio' }),
  of('orm', { diesel: 'Diesel', 'sea-orm': 'SeaORM', sqlx: 'SQLx' }),
  of('store', {
    'tokio-postgres': 'PostgreSQL',
    postgres: 'PostgreSQL',
    mysql: 'MySQL',
    mysql_async: 'MySQL',
    rusqlite: 'SQLite',
    mongodb: 'MongoDB',
  }),
  of('cache', { redis: 'Redis' }),
  of('service', {
    'async-stripe': 'Stripe|payments',
    'aws-sdk-*': 'AWS|cloud services',
    sentry: 'Sentry|error reporting',
  }),
  of('library', { serde: 'serde|serialisation', reqwest: 'reqwest|HTTP client' }),
);
