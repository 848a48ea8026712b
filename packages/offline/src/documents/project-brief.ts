/**
 * The project brief: why the product exists, whom it serves, what its first release must achieve,
 * its goals, risks, assumptions and open questions (the register `G/R/A/Q-n`).
 */
import { goalsOf, phrase, risksOf } from '../facts/brief-model.ts';
import type { Facts, Requirement } from '../facts/facts.ts';
import { theService } from '../facts/facts.ts';
import { keptPerInstall, settledOf, withoutAccounts } from '../facts/settled.ts';
import { keptSignInNote } from '../facts/without-accounts.ts';
import { namesPeople } from '../reading/reading-people.ts';
import {
  blocks,
  bold,
  bullets,
  definingTable,
  type FlowContent,
  h3,
  type Inline,
  joined,
  p,
  t,
  table,
} from '../text/nodes.ts';
import { capitalize, decapitalize, gerund, listing, participle } from '../text/words.ts';
import type { KindWriter } from './kind.ts';
import { setupAssumption } from './settled-text.ts';

const quals = (req: Requirement) =>
  req.qualifiers.length > 0 ? ` ${req.qualifiers.join(' ')}` : '';

/** What the idea needs a feature to do, in its own terms. */
function need(f: Facts, req: Requirement): Inline {
  const holding =
    req.qualifiers.length > 0
      ? t` The idea is specific: ${listing(req.qualifiers.map((q) => `"${q}"`))}.`
      : '';
  if (req.kind === 'create')
    return t`each ${req.ent.label} is recorded once, by whoever ${req.verb === 'keep' ? 'keeps' : `${req.verb}s`} it, and found again by whoever needs it next.${holding}`;
  if (req.kind === 'send')
    return t`each ${req.ent.label} goes out${quals(req)} at the right moment, without someone remembering to send it.${holding}`;
  if (req.kind === 'read')
    return t`${f.type === 'mcp' ? f.assistant : 'they'} get${f.type === 'mcp' ? 's' : ''} ${req.object}${quals(req)} from current data, in one step.${req.qualifiers.length > 1 ? holding : ''}`;
  return t`${req.object} ${/s$/.test(req.object) ? 'are' : 'is'} ${participle(req.verb)}${quals(req)} the same way every time, with a record of who did it.`;
}

/**
 * The decisions of the register (docs/clarify.md#answer-later): each answer that closed an
 * assumption or a question, which is no longer listed above. The closed ID is text (the
 * definition's strings are inert): it is defined nowhere any more, and never given out again.
 */
function decisions(f: Facts): FlowContent[] {
  if (f.decisions.length === 0) return [];
  return [
    h3('Decisions'),
    bullets(
      f.decisions.map(
        (d) => t`${bold(d.id)} (answers ${d.answers}, "${d.question.trim()}"): ${d.answer}`,
      ),
    ),
  ];
}

/**
 * The writers of Project Brief (PROJECT_BRIEF.md): one per section of the catalogue's `project-
 * brief`, so a section missing or renamed there fails the build.
 */
export const PROJECT_BRIEF = {
  purpose:
    'This brief sets out why it exists, whom it serves and what its first release must achieve',
  sections: {
    Overview: (f) =>
      blocks(
        p`${f.name} is ${f.aLabel} for ${f.who}, from this idea: "${f.idea}"`,
        p`Its first release does ${f.requirements.length === 1 ? 'one thing' : `${f.requirements.length} things`}, each a core feature of the definition:`,
        bullets(
          f.requirements.map(
            (r) => t`${bold(r.text)}${r.service ? t`, through ${theService(r.service.name)}` : ''}`,
          ),
        ),
        p`${f.name} runs on ${listing(f.platforms)} and is built with ${listing(f.stack.slice(0, 4))}.${f.constraints.length > 0 ? t` It holds to: ${joined(f.constraints.map(decapitalize), '; ')}.` : ''}`,
        settledOf(f).answered.payment !== undefined &&
          p`How ${f.name} is paid for, as the team answered: "${settledOf(f).answered.payment!}".`,
      ),

    Problem: (f) =>
      blocks(
        p`${capitalize(f.who)} need ${f.type === 'mcp' ? `${f.assistant} ` : ''}to ${listing(f.requirements.filter((r) => r.fromIdea).map(phrase)) || listing(f.requirements.map(phrase))}. For each, the problem ${f.name} solves is that:`,
        bullets(f.requirements.map((r) => t`${bold(r.text)}: ${need(f, r)}`)),
        p`The idea does not say how ${f.who} do this today, nor what it costs them, and this brief for ${f.name} does not guess. Each gap is an assumption with the default chosen (${f.assumptions.length > 0 ? `${f.assumptions[0]!.id} to ${f.assumptions.at(-1)!.id}` : 'none left open'}), or an open question for the client (${f.questions.map((q) => q.id).join(', ') || 'none yet'}).`,
      ),

    'Target audience': (f) => {
      const rows: Inline[][] = [
        [
          capitalize(f.who),
          f.reading.audience
            ? 'The audience the idea names'
            : 'No audience is named; a neutral description',
          listing(f.requirements.map(phrase)),
        ],
      ];
      for (const r of f.requirements) {
        const party = r.qualifiers
          .map((q) => /^(?:with|to|for)\s+(?:(?:a|an|the)\s+)?([\w-]+(?:\s[\w-]+)?)$/i.exec(q)?.[1])
          .find((p) => p && namesPeople(p));
        const named = party ?? (r.kind === 'send' && namesPeople(r.object) ? r.object : undefined);
        if (named)
          rows.push([
            capitalize(named),
            t`Named in "${r.text}"`,
            t`Receive what ${f.name} ${r.kind === 'send' ? 'sends' : 'shares'}`,
          ]);
      }
      if (f.type === 'mcp')
        rows.push([
          capitalize(f.assistant),
          'The AI client the idea names',
          t`Calls the tools of ${f.name}; it is a client, not an audience`,
        ]);
      rows.push([
        t`Whoever sets ${f.name} up`,
        setupAssumption(f) === undefined && settledOf(f).answered.signIn
          ? "Not named in the idea; the team's answer on sign-in"
          : t`Not named in the idea (${setupAssumption(f) ?? f.assumptions[0]?.id ?? 'no assumption left open'})`,
        f.type === 'mcp'
          ? 'Installs the server and gives it credentials'
          : keptPerInstall(f)
            ? t`Installs ${f.name} first and tells the others where to get it; no one signs up`
            : withoutAccounts(f)
              ? t`Puts ${f.name} online and shares its address with the others`
              : 'Creates the account and invites the others',
      ]);
      return blocks(
        settledOf(f).answered.audience === undefined
          ? p`${f.name} is for ${bold(f.who)}${f.reading.audience ? ', in the words of the idea' : ''}. Nothing else is known about them: no size, habit or setting is assumed beyond ${f.assumptions[0]?.id ?? 'the assumptions'}.`
          : p`${f.name} is for ${bold(f.who)}, and the team answered who they are: "${settledOf(f).answered.audience!}". Nothing beyond that answer is assumed about them.`,
        table(['Who', 'Where they come from', t`What they do with ${f.name}`], rows),
      );
    },

    'Goals and success metrics': (f) =>
      blocks(
        p`${f.name} succeeds when ${f.who} can rely on ${listing(
          f.requirements
            .filter((r) => r.priority === 'Must')
            .slice(0, 3)
            .map((r) => gerund(phrase(r))),
        )}. The targets are starting values (an assumption, below), to be agreed with the client.`,
        definingTable(
          ['ID', 'Goal', 'Metric', 'Target', 'How measured'],
          goalsOf(f).map((g) => [g.id, g.goal, g.metric, g.target, g.measured]),
        ),
      ),

    Scope: (f) =>
      blocks(
        p`${bold('In scope')} for the first release of ${f.name}: the core features, as the idea words them.`,
        bullets(
          f.requirements.map(
            (r) =>
              t`${r.text}${r.fromIdea ? '' : ` (needed for the others, not named in the idea)`}`,
          ),
        ),
        p`${bold('Out of scope')} for ${f.name}'s first release:`,
        bullets(
          f.nonGoals.length > 0
            ? f.nonGoals
            : [t`Anything beyond ${listing(f.requirements.map(phrase))}`],
        ),
        f.constraints.length > 0 &&
          p`${bold('Constraints')} that bound it: ${joined(f.constraints, '; ')}.`,
      ),

    Risks: (f) =>
      blocks(
        p`What could stop ${f.name} from delivering ${listing(f.requirements.slice(0, 2).map(phrase))}, and how each risk is kept small. Risks of high impact get a spike in the implementation plan before the work they threaten.`,
        definingTable(
          ['ID', 'Risk', 'Likelihood', 'Impact', 'Mitigation'],
          risksOf(f).map((r) => [r.id, r.risk, r.likelihood, r.impact, r.mitigation]),
        ),
      ),

    'Assumptions and open questions': (f) =>
      blocks(
        p`Where the idea is silent, ${f.name}'s documents rest on these defaults rather than on invented facts; each can change once the client answers.`,
        h3('Assumptions'),
        definingTable(
          ['ID', 'Assumption', 'Default chosen'],
          f.assumptions.map((a) => [a.id, a.fact, a.choice]),
        ),
        h3('Open questions'),
        f.questions.length > 0
          ? definingTable(
              ['ID', 'Question', 'Impact', 'Affects'],
              f.questions.map((q) => [q.id, q.question, q.impact, q.affects]),
            )
          : p`The idea leaves no question only the client can answer for ${f.name}.`,
        decisions(f),
        keptSignInNote(f) === undefined ? [] : p`${keptSignInNote(f)!}`,
      ),
  },
} satisfies KindWriter<'project-brief'>;
