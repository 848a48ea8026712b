/**
 * The implementation plan's slices of tasks, numbered T-1… in the order they are done: a
 * walking skeleton (a spike before the work a high-impact risk threatens), then the stories
 * by priority (tests before code), then the release. delivery-model.ts hands them on.
 */
import { decapitalize, listing } from '../text/words.ts';
import { phrase, risksOf } from './brief-model.ts';
import { type Facts, qualifierSuffix, type Requirement, theService } from './facts.ts';
import { releaseChecks } from './without-accounts.ts';

export interface Task {
  id: string;
  task: string;
  implements: string[];
  dependsOn: string[];
  estimate: string;
}

export interface Slice {
  name: string;
  checkpoint: string;
  stories: string[];
  tasks: Task[];
}

/** A story as the plan cites it. */
type PlannedStory = { id: string; priority: Requirement['priority'] };

/** Makes a task, giving it the next number. */
type NewTask = (t: Omit<Task, 'id'>) => Task;

/** What the slices after the first build on: the skeleton, the spikes, the builds so far. */
interface Planning {
  f: Facts;
  task: NewTask;
  skeleton: Task;
  /** The spikes each requirement's build waits for, by requirement ID. */
  spikes: Map<string, string[]>;
  /** The build tasks made so far, which the release waits for. */
  built: string[];
}

/**
 * The plan's slices: a walking skeleton (with a spike per high-impact risk), then the Must,
 * Should and Could stories, each requirement a test task before its build task, then release.
 *
 * @example
 * slicesOf(facts)[0]?.tasks[0]?.id; // 'T-1'
 */
export function slicesOf(f: Facts, stories: readonly PlannedStory[]): Slice[] {
  let next = 1;
  const task: NewTask = (t) => ({ ...t, id: `T-${next++}` });
  const { slice, planning } = skeletonSlice(f, task);
  const slices: Slice[] = [slice];
  for (const priority of ['Must', 'Should', 'Could'] as const) {
    const reqs = f.requirements.filter((r) => r.priority === priority);
    if (reqs.length === 0) continue;
    const tasks = reqs.flatMap((req) => testAndBuild(planning, req));
    slices.push({
      name: `M${slices.length + 1} ${priority} stories`,
      checkpoint: `a demo in which ${f.role} can ${listing(reqs.map((r) => `${phrase(r)}${qualifierSuffix(r)}`))}`,
      stories: stories.filter((s) => s.priority === priority).map((s) => s.id),
      tasks,
    });
  }
  slices.push(releaseSlice(planning, slices.length + 1));
  return slices;
}

/** M1: the repository, its CI and staging, the walking skeleton, and the spikes. */
function skeletonSlice(f: Facts, task: NewTask): { slice: Slice; planning: Planning } {
  const setup = task({
    task: `Set up the ${f.stack[0]} repository of ${f.name}, its CI and a staging environment`,
    implements: [],
    dependsOn: [],
    estimate: '2 d',
  });
  const skeleton = task({
    task: `Walking skeleton: ${f.type === 'mcp' ? `${f.name} answers an empty tool list in ${f.assistant}` : `one ${f.main.label} goes in and comes back out of staging`}`,
    implements: ['NFR-2'],
    dependsOn: [setup.id],
    estimate: '2 d',
  });
  const spiked = risksOf(f).filter((r) => r.impact === 'High' && r.spike);
  const spikes = new Map<string, string[]>();
  const spikeTasks: Task[] = [];
  for (const risk of spiked) {
    const spike = task({
      task: `Spike for ${risk.id}: ${risk.spike}`,
      implements: [],
      dependsOn: [setup.id],
      estimate: '1 d',
    });
    spikeTasks.push(spike);
    for (const id of risk.threatens) spikes.set(id, [...(spikes.get(id) ?? []), spike.id]);
  }
  const settled =
    spikeTasks.length > 0
      ? `, and the spikes have settled ${listing(spiked.map((r) => r.id))}`
      : '';
  return {
    slice: {
      name: 'M1 Walking skeleton',
      checkpoint: `${f.name} runs in staging end to end${settled}`,
      stories: [],
      tasks: [setup, skeleton, ...spikeTasks],
    },
    planning: { f, task, skeleton, spikes, built: [] },
  };
}

/** A requirement's test task, then its build task, which waits for the tests and its spikes. */
function testAndBuild({ task, skeleton, spikes, built }: Planning, req: Requirement): Task[] {
  const tests = task({
    task: `Write the tests for ${req.criteria[0]!.id} to ${req.criteria.at(-1)!.id} (${decapitalize(req.text)})`,
    implements: req.criteria.map((c) => c.id),
    dependsOn: [skeleton.id],
    estimate: `${Math.max(1, Math.ceil(req.criteria.length / 2))} d`,
  });
  const build = task({
    task: `Build "${req.text}"${req.service ? ` through ${theService(req.service.name)}` : ''} until ${tests.id} passes`,
    implements: [req.id],
    dependsOn: [tests.id, ...(spikes.get(req.id) ?? [])],
    estimate: `${req.criteria.length + (req.service ? 1 : 0)} d`,
  });
  built.push(build.id);
  return [tests, build];
}

/** The last slice: the non-functional requirements measured against everything built. */
function releaseSlice({ f, task, built }: Planning, n: number): Slice {
  const lead = f.requirements.find((r) => r.kind === 'read') ?? f.requirements[0]!;
  const load = task({
    task: `Load-test the request to ${phrase(lead)} against NFR-1 with the volumes of A-1`,
    implements: ['NFR-1'],
    dependsOn: built,
    estimate: '1 d',
  });
  const audit = task({
    task: `Check ${listing(['NFR-3', 'NFR-4'])} against the build of ${f.name}: ${releaseChecks(f)}`,
    implements: ['NFR-3', 'NFR-4'],
    dependsOn: built,
    estimate: '1 d',
  });
  return {
    name: `M${n} Release`,
    checkpoint: `the non-functional requirements are measured and ${f.name} is ready for its first ${f.type === 'mcp' ? 'users' : f.who}`,
    stories: [],
    tasks: [load, audit],
  };
}
