import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { documentPlan } from '../src/runs/catalogue.ts';
import { priceOfKinds } from '../src/runs/pricing.ts';
import { ANALYSIS_FEE, revisableKinds, revisionPrice } from '../src/runs/revision-plan.ts';
import { creation, header } from './helpers/creation.ts';
import { backends, bearer, harnessFor, roomy } from './helpers/harness.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Issue 18: a completed project revised with one sentence, end to end through the real
 * queue, workers and the offline engine: impact, only the touched documents rewritten, IDs
 * kept, the previous revision untouched until the new one completes, credits exact.
 */

const IDEA =
  'A web app for small veterinary clinics to book appointments online, keep medical records for each pet, and send vaccine reminders by SMS.';
const CHANGE = 'Add SMS reminders two days before each appointment; drop the medical records';

/** The `### FR-n …` blocks of a requirements document, by ID. */
function requirementBlocks(markdown: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const part of markdown.split(/\n(?=#{2,3} )/)) {
    const id = /^### (FR-\d+)\b/.exec(part)?.[1];
    if (id) blocks.set(id, part.trim());
  }
  return blocks;
}

describe.each(await backends())('revisions on %s', (backend) => {
  const harness = harnessFor(backend, {
    generation: 'workers',
    rules: roomy('status', 'create', 'downloads', 'list', 'manage'),
  });
  const { create, settle, credits, ledgerOf } = creation(harness);
  const api = (key: CreatedKey, method: 'GET' | 'POST', url: string, body?: unknown) =>
    harness().request({
      method,
      url: `/api/v1${url}`,
      headers: {
        ...bearer(key.key),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const revise = (key: CreatedKey, id: string, body: unknown) =>
    api(key, 'POST', `/projects/${id}/revisions`, body);
  /** Polls a revision until it ends; returns its final `data`. */
  const settleRevision = (key: CreatedKey, id: string, n: number) =>
    waitFor(
      async () => {
        const res = await api(key, 'GET', `/projects/${id}/revisions/${n}`);
        expect(res.statusCode, res.body).toBe(200);
        const data = res.json().data;
        return data.status === 'in_progress' ? undefined : data;
      },
      { timeoutMs: 30_000, what: `revision ${n} of ${id} to end` },
    );
  const completedProject = async (key: CreatedKey) => {
    const id = (await create(key, { idea: IDEA, type: 'web' })).json().data.projectId as string;
    expect((await settle(key, id)).json().data.status).toBe('completed');
    return id;
  };

  it('rewrites only what the change touches, keeps every other ID and charges only that', async () => {
    const key = await harness().createKey('test', { credits: 500 });
    const id = await completedProject(key);
    const before = (await api(key, 'GET', `/projects/${id}`)).json().data.project;
    const requirementsBefore = requirementBlocks(
      before.documents.find((d: { type: string }) => d.type === 'product-requirements').content,
    );
    expect([...requirementsBefore.keys()]).toEqual(['FR-1', 'FR-2', 'FR-3']);
    expect(requirementsBefore.get('FR-2')).toMatch(/medical records/i);
    // The validators of the current reads, before the revision (checked again after it).
    const cached = ['/provenance', '/archive', '/revisions'];
    const etagsBefore = await Promise.all(
      cached.map(async (path) => header(await api(key, 'GET', `/projects/${id}${path}`), 'etag')),
    );
    // Pinned to revision 1 before the change (the current archive also carries the plan's live
    // tasks, which a pinned one, immutable, does not: issue 30).
    const pinnedBefore = await Promise.all(
      cached.map(async (path) =>
        path === '/revisions'
          ? undefined
          : header(await api(key, 'GET', `/projects/${id}${path}?revision=1`), 'etag'),
      ),
    );
    const balance = (await credits(key)).balance;

    const res = await revise(key, id, { changeRequest: CHANGE });
    expect(res.statusCode, res.body).toBe(202);
    const accepted = res.json().data;
    expect(accepted).toMatchObject({ projectId: id, revision: 2, status: 'in_progress' });
    expect(header(res, 'location')).toBe(`/api/v1/projects/${id}/revisions/2`);
    expect((await credits(key)).balance).toBe(balance - revisionPrice('web'));

    const done = await settleRevision(key, id, 2);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect(done.changeRequest).toBe(CHANGE);
    const added = done.deltas.find((d: { op: string }) => d.op === 'added');
    expect(added).toMatchObject({ op: 'added', id: 'FR-4' });
    expect(added.title).toMatch(/SMS reminders/);
    expect(added.title).toMatch(/two days before each appointment/);
    expect(done.deltas).toContainEqual(expect.objectContaining({ op: 'removed', id: 'FR-2' }));
    expect(done.deltas).toHaveLength(2);

    // The status answers the new revision, with its number.
    const status = await api(key, 'GET', `/projects/${id}`);
    expect(header(status, 'pgs-revision')).toBe('2');
    expect(header(status, 'cache-control')).toBe('private, no-cache');
    const after = status.json().data.project;
    expect(after.documents.map((d: { filename: string }) => d.filename)).toEqual(
      before.documents.map((d: { filename: string }) => d.filename),
    );
    // Carried over byte for byte: the brief (it neither defines nor cites a requirement).
    const rewritten = revisableKinds('web');
    expect(done.documentsChanged).toEqual(
      documentPlan('web')
        .filter((d) => rewritten.includes(d.kind))
        .map((d) => d.filename),
    );
    const brief = (doc: { type: string }) => doc.type === 'project-brief';
    expect(after.documents.find(brief)).toEqual(before.documents.find(brief));

    // FR-1 and FR-3 unchanged to the byte; FR-2 gone everywhere; FR-4 new.
    const requirementsAfter = requirementBlocks(
      after.documents.find((d: { type: string }) => d.type === 'product-requirements').content,
    );
    expect([...requirementsAfter.keys()]).toEqual(['FR-1', 'FR-3', 'FR-4']);
    expect(requirementsAfter.get('FR-1')).toBe(requirementsBefore.get('FR-1'));
    expect(requirementsAfter.get('FR-3')).toBe(requirementsBefore.get('FR-3'));
    for (const doc of after.documents) expect(doc.content).not.toMatch(/\bFR-2\b/);
    const trace = (await api(key, 'GET', `/projects/${id}/trace`)).json().data;
    expect(trace.coverage.totals.frs).toBe(3);
    expect(trace.findings.filter((f: { severity: string }) => f.severity !== 'low')).toEqual([]);

    // Charged the fee and the rewritten documents, the rest released, once.
    const charged = done.metadata.creditsConsumed;
    expect(charged).toBe(ANALYSIS_FEE + priceOfKinds('web', rewritten));
    expect(done.metadata.documentsGenerated).toBe(rewritten.length);
    expect((await credits(key)).balance).toBe(balance - charged);
    const moves = (await ledgerOf(key))
      .filter((m) => m.movementKey.includes(':r2:'))
      .map((m) => [m.kind, m.amount]);
    const unused = revisionPrice('web') - charged;
    expect(moves).toEqual([
      ['reserve', -revisionPrice('web')],
      ['consume', 0],
      ...(unused > 0 ? [['release', unused]] : []),
    ]);

    // Revision 1 stays readable as it was.
    const old = await api(
      key,
      'GET',
      `/projects/${id}/documents/PRODUCT_REQUIREMENTS.md?revision=1`,
    );
    expect(old.body).toBe(
      before.documents.find((d: { type: string }) => d.type === 'product-requirements').content,
    );
    expect(header(old, 'cache-control')).toBe('private, max-age=86400, immutable');
    // Each current read's ETag followed the revision; pinned to revision 1, the old one holds.
    for (const [i, path] of cached.entries()) {
      const conditional = (query: string, etag: string) =>
        harness().request({
          method: 'GET',
          url: `/api/v1/projects/${id}${path}${query}`,
          headers: { ...bearer(key.key), 'if-none-match': etag },
        });
      const changed = await conditional('', etagsBefore[i]!);
      expect(changed.statusCode, path).toBe(200);
      expect(header(changed, 'etag'), path).not.toBe(etagsBefore[i]);
      if (path === '/revisions') continue;
      expect((await conditional('?revision=1', pinnedBefore[i]!)).statusCode, path).toBe(304);
    }
    // Provenance has no live part: the current read before the change was revision 1's.
    expect(pinnedBefore[0]).toBe(etagsBefore[0]);

    // History, newest first.
    const history = (await api(key, 'GET', `/projects/${id}/revisions`)).json().data;
    expect(history.map((r: { revision: number }) => r.revision)).toEqual([2, 1]);
    expect(history[0]).toMatchObject({
      status: 'completed',
      changeRequest: CHANGE,
      deltas: { added: 1, modified: 0, removed: 1, renamed: 0 },
      creditsConsumed: charged,
    });
    expect(history[1]).toMatchObject({ revision: 1, changeRequest: null, status: 'completed' });

    // The diff: FR-2 out, FR-4 in, the brief not listed.
    const diff = await api(key, 'GET', `/projects/${id}/revisions/2/diff`);
    expect(diff.statusCode).toBe(200);
    expect(header(diff, 'content-type')).toMatch(/^text\/x-diff/);
    expect(diff.body).toMatch(/^-### FR-2 /m);
    expect(diff.body).toMatch(/^\+### FR-4 /m);
    expect(diff.body).not.toContain('PROJECT_BRIEF.md');
    const json = (await api(key, 'GET', `/projects/${id}/revisions/2/diff?format=json`)).json();
    expect(json.data.base).toBe(1);
    const requirementsFile = json.data.files.find(
      (f: { filename: string }) => f.filename === 'PRODUCT_REQUIREMENTS.md',
    );
    expect(requirementsFile).toMatchObject({ status: 'modified' });
    expect(requirementsFile.additions).toBeGreaterThan(0);
    expect(requirementsFile.deletions).toBeGreaterThan(0);

    // The archive: CHANGELOG.md, and the revision as an OpenSpec change.
    const archive = await api(key, 'GET', `/projects/${id}/archive?layout=openspec`);
    expect(archive.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(archive.rawPayload));
    const paths = Object.keys(files);
    const changelog = paths.find((p) => p.endsWith('CHANGELOG.md'));
    expect(changelog).toBeDefined();
    expect(strFromU8(files[changelog!]!)).toContain(CHANGE);
    const proposal = paths.find((p) => /^openspec\/changes\/2-[^/]+\/proposal\.md$/.test(p));
    expect(proposal, paths.join('\n')).toBeDefined();
    const delta = paths.find((p) => /^openspec\/changes\/2-[^/]+\/specs\/.+\/spec\.md$/.test(p));
    const spec = strFromU8(files[delta!]!);
    expect(spec).toMatch(/## ADDED Requirements[\s\S]*FR-4/);
    expect(spec).toMatch(/## REMOVED Requirements[\s\S]*FR-2/);
    // An older revision's archive has only its own history.
    const first = unzipSync(
      new Uint8Array((await api(key, 'GET', `/projects/${id}/archive?revision=1`)).rawPayload),
    );
    const firstLog = Object.keys(first).find((p) => p.endsWith('CHANGELOG.md'));
    expect(strFromU8(first[firstLog!]!)).not.toContain(CHANGE);
  });

  it('allows one revision at a time, and a cancel leaves the previous revision current, refunded', async () => {
    const key = await harness().createKey('test', { credits: 500 });
    const id = await completedProject(key);
    const current = await api(key, 'GET', `/projects/${id}`);
    const balance = (await credits(key)).balance;
    // A scripted revision slow enough to be running when the next requests arrive.
    const slow = await revise(key, id, {
      changeRequest: 'Add a waiting list for fully booked days',
      simulate: { outcome: 'completed', durationMs: 60_000 },
    });
    expect(slow.statusCode, slow.body).toBe(202);
    const second = await revise(key, id, { changeRequest: 'Drop the vaccine reminders' });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('REVISION_IN_PROGRESS');
    expect(second.json().error.details.revision).toBe(2);
    // Reading does not change state: the project stays completed, at revision 1.
    const during = await api(key, 'GET', `/projects/${id}`);
    expect(during.json().data.status).toBe('completed');
    expect(header(during, 'pgs-revision')).toBe('1');
    expect(during.body).toBe(current.body);

    const cancelled = await api(key, 'POST', `/projects/${id}/revisions/2/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data).toMatchObject({
      revision: 2,
      status: 'failed',
      error: { code: 'generation_cancelled' },
    });
    expect(cancelled.json().data.error.message).toMatch(/revision 1 stays current/);
    const again = await api(key, 'POST', `/projects/${id}/revisions/2/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('PROJECT_NOT_IN_PROGRESS');
    expect((await credits(key)).balance).toBe(balance);
    const after = await api(key, 'GET', `/projects/${id}`);
    expect(after.body).toBe(current.body);
    expect(header(after, 'pgs-revision')).toBe('1');
    // A cancelled revision has no documents to read.
    const pinned = await api(key, 'GET', `/projects/${id}/trace?revision=2`);
    expect(pinned.statusCode).toBe(409);

    // The next revision takes the next number.
    const next = await revise(key, id, { changeRequest: 'Drop the vaccine reminders' });
    expect(next.json().data.revision).toBe(3);
    expect((await settleRevision(key, id, 3)).status).toBe('completed');
  });

  it('refunds a failed revision whole and leaves the previous revision untouched', async () => {
    const key = await harness().createKey('test', { credits: 500 });
    const id = await completedProject(key);
    const current = await api(key, 'GET', `/projects/${id}`);
    const balance = (await credits(key)).balance;
    const res = await revise(key, id, {
      changeRequest: CHANGE,
      simulate: { outcome: 'failed', durationMs: 0 },
    });
    expect(res.statusCode).toBe(202);
    const failed = await settleRevision(key, id, 2);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'generation_failed' } });
    expect((await credits(key)).balance).toBe(balance);
    expect((await api(key, 'GET', `/projects/${id}`)).body).toBe(current.body);
    // Nothing of it was kept: its documents are not readable.
    const doc = await api(key, 'GET', `/projects/${id}/documents/README.md?revision=2`);
    expect(doc.statusCode).toBe(409);
  });

  it('fails a change request it cannot apply, and charges nothing', async () => {
    const key = await harness().createKey('test', { credits: 500 });
    const id = await completedProject(key);
    const balance = (await credits(key)).balance;
    await revise(key, id, { changeRequest: 'Remove the spaceship launcher' });
    const failed = await settleRevision(key, id, 2);
    expect(failed.status).toBe('failed');
    expect(failed.error.message).toMatch(/found nothing in the change request/);
    expect((await credits(key)).balance).toBe(balance);
  });

  it('refuses what it cannot revise, in the envelope', async () => {
    const h = harness();
    const key = await h.createKey('test', { credits: 500 });
    const running = await h.seedProject(key, { status: 'in_progress' });
    const failed = await h.seedProject(key, { status: 'failed' });
    for (const [pid, status] of [
      [running, 'in_progress'],
      [failed, 'failed'],
    ] as const) {
      const res = await revise(key, pid, { changeRequest: CHANGE });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({
        code: 'PROJECT_NOT_COMPLETED',
        details: { status },
      });
    }
    const done = await h.seedProject(key, { status: 'completed' });
    for (const body of [
      {},
      { changeRequest: '' },
      { changeRequest: '   ' },
      { changeRequest: 'x'.repeat(4001) },
      { changeRequest: CHANGE, extra: true },
    ]) {
      const res = await revise(key, done, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
      expect(res.json().error.request_id).toBeTruthy();
    }
    // A range diff starts below the revision it shows.
    for (const from of [1, 2]) {
      const res = await api(key, 'GET', `/projects/${done}/revisions/1/diff?from=${from}`);
      expect(res.statusCode, `from=${from}`).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { invalid_fields: { from: 'must be below 1' } },
      });
    }
    const live = await h.createKey('live', { credits: 500, accountId: key.accountId });
    const liveProject = await h.seedProject(live, { status: 'completed' });
    const simulated = await revise(live, liveProject, {
      changeRequest: CHANGE,
      simulate: { outcome: 'completed' },
    });
    expect(simulated.statusCode).toBe(400);
    // Another account, or the same account's other mode: 404 on every revision route.
    const stranger = await h.createKey('test', { credits: 500 });
    for (const other of [stranger, live]) {
      for (const [method, url] of [
        ['POST', `/projects/${done}/revisions`],
        ['GET', `/projects/${done}/revisions`],
        ['GET', `/projects/${done}/revisions/1`],
        ['POST', `/projects/${done}/revisions/1/cancel`],
        ['GET', `/projects/${done}/revisions/1/diff`],
        ['GET', `/projects/${done}/trace?revision=1`],
      ] as const) {
        const res = await api(
          other,
          method,
          url,
          method === 'POST' ? { changeRequest: CHANGE } : undefined,
        );
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json().error.code).toBe('RESOURCE_NOT_FOUND');
      }
    }
    const missing = await api(key, 'GET', `/projects/${done}/revisions/7`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.details.resource_type).toBe('revision');
    for (const bad of ['0', '-1', '1.5', 'x', '1e3']) {
      const res = await api(key, 'GET', `/projects/${done}/revisions/${bad}`);
      expect(res.statusCode, bad).toBe(400);
    }
  });
});
