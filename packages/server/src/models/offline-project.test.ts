import { type BenchmarkIdea, type ExpectedCapability, READING_IDEAS } from '@pgs/offline/testing';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { type OfflineProject, offlineProject } from '../../test/helpers/offline-fixtures.ts';
import { documentPlan } from '../runs/catalogue.ts';
import { buildTrace, checkTrace, needsRepair } from '../runs/trace/index.ts';
import { contentWords, stem } from '../runs/trace/words.ts';

/** Ideas beyond the benchmark, with the type they are pinned to. */
const MORE = [
  { idea: 'A medication reminder for elderly parents', type: 'mobile' },
  {
    idea: 'An MCP server that lets Claude run read-only queries on a SQLite database',
    type: 'mcp',
  },
  {
    idea: 'A habit tracker for remote teams to build routines together and celebrate streaks',
    type: 'web',
  },
  { idea: 'Something with widgets', type: 'web' },
] as const;

/** Research, quotes, statistics and regulations the offline engine must never invent. */
const INVENTED =
  /\b(?:told us|we heard|we interviewed|interviews? (?:with|showed)|surveys? (?:of|showed|found)|research (?:shows|found|suggests)|studies (?:show|found)|according to|on average|\d+% of (?:users|people|clinics|teams|customers)|HIPAA|PCI(?: DSS)?|GDPR|COPPA|SOC ?2|ISO 27001|CCPA|FERPA)\b/i;

const pinned = new Map<BenchmarkIdea, OfflineProject>(
  READING_IDEAS.map((entry) => [entry, offlineProject(entry.idea, entry.type)]),
);
const more = MORE.map(({ idea, type }) => ({ idea, project: offlineProject(idea, type) }));
const all = [
  ...READING_IDEAS.map((entry) => ({ idea: entry.idea, project: pinned.get(entry)! })),
  ...more,
];
const doc = (project: OfflineProject, kind: string) =>
  project.documents.find((d) => d.kind === kind)!.content;

/** The text of each FR group of the requirements: its heading and what follows, to the next. */
function groups(requirements: string): string[] {
  const section = requirements.split(/\n## /).find((s) => s.startsWith('Functional requirements'))!;
  return section.split(/\n### /).slice(1);
}

/** A capability is kept when one FR group holds its verb, its object's key word and every qualifier. */
function kept(expected: ExpectedCapability, requirements: string): boolean {
  const verbs = (typeof expected.verb === 'string' ? [expected.verb] : expected.verb).map(stem);
  return groups(requirements).some((group) => {
    const words = new Set((group.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(stem));
    const needed = [
      ...(expected.object ? [stem(expected.object)] : []),
      ...(expected.qualifiers ?? []).flatMap((q) => [...contentWords(q)]),
    ];
    return verbs.some((verb) => words.has(verb)) && needed.every((word) => words.has(word));
  });
}

/** Lines of 40+ characters (table rules left out), as the quality benchmark counts them. */
const longLines = (project: OfflineProject) =>
  project.documents
    .flatMap((d) => d.content.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line.length >= 40 && !/^\|?[\s:|-]+\|?$/.test(line));

describe('offline projects: the idea carried through', () => {
  it('keeps at least 90 % of the benchmark capabilities in the FR groups (all of them today)', () => {
    let found = 0;
    let expected = 0;
    const missed: string[] = [];
    for (const [entry, project] of pinned) {
      const requirements = doc(project, 'product-requirements');
      for (const capability of entry.capabilities) {
        expected++;
        if (kept(capability, requirements)) found++;
        else missed.push(`${capability.verb} ${capability.object} (${entry.idea.slice(0, 30)}…)`);
      }
    }
    expect(found / expected, missed.join('; ')).toBeGreaterThanOrEqual(0.9);
    expect(missed).toEqual([]);
  });

  it('infers the right type for at least 11 of the 12 ideas when none is pinned', () => {
    const right = READING_IDEAS.filter((e) => offlineProject(e.idea).definition.type === e.type);
    expect(right.length).toBeGreaterThanOrEqual(11);
  });

  it.each(all.map(({ idea, project }) => [idea.slice(0, 48), project] as const))(
    'writes "%s…" in the catalogue sections, with no critical or high finding',
    async (_label, project) => {
      const plan = documentPlan(project.definition.type);
      for (const [i, kind] of plan.entries()) {
        const content = project.documents[i]!.content;
        const headings = [...content.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
        expect(headings, kind.kind).toEqual([...kind.sections]);
        expect(content, kind.kind).not.toMatch(INVENTED);
      }
      const trace = buildTrace(project.documents);
      const findings = await checkTrace(trace, {
        coreFeatures: project.definition.questionnaire.coreFeatures,
        parseYaml,
      });
      expect(needsRepair(findings), JSON.stringify(findings, null, 1)).toBe(false);
      const totals = trace.coverage.totals;
      expect(totals.frs).toBe(project.definition.questionnaire.coreFeatures.length);
      expect(totals.withCriterion).toBe(totals.frs);
      expect(totals.withComponent).toBe(totals.frs);
      expect(totals.withTask).toBe(totals.frs);
      expect(totals.mustsWithStory).toBe(totals.musts);
      expect(totals.musts).toBeGreaterThan(0);
    },
  );

  it('writes every criterion in EARS form, numbered from 1 without gaps', () => {
    for (const { project } of all) {
      for (const group of groups(doc(project, 'product-requirements'))) {
        const id = /^(FR-\d+) .+ \((?:Must|Should|Could)\)\n/.exec(group)?.[1];
        expect(id, group.slice(0, 60)).toBeDefined();
        const criteria = [...group.matchAll(/^\*\*(FR-\d+\.\d+)\*\* (.+)$/gm)];
        expect(criteria.length).toBeGreaterThanOrEqual(2);
        expect(criteria.length).toBeLessThanOrEqual(5);
        criteria.forEach(([, cid, text], n) => {
          expect(cid).toBe(`${id}.${n + 1}`);
          expect(text).toMatch(/^(?:(?:WHEN|WHILE|WHERE) .+ |IF .+ THEN )?THE SYSTEM SHALL /);
        });
      }
    }
  });

  it('plans tests before code and a spike before work a high-impact risk threatens', () => {
    for (const { project } of all) {
      const plan = doc(project, 'implementation-plan');
      const rows = [...plan.matchAll(/^\| (T-\d+) \| (.+?) \| (.+?) \| (.+?) \| (.+?) \|$/gm)];
      const tasks = new Map(
        rows.map(([, id, task, impl, deps]) => [id!, { task: task!, impl: impl!, deps: deps! }]),
      );
      for (const [id, { impl, deps }] of tasks) {
        if (!/^FR-\d+$/.test(impl)) continue;
        const tests = [...tasks].find(
          ([, t]) => t.task.startsWith('Write the tests') && t.impl.includes(`${impl}.1`),
        );
        expect(tests, `${id} builds ${impl}`).toBeDefined();
        expect(deps.split(', '), `${id} depends on its tests`).toContain(tests![0]);
        expect(Number(tests![0].slice(2))).toBeLessThan(Number(id.slice(2)));
      }
      const brief = doc(project, 'project-brief');
      for (const [, risk] of brief.matchAll(
        /^\| (R-\d+) \| .+ \| (?:High|Medium|Low) \| High \| .+ \|$/gm,
      ))
        expect(
          [...tasks.values()].some((t) => t.task.startsWith(`Spike for ${risk}:`)),
          risk,
        ).toBe(true);
    }
  });
});

describe('offline projects: qualifiers hold and nothing is invented', () => {
  const at = (n: number) => pinned.get(READING_IDEAS[n]!)!;

  it('gives a read-only MCP server no tool that writes and nothing to confirm', () => {
    for (const project of [at(8), more[1]!.project]) {
      const tools = doc(project, 'mcp-tools');
      const rows = [...tools.matchAll(/^\| `(\w+)` \| .+ \| (Reads|Writes[^|]*) \| (.+?) \|/gm)];
      expect(rows.length).toBeGreaterThan(0);
      for (const [, , kind, annotations] of rows) {
        expect(kind).toBe('Reads');
        expect(annotations).toBe('readOnlyHint: true');
      }
      for (const { content, kind } of project.documents)
        expect(content, kind).not.toMatch(/confirm/i);
    }
  });

  it('asks for confirmation or approval before a write when the idea allows writes', () => {
    const kubernetes = doc(at(10), 'mcp-tools');
    expect(kubernetes).toMatch(/\| `restart_deployment` \| .+ \| Writes, once approved \|/);
    expect(doc(at(10), 'product-requirements')).toMatch(
      /IF the request to restart .+ has not been approved THEN/,
    );
  });

  it('keeps "by SMS" as SMS, "16-week" as 16 weeks and "after 30 days" as 30 days', () => {
    const vet = at(0)
      .documents.map((d) => d.content)
      .join('\n');
    expect(vet).toMatch(/\*\*FR-2\.\d\*\* THE SYSTEM SHALL send every vaccine reminder by SMS/);
    expect(vet).not.toMatch(/\b(?:e-?mail|push notification)s? (?:reminder|to the owner)/i);
    const runner = at(4)
      .documents.map((d) => d.content)
      .join('\n');
    expect(runner).toMatch(/hold each marathon plan to 16 weeks/);
    expect(runner.match(/\b\d+[- ]weeks?\b/g)?.every((w) => w.startsWith('16'))).toBe(true);
    const desk = doc(at(3), 'product-requirements');
    expect(desk).toMatch(
      /WHEN a support ticket has had no change for 30 days THE SYSTEM SHALL close it/,
    );
  });

  it('names the idea’s services in the architecture, and says so when there are none', () => {
    expect(doc(at(0), 'architecture')).toMatch(
      /^\| SMS gateway \| Send vaccine reminders by SMS \(FR-2\) \|/m,
    );
    expect(doc(at(4), 'architecture')).toMatch(/## Integrations\n\n\w+ uses no external service/);
  });

  it('shares at most 25 % of its long lines with another project of the same type', () => {
    for (const type of ['web', 'mobile', 'mcp'] as const) {
      const mine = [...pinned]
        .filter(([entry]) => entry.type === type)
        .map(([, p]) => longLines(p));
      mine.forEach((lines, i) => {
        const others = new Set(mine.filter((_, j) => j !== i).flat());
        const shared = lines.filter((line) => others.has(line)).length / lines.length;
        expect(shared, `${type} #${i + 1}`).toBeLessThanOrEqual(0.25);
      });
    }
  });
});
