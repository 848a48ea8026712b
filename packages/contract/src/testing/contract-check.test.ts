import { describe, expect, it } from 'vitest';
import { openapiDocument } from '../generated/openapi.ts';
import { assertMatchesContract, type ContractResponse } from './contract-check.ts';

const PROJECT_ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';
const PROJECT_URL = `/api/v1/projects/${PROJECT_ID}`;
const REQUEST_ID = 'req_01JD6WQ8V4Z9K3M2N5P7R8S0TA';
const examples = openapiDocument.components.examples;

function projectHeaders(): ContractResponse['headers'] {
  return {
    'content-type': 'application/json; charset=utf-8',
    'api-version': 'v1.0',
    'api-supported-versions': 'v1.0',
    'api-latest-version': 'v1.0',
    'x-request-id': REQUEST_ID,
    'x-ratelimit-limit': '100',
    'x-ratelimit-remaining': 99,
    'x-ratelimit-reset': '1795000000',
    etag: '"p-1"',
    'cache-control': 'private, no-cache',
  };
}

function ok(body: unknown, extra: ContractResponse['headers'] = {}): ContractResponse {
  return {
    statusCode: 200,
    headers: { ...projectHeaders(), ...extra },
    body: JSON.stringify(body),
  };
}

function errorResponse(
  statusCode: number,
  code: string,
  requestId = REQUEST_ID,
  extra: ContractResponse['headers'] = {},
): ContractResponse {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', 'x-request-id': REQUEST_ID, ...extra },
    body: JSON.stringify({
      success: false,
      error: { code, message: 'Something went wrong.', request_id: requestId },
    }),
  };
}

describe('assertMatchesContract', () => {
  it('accepts a 200 in each of the three states (the contract examples)', () => {
    const inProgress = ok(examples.InProgress.value, { 'retry-after': '15' });
    expect(assertMatchesContract('GET', PROJECT_URL, inProgress)).toBe('getProjectStatus');
    expect(assertMatchesContract('get', PROJECT_URL, ok(examples.Completed.value))).toBe(
      'getProjectStatus',
    );
    expect(assertMatchesContract('GET', PROJECT_URL, ok(examples.Failed.value))).toBe(
      'getProjectStatus',
    );
  });

  it('matches the production base path, absolute URLs and ignores the query string', () => {
    const res = ok(examples.InProgress.value);
    expect(assertMatchesContract('GET', `/v1/projects/${PROJECT_ID}?x=1`, res)).toBe(
      'getProjectStatus',
    );
    expect(assertMatchesContract('GET', `http://127.0.0.1:3000${PROJECT_URL}`, res)).toBe(
      'getProjectStatus',
    );
  });

  it('rejects an in_progress project that carries a project', () => {
    const body = {
      success: true,
      data: { ...examples.InProgress.value.data, project: examples.Completed.value.data.project },
    };
    expect(() => assertMatchesContract('GET', PROJECT_URL, ok(body))).toThrow(
      /must NOT have additional properties \(project\) at \/data/,
    );
  });

  it('rejects a 200 without X-RateLimit-Remaining', () => {
    const res = ok(examples.Completed.value);
    delete res.headers['x-ratelimit-remaining'];
    expect(() => assertMatchesContract('GET', PROJECT_URL, res)).toThrow(
      'header X-RateLimit-Remaining is required but missing',
    );
  });

  it('validates header values, reading integers from text', () => {
    const res = ok(examples.InProgress.value, { 'x-ratelimit-remaining': '-1' });
    expect(() => assertMatchesContract('GET', PROJECT_URL, res)).toThrow(
      /header X-RateLimit-Remaining: "-1" must be >= 0/,
    );
    const poll = ok(examples.InProgress.value, { 'retry-after': '5' });
    expect(() => assertMatchesContract('GET', PROJECT_URL, poll)).toThrow(/header Retry-After/);
  });

  it('requires an empty body when no content is declared (304)', () => {
    const notModified = { statusCode: 304, headers: projectHeaders(), body: '' };
    expect(assertMatchesContract('GET', PROJECT_URL, notModified)).toBe('getProjectStatus');
    expect(() => assertMatchesContract('GET', PROJECT_URL, { ...notModified, body: '{}' })).toThrow(
      /declares no body for status 304/,
    );
  });

  it('accepts a declared error response', () => {
    const res = errorResponse(401, 'AUTHENTICATION_FAILED', REQUEST_ID, {
      'www-authenticate': 'Bearer',
    });
    expect(assertMatchesContract('GET', PROJECT_URL, res)).toBe('getProjectStatus');
  });

  it('rejects an error envelope whose request_id differs from X-Request-ID', () => {
    const res = errorResponse(404, 'RESOURCE_NOT_FOUND', 'req_01JD6WQ8V4Z9K3M2N5P7R8S0TB');
    expect(() => assertMatchesContract('GET', PROJECT_URL, res)).toThrow(
      /error.request_id "req_01JD6WQ8V4Z9K3M2N5P7R8S0TB" differs from X-Request-ID/,
    );
  });

  it('accepts an error envelope for an unknown path as unmatched', () => {
    const res = errorResponse(404, 'RESOURCE_NOT_FOUND');
    expect(assertMatchesContract('GET', '/api/v1/nowhere', res)).toBe('unmatched');
    expect(assertMatchesContract('PUT', PROJECT_URL, res)).toBe('unmatched');
  });

  it('rejects anything but the error envelope for an unknown path', () => {
    const res = { ...errorResponse(404, 'NO_SUCH_CODE') };
    expect(() => assertMatchesContract('GET', '/api/v1/nowhere', res)).toThrow(
      /no operation matches/,
    );
    const success = ok(examples.Completed.value);
    expect(() => assertMatchesContract('GET', '/api/v1/nowhere', success)).toThrow(
      /expected an error/,
    );
  });

  it('rejects a status the operation does not declare', () => {
    const res = errorResponse(418, 'INTERNAL_ERROR');
    expect(() => assertMatchesContract('GET', PROJECT_URL, res)).toThrow(
      'status 418 not declared for getProjectStatus',
    );
  });

  it('checks the admin API under its own server', () => {
    const res: ContractResponse = {
      statusCode: 200,
      headers: { 'content-type': 'application/json', 'x-request-id': REQUEST_ID },
      body: JSON.stringify({
        success: true,
        data: {
          keyId: 'key_01JD6WQ8V4Z9K3M2N5P7R8S0TA',
          accountId: 'acct_01JD6WQ8V4Z9K3M2N5P7R8S0TA',
          mode: 'test',
          prefix: 'pgs_test_abcd',
          name: null,
          createdAt: '2026-11-22T10:00:00.000Z',
          revokedAt: '2026-11-22T11:00:00.000Z',
        },
      }),
    };
    const url = '/admin/v1/keys/key_01JD6WQ8V4Z9K3M2N5P7R8S0TA';
    expect(assertMatchesContract('DELETE', url, res)).toBe('adminRevokeKey');
    // The admin paths are not served under the public base path.
    expect(() => assertMatchesContract('DELETE', '/api/v1/keys/key_1', res)).toThrow(
      /no operation/,
    );
  });

  it('accepts a revision in each of its three states (the contract examples)', () => {
    const url = `/api/v1/projects/${PROJECT_ID}/revisions/2`;
    const immutable = { 'cache-control': 'private, max-age=86400, immutable' };
    const running = ok(examples.RevisionInProgress.value, {
      'cache-control': 'no-cache',
      'retry-after': '15',
    });
    expect(assertMatchesContract('GET', url, running)).toBe('getRevision');
    for (const example of [examples.RevisionCompleted, examples.RevisionFailed]) {
      expect(assertMatchesContract('GET', url, ok(example.value, immutable))).toBe('getRevision');
    }
    expect(
      assertMatchesContract('POST', `${url}/cancel`, ok(examples.RevisionCancelled.value)),
    ).toBe('cancelRevision');
    const list = ok(examples.RevisionList.value);
    expect(assertMatchesContract('GET', `${PROJECT_URL}/revisions`, list)).toBe('listRevisions');
  });

  it('rejects a completed revision without its project', () => {
    const url = `/api/v1/projects/${PROJECT_ID}/revisions/2`;
    const { project: _, ...data } = examples.RevisionCompleted.value.data;
    const res = ok({ success: true, data }, { 'cache-control': 'private, no-cache' });
    expect(() => assertMatchesContract('GET', url, res)).toThrow(/project/);
  });

  it('checks a diff by the media type it is sent as', () => {
    const url = `/api/v1/projects/${PROJECT_ID}/revisions/2/diff`;
    const headers = { 'cache-control': 'private, max-age=86400, immutable' };
    const diff: ContractResponse = {
      statusCode: 200,
      headers: { ...projectHeaders(), ...headers, 'content-type': 'text/x-diff; charset=utf-8' },
      body: examples.RevisionDiff.value.data.files[0]!.patch,
    };
    expect(assertMatchesContract('GET', url, diff)).toBe('getRevisionDiff');
    const json = ok(examples.RevisionDiff.value, headers);
    expect(assertMatchesContract('GET', `${url}?format=json`, json)).toBe('getRevisionDiff');
    const wrong = ok({ success: true, data: { files: [] } }, headers);
    expect(() => assertMatchesContract('GET', `${url}?format=json`, wrong)).toThrow(
      /must have required property/,
    );
    const markdown = ok(examples.RevisionDiff.value, { ...headers, 'content-type': 'text/plain' });
    expect(() => assertMatchesContract('GET', url, markdown)).toThrow(/content-type/);
  });

  it('rejects a JSON body sent without the JSON content type', () => {
    const res = ok(examples.Completed.value, { 'content-type': 'text/plain' });
    expect(() => assertMatchesContract('GET', PROJECT_URL, res)).toThrow(/content-type/);
  });
});
