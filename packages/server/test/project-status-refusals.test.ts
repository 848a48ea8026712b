import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { header } from './helpers/creation.ts';
import { backends, DOCS_URL, type Harness, startHarness } from './helpers/harness.ts';

/**
 * getProjectStatus refusing a read (seed §4.1, issue 2 items 3 and 4): an id nobody may
 * see is 404 whoever owns it, in whichever mode; a malformed id is 400. The answers in
 * each state are in project-status.test.ts.
 */

const REQUEST_ID = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;
const STATES = ['in_progress', 'completed', 'failed'] as const;

describe.each(await backends())('GET /api/v1/projects/{projectId} refused on %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(backend);
  });
  afterAll(async () => h?.close());

  const get = (key: CreatedKey, id: string, headers?: Record<string, string>) =>
    h.getProject(key, id, headers);

  describe('not found', () => {
    it('an unknown id → 404 RESOURCE_NOT_FOUND naming the project and the requested id', async () => {
      const key = await h.createKey('test');
      const id = randomUUID();
      const res = await get(key, id);
      expect(res.statusCode).toBe(404);
      const body = res.json();
      expect(body.success).toBe(false);
      expect(body.error.code).toBe('RESOURCE_NOT_FOUND');
      expect(body.error.details).toEqual({ resource_type: 'project', resource_id: id });
      expect(body.error.request_id).toMatch(REQUEST_ID);
      expect(body.error.request_id).toBe(header(res, 'X-Request-ID'));
      expect(body.error.documentation).toBe(`${DOCS_URL}/errors#RESOURCE_NOT_FOUND`);
    });

    // Each state is read once by the owner before (cold) and once after (cached) the other reader.
    it.each(STATES)(
      '%s: another account cannot see it, 404 and never 403, cached or not',
      async (status) => {
        const owner = await h.createKey('test');
        const stranger = await h.createKey('test');
        const id = await h.seedProject(owner, { status });

        const cold = await get(stranger, id);
        expect(cold.statusCode).toBe(404);
        expect(cold.json().error.details).toEqual({ resource_type: 'project', resource_id: id });

        expect((await get(owner, id)).statusCode).toBe(200);
        const warm = await get(stranger, id);
        expect(warm.statusCode).toBe(404);
        expect(warm.json().error.code).toBe('RESOURCE_NOT_FOUND');
        expect(warm.json().error.details).toEqual({ resource_type: 'project', resource_id: id });
      },
    );

    it.each(STATES)(
      '%s: the same account sees it only in its own mode (live key, test project and back)',
      async (status) => {
        const testKey = await h.createKey('test');
        const liveKey = await h.createKey('live', { accountId: testKey.accountId });
        const testProject = await h.seedProject(testKey, { status });
        const liveProject = await h.seedProject(liveKey, { status });

        expect((await get(liveKey, testProject)).statusCode).toBe(404);
        expect((await get(testKey, liveProject)).statusCode).toBe(404);
        expect((await get(testKey, testProject)).statusCode).toBe(200);
        expect((await get(liveKey, liveProject)).statusCode).toBe(200);
        const warm = await get(liveKey, testProject);
        expect(warm.statusCode).toBe(404);
        expect(warm.json().error.details).toEqual({
          resource_type: 'project',
          resource_id: testProject,
        });
        expect((await get(testKey, liveProject)).statusCode).toBe(404);
      },
    );
  });

  describe('malformed projectId', () => {
    it.each([
      'not-a-uuid',
      '123',
      '7d0f2c8e4a9b4e439a550d2b8f1c6e21',
      '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e210',
      '{7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21}',
    ])('%s → 400 VALIDATION_ERROR with invalid_fields.projectId', async (projectId) => {
      const key = await h.createKey('test');
      const res = await get(key, projectId);
      expect(res.statusCode).toBe(400);
      const { error } = res.json();
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.details.invalid_fields).toHaveProperty('projectId');
      expect(typeof error.details.invalid_fields.projectId).toBe('string');
      expect(error.request_id).toBe(header(res, 'X-Request-ID'));
    });

    it('a URN (urn:uuid:<id>) is refused as malformed → 400, not a 500', async () => {
      const key = await h.createKey('test');
      const id = await h.seedProject(key, { status: 'completed' });
      const res = await get(key, `urn:uuid:${id}`);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.invalid_fields).toHaveProperty('projectId');
    });
  });
});
