import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../../src/accounts/service.ts';
import { backends, bearer, harnessFor, roomy } from '../helpers/harness.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * Issue 18 item 9, OWASP API1 for revisions: authorization.test.ts has one case per route
 * pattern on a project that has only revision 1, so the `?revision=n` reads (not routes of
 * their own) and a revision that exists only for its owner are not covered there. Here a
 * project of each mode is really revised (revision 2 completed, revision 3 running) and
 * every revision route and pinned read is tried by the same account's key of the other
 * mode and by another account's key: each answers exactly what a project that does not
 * exist answers (404 RESOURCE_NOT_FOUND about the project: not 403, not 409, nothing about
 * the revision), and nothing they send changes the revision.
 */

const IDEA =
  'A web app for small veterinary clinics to book appointments online, keep medical records for each pet, and send vaccine reminders by SMS.';
const CHANGE = 'Add SMS reminders two days before each appointment; drop the medical records';
const SLOW_CHANGE = 'Add a waiting list for fully booked days';

describe.each(await backends())('revisions across accounts and modes on %s', (backend) => {
  const harness = harnessFor(backend, {
    generation: 'workers',
    rules: roomy('status', 'create', 'downloads', 'list', 'manage'),
  });
  const request = (
    key: CreatedKey,
    method: 'GET' | 'POST',
    url: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ) =>
    harness().request({
      method,
      url: `/api/v1${url}`,
      headers: {
        ...bearer(key.key),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
    });

  /** A project of `key` with revision 2 completed and revision 3 running (scripted, slow). */
  const revisedProject = async (key: CreatedKey) => {
    const created = await harness().createProject(key, { idea: IDEA, type: 'web' });
    expect(created.statusCode, created.body).toBe(202);
    const id: string = created.json().data.projectId;
    const ended = (url: string) =>
      waitFor(
        async () => {
          const data = (await request(key, 'GET', url)).json().data;
          return data.status === 'in_progress' ? undefined : data.status;
        },
        { timeoutMs: 30_000, what: `${url} to end` },
      );
    expect(await ended(`/projects/${id}`)).toBe('completed');
    const second = await request(key, 'POST', `/projects/${id}/revisions`, {
      body: { changeRequest: CHANGE },
    });
    expect(second.statusCode, second.body).toBe(202);
    expect(await ended(`/projects/${id}/revisions/2`)).toBe('completed');
    const third = await request(key, 'POST', `/projects/${id}/revisions`, {
      body: { changeRequest: SLOW_CHANGE, simulate: { outcome: 'completed', durationMs: 120_000 } },
    });
    expect(third.statusCode, third.body).toBe(202);
    expect(third.json().data.revision).toBe(3);
    return id;
  };

  let owner: CreatedKey;
  let sameAccountOtherMode: CreatedKey;
  let otherAccount: CreatedKey;
  /** The owner's (test-mode) project and the same account's live-mode project. */
  let testProject: string;
  let liveProject: string;

  beforeAll(async () => {
    const h = harness();
    owner = await h.createKey('test', { credits: 500 });
    sameAccountOtherMode = await h.createKey('live', {
      credits: 500,
      accountId: owner.accountId,
    });
    otherAccount = await h.createKey('test', { credits: 500 });
    // The live project is revised once, without `simulate` (refused for live keys).
    [testProject, liveProject] = await Promise.all([
      revisedProject(owner),
      (async () => {
        const created = await h.createProject(sameAccountOtherMode, { idea: IDEA, type: 'web' });
        expect(created.statusCode, created.body).toBe(202);
        const id: string = created.json().data.projectId;
        await waitFor(
          async () =>
            (await h.getProject(sameAccountOtherMode, id)).json().data.status === 'completed'
              ? true
              : undefined,
          { timeoutMs: 30_000, what: 'the live project to complete' },
        );
        const revised = await request(sameAccountOtherMode, 'POST', `/projects/${id}/revisions`, {
          body: { changeRequest: CHANGE },
        });
        expect(revised.statusCode, revised.body).toBe(202);
        await waitFor(
          async () =>
            (await request(sameAccountOtherMode, 'GET', `/projects/${id}/revisions/2`)).json().data
              .status === 'completed'
              ? true
              : undefined,
          { timeoutMs: 30_000, what: 'revision 2 of the live project' },
        );
        return id;
      })(),
    ]);
  }, 120_000);

  /** Every read of one revision: the revision routes and the `?revision=n` reads. */
  const readsOf = (id: string, n: number) => [
    `/projects/${id}/revisions`,
    `/projects/${id}/revisions/${n}`,
    `/projects/${id}/revisions/${n}/diff`,
    `/projects/${id}/revisions/${n}/diff?format=json`,
    `/projects/${id}/documents/PRODUCT_REQUIREMENTS.md?revision=${n}`,
    `/projects/${id}/documents/PROJECT_BRIEF.md?revision=${n}`,
    `/projects/${id}/provenance?revision=${n}`,
    `/projects/${id}/trace?revision=${n}`,
    `/projects/${id}/archive?revision=${n}`,
    `/projects/${id}/archive?revision=${n}&layout=openspec`,
  ];

  /** The envelope without what differs per request, for comparing two answers. */
  const shape = (res: LightMyRequestResponse, id: string) => {
    const body = res.json();
    expect(body.error.request_id).toBe(res.headers['x-request-id']);
    return JSON.parse(
      JSON.stringify({ ...body, error: { ...body.error, request_id: '<id>' } }).replaceAll(
        id,
        '<project>',
      ),
    );
  };

  /**
   * `url` as the two strangers see it: 404 in the envelope, word for word what the same
   * read of a project that does not exist answers; HEAD the bare 404.
   */
  const hidden = async (url: string, id: string) => {
    const missing = randomUUID();
    for (const stranger of [sameAccountOtherMode, otherAccount]) {
      const who = `${stranger.mode} key of ${stranger === otherAccount ? 'another account' : 'the other mode'}`;
      const res = await request(stranger, 'GET', url);
      expect(res.statusCode, `${who}: GET ${url}: ${res.body}`).toBe(404);
      expect(res.json()).toMatchObject({
        success: false,
        error: {
          code: 'RESOURCE_NOT_FOUND',
          details: { resource_type: 'project', resource_id: id },
        },
      });
      const nobody = await request(stranger, 'GET', url.replace(id, missing));
      expect(shape(res, id), `${who}: GET ${url}`).toEqual(shape(nobody, missing));
      // HEAD has no body to check against the contract: the bare status.
      const head = await harness().app.inject({
        method: 'HEAD',
        url: `/api/v1${url}`,
        headers: bearer(stranger.key),
      });
      expect(head.statusCode, `${who}: HEAD ${url}`).toBe(404);
    }
  };

  it('every revision read of a completed revision: the owner 200, strangers the 404 of a missing project', async () => {
    for (const n of [1, 2]) {
      for (const url of readsOf(testProject, n)) {
        const res = await request(owner, 'GET', url);
        expect(res.statusCode, `owner: GET ${url}: ${res.body}`).toBe(200);
        await hidden(url, testProject);
      }
    }
  });

  it('the other direction: the live project of the same account is hidden from its test key', async () => {
    for (const url of readsOf(liveProject, 2)) {
      const res = await request(sameAccountOtherMode, 'GET', url);
      expect(res.statusCode, `owner (live): GET ${url}: ${res.body}`).toBe(200);
      for (const stranger of [owner, otherAccount]) {
        const other = await request(stranger, 'GET', url);
        expect(other.statusCode, `${stranger.mode}: GET ${url}`).toBe(404);
        expect(other.json().error).toMatchObject({
          code: 'RESOURCE_NOT_FOUND',
          details: { resource_type: 'project', resource_id: liveProject },
        });
      }
    }
  });

  it("a running revision's state does not leak: strangers get 404 where the owner gets 409, and long-polls are not held", async () => {
    const running = await request(owner, 'GET', `/projects/${testProject}/revisions/3`);
    expect(running.json().data.status).toBe('in_progress');
    for (const url of [
      `/projects/${testProject}/documents/README.md?revision=3`,
      `/projects/${testProject}/trace?revision=3`,
      `/projects/${testProject}/provenance?revision=3`,
      `/projects/${testProject}/archive?revision=3`,
    ]) {
      const res = await request(owner, 'GET', url);
      expect(res.statusCode, `owner: GET ${url}`).toBe(409);
      await hidden(url, testProject);
    }
    // A revision the project does not have: the owner learns that; strangers do not.
    const absent = `/projects/${testProject}/revisions/9`;
    const res = await request(owner, 'GET', absent);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.details.resource_type).toBe('revision');
    await hidden(absent, testProject);
    // A stranger's long-poll on the running revision is answered at once, not parked.
    for (const stranger of [sameAccountOtherMode, otherAccount]) {
      const polled = await request(stranger, 'GET', `/projects/${testProject}/revisions/3`, {
        headers: { prefer: 'wait=30' },
      });
      expect(polled.statusCode).toBe(404);
      expect(polled.headers['preference-applied']).toBeUndefined();
    }
  });

  it("strangers can neither start, replay, nor cancel the owner's revisions; nothing changes", async () => {
    const list = async () =>
      (await request(owner, 'GET', `/projects/${testProject}/revisions`)).json().data;
    const before = await list();
    const credits = await Promise.all(
      [owner, sameAccountOtherMode, otherAccount].map((key) => harness().credits(key)),
    );
    const idempotencyKey = `revise-${randomUUID()}`;
    // The owner's own POST under an Idempotency-Key (refused: revision 3 runs), then the
    // strangers under the same key: they get their own answer, never the owner's replayed.
    const own = await request(owner, 'POST', `/projects/${testProject}/revisions`, {
      body: { changeRequest: CHANGE },
      headers: { 'idempotency-key': idempotencyKey },
    });
    expect(own.statusCode).toBe(409);
    expect(own.json().error.code).toBe('REVISION_IN_PROGRESS');
    for (const stranger of [sameAccountOtherMode, otherAccount]) {
      for (const headers of [{}, { 'idempotency-key': idempotencyKey }]) {
        const started = await request(stranger, 'POST', `/projects/${testProject}/revisions`, {
          body: { changeRequest: CHANGE },
          headers,
        });
        expect(started.statusCode, started.body).toBe(404);
        expect(started.json().error).toMatchObject({
          code: 'RESOURCE_NOT_FOUND',
          details: { resource_type: 'project', resource_id: testProject },
        });
      }
      // The cancel route names the revision in its 404 (for a project of nobody too): the
      // same answer as for a project that does not exist, so nothing is learnt.
      const url = `/projects/${testProject}/revisions/3/cancel`;
      const cancel = await request(stranger, 'POST', url);
      expect(cancel.statusCode, cancel.body).toBe(404);
      expect(cancel.json().error.code).toBe('RESOURCE_NOT_FOUND');
      const missing = randomUUID();
      const nobody = await request(stranger, 'POST', url.replace(testProject, missing));
      expect(shape(cancel, testProject)).toEqual(shape(nobody, missing));
    }
    // Still running, the history unchanged, no credit moved.
    expect(await list()).toEqual(before);
    expect(before[0]).toMatchObject({ revision: 3, status: 'in_progress' });
    expect(
      await Promise.all(
        [owner, sameAccountOtherMode, otherAccount].map((key) => harness().credits(key)),
      ),
    ).toEqual(credits);
    // The owner's cancel works: the revision was really there.
    const cancelled = await request(owner, 'POST', `/projects/${testProject}/revisions/3/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data).toMatchObject({ revision: 3, status: 'failed' });
  });
});
