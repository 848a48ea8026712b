/**
 * The implementation plan and the README: slices of tasks that cite the requirements (tests
 * before code, spikes before risky work), then the repository's front page, its features
 * citing their requirements.
 */
import { nfrsOf, phrase, risksOf } from '../facts/brief-model.ts';
import { type Slice, slicesOf, storiesOf, type Task, toolsOf } from '../facts/delivery-model.ts';
import type { Facts, SectionWriter } from '../facts/facts.ts';
import { theService } from '../facts/facts.ts';
import { blocks, bullets, code, ic, table } from '../text/markdown.ts';
import { capitalize, decapitalize, gerund, kebab, listing, snake } from '../text/words.ts';
import { rationale } from './architecture.ts';

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

function featureLine(f: Facts, index: number): string {
  const req = f.requirements[index]!;
  const tool = f.type === 'mcp' ? toolsOf(f).find((t) => t.req === req) : undefined;
  const where = tool
    ? `the ${ic(tool.name)} tool${tool.writes ? (tool.approval ? ', after approval' : ', after the client confirms') : ', read-only'}`
    : f.type === 'mcp'
      ? `set up once, in the client configuration`
      : req.kind === 'send'
        ? `sent by the scheduler${req.service ? ` through ${theService(req.service.name)}` : ''}`
        : `from the ${req.ent.plural} ${f.type === 'web' ? 'pages' : 'screens'}`;
  return `**${req.text}** (${req.id}): ${where}.`;
}

export const DELIVERY_SECTIONS: Record<string, SectionWriter> = {
  'implementation-plan/Milestones': (f) =>
    blocks(
      `${f.name} is built in vertical slices: a walking skeleton, then the stories by priority, then the release checks. Each slice ends with a checkpoint that can be shown.`,
      bullets(
        slices(f).map(
          (s) =>
            `**${s.name}**${s.stories.length > 0 ? ` (${s.stories.join(', ')})` : ''}: ${s.tasks.length} tasks. Checkpoint: ${s.checkpoint}.`,
        ),
      ),
    ),

  'implementation-plan/Tasks': (f) =>
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

  'implementation-plan/Dependencies': (f) => {
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

  'implementation-plan/Testing strategy': (f) =>
    blocks(
      `Each criterion of ${f.name} becomes an automated test, written in its test task before the code that makes it pass:`,
      bullets(slices(f).flatMap((s) => testFor(f, s))),
      `The non-functional requirements (${nfrsOf(f)
        .map((n) => n.id)
        .join(', ')}) are measured in the release slice, not assumed.`,
    ),

  'implementation-plan/Release checklist': (f) =>
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

  'readme/About': (f) =>
    blocks(
      f.description,
      `It is built for ${f.who} and runs on ${listing(f.platforms)}. The requirements, stories and plan that describe it sit next to this README; the IDs below (FR-n) point into them.`,
    ),

  'readme/Features': (f) => {
    const by = (p: string) => f.requirements.filter((r) => r.priority === p);
    return blocks(
      `What ${f.name} does, each feature with the requirement that specifies it:`,
      bullets(f.requirements.map((_, i) => featureLine(f, i))),
      `The first release delivers the Must features (${
        by('Must')
          .map((r) => r.id)
          .join(', ') || 'none'
      })${
        by('Should').length > 0
          ? `, then the Should ones (${by('Should')
              .map((r) => r.id)
              .join(', ')}), which the idea does not name but the others need`
          : ''
      }. Each has its acceptance criteria in the requirements, ${f.requirements.reduce((n, r) => n + r.criteria.length, 0)} in all, and each criterion has a test.`,
    );
  },

  'readme/Tech stack': (f) =>
    table(
      ['Technology', `Used in ${f.name} for`],
      f.stack.map((tech) => [tech, rationale(f, tech)]),
    ),

  'readme/Getting started': (f) => {
    const services = f.integrations.filter((i) => !/^(?:email|push|map)\b/i.test(i.name));
    const env = services.map(
      (i) =>
        `${snake(i.name, 2).toUpperCase()}_${/postgres|sqlite/i.test(i.name) ? 'URL' : 'TOKEN'}`,
    );
    const first = f.stack[0] ?? '';
    const lines =
      f.type === 'mcp'
        ? [
            'npm install',
            'npm run build',
            ...env.map((v) => `export ${v}=…`),
            'npx @modelcontextprotocol/inspector node dist/index.js',
          ]
        : f.type === 'mobile'
          ? first === 'Swift'
            ? [`open ${f.name.replace(/\W/g, '')}.xcodeproj`]
            : first === 'Kotlin'
              ? ['./gradlew installDebug']
              : ['npm install', 'npx expo start']
          : ['npm install', 'docker compose up -d postgres', 'npm run db:migrate', 'npm run dev'];
    const lead = f.requirements[0]!;
    return blocks(
      `To run ${f.name} locally you need ${first === 'Swift' ? 'Xcode' : first === 'Kotlin' ? 'Android Studio' : 'Node.js 22 or later'}${f.type === 'web' ? ' and Docker' : ''}${services.length > 0 ? `, and credentials for ${listing(services.map((i) => theService(i.name)))}` : ''}.`,
      code('bash', lines.join('\n')),
      services.length > 0
        ? table(
            ['Variable', 'Holds'],
            services.map((i, n) => [
              ic(env[n]!),
              `The ${i.name} ${/postgres|sqlite/i.test(i.name) ? 'connection string' : 'token'} ${f.name} uses to ${i.purpose}`,
            ]),
          )
        : '',
      f.type === 'mcp'
        ? `The inspector lists the tools of ${f.name}; call ${ic(toolsOf(f)[0]?.name ?? 'the first tool')} to check the configuration: the answer should meet ${(toolsOf(f)[0]?.req ?? lead).criteria[0]!.id}.`
        : `Then ${phrase(lead)} once: the result should meet ${lead.criteria[0]!.id}, and the set-up is complete.`,
    );
  },

  'readme/Project structure': (f) => {
    const folder = (r: (typeof f.requirements)[number]) =>
      f.type === 'mcp'
        ? `tools/${kebab(toolsOf(f).find((t) => t.req === r)?.name ?? 'setup', 4)}.ts`
        : `${f.type === 'web' ? 'api' : 'app'}/${r.ent.path}/`;
    const homes = new Map<string, string[]>();
    for (const r of f.requirements) homes.set(folder(r), [...(homes.get(folder(r)) ?? []), r.id]);
    return blocks(
      `${f.name}'s code is organised by what it acts on, so each requirement has one home:`,
      code(
        'text',
        [
          'src/',
          ...[...homes.keys()].map((h) => `  ${h}`),
          ...f.integrations.map((i) => `  adapters/${kebab(i.name, 2)}.ts`),
          'test/',
          'docs/',
        ].join('\n'),
      ),
      bullets(
        [...homes].map(
          ([home, reqs]) =>
            `${ic(`src/${home}`)}: ${reqs.join(', ')}, with its tests under ${ic(`test/${home}`)}`,
        ),
      ),
    );
  },

  'readme/Contributing': (f) =>
    blocks(
      `Changes to ${f.name} follow its plan: the test that states a criterion comes first, the code that passes it second.`,
      bullets([
        `Name the requirement or criterion a change serves (${f.requirements[0]!.criteria[0]!.id}, for instance) in the pull request.`,
        `Run the tests and the linter before asking for review; ${gerund(phrase(f.requirements.at(-1)!))} must still pass its criteria.`,
        `A change that needs a new requirement starts with the requirements document, not the code.`,
      ]),
    ),
};
