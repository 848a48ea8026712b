import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { AccountNotFoundError } from '../../accounts/service.ts';
import { InsufficientCreditsError } from '../../credits/ledger.ts';
import { type DomainCode, DomainError, ERROR_CATALOGUE } from '../../errors.ts';
import { UnknownCursorError } from '../../projects/listing.ts';
import { catalogued, protocolFailure } from '../mcp/errors.ts';
import { DOMAIN_STATUS, toApiError } from './errors.ts';

/**
 * The status docs/errors documents for each domain code, written out: a code added to
 * DomainCode fails to compile here until its status is stated, and a status changed in the
 * catalogue or the mapping fails the test.
 */
const DOCUMENTED = {
  VALIDATION_ERROR: 400,
  RESOURCE_NOT_FOUND: 404,
  INSUFFICIENT_CREDITS: 402,
  PROJECT_NOT_COMPLETED: 409,
  PROJECT_NOT_IN_PROGRESS: 409,
  REVISION_IN_PROGRESS: 409,
  TASK_TRANSITION_NOT_ALLOWED: 409,
  LEASE_NOT_HELD: 409,
  PRECONDITION_FAILED: 412,
  PRECONDITION_REQUIRED: 428,
  TRACKER_REJECTED: 422,
  TRACKER_UNAVAILABLE: 502,
  ENCRYPTION_NOT_CONFIGURED: 503,
} as const satisfies Record<DomainCode, number>;

const CODES = Object.keys(DOCUMENTED) as DomainCode[];
const silent = pino({ level: 'silent' });

describe('domain errors, mapped once', () => {
  it('maps every domain code, and no other', () => {
    expect(Object.keys(DOMAIN_STATUS).sort()).toEqual([...CODES].sort());
  });

  it.each(CODES)(
    '%s: HTTP answers the documented status with its code, message and details',
    (code) => {
      const error = new DomainError(code, 'Said by the rule.', { resource_id: 'x' });
      const answered = toApiError(error, 1024);
      expect(answered.status).toBe(DOCUMENTED[code]);
      expect(answered.status).toBe(ERROR_CATALOGUE[code].status);
      expect(answered).toMatchObject({
        code,
        message: 'Said by the rule.',
        details: { resource_id: 'x' },
      });
    },
  );

  it.each(CODES)('%s: MCP answers the same code, message and details as HTTP', (code) => {
    const error = new DomainError(code, 'Said by the rule.', { resource_id: 'x' });
    const http = toApiError(error, 1024);
    const tool = catalogued(error, silent);
    expect({ code: tool.code, message: tool.message, details: tool.details }).toEqual({
      code: http.code,
      message: http.message,
      details: http.details,
    });
    const protocol = protocolFailure(error, silent, 'req_1');
    expect(protocol).toBeInstanceOf(McpError);
    expect(protocol.data).toEqual({ code, details: { resource_id: 'x' }, request_id: 'req_1' });
  });

  it('a refusal of the input size is VALIDATION_ERROR answered 413', () => {
    const error = new DomainError('VALIDATION_ERROR', 'Too big.', undefined, { tooLarge: true });
    const answered = toApiError(error, 1024);
    expect(answered.status).toBe(413);
    expect(answered.code).toBe('VALIDATION_ERROR');
    expect(answered.details).toBeUndefined();
  });

  it('the domain errors carry their own code and details', () => {
    expect(toApiError(new InsufficientCreditsError(12, 5, 'revision'), 0)).toMatchObject({
      status: 402,
      code: 'INSUFFICIENT_CREDITS',
      message: 'This revision costs 12 credits; 5 are available.',
      details: { required: 12, available: 5 },
    });
    expect(toApiError(new AccountNotFoundError('acc_1'), 0)).toMatchObject({
      status: 404,
      code: 'RESOURCE_NOT_FOUND',
      details: { resource_type: 'account', resource_id: 'acc_1' },
    });
    expect(toApiError(new UnknownCursorError(), 0)).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { invalid_fields: { starting_after: expect.any(String) } },
    });
  });
});
