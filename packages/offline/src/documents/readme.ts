/**
 * The README: what the product is, its features, stack, how to start it, its structure and how to
 * contribute; a grounded project describes the repository as it is.
 */

import { EXISTING_STACK_HEADERS, existingStack } from '../codebase/index.ts';
import { phrase } from '../facts/brief-model.ts';
import { toolsOf } from '../facts/delivery-model.ts';
import type { Facts } from '../facts/facts.ts';
import { theService } from '../facts/facts.ts';
import { settledOf } from '../facts/settled.ts';
import {
  blocks,
  bold,
  bullets,
  code,
  type Inline,
  ic,
  listingOf,
  p,
  t,
  table,
} from '../text/nodes.ts';
import { decapitalize, gerund, kebab, listing, snake } from '../text/words.ts';
import { rationale } from './architecture.ts';
import { codebaseOf, filesLine, NOT_FOUND, newHome, touchedBy } from './grounded.ts';
import type { KindWriter } from './kind.ts';
import { localRun } from './settled-text.ts';

function featureLine(f: Facts, index: number): Inline {
  const req = f.requirements[index]!;
  const tool =
    f.type === 'mcp' ? toolsOf(f).find((candidate) => candidate.req.id === req.id) : undefined;
  const where = tool
    ? t`the ${ic(tool.name)} tool${tool.writes ? (tool.approval ? ', after approval' : ', after the client confirms') : ', read-only'}`
    : f.type === 'mcp'
      ? t`set up once, in the client configuration`
      : req.kind === 'send'
        ? t`sent by the scheduler${req.service ? t` through ${theService(req.service.name)}` : ''}`
        : t`from the ${req.ent.plural} ${f.type === 'web' ? 'pages' : 'screens'}`;
  return t`${bold(req.text)} (${req.id}): ${where}.`;
}

/**
 * The writers of README (README.md): one per section of the catalogue's `readme`, so a section
 * missing or renamed there fails the build.
 */
export const README = {
  purpose: 'This README is the front page of its repository',
  sections: {
    About: (f) =>
      blocks(
        p(f.description),
        p`It is built for ${f.who} and runs on ${listing(f.platforms)}. The requirements, stories and plan that describe it sit next to this README; the IDs below (FR-n) point into them.`,
      ),

    Features: (f) => {
      const by = (p: string) => f.requirements.filter((r) => r.priority === p);
      return blocks(
        p`What ${f.name} does, each feature with the requirement that specifies it:`,
        bullets(f.requirements.map((_, i) => featureLine(f, i))),
        p`The first release delivers the Must features (${
          by('Must')
            .map((r) => r.id)
            .join(', ') || 'none'
        })${
          by('Should').length > 0
            ? t`, then the Should ones (${by('Should')
                .map((r) => r.id)
                .join(', ')}), which the idea does not name but the others need`
            : ''
        }. Each has its acceptance criteria in the requirements, ${f.requirements.reduce((n, r) => n + r.criteria.length, 0)} in all, and each criterion has a test.`,
      );
    },

    'Tech stack': (f) => [
      table(
        ['Technology', t`Used in ${f.name} for`],
        f.stack.map((tech) => [tech, rationale(f, tech)]),
      ),
    ],

    'Getting started': (f) => {
      const services = f.integrations.filter((i) => !/^(?:email|push|map)\b/i.test(i.name));
      const env = services.map(
        (i) =>
          `${snake(i.name, 2).toUpperCase()}_${/postgres|sqlite/i.test(i.name) ? 'URL' : 'TOKEN'}`,
      );
      const { needs, lines } = localRun(f, env);
      const lead = f.requirements[0]!;
      return blocks(
        p`To run ${f.name} locally you need ${needs}${services.length > 0 ? t`, and credentials for ${listing(services.map((i) => theService(i.name)))}` : ''}.`,
        code('bash', lines.join('\n')),
        services.length > 0 &&
          table(
            ['Variable', 'Holds'],
            services.map((i, n) => [
              ic(env[n]!),
              t`The ${i.name} ${/postgres|sqlite/i.test(i.name) ? 'connection string' : 'token'} ${f.name} uses to ${i.purpose}`,
            ]),
          ),
        f.type === 'mcp'
          ? p`The inspector lists the tools of ${f.name}; call ${ic(toolsOf(f)[0]?.name ?? 'the first tool')} to check the configuration: the answer should meet ${(toolsOf(f)[0]?.req ?? lead).criteria[0]!.id}.`
          : p`Then ${phrase(lead)} once: the result should meet ${lead.criteria[0]!.id}, and the set-up is complete.`,
      );
    },

    'Project structure': (f) => {
      // A Python server's modules are snake_case files, and pytest finds its tests in tests/.
      const python = settledOf(f).stack.runtime === 'Python';
      const file = (name: string, words: number) =>
        python ? `${snake(name, words)}.py` : `${kebab(name, words)}.ts`;
      const tests = python ? 'tests' : 'test';
      const folder = (r: (typeof f.requirements)[number]) =>
        f.type === 'mcp'
          ? `tools/${file(toolsOf(f).find((tool) => tool.req.id === r.id)?.name ?? 'setup', 4)}`
          : `${f.type === 'web' ? 'api' : 'app'}/${r.ent.path}/`;
      const homes = new Map<string, string[]>();
      for (const r of f.requirements) homes.set(folder(r), [...(homes.get(folder(r)) ?? []), r.id]);
      return blocks(
        p`${f.name}'s code is organised by what it acts on, so each requirement has one home:`,
        code(
          'text',
          [
            'src/',
            ...[...homes.keys()].map((h) => `  ${h}`),
            ...f.integrations.map((i) => `  adapters/${file(i.name, 2)}`),
            `${tests}/`,
            'docs/',
          ].join('\n'),
        ),
        bullets(
          [...homes].map(
            ([home, reqs]) =>
              t`${ic(`src/${home}`)}: ${reqs.join(', ')}, with its tests under ${ic(`${tests}/${python ? home.replace(/([^/]+)\.py$/, 'test_$1.py') : home}`)}`,
          ),
        ),
      );
    },

    Contributing: (f) =>
      blocks(
        p`Changes to ${f.name} follow its plan: the test that states a criterion comes first, the code that passes it second.`,
        bullets([
          t`Name the requirement or criterion a change serves (${f.requirements[0]!.criteria[0]!.id}, for instance) in the pull request.`,
          t`Run the tests and the linter before asking for review; ${gerund(phrase(f.requirements.at(-1)!))} must still pass its criteria.`,
          t`A change that needs a new requirement starts with the requirements document, not the code.`,
        ]),
      ),
  },
  grounded: {
    'Tech stack': (f) => {
      const facts = codebaseOf(f);
      return facts.stack.length === 0
        ? [p`The stack of ${ic(facts.name)} is ${NOT_FOUND}.`]
        : blocks(
            p`${f.name} is built into ${ic(facts.name)} and uses its stack:`,
            table(EXISTING_STACK_HEADERS, existingStack(facts)),
          );
    },

    'Getting started': (f) => {
      const facts = codebaseOf(f);
      const command = facts.tests.command;
      return blocks(
        p`${f.name} runs as ${ic(facts.name)} runs today${facts.summary ? '; its README says how' : ''}: nothing new is needed to start it.`,
        command
          ? [
              p`Its tests, as ${ic(facts.tests.commandEvidence ?? facts.manifests[0] ?? 'the repository')} runs them; each requirement's tests join them:`,
              code('bash', command),
            ]
          : p`The command that runs its tests is ${NOT_FOUND}.`,
      );
    },

    'Project structure': (f) => {
      const facts = codebaseOf(f);
      const fresh = [
        ...new Set(
          f.requirements
            .filter((r) => touchedBy(f, r, 1).length === 0)
            .map((r) => newHome(f, r))
            .filter((p) => p !== undefined),
        ),
      ];
      return blocks(
        p`${f.name} lives in the structure ${ic(facts.name)} already has:`,
        facts.components.length > 0
          ? table(
              ['Path', 'Holds'],
              facts.components.slice(0, 20).map((c) => [ic(c.path), c.role]),
            )
          : p`Its components are ${NOT_FOUND}.`,
        fresh.length > 0 && p`New files the plan adds: ${listingOf(fresh.map(ic))}.`,
        bullets(
          f.requirements.map((r) => t`${r.id} (${decapitalize(r.text)}): ${filesLine(f, [r])}`),
        ),
      );
    },
  },
} satisfies KindWriter<'readme'>;
