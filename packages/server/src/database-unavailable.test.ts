import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-unavailable.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    [
      'an administrator shutdown (57P01)',
      withCode('57P01', 'terminating connection due to administrator command'),
    ],
    [
      'a server starting up or shutting down (57P03)',
      withCode('57P03', 'the database system is starting up'),
    ],
    ['a connection exception (08006)', withCode('08006')],
    ['a connection the driver saw end', new Error('Connection terminated unexpectedly')],
    ['a refused connection on every address', new AggregateError([withCode('ECONNREFUSED')])],
    [
      'one wrapped by the query builder',
      new Error('Failed query: select 1', { cause: withCode('57P01') }),
    ],
  ])('%s: yes', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', withCode('23505')],
    ['a syntax error (42601)', withCode('42601')],
    ['a plain bug', new TypeError('x is undefined')],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s: no', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
