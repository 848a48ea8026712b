/**
 * The implementation plan: milestones, the tasks of each slice (tests before code), dependencies
 * and the critical path, the testing strategy and the release checklist; a grounded project names
 * the files each task touches.
 */

import { nfrsOf, risksOf } from '../facts/brief-model.ts';
import { type Slice, slicesOf, storiesOf, type Task } from '../facts/delivery-model.ts';
import type { Facts } from '../facts/facts.ts';
import { theService } from '../facts/facts.ts';
import { blocks, bullets, ic, table } from '../text/markdown.ts';
import { capitalize, decapitalize, listing } from '../text/words.ts';
import { codebaseOf, filesLine } from './grounded.ts';
import type { KindWriter } from './kind.ts';

const slices = (f: Facts) => slicesOf(f, storiesOf(f));

const days = (task: Task) => Number.parseFloat(task.estimate) || 1;

/** The longest chain of dependencies by estimate, first task first. */
function criticalPath(all: readonly Task[]): Task[] {
  const byId = new Map(all.map((t) => [t.id, t]));
  const memo = new Map<string, { length: number; chain: Task[] }>();
  const longest = (task: Task): { length: number; chain: Task[] } => {
    const known = memo.get(task.id);
    if (known) return known;
    let best = { length: 0, chain: [] as Task[] };
    for (const dep of task.dependsOn) {
      const before = byId.get(dep);
      if (!before) continue;
      const found = longest(before);
      if (found.length > best.length) best = found;
    }
    const result = { length: best.length + days(task), chain: [...best.chain, task] };
    memo.set(task.id, result);
    return result;
  };
  return all.map(longest).reduce((a, b) => (b.length > a.length ? b : a)).chain;
}

function testFor(f: Facts, slice: Slice): string[] {
  return slice.tasks.flatMap((t) => {
    const req = f.requirements.find((r) => t.implements.includes(r.id));
    if (!req) return [];
    const kind = req.service
      ? `an integration test against a stand-in for ${theService(req.service.name)} that can be made to fail`
      : req.criteria.some((c) => c.role === 'offline')
        ? 'a device test run in airplane mode, then back online'
        : req.kind === 'read'
          ? `a test over seeded ${req.ent.plural}, timed against its 2 seconds`
          : `an API test that ${req.verb}s ${req.ent.a} and reads it back`;
    return [
      `${req.id} (${decapitalize(req.text)}): ${kind}, one case per criterion (${req.criteria.map((c) => c.id).join(', ')}).`,
    ];
  });
}

/**
 * The writers of Implementation Plan (IMPLEMENTATION_PLAN.md): one per section of the catalogue's
 * `implementation-plan`, so a section missing or renamed there fails the build.
 */
export const IMPLEMENTATION_PLAN = {
  purpose: 'This plan breaks the work into milestones, tasks and checks',
  sections: {
    Milestones: (f) =>
      blocks(
        `${f.name} is built in vertical slices: a walking skeleton, then the stories by priority, then the release checks. Each slice ends with a checkpoint that can be shown.`,
        bullets(
          slices(f).map(
            (s) =>
              `**${s.name}**${s.stories.length > 0 ? ` (${s.stories.join(', ')})` : ''}: ${s.tasks.length} tasks. Checkpoint: ${s.checkpoint}.`,
          ),
        ),
      ),

    Tasks: (f) =>
      blocks(
        `Every requirement of ${f.name} has a task that writes its tests and, after it, a task that builds it; a spike comes before the work a high-impact risk threatens.`,
        ...slices(f).map((s) =>
          blocks(
            `### ${s.name}`,
            table(
              ['ID', 'Task', 'Implements', 'Depends on', 'Estimate'],
              s.tasks.map((t) => [
                t.id,
                t.task,
                t.implements.join(', ') || 'none',
                t.dependsOn.join(', ') || 'none',
                t.estimate,
              ]),
            ),
          ),
        ),
      ),

    Dependencies: (f) => {
      const all = slices(f).flatMap((s) => s.tasks);
      const path = criticalPath(all);
      const external = [
        ...f.integrations.map((i) => {
          const q = f.questions.find((q) => q.question.includes(i.name));
          return `${capitalize(theService(i.name))}: an account and credentials for ${f.name}${q ? `, once ${q.id} is answered` : ''}`;
        }),
        ...(f.type === 'mobile'
          ? [
              `Developer accounts for ${listing(f.platforms.map((p) => (p === 'Android' ? 'Google Play' : 'the App Store')))}`,
            ]
          : []),
      ];
      return blocks(
        `The critical path of ${f.name}, ${path.reduce((sum, t) => sum + days(t), 0)} days of work end to end: ${path.map((t) => t.id).join(' → ')}.`,
        external.length > 0
          ? 'External dependencies, to request early:'
          : `${f.name} has no external dependency beyond its hosting.`,
        external.length > 0 ? bullets(external) : '',
      );
    },

    'Testing strategy': (f) =>
      blocks(
        `Each criterion of ${f.name} becomes an automated test, written in its test task before the code that makes it pass:`,
        bullets(slices(f).flatMap((s) => testFor(f, s))),
        `The non-functional requirements (${nfrsOf(f)
          .map((n) => n.id)
          .join(', ')}) are measured in the release slice, not assumed.`,
      ),

    'Release checklist': (f) =>
      blocks(
        `Before ${f.name} goes to ${f.who}:`,
        bullets(
          [
            `Every Must requirement passes all its criteria in staging: ${f.requirements
              .filter((r) => r.priority === 'Must')
              .map((r) => r.id)
              .join(', ')}`,
            ...nfrsOf(f).map(
              (n) => `${n.id} (${n.category}) measured on the release build of ${f.name} and met`,
            ),
            ...risksOf(f)
              .filter((r) => r.impact === 'High')
              .map((r) => `${r.id} settled by its spike, its mitigation built into ${f.name}`),
            ...(f.questions.length > 0
              ? [
                  `${listing(f.questions.map((q) => q.id))} answered, or their defaults accepted by the client`,
                ]
              : []),
          ].map((item) => `[ ] ${item}`),
        ),
      ),
  },
  grounded: {
    Tasks: (f) =>
      blocks(
        `Every requirement of ${f.name} has a task that writes its tests and, after it, a task that builds it, in the files of ${ic(codebaseOf(f).name)} it touches (a file marked new does not exist yet).`,
        ...slicesOf(f, storiesOf(f)).map((s) =>
          blocks(
            `### ${s.name}`,
            table(
              ['ID', 'Task', 'Implements', 'Files', 'Depends on', 'Estimate'],
              s.tasks.map((t) => {
                const reqs = f.requirements.filter((r) =>
                  t.implements.some((id) => id === r.id || id.startsWith(`${r.id}.`)),
                );
                return [
                  t.id,
                  // The repository exists: the first task sets up the work in it, not a new one.
                  t.id === 'T-1' && /^Set up\b/.test(t.task)
                    ? `Set up the work on ${f.name} in ${ic(codebaseOf(f).name)}: a branch, its CI run and a staging environment`
                    : t.task,
                  t.implements.join(', ') || 'none',
                  reqs.length > 0 ? filesLine(f, reqs, /^Write the tests\b/.test(t.task)) : '—',
                  t.dependsOn.join(', ') || 'none',
                  t.estimate,
                ];
              }),
            ),
          ),
        ),
      ),
  },
} satisfies KindWriter<'implementation-plan'>;
