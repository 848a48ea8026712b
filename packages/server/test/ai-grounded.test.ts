import { EXPRESS_POSTGRES, naiveDigest } from '@pgs/contract/testing/repositories';
import { describe, expect, it } from 'vitest';
import { CODEBASE_OVERVIEW_KIND, documentPlan } from '../src/runs/catalogue.ts';
import {
  GROUNDED_DEFINITION_RULES,
  GROUNDED_GUIDANCE,
  GROUNDED_SYSTEM,
  NEW_DIGEST_RULE,
  REPOSITORY_INTRO,
} from '../src/runs/prompts/grounded.ts';
import {
  competent,
  expectNoSecrets,
  generate,
  isDefinition,
  kindOf,
  respondWith,
  setupFor,
  waitFor,
} from './helpers/ai-harness.ts';
import type { FakeAiCall } from './helpers/fake-ai.ts';
import { bearer } from './helpers/harness.ts';

/**
 * Issue 20 through a real provider package (Anthropic's Messages protocol, with its cache
 * marks) against the wire-protocol fake: a grounded project's prompts open with its codebase
 * digest, in the prefix every prompt of the project shares, carry the grounded guidance and
 * none of the repository's secrets; an ungrounded project's prompts carry none of it; a digest
 * over the budget is cut at whole files, the ones left out named in provenance.
 */

const IDEA =
  'A web app for small veterinary clinics to book appointments online, keep medical records for each pet, and send vaccine reminders by SMS.';
const CHANGE = 'Add SMS reminders two days before each appointment; drop the medical records';
const BLOCK = `<pgs-repository name="${EXPRESS_POSTGRES.name}">`;
const context = () => ({ repository: naiveDigest(EXPRESS_POSTGRES) });

/** The text blocks of an Anthropic request's first user message, with their cache marks. */
function userBlocks(call: FakeAiCall): { text: string; cached: boolean }[] {
  const first = call.body.messages[0];
  const content = typeof first.content === 'string' ? [{ text: first.content }] : first.content;
  return content.map((block: { text: string; cache_control?: unknown }) => ({
    text: block.text,
    cached: block.cache_control !== undefined,
  }));
}

/** The system prompt an Anthropic request carries, as one text. */
function systemOf(call: FakeAiCall): string {
  const { system } = call.body;
  if (typeof system === 'string') return system;
  return (system as { text: string }[]).map((block) => block.text).join('\n\n');
}

/** No planted secret of the test repository in any request the provider received. */
function expectNoRepositorySecrets(calls: readonly FakeAiCall[]) {
  expect(EXPRESS_POSTGRES.secrets.length).toBeGreaterThan(0);
  for (const call of calls) {
    const wire = JSON.stringify(call.body);
    for (const secret of EXPRESS_POSTGRES.secrets) expect(wire).not.toContain(secret);
  }
}

describe('a grounded project with a model', () => {
  const s = setupFor([{ provider: 'anthropic', model: 'claude-fake-1' }]);
  const api = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    s.h.request({
      method,
      url: `/api/v1${url}`,
      headers: {
        ...bearer(s.key.key),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  it('opens every prompt with the digest in the shared, cached prefix and writes the codebase overview', async () => {
    respondWith(s, competent);
    const { data, provenance, body } = await generate(s, {
      idea: IDEA,
      type: 'web',
      context: context(),
    });
    expect(data.status, JSON.stringify(data.error)).toBe('completed');
    const plan = documentPlan('web', { grounded: true });
    const calls = s.fake.calls;
    expect(calls).toHaveLength(1 + plan.length);

    // The definition: the digest before the idea, and the fields defined as a change to it.
    const definition = calls.find(isDefinition)!;
    expect(userBlocks(definition)[0]!.text.startsWith(`${REPOSITORY_INTRO}\n\n${BLOCK}`)).toBe(
      true,
    );
    expect(definition.prompt).toContain(GROUNDED_DEFINITION_RULES);

    // Every document: the same first block, the digest first in it, marked for the cache.
    const documents = calls.filter((call) => !isDefinition(call));
    expect(documents.map(kindOf).sort()).toEqual(plan.map((d) => d.kind).sort());
    const shared = userBlocks(documents[0]!)[0]!;
    expect(shared.text.startsWith(`${REPOSITORY_INTRO}\n\n${BLOCK}`)).toBe(true);
    expect(shared.text).toContain('<file path="package.json">');
    expect(shared.text.indexOf('</pgs-repository>')).toBeLessThan(
      shared.text.indexOf('<pgs-context>'),
    );
    expect(shared.cached).toBe(true);
    for (const call of documents) {
      expect(userBlocks(call)[0], kindOf(call)).toEqual(shared);
      expect(systemOf(call)).toContain(GROUNDED_SYSTEM);
    }
    // The grounded guidance of the kinds that have it, each in its own prompt.
    for (const [kind, guidance] of Object.entries(GROUNDED_GUIDANCE)) {
      const call = documents.find((c) => kindOf(c) === kind)!;
      for (const rule of guidance.rules) expect(call.prompt, kind).toContain(rule);
    }
    const architecture = documents.find((c) => kindOf(c) === 'architecture')!;
    expect(architecture.prompt).toContain('1. "## Current system": The system as the digest shows');

    // The codebase overview, written with its own prompt, read by the architecture and the plan.
    const documentsOut = data.project.documents as { type: string; content: string }[];
    const overview = documentsOut.find((d) => d.type === CODEBASE_OVERVIEW_KIND)!;
    expect(overview.content).toMatch(/^# Codebase Overview: /);
    for (const kind of ['architecture', 'implementation-plan']) {
      const call = documents.find((c) => kindOf(c) === kind)!;
      expect(call.prompt, kind).toContain('filename="CODEBASE_OVERVIEW.md"');
    }
    const parts = new Map(
      provenance.documents.map((p: { kind: string; promptVersion: string }) => [p.kind, p]),
    );
    expect(parts.get(CODEBASE_OVERVIEW_KIND)).toMatchObject({
      promptVersion: expect.stringMatching(/^codebase-overview@1\+grounded@\d+\+system@\d+$/),
      trimmedContext: [],
    });
    for (const part of provenance.documents)
      expect(part.promptVersion).toMatch(/^[a-z-]+@\d+\+grounded@\d+\+system@\d+$/);
    expect(provenance.definition.promptVersion).toMatch(/^definition@\d+\+grounded@\d+$/);

    expectNoRepositorySecrets(calls);
    expectNoSecrets(s, body, JSON.stringify(provenance));
  });

  it('a revision with a new digest opens its rewrites with it and rewrites what describes the code', async () => {
    respondWith(s, competent);
    const { id } = await generate(s, { idea: IDEA, type: 'web', context: context() });
    respondWith(s, competent);
    const res = await api('POST', `/projects/${id}/revisions`, {
      changeRequest: CHANGE,
      context: context(),
    });
    expect(res.statusCode, res.body).toBe(202);
    const done = await waitFor(async () => {
      const data = (await api('GET', `/projects/${id}/revisions/2`)).json().data;
      return data.status === 'in_progress' ? undefined : data;
    }, `revision 2 of ${id}`);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');

    const [impact, ...rewrites] = s.fake.calls;
    expect(isDefinition(impact!)).toBe(true);
    for (const kind of [CODEBASE_OVERVIEW_KIND, 'architecture', 'implementation-plan'])
      expect(rewrites.map(kindOf)).toContain(kind);
    const shared = userBlocks(rewrites[0]!)[0]!;
    expect(shared.text.startsWith(`${REPOSITORY_INTRO}\n\n${BLOCK}`)).toBe(true);
    expect(shared.cached).toBe(true);
    for (const call of rewrites) {
      expect(userBlocks(call)[0], kindOf(call)).toEqual(shared);
      expect(call.prompt, kindOf(call)).toContain(NEW_DIGEST_RULE);
      expect(systemOf(call)).toContain(GROUNDED_SYSTEM);
    }
    expectNoRepositorySecrets(s.fake.calls);
  });
});

describe('an ungrounded project with a model', () => {
  const s = setupFor([{ provider: 'anthropic', model: 'claude-fake-1' }]);

  it('sees nothing of the grounded prompts', async () => {
    respondWith(s, competent);
    const { data, provenance } = await generate(s, { idea: IDEA, type: 'web' });
    expect(data.status).toBe('completed');
    expect(s.fake.calls).toHaveLength(1 + documentPlan('web').length);
    for (const call of s.fake.calls) {
      expect(call.prompt).not.toContain('<pgs-repository');
      expect(call.prompt).not.toContain(REPOSITORY_INTRO);
      expect(call.prompt).not.toContain(GROUNDED_SYSTEM);
      expect(call.prompt).not.toContain(GROUNDED_DEFINITION_RULES);
      for (const guidance of Object.values(GROUNDED_GUIDANCE))
        for (const rule of guidance.rules) expect(call.prompt).not.toContain(rule);
    }
    expect(s.fake.calls.map(kindOf)).not.toContain(CODEBASE_OVERVIEW_KIND);
    for (const part of provenance.documents)
      expect(part.promptVersion).toMatch(/^[a-z-]+@\d+\+system@\d+$/);
    expect(provenance.definition.promptVersion).toMatch(/^definition@\d+$/);
  });
});

describe('a digest over the prompt budget', () => {
  const s = setupFor([{ provider: 'anthropic', model: 'claude-fake-1' }], {
    harness: { workflow: { repositoryTokenBudget: 600 } },
  });

  it('keeps whole files from the start and names those left out in every part', async () => {
    respondWith(s, competent);
    const digest = naiveDigest(EXPRESS_POSTGRES);
    const { data, provenance } = await generate(s, {
      idea: IDEA,
      type: 'web',
      context: { repository: digest },
    });
    expect(data.status, JSON.stringify(data.error)).toBe('completed');
    const paths = digest.files.map((file) => file.path);
    const first = userBlocks(s.fake.calls.find((call) => !isDefinition(call))!)[0]!.text;
    const kept = paths.filter((path) => first.includes(`<file path="${path}">`));
    // Some files fit, some do not; those that fit are the first ones, in the digest's order.
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(paths.length);
    expect(kept).toEqual(paths.slice(0, kept.length));
    const dropped = paths.slice(kept.length).map((path) => `repository:${path}`);
    for (const part of [provenance.definition, ...provenance.documents]) {
      expect(part.trimmedContext.filter((t: string) => t.startsWith('repository:'))).toEqual(
        dropped,
      );
    }
    // A kept file is whole: its text up to the end, then the element closes.
    const manifest = digest.files[0]!;
    expect(first).toContain(
      `<file path="${manifest.path}">\n${manifest.content.trimEnd()}\n</file>`,
    );
    for (const call of s.fake.calls) {
      for (const path of paths.slice(kept.length))
        expect(call.prompt).not.toContain(`<file path="${path}">`);
    }
  });
});
