import { choose } from './facts.ts';
import { blocks, bullets, numbered, table } from './markdown.ts';
import { laterScope, lead, lower, type SectionWriter } from './phrases.ts';
import { capitalize, decapitalize, gerund, listing } from './words.ts';

const PAINS = [
  (doing: string) =>
    `${doing} takes several tools and a reminder to someone else, so it is often postponed or done twice.`,
  (doing: string) =>
    `${doing} depends on whoever remembers the details; when that person is away, it stalls.`,
  (doing: string) => `${doing} leaves no trace, so nobody can tell later what was decided and why.`,
];

export const BRIEF_SECTIONS: Record<string, SectionWriter> = {
  'project-brief/Overview': (f) =>
    blocks(
      `${f.name} is ${f.aLabel} for ${f.audienceShort}. It exists to let ${f.type === 'mcp' ? 'their assistant' : 'them'} ${f.purpose}, and it grew out of a single sentence: "${f.idea}". ` +
        `Everything in this brief, and in the documents that follow it, keeps that sentence in view: the ${f.main.plural} it works with, the people it serves and the outcome they want.`,
      `The first release delivers ${f.features.length} core capabilities:`,
      bullets(f.features.map((feature) => `**${feature}**`)),
      `${f.name} runs on ${listing(f.platforms)} and is built with ${listing(f.stack.slice(0, 4))}. ` +
        `It is paid for through a simple model: ${decapitalize(f.monetization)}.`,
    ),

  'project-brief/Problem': (f) =>
    blocks(
      `${choose(f, 'problem-opening', [
        `Today ${f.audienceShort} ${f.type === 'mcp' ? 'copy text between their assistant and other tools by hand' : 'juggle spreadsheets, chat threads and memory'} when they need to ${f.purpose}.`,
        `For ${f.audienceShort}, the work behind "${f.idea}" is scattered: part lives in chat, part in ${f.type === 'mcp' ? 'browser tabs' : 'a spreadsheet'} and part in someone's head.`,
      ])} The result is lost time, duplicated effort and decisions made on stale information.`,
      'The concrete pains we heard while shaping this idea:',
      bullets([
        ...f.actions.map((action) =>
          choose(f, `pain|${action}`, PAINS)(capitalize(gerund(lower(action)))),
        ),
        f.type === 'mcp'
          ? `The assistant cannot see ${f.main.plural} at all, so its answers about them are guesses.`
          : `Nobody has a single, trustworthy list of ${f.main.plural}; each person keeps their own copy.`,
        `There is no history, so questions such as "who changed this ${f.main.label} and when?" cannot be answered.`,
      ]),
      f.type === 'mcp'
        ? `${f.name} removes these pains by giving the assistant safe, well-described tools for ${f.main.plural}, so the answer comes from the real data in the same conversation.`
        : `${f.name} removes these pains by giving ${f.main.plural} one home, by making the core actions one or two steps long, and by keeping a history that everyone involved can rely on.`,
    ),

  'project-brief/Target audience': (f) =>
    blocks(
      `The primary audience is **${f.audience}**. ${f.audience.includes(' who ') ? 'They' : `They share a need to ${f.purpose} and`} have little patience for set-up or training; ` +
        `${f.name} has to be useful within the first five minutes.`,
      table(
        ['Persona', 'Role', `What they need from ${f.name}`],
        [
          [
            f.personas[0].name,
            f.personas[0].role,
            `to ${lower(lead(f))} quickly, several times a week`,
          ],
          [
            f.personas[1].name,
            f.personas[1].role,
            f.type === 'mcp'
              ? 'a set-up that takes one command and one config entry'
              : `confidence that ${f.main.plural} are complete and correct`,
          ],
          [
            f.personas[2].name,
            f.personas[2].role,
            f.type === 'mcp'
              ? 'proof that the assistant can only do what it was allowed to'
              : 'a short summary of what changed since the last visit',
          ],
        ],
      ),
      f.type === 'mcp'
        ? `Secondary audiences are the security reviewers who approve new integrations and the owners of the systems ${f.name} connects to. It is not built for unattended automation without a person in the loop.`
        : `Secondary audiences include people who only receive updates from ${f.name} and never sign in, and the buyers who pay for it. It is not built for large enterprises with bespoke compliance processes; their needs would slow down the first release.`,
    ),

  'project-brief/Goals and success metrics': (f) =>
    blocks(
      `${f.name} succeeds when ${f.audienceShort} choose it over their current workaround. Three goals follow from that:`,
      numbered([
        `Make it effortless to ${lower(lead(f))}.`,
        f.type === 'mcp'
          ? `Give the assistant accurate, current answers about ${f.main.plural}.`
          : `Keep every ${f.main.label} in one place, with its history.`,
        `Earn revenue through the chosen model (${decapitalize(f.monetization)}).`,
      ]),
      'We will measure progress with these metrics, reviewed every two weeks after launch:',
      table(
        ['Metric', 'How it is measured'],
        f.metrics.map((metric) => [
          metric,
          choose(f, metric, [
            'product analytics events, anonymised',
            'a weekly cohort report',
            f.type === 'mcp' ? 'server metrics per tool' : 'store and survey data',
          ]),
        ]),
      ),
    ),

  'project-brief/Scope': (f) =>
    blocks(
      `**In scope for the first release** of ${f.name}:`,
      bullets(f.features),
      '**Later, once the first release has proven itself:**',
      bullets(laterScope(f)),
      `**Out of scope:** anything that does not help ${f.audienceShort} ${f.purpose}. Requests outside that line go to the backlog with the ` +
        'name of the person who asked and the problem they described, not the solution they proposed.',
      `The constraints that bound the scope are: ${f.constraints.map(decapitalize).join('; ')}.`,
    ),

  'project-brief/Risks': (f) =>
    blocks(
      `The main risks to ${f.name}, with how we intend to keep each one small:`,
      table(
        ['Risk', 'Likelihood', 'Impact', 'Mitigation'],
        [
          [
            `${capitalize(f.audienceShort)} keep their current workaround`,
            'Medium',
            'High',
            f.type === 'mcp'
              ? `Ship with prompts that show the value in the first conversation; make ${gerund(lower(lead(f)))} faster than the old way`
              : `Import existing ${f.main.plural} in one step; make ${gerund(lower(lead(f)))} faster than the old way`,
          ],
          [
            f.type === 'mcp'
              ? 'Prompt injection through content the tools return'
              : f.type === 'mobile'
                ? 'Conflicting edits after offline use'
                : 'Load spikes when a whole team signs in at once',
            'Medium',
            'Medium',
            f.type === 'mcp'
              ? 'Treat tool output as data, confirm every write, scope credentials per tool'
              : f.type === 'mobile'
                ? 'Per-field merge with a visible conflict banner'
                : 'Stateless API nodes behind a load balancer, Redis for sessions and queues',
          ],
          [
            'Sensitive data leaks',
            'Low',
            'High',
            f.constraints[0] ?? 'Encrypt at rest and in transit, least-privilege access',
          ],
          [
            'Pricing does not cover costs',
            'Medium',
            'Medium',
            'Review the pricing against 90 days of usage and cost data',
          ],
        ],
      ),
      'Each risk has an owner in the implementation plan and is reviewed at every milestone.',
    ),
};
