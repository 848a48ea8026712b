import { randomUUID } from 'node:crypto';
import { announceCreated } from '../../src/events/hub.ts';
import { Projects } from '../../src/projects/projects.ts';
import { documentPlan } from '../../src/runs/catalogue.ts';
import type { Database } from '../../src/storage/db.ts';
import type { Mode } from '../../src/storage/sql/accounts.ts';
import { insertDocument, insertProject, updateProject } from '../../src/storage/sql/projects.ts';
import { offlineProject } from './offline-fixtures.ts';

/**
 * Completed projects with a plan, for the task suites: the offline engine's documents (a
 * real plan, requirements, stories and design) or a plan written for the case, completed
 * through the service's own completion, which makes the plan's tasks.
 */

/** A document as stored. */
export interface SeedDocument {
  kind: string;
  filename: string;
  content: string;
  stage: string;
}

export const TASKS_IDEA =
  'A web dashboard where community gardeners share compost schedules, seed swaps and watering rotas for their allotments.';

let offline: SeedDocument[] | undefined;

/** The documents of one offline web project, written once per test process. */
export function offlineDocuments(): SeedDocument[] {
  if (offline === undefined) {
    const plan = documentPlan('web');
    offline = offlineProject(TASKS_IDEA, 'web').documents.map((doc) => ({
      ...doc,
      stage: plan.find((entry) => entry.kind === doc.kind)?.stage ?? 'planning',
    }));
  }
  return offline;
}

/**
 * An implementation plan whose Tasks table holds `count` tasks, `T-1`…, each depending on the
 * tasks `dependsOn` gives it (none by default).
 *
 * @example
 * planDocument(3, (n) => (n > 1 ? ['T-1'] : []));
 */
export function planDocument(count: number, dependsOn: (n: number) => string[] = () => []) {
  const rows = Array.from(
    { length: count },
    (_, i) =>
      `| T-${i + 1} | Task number ${i + 1} | FR-1 | ${dependsOn(i + 1).join(', ') || 'none'} | 1 d |`,
  );
  return {
    kind: 'implementation-plan',
    filename: 'IMPLEMENTATION_PLAN.md',
    stage: 'planning',
    content: `# Implementation Plan: Demo\n\n## Tasks\n\n### M1 All at once\n\n| ID | Task | Implements | Depends on | Estimate |\n| --- | --- | --- | --- | --- |\n${rows.join('\n')}\n`,
  };
}

/**
 * A project of `owner` holding `documents`, completed through `Projects.complete` (as the
 * workflow completes one); `materialise: false` completes it the way a project completed
 * before tasks existed was: no task rows, no record of a plan read.
 */
export async function completedWithPlan(
  database: Database,
  owner: { accountId: string; mode: Mode },
  documents: readonly SeedDocument[] = offlineDocuments(),
  { materialise = true }: { materialise?: boolean } = {},
): Promise<string> {
  const id = randomUUID();
  await insertProject(database.db, {
    id,
    accountId: owner.accountId,
    mode: owner.mode,
    status: 'in_progress',
    idea: TASKS_IDEA,
    type: 'web',
    name: 'CommunityDesk',
    description: 'Compost schedules for community gardens.',
    questionnaire: { targetAudience: 'Gardeners', monetization: 'Free', techStack: ['TypeScript'] },
  });
  for (const [position, doc] of documents.entries()) {
    await insertDocument(database.db, {
      projectId: id,
      type: doc.kind,
      filename: doc.filename,
      content: doc.content,
      stage: doc.stage,
      tokensUsed: 100,
      generatedAt: new Date(),
      position,
    });
  }
  if (materialise) {
    const projects = new Projects(database.db, { enqueue: async () => {} }, () => 'offline');
    if (!(await projects.complete(id))) throw new Error('seeding: completion refused');
  } else {
    await updateProject(database.db, id, { status: 'completed', completedAt: new Date() });
  }
  await database.db.transaction((tx) => announceCreated(tx, id));
  return id;
}
