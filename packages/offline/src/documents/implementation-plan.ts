/**
 * The implementation plan: milestones, the tasks of each slice (tests before code), dependencies
 * and the critical path, the testing strategy and the release checklist; a grounded project names
 * the files each task touches.
 */

import { nfrsOf, risksOf } from '../facts/brief-model.ts';
import { type Slice, slicesOf, storiesOf, type Task } from '../facts/delivery-model.ts';
import type { Facts } from '../facts/facts.ts';
import { theService } from '../facts/facts.ts';
import {
  blocks,
  bold,
  bullets,
  checklist,
  definingTable,
  h3,
  type Inline,
  ic,
  p,
  t,
} from '../text/nodes.ts';
import { capitalize, decapitalize, listing } from '../text/words.ts';
import { codebaseOf, filesLine } from './grounded.ts';
import type { KindWriter } from './kind.ts';

const slices = (f: Facts) => slicesOf(f, storiesOf(f));

const days = (task: Task) => Number.parseFloat(task.estimate) || 1;

/** The longest chain of dependencies by estimate, first task first. */
function criticalPath(all: readonly Task[]): Task[] {
  const byId = new Map(all.map((task) => [task.id, task]));
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

function testFor(f: Facts, slice: Slice): Inline[] {
  return slice.tasks.flatMap((task) => {
    const req = f.requirements.find((r) => task.implements.includes(r.id));
    if (!req) return [];
    const kind = req.service
      ? `an integration test against a stand-in for ${theService(req.service.name)} that can be made to fail`
      : req.criteria.some((c) => c.role === 'offline')
        ? 'a device test run in airplane mode, then back online'
        : req.kind === 'read'
          ? `a test over seeded ${req.ent.plural}, timed against its 2 seconds`
          : `an API test that ${req.verb}s ${req.ent.a} and reads it back`;
    return [
      t`${req.id} (${decapitalize(req.text)}): ${kind}, one case per criterion (${req.criteria.map((c) => c.id).join(', ')}).`,
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
        p`${f.name} is built in vertical slices: a walking skeleton, then the stories by priority, then the release checks. Each slice ends with a checkpoint that can be shown.`,
        bullets(
          slices(f).map(
            (s) =>
              t`${bold(s.name)}${s.stories.length > 0 ? ` (${s.stories.join(', ')})` : ''}: ${s.tasks.length} tasks. Checkpoint: ${s.checkpoint}.`,
          ),
        ),
      ),

    Tasks: (f) =>
      blocks(
        p`Every requirement of ${f.name} has a task that writes its tests and, after it, a task that builds it; a spike comes before the work a high-impact risk threatens.`,
        slices(f).map((s) => [
          h3(s.name),
          definingTable(
            ['ID', 'Task', 'Implements', 'Depends on', 'Estimate'],
            s.tasks.map((task) => [
              task.id,
              task.task,
              task.implements.join(', ') || 'none',
              task.dependsOn.join(', ') || 'none',
              task.estimate,
            ]),
          ),
        ]),
      ),

    Dependencies: (f) => {
      const all = slices(f).flatMap((s) => s.tasks);
      const path = criticalPath(all);
      const external = [
        ...f.integrations.map((i) => {
          const q = f.questions.find((q) => q.question.includes(i.name));
          return t`${capitalize(theService(i.name))}: an account and credentials for ${f.name}${q ? `, once ${q.id} is answered` : ''}`;
        }),
        ...(f.type === 'mobile'
          ? [
              t`Developer accounts for ${listing(f.platforms.map((platform) => (platform === 'Android' ? 'Google Play' : 'the App Store')))}`,
            ]
          : []),
      ];
      return blocks(
        p`The critical path of ${f.name}, ${path.reduce((sum, task) => sum + days(task), 0)} days of work end to end: ${path.map((task) => task.id).join(' → ')}.`,
        external.length > 0
          ? p`External dependencies, to request early:`
          : p`${f.name} has no external dependency beyond its hosting.`,
        external.length > 0 && bullets(external),
      );
    },

    'Testing strategy': (f) =>
      blocks(
        p`Each criterion of ${f.name} becomes an automated test, written in its test task before the code that makes it pass:`,
        bullets(slices(f).flatMap((s) => testFor(f, s))),
        p`The non-functional requirements (${nfrsOf(f)
          .map((n) => n.id)
          .join(', ')}) are measured in the release slice, not assumed.`,
      ),

    'Release checklist': (f) =>
      blocks(
        p`Before ${f.name} goes to ${f.who}:`,
        checklist([
          t`Every Must requirement passes all its criteria in staging: ${f.requirements
            .filter((r) => r.priority === 'Must')
            .map((r) => r.id)
            .join(', ')}`,
          ...nfrsOf(f).map(
            (n) => t`${n.id} (${n.category}) measured on the release build of ${f.name} and met`,
          ),
          ...risksOf(f)
            .filter((r) => r.impact === 'High')
            .map((r) =>
              r.spike
                ? t`${r.id} settled by its spike, its mitigation built into ${f.name}`
                : t`${r.id} mitigated in ${f.name} as the brief says`,
            ),
          ...(f.questions.length > 0
            ? [
                t`${listing(f.questions.map((q) => q.id))} answered, or their defaults accepted by the client`,
              ]
            : []),
        ]),
      ),
  },
  grounded: {
    Tasks: (f) =>
      blocks(
        p`Every requirement of ${f.name} has a task that writes its tests and, after it, a task that builds it, in the files of ${ic(codebaseOf(f).name)} it touches (a file marked new does not exist yet).`,
        slicesOf(f, storiesOf(f)).map((s) => [
          h3(s.name),
          definingTable(
            ['ID', 'Task', 'Implements', 'Files', 'Depends on', 'Estimate'],
            s.tasks.map((task) => {
              const reqs = f.requirements.filter((r) =>
                task.implements.some((id) => id === r.id || id.startsWith(`${r.id}.`)),
              );
              return [
                task.id,
                // The repository exists: the first task sets up the work in it, not a new one.
                task.id === 'T-1' && /^Set up\b/.test(task.task)
                  ? t`Set up the work on ${f.name} in ${ic(codebaseOf(f).name)}: a branch, its CI run and a staging environment`
                  : task.task,
                task.implements.join(', ') || 'none',
                reqs.length > 0 ? filesLine(f, reqs, /^Write the tests\b/.test(task.task)) : '—',
                task.dependsOn.join(', ') || 'none',
                task.estimate,
              ];
            }),
          ),
        ]),
      ),
  },
} satisfies KindWriter<'implementation-plan'>;
