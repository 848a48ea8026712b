import type { ProjectCompleted } from '@pgs/contract';
import type { LightMyRequestResponse } from 'fastify';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { demoteHeadings } from '../src/export/archive.ts';
import { documentPlan } from '../src/runs/catalogue.ts';
import { competent, isDefinition, kindOf, setupFor } from './helpers/ai-harness.ts';
import { backends, bearer, type Harness, roomy, startHarness } from './helpers/harness.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Issue 8 item 6 and docs/api.md "Documents and archive": GET …/documents/{filename} and
 * GET …/archive on projects run to their end by the real queue and the offline engine.
 */

const NAME = 'Compost Circle Planner';
const SLUG = 'compost-circle-planner';
const IDEA =
  'A web dashboard where community gardeners share compost schedules, seed swaps and watering rotas for their allotments.';
const WEB_FILES = documentPlan('web').map((kind) => kind.filename);

/** The value of a response header sent once. */
function header(res: LightMyRequestResponse, name: string): string {
  const value = res.headers[name.toLowerCase()];
  expect(value, `header ${name}`).toBeDefined();
  expect(Array.isArray(value), `header ${name} sent once`).toBe(false);
  return String(value);
}

function unzip(res: LightMyRequestResponse): Record<string, string> {
  const files = unzipSync(new Uint8Array(res.rawPayload));
  return Object.fromEntries(Object.entries(files).map(([path, bytes]) => [path, strFromU8(bytes)]));
}

describe.each(await backends())('documents and archive on %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(backend, {
      generation: 'workers',
      rules: roomy('status', 'create'),
    });
  });
  afterAll(async () => h?.close());

  const documentUrl = (id: string, filename: string) =>
    `/api/v1/projects/${id}/documents/${filename}`;
  /** The reads these tests make, on the harness `harness()` returns once it exists. */
  const readsOn = (harness: () => Harness) => ({
    getDocument: (key: CreatedKey, id: string, filename: string, headers = {}) =>
      harness().request({
        method: 'GET',
        url: documentUrl(id, filename),
        headers: { ...bearer(key.key), ...headers },
      }),
    getArchive: (key: CreatedKey, id: string, query = '') =>
      harness().request({
        method: 'GET',
        url: `/api/v1/projects/${id}/archive${query}`,
        headers: bearer(key.key),
      }),
    /** Polls the status until the project leaves in_progress; returns the final `data`. */
    settle: (key: CreatedKey, id: string) =>
      waitFor(
        async () => {
          const data = (await harness().getProject(key, id)).json().data;
          return data.status === 'in_progress' ? undefined : data;
        },
        { what: `project ${id} to finish` },
      ),
  });
  const { getDocument, getArchive, settle } = readsOn(() => h);

  describe('a completed web project', () => {
    let key: CreatedKey;
    let id: string;
    let data: ProjectCompleted;
    const doc = (kind: string) => data.project.documents.find((d) => d.type === kind)!;

    beforeAll(async () => {
      key = await h.createKey('test', { credits: 500 });
      const res = await h.createProject(key, { idea: IDEA, type: 'web', name: NAME });
      expect(res.statusCode).toBe(202);
      id = res.json().data.projectId;
      data = await settle(key, id);
      expect(data.status).toBe('completed');
      expect(data.project.documents.map((d) => d.filename).sort()).toEqual([...WEB_FILES].sort());
    });

    it('serves each document as its markdown, byte for byte the content in the status response', async () => {
      for (const { filename, content } of data.project.documents) {
        const res = await getDocument(key, id, filename);
        expect(res.statusCode, filename).toBe(200);
        expect(header(res, 'content-type')).toBe('text/markdown; charset=utf-8');
        expect(res.body).toBe(content);
        expect(res.rawPayload.equals(Buffer.from(content, 'utf8'))).toBe(true);
        expect(header(res, 'cache-control')).toBe('private, no-cache');
        expect(header(res, 'etag')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      }
    });

    it('counts against the downloads limit: 60 per minute per key', async () => {
      const res = await getDocument(key, id, 'README.md');
      expect(header(res, 'x-ratelimit-limit')).toBe('60');
    });

    it('a strong ETag: If-None-Match answers 304 with no body; another document has another', async () => {
      const first = await getDocument(key, id, 'ARCHITECTURE.md');
      const etag = header(first, 'etag');
      expect(header(await getDocument(key, id, 'ARCHITECTURE.md'), 'etag')).toBe(etag);
      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const res = await getDocument(key, id, 'ARCHITECTURE.md', { 'if-none-match': ifNoneMatch });
        expect(res.statusCode, ifNoneMatch).toBe(304);
        expect(res.body).toBe('');
        expect(header(res, 'etag')).toBe(etag);
      }
      const other = await getDocument(key, id, 'README.md', { 'if-none-match': etag });
      expect(other.statusCode).toBe(200);
      expect(header(other, 'etag')).not.toBe(etag);
    });

    it('an unknown filename is 404 document; filenames match exactly', async () => {
      for (const filename of ['NOTES.md', 'readme.md', 'README', 'README.md.bak']) {
        const res = await getDocument(key, id, filename);
        expect(res.statusCode, filename).toBe(404);
        const { error } = res.json();
        expect(error.code).toBe('RESOURCE_NOT_FOUND');
        expect(error.details).toEqual({ resource_type: 'document', resource_id: filename });
      }
    });

    it("traversal-like or malformed filenames are 400 (or another route's error), never a file", async () => {
      for (const filename of [
        '.env',
        '..%2F..%2Fetc%2Fpasswd',
        '%2e%2e%2fpackage.json',
        'README.md%00.txt',
        'a%5Cb.md',
        'docs%2FREADME.md',
        `${'A'.repeat(98)}.md`,
      ]) {
        const res = await getDocument(key, id, filename);
        expect(res.statusCode, filename).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_ERROR');
        expect(res.json().error.details.invalid_fields).toHaveProperty('filename');
      }
      // Dot segments in the path itself are resolved before routing: another route answers.
      for (const path of ['..', '%2e%2e', '../../../package.json', '..%2F../package.json']) {
        const res = await h.request({
          method: 'GET',
          url: `/api/v1/projects/${id}/documents/${path}`,
          headers: bearer(key.key),
        });
        expect([400, 404, 405], path).toContain(res.statusCode);
        expect(res.json().success).toBe(false);
      }
    });

    it("another account's key and the same account's live key get the project 404, on both routes", async () => {
      const stranger = await h.createKey('test');
      const live = await h.createKey('live', { accountId: key.accountId });
      for (const other of [stranger, live]) {
        for (const res of [
          await getDocument(other, id, 'README.md'),
          await getArchive(other, id),
        ]) {
          expect(res.statusCode).toBe(404);
          expect(res.json().error.details).toEqual({ resource_type: 'project', resource_id: id });
        }
      }
      const malformed = await getDocument(key, 'not-a-uuid', 'README.md');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().error.details.invalid_fields).toHaveProperty('projectId');
    });

    /** The paths each layout documents (docs/api.md) for a web project. */
    const LAYOUTS = {
      plain: [
        ...WEB_FILES.map((f) => `${SLUG}/${f}`),
        `${SLUG}/project.json`,
        `${SLUG}/trace.json`,
        `${SLUG}/tasks.json`,
        `${SLUG}/CHANGELOG.md`,
      ],
      kiro: [
        '.kiro/steering/product.md',
        `.kiro/specs/${SLUG}/requirements.md`,
        `.kiro/specs/${SLUG}/design.md`,
        `.kiro/specs/${SLUG}/tasks.md`,
        // The plan ships beside the checkbox list made from its tasks.
        `.kiro/specs/${SLUG}/IMPLEMENTATION_PLAN.md`,
        'README.md',
        `.kiro/specs/${SLUG}/project.json`,
        `.kiro/specs/${SLUG}/trace.json`,
        `.kiro/specs/${SLUG}/tasks.json`,
        `.kiro/specs/${SLUG}/CHANGELOG.md`,
      ],
      'spec-kit': [
        `specs/001-${SLUG}/spec.md`,
        `specs/001-${SLUG}/plan.md`,
        `specs/001-${SLUG}/data-model.md`,
        `specs/001-${SLUG}/contracts/api-design.md`,
        `specs/001-${SLUG}/tasks.md`,
        `specs/001-${SLUG}/IMPLEMENTATION_PLAN.md`,
        'README.md',
        `specs/001-${SLUG}/project.json`,
        `specs/001-${SLUG}/trace.json`,
        `specs/001-${SLUG}/tasks.json`,
        `specs/001-${SLUG}/CHANGELOG.md`,
      ],
      agents: [
        'AGENTS.md',
        ...WEB_FILES.map((f) => `docs/${f}`),
        'docs/project.json',
        'docs/trace.json',
        'docs/tasks.json',
        'docs/CHANGELOG.md',
      ],
    } as const;

    /** A file made of documents: its title, then each document one heading level down. */
    const combined = (title: string, kinds: readonly string[]) =>
      [`# ${title}: ${NAME}\n`, ...kinds.map((kind) => demoteHeadings(doc(kind).content))].join(
        '\n',
      );

    it.each(Object.keys(LAYOUTS) as (keyof typeof LAYOUTS)[])(
      'layout %s: a streamed zip of exactly the documented files',
      async (layout) => {
        const res = await getArchive(key, id, layout === 'plain' ? '' : `?layout=${layout}`);
        expect(res.statusCode).toBe(200);
        expect(header(res, 'content-type')).toBe('application/zip');
        expect(header(res, 'content-disposition')).toBe(`attachment; filename="${SLUG}.zip"`);
        expect(header(res, 'cache-control')).toBe('private, no-cache');
        // Streamed: no length announced up front.
        expect(res.headers['content-length']).toBeUndefined();
        expect(header(res, 'transfer-encoding')).toBe('chunked');
        const files = unzip(res);
        expect(Object.keys(files).sort()).toEqual([...LAYOUTS[layout]].sort());

        const json = Object.entries(files).find(([path]) => path.endsWith('project.json'))!;
        const { documents: _, ...project } = data.project;
        expect(JSON.parse(json[1])).toEqual({
          projectId: id,
          ...project,
          metadata: data.metadata,
        });
        // The trace graph beside it: what GET …/trace answers.
        const trace = Object.entries(files).find(([path]) => path.endsWith('trace.json'))!;
        const served = await h.request({
          method: 'GET',
          url: `/api/v1/projects/${id}/trace`,
          headers: bearer(key.key),
        });
        expect(JSON.parse(trace[1])).toEqual(served.json().data);

        const at = (kind: string) => doc(kind).content;
        const spec = `specs/001-${SLUG}`;
        const expected: Record<string, string> =
          layout === 'plain'
            ? Object.fromEntries(
                data.project.documents.map((d) => [`${SLUG}/${d.filename}`, d.content]),
              )
            : layout === 'agents'
              ? Object.fromEntries(
                  data.project.documents.map((d) => [`docs/${d.filename}`, d.content]),
                )
              : layout === 'kiro'
                ? {
                    '.kiro/steering/product.md': at('project-brief'),
                    [`.kiro/specs/${SLUG}/requirements.md`]: combined('Requirements Document', [
                      'product-requirements',
                      'user-stories',
                    ]),
                    [`.kiro/specs/${SLUG}/design.md`]: combined('Design Document', [
                      'architecture',
                      'data-model',
                      'api-design',
                    ]),
                    [`.kiro/specs/${SLUG}/IMPLEMENTATION_PLAN.md`]: at('implementation-plan'),
                    'README.md': at('readme'),
                  }
                : {
                    [`${spec}/spec.md`]: combined('Feature Specification', [
                      'project-brief',
                      'product-requirements',
                      'user-stories',
                    ]),
                    [`${spec}/plan.md`]: combined('Implementation Plan', ['architecture']),
                    [`${spec}/data-model.md`]: at('data-model'),
                    [`${spec}/contracts/api-design.md`]: at('api-design'),
                    [`${spec}/IMPLEMENTATION_PLAN.md`]: at('implementation-plan'),
                    'README.md': at('readme'),
                  };
        for (const [path, content] of Object.entries(expected)) {
          expect(files[path], path).toBe(content);
        }
        if (layout === 'agents') {
          const agents = files['AGENTS.md']!;
          expect(agents).toMatch(new RegExp(`^# AGENTS\\.md: ${NAME}\\n`));
          expect(agents).toContain('## Where to start');
          for (const filename of WEB_FILES) expect(agents).toContain(`| \`docs/${filename}\` |`);
        }
      },
    );

    it('the same project and layout zip to the same bytes', async () => {
      const first = await getArchive(key, id, '?layout=kiro');
      const second = await getArchive(key, id, '?layout=kiro');
      expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    });

    it('an unknown layout is 400 VALIDATION_ERROR on layout', async () => {
      for (const query of [
        '?layout=zip',
        '?layout=KIRO',
        '?layout=',
        '?layout=kiro&layout=plain',
      ]) {
        const res = await getArchive(key, id, query);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_ERROR');
        expect(res.json().error.details.invalid_fields).toHaveProperty('layout');
      }
    });
  });

  it('a failed project: no archive and no documents, 409 PROJECT_NOT_COMPLETED without Retry-After', async () => {
    const key = await h.createKey('test');
    const id = await h.seedProject(key, { status: 'failed' });
    for (const res of [await getArchive(key, id), await getDocument(key, id, 'PROJECT_BRIEF.md')]) {
      expect(res.statusCode).toBe(409);
      const { error } = res.json();
      expect(error.code).toBe('PROJECT_NOT_COMPLETED');
      expect(error.details).toEqual({
        resource_type: 'project',
        resource_id: id,
        status: 'failed',
      });
      expect(res.headers['retry-after']).toBeUndefined();
    }
  });

  describe('while in progress', () => {
    // A live project against the fake provider, which holds every document after the brief
    // until the test releases it: the project stays in progress for as long as the test
    // looks, however slow the machine.
    const s = setupFor([{ provider: 'openai', model: 'gpt-fake-1' }], { backend });
    const live = readsOn(() => s.h);

    it('409 for the archive; stored documents served with no-cache, then private and revalidated (a revision may change them) once completed', async () => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      s.fake.respond(async (call) => {
        if (!isDefinition(call) && kindOf(call) !== 'project-brief') await released;
        return competent(call);
      });
      try {
        const created = await s.h.createProject(s.key, {
          idea: 'A web app where a book club votes on the next novel and schedules meetups.',
          type: 'web',
        });
        expect(created.statusCode).toBe(202);
        const id = created.json().data.projectId as string;

        const refused = await live.getArchive(s.key, id, '?layout=agents');
        expect(refused.statusCode).toBe(409);
        expect(refused.json().error.code).toBe('PROJECT_NOT_COMPLETED');
        expect(refused.json().error.details).toEqual({
          resource_type: 'project',
          resource_id: id,
          status: 'in_progress',
        });
        const retryAfter = Number(header(refused, 'retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(10);
        expect(retryAfter).toBeLessThanOrEqual(30);

        // The brief is stored first; the documents after it wait for the release.
        const brief = await waitFor(
          async () => {
            const res = await live.getDocument(s.key, id, 'PROJECT_BRIEF.md');
            if (res.statusCode === 404) {
              expect(res.json().error.details.resource_type).toBe('document');
              return undefined;
            }
            return res;
          },
          { intervalMs: 20, what: 'the brief to be stored' },
        );
        expect(brief.statusCode).toBe(200);
        expect(header(brief, 'cache-control')).toBe('no-cache');
        expect((await s.h.getProject(s.key, id)).json().data.status).toBe('in_progress');
        const readme = await live.getDocument(s.key, id, 'README.md');
        expect(readme.statusCode).toBe(404);
        expect(readme.json().error.details).toEqual({
          resource_type: 'document',
          resource_id: 'README.md',
        });

        release();
        const data = await live.settle(s.key, id);
        expect(data.status).toBe('completed');
        const later = await live.getDocument(s.key, id, 'PROJECT_BRIEF.md');
        expect(later.body).toBe(brief.body);
        expect(header(later, 'etag')).toBe(header(brief, 'etag'));
        expect(header(later, 'cache-control')).toBe('private, no-cache');
        const etag = header(brief, 'etag');
        expect(
          (await live.getDocument(s.key, id, 'PROJECT_BRIEF.md', { 'if-none-match': etag }))
            .statusCode,
        ).toBe(304);
        expect((await live.getArchive(s.key, id, '?layout=agents')).statusCode).toBe(200);
      } finally {
        release();
      }
    });
  });
});
