import { EXPRESS_POSTGRES, naiveDigest } from '@pgs/contract/testing/repositories';
import { describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { CODEBASE_OVERVIEW_KIND, documentPlan } from '../src/runs/catalogue.ts';
import { priceOf, priceOfKinds } from '../src/runs/pricing.ts';
import { ANALYSIS_FEE, revisableKinds, revisionPrice } from '../src/runs/revision-plan.ts';
import { creation } from './helpers/creation.ts';
import { bearer, harnessFor, roomy } from './helpers/harness.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Issue 20: a project created with a codebase digest, end to end through the real app, the
 * queue, the workers and the offline engine: its plan gains the codebase overview (priced
 * with the rest), its architecture opens with "Current system", and a revision that sends a
 * new digest rewrites what describes the code.
 */

const IDEA =
  'A web app for small veterinary clinics to book appointments online, keep medical records for each pet, and send vaccine reminders by SMS.';
const CHANGE = 'Add SMS reminders two days before each appointment; drop the medical records';
const GROUNDED = { grounded: true };
const digest = () => naiveDigest(EXPRESS_POSTGRES);

type Json = { type: string; filename: string; content: string };

describe('a project grounded in a codebase (offline engine)', () => {
  const harness = harnessFor('pglite', {
    generation: 'workers',
    rules: roomy('status', 'create', 'manage', 'list'),
  });
  const { create, settle, credits } = creation(harness);
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
  const settleRevision = (key: CreatedKey, id: string, n: number) =>
    waitFor(
      async () => {
        const data = (await api(key, 'GET', `/projects/${id}/revisions/${n}`)).json().data;
        return data.status === 'in_progress' ? undefined : data;
      },
      { timeoutMs: 30_000, what: `revision ${n} of ${id} to end` },
    );
  const grounded = async (key: CreatedKey) => {
    const res = await create(key, { idea: IDEA, type: 'web', context: { repository: digest() } });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data.projectId as string;
    const done = (await settle(key, id, 30_000)).json().data;
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    return { id, done };
  };

  it('writes the codebase overview with the rest, the architecture from the current system, and charges its price', async () => {
    const key = await harness().createKey('test', { credits: 500 });
    const before = (await credits(key)).balance;
    const { done } = await grounded(key);

    const plan = documentPlan('web', GROUNDED);
    const documents = done.project.documents as Json[];
    expect(documents.map((d) => d.filename)).toEqual(plan.map((d) => d.filename));
    expect(documents.map((d) => d.filename)).toContain('CODEBASE_OVERVIEW.md');
    const overview = documents.find((d) => d.type === CODEBASE_OVERVIEW_KIND)!;
    expect(overview.content).toMatch(/^# Codebase Overview: /);
    for (const section of plan.find((d) => d.kind === CODEBASE_OVERVIEW_KIND)!.sections)
      expect(overview.content).toContain(`## ${section}`);
    const architecture = documents.find((d) => d.type === 'architecture')!;
    expect(architecture.content.indexOf('## Current system')).toBeGreaterThan(0);
    expect(architecture.content.indexOf('## Current system')).toBeLessThan(
      architecture.content.indexOf('## Context'),
    );

    // The overview's 5 credits on top of the web price, charged once.
    expect(priceOf('web', 'standard', GROUNDED)).toBe(priceOf('web') + 5);
    expect(done.metadata.creditsConsumed).toBe(priceOf('web', 'standard', GROUNDED));
    expect((await credits(key)).balance).toBe(before - priceOf('web', 'standard', GROUNDED));
  });

  it('a revision sending a new digest also rewrites the overview, the architecture and the plan', async () => {
    const key = await harness().createKey('test', { credits: 500 });
    const { id } = await grounded(key);

    const balance = (await credits(key)).balance;
    const next = digest();
    next.files.push({
      path: 'src/services/reminders.ts',
      content: 'export async function sendReminder(phone: string) {\n  return phone;\n}\n',
    });
    const res = await api(key, 'POST', `/projects/${id}/revisions`, {
      changeRequest: CHANGE,
      context: { repository: next },
    });
    expect(res.statusCode, res.body).toBe(202);
    const scope = { grounded: true, newDigest: true };
    expect((await credits(key)).balance).toBe(balance - revisionPrice('web', 'standard', scope));
    const second = await settleRevision(key, id, 2);
    expect(second.status, JSON.stringify(second.error)).toBe('completed');
    for (const file of ['CODEBASE_OVERVIEW.md', 'ARCHITECTURE.md', 'IMPLEMENTATION_PLAN.md'])
      expect(second.documentsChanged).toContain(file);
    const rewritten = revisableKinds('web', scope);
    expect(second.documentsChanged).toEqual(
      documentPlan('web', GROUNDED)
        .filter((d) => rewritten.includes(d.kind))
        .map((d) => d.filename),
    );
    expect(second.metadata.creditsConsumed).toBe(
      ANALYSIS_FEE + priceOfKinds('web', rewritten, 'standard', GROUNDED),
    );

    // Without a digest the overview is carried over: the code it describes has not changed.
    const plain = await api(key, 'POST', `/projects/${id}/revisions`, {
      changeRequest: 'Add email reminders one day before each appointment',
    });
    expect(plain.statusCode, plain.body).toBe(202);
    const third = await settleRevision(key, id, 3);
    expect(third.status, JSON.stringify(third.error)).toBe('completed');
    expect(third.documentsChanged).toContain('ARCHITECTURE.md');
    expect(third.documentsChanged).not.toContain('CODEBASE_OVERVIEW.md');
  });
});
