import { answerRegister, type DocumentKindName, type ProjectType } from '@pgs/contract';
import { stableIdsOf } from '@pgs/contract/document';
import type {
  ProjectDefinition,
  RequirementDelta,
  RequirementSlot,
} from '@pgs/contract/generation';
import { describe, expect, it } from 'vitest';
import { docOf, type OfflineProject, offlineProject } from '../../test/offline-project.ts';
import { documentRequest } from '../../test/plan.ts';
import { reviseDocument } from '../documents/revise.ts';
import { readChangeRequest } from '../index.ts';

/** A revision of a written project: its definition, register and every document. */
interface Revised extends OfflineProject {
  idea: string;
  register: RequirementSlot[];
}

const headings = (project: OfflineProject) => [
  ...docOf(project, 'product-requirements').matchAll(
    /^### (FR-\d+) (.*) \((Must|Should|Could)\)$/gm,
  ),
];

/** Every document rewritten as the offline engine rewrites a revision (docs/revisions.md). */
function revise(
  previous: Revised,
  definition: ProjectDefinition,
  register: RequirementSlot[],
): Revised {
  const ids = stableIdsOf(
    docOf(previous, 'user-stories'),
    docOf(previous, 'implementation-plan'),
    [],
  );
  const documents = previous.documents.map(({ kind }) => ({
    kind,
    content: reviseDocument({
      idea: previous.idea,
      definition,
      register,
      document: documentRequest(kind as DocumentKindName),
      related: [],
      ids,
    }),
  }));
  return { idea: previous.idea, definition, register, documents };
}

/** A project written, then its sign-in assumption answered "No accounts" (an answers revision). */
function answeredLater(idea: string, type: ProjectType): { written: Revised; answered: Revised } {
  const project = offlineProject(idea, type);
  const register = headings(project).map((m) => ({
    id: m[1]!,
    priority: m[3] as RequirementSlot['priority'],
  }));
  const written = { idea, register, ...project };
  const assumptions = project.definition.questionnaire.assumptions ?? [];
  const at = assumptions.findIndex((a) => /\bsign in\b/i.test(a));
  const { definition } = answerRegister(project.definition, [
    { id: `A-${at + 1}`, question: assumptions[at]!, answer: 'No accounts' },
  ]);
  return { written, answered: revise(written, definition, register) };
}

/** The change request "Remove sign-in" read and applied, as the server applies its deltas. */
function signInRemoved(answered: Revised): { deltas: RequirementDelta[]; removed: Revised } {
  const deltas = readChangeRequest({
    idea: answered.idea,
    definition: answered.definition,
    changeRequest: 'Remove sign-in',
    requirements: headings(answered).map((m) => ({ id: m[1]!, title: m[2]! })),
    nextNumber: answered.register.length + 1,
  });
  const gone = new Set(deltas.filter((d) => d.op === 'removed').map((d) => d.id));
  const q = answered.definition.questionnaire;
  const kept = answered.register.flatMap((slot, i) =>
    gone.has(slot.id) ? [] : [{ slot, feature: q.coreFeatures[i]! }],
  );
  const definition = {
    ...answered.definition,
    questionnaire: { ...q, coreFeatures: kept.map((k) => k.feature) },
  };
  const removed = revise(
    answered,
    definition,
    kept.map((k) => k.slot),
  );
  return { deltas, removed };
}

/** Words of accounts and signing in; the team's answer and the decision quoting it aside. */
const ACCOUNTS =
  /\baccount\b|\bsign(?:s|ed)? (?:\w+ )?(?:in|out)\b|\bsign-?(?:in|out|up)\b|\bsigned-in\b|\bsessions?\b|\b401\b|\bcreated_by\b/i;
const quoted = (content: string) =>
  content
    .split('\n')
    .filter((line) => !/No accounts|the team's answer on sign-in|^- \*\*D-\d+\*\*/i.test(line))
    .join('\n');

describe.each([
  ['web', 'A habit tracker for remote teams', 'api-design', /keeps a session cookie/],
  ['mobile', 'A habit tracker for remote teams', 'screens', /^### Sign in$/m],
] as const)(
  'a %s project answered "No accounts" after it was written (docs/clarify.md#answer-later)',
  (type, idea, kind, signsIn) => {
    const { written, answered } = answeredLater(idea, type);
    const signIn = headings(written).find((m) => /^Sign in\b/.test(m[2]!))!;

    it('keeps its sign-in requirement, and every document keeps signing in with it', () => {
      expect(signIn).toBeDefined();
      expect(headings(answered).map((m) => m[0])).toEqual(headings(written).map((m) => m[0]));
      const block = (p: OfflineProject) =>
        docOf(p, 'product-requirements')
          .split(/^### /m)
          .find((b) => b.startsWith(signIn[1]!));
      expect(block(answered)).toBe(block(written));
      expect(docOf(written, kind)).toMatch(signsIn);
      expect(docOf(answered, kind)).toMatch(signsIn);
      for (const { kind: other, content } of answered.documents)
        if (other !== 'project-brief')
          expect(content, other).not.toMatch(/has no accounts|without accounts|install key/i);
      const citing = ['user-stories', 'architecture', 'implementation-plan'].filter((k) =>
        answered.documents.some((d) => d.kind === k),
      );
      for (const k of citing) expect(docOf(answered, k), k).toContain(signIn[1]!);
    });

    it('records the answer as a decision and tells the change request that removes sign-in', () => {
      const brief = docOf(answered, 'project-brief');
      expect(brief).toMatch(/^- \*\*D-1\*\* \(answers A\\-\d+, ".*"\): No accounts$/m);
      expect(brief).toContain(
        `but ${signIn[1]} (${signIn[2]}) still signs people in: an answer removes no requirement`,
      );
      expect(brief).toContain('send the change request "Remove sign-in"');
      expect(brief).not.toMatch(/has no accounts, so/);
    });

    it('is account-free in every document once "Remove sign-in" removes the requirement', () => {
      const { deltas, removed } = signInRemoved(answered);
      expect(deltas).toEqual([expect.objectContaining({ op: 'removed', id: signIn[1] })]);
      expect(headings(removed).map((m) => m[1])).not.toContain(signIn[1]);
      for (const { kind: other, content } of removed.documents)
        expect(quoted(content), other).not.toMatch(ACCOUNTS);
      expect(docOf(removed, 'project-brief')).toMatch(/has no accounts, so/);
      expect(docOf(removed, 'project-brief')).not.toContain('Remove sign-in');
    });
  },
);

describe('a project whose idea names its sign-in, answered "No accounts" (docs/clarify.md#answers-as-facts)', () => {
  const idea =
    'A web app for book clubs to schedule meetings, vote on books and sign in with Google';
  const project = offlineProject(idea, 'web', {
    answers: [{ question: 'sign-in', answer: 'No accounts' }],
  });

  it("keeps the idea's sign-in and its accounts, and names the change request that drops them", () => {
    const signIn = headings(project).find((m) => m[2] === 'Sign in with Google');
    expect(signIn).toBeDefined();
    expect(docOf(project, 'api-design')).toMatch(/keeps a session cookie/);
    expect(docOf(project, 'api-design')).not.toMatch(/has no accounts/);
    expect(docOf(project, 'project-brief')).toContain(
      `but ${signIn![1]} (Sign in with Google) still signs people in`,
    );
  });
});
