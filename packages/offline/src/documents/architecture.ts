/**
 * The architecture: context, components citing the FRs they implement, integrations, technology
 * choices with their reasons, data flow, security, deployment and observability; a grounded
 * project starts from the current system.
 */

import { namesTechnology } from '@pgs/contract';
import { componentNode } from '@pgs/contract/document';
import { currentSystem, EXISTING_STACK_HEADERS, existingStack } from '../codebase/index.ts';
import { phrase } from '../facts/brief-model.ts';
import { componentsOf } from '../facts/delivery-model.ts';
import type { Facts, Requirement } from '../facts/facts.ts';
import { theService } from '../facts/facts.ts';
import { databaseOf, keptPerInstall, settledOf, withoutAccounts } from '../facts/settled.ts';
import { LOCAL_STORE, phoneBrowsers } from '../facts/stack-choice.ts';
import {
  blocks,
  bullets,
  type FlowContent,
  h3,
  type Inline,
  ic,
  numbered,
  p,
  t,
  table,
} from '../text/nodes.ts';
import { capitalize, decapitalize, gerund, listing } from '../text/words.ts';
import { codebaseOf, filesLine, hasClient, NOT_FOUND, serviceCode } from './grounded.ts';
import type { KindWriter } from './kind.ts';
import { signsIn, signsInAnswered } from './settled-text.ts';

/** Why a technology of the stack serves this project. */
export function rationale(f: Facts, tech: string): Inline {
  const things = listing(f.entities.slice(0, 3).map((e) => e.plural));
  const lead = f.requirements[0]!;
  const rules: [RegExp, Inline][] = [
    [
      /^TypeScript$/,
      // Beside an API in another language (Python), TypeScript is the client's alone.
      settledOf(f).stack.runtime === 'Python'
        ? t`the language of the ${f.type === 'mobile' ? 'app' : 'web client'}, its types generated from the API's OpenAPI schema`
        : t`one typed language for ${f.name}, so the shape of ${f.main.a} is checked end to end`,
    ],
    [
      /^(?:React|Next\.js|Vite)$/,
      t`the screens to ${listing(f.requirements.slice(0, 2).map(phrase))}`,
    ],
    [
      /^(?:Node\.js|Bun|Deno|Python)$/,
      f.type === 'mcp'
        ? t`runs ${f.name} as a process the MCP client starts`
        : t`runs the API and the jobs behind ${gerund(phrase(lead))}`,
    ],
    [/^(?:Fastify|FastAPI)$/, t`schema-checked routes for ${things}`],
    [/^Flask$/, t`the API's routes for ${things}`],
    [/^Django$/, t`the API's routes, its ORM over the tables of ${things} and their migrations`],
    [
      /^(?:PostgreSQL|MySQL|MariaDB|SQL Server)$/,
      t`keeps ${things} with their relations and history`,
    ],
    [/^(?:Drizzle ORM|SQLAlchemy)$/, t`typed queries over the tables of ${things}`],
    [
      /^(?:Swift|SwiftUI|Kotlin|Jetpack Compose|React Native|Expo|Flutter|Dart|Kotlin \(Jetpack Compose\)|Swift \(SwiftUI\))$/,
      t`the app ${f.who} use to ${phrase(lead)}`,
    ],
    [/^TypeScript$|^Dart$/, 'one language for the app and its tests'],
    [
      LOCAL_STORE,
      t`keeps ${things} on the phone${f.requirements.some((r) => r.qualifiers.includes('offline')) ? ', so the offline features work' : ''}`,
    ],
    [
      /^(?:@modelcontextprotocol\/sdk|MCP .+ SDK\b.*)$/,
      t`the MCP protocol for ${f.assistant}: tools, resources and prompts`,
    ],
    [
      /^(?:Zod|Pydantic)$/,
      t`input schemas for the tools, checked before any call to ${listing(f.integrations.map((i) => theService(i.name))) || 'upstream'}`,
    ],
    [/^pytest$/, t`the tests that state each acceptance criterion, one per criterion`],
  ];
  for (const [pattern, why] of rules) if (pattern.test(tech)) return why;
  const user = f.requirements.find(
    (r) => r.service && tech.toLowerCase().includes(r.service.name.toLowerCase().split(' ')[0]!),
  );
  if (user) return t`reaches ${theService(user.service!.name)} to ${phrase(user)}`;
  if (settledOf(f).stack.required.some((name) => namesTechnology(tech, name)))
    return t`required by the house conventions for ${f.name}`;
  return t`chosen for ${f.name} when it was defined`;
}

function integrationRow(f: Facts, name: string, purpose: string): Inline[] {
  const users = f.requirements.filter((r) => r.service?.name === name);
  const failure = users.flatMap((r) => r.criteria.filter((c) => c.role === 'unwanted'));
  const question = f.questions.find((q) => q.question.includes(name));
  const data = /postgres|sqlite|mysql|warehouse|database/i.test(`${name} ${purpose}`);
  return [
    name,
    t`${capitalize(purpose)}${users.length > 0 ? ` (${users.map((r) => r.id).join(', ')})` : ''}`,
    data
      ? 'A database role that can only read'
      : f.type === 'mcp'
        ? t`A token of the user's own ${name} account, from the environment`
        : t`An API key of the client's ${name} account, held by the adapter`,
    t`The limits of the client's plan${question ? ` (${question.id})` : ''}; ${f.name} sends one request per ${users[0]?.ent.label ?? 'action'} and never polls`,
    t`Billed to the client's ${name} account${question ? ` (${question.id})` : ''}`,
    failure.length > 0
      ? t`Errors or time-outs (${failure.map((c) => c.id).join(', ')})`
      : 'Errors or time-outs',
    users.some((r) => r.kind === 'send')
      ? 'Retry once after 10 minutes, then mark it failed'
      : 'Stop, change nothing, report the failed call',
  ];
}

function flow(f: Facts, req: Requirement): Inline[] {
  const via = req.service ? theService(req.service.name) : undefined;
  if (f.type === 'mcp')
    return [
      t`${capitalize(f.assistant)} decides to ${phrase(req)} and calls the matching tool of ${f.name}.`,
      t`The handler checks the arguments against the tool's schema${req.writes && !f.readOnly ? ' and asks the client to confirm' : ''}.`,
      t`It calls ${via ?? 'the upstream system'} once, with a time-out of 10 seconds.`,
      t`It returns ${req.kind === 'read' ? t`the ${req.ent.plural} found` : t`the ${req.ent.label} it changed, with a link`}, or a tool error naming the failed call (${req.criteria.at(-1)!.id}).`,
    ];
  if (req.kind === 'send')
    return [
      t`The scheduler finds each ${req.ent.label} that is due (${req.criteria[0]!.id}).`,
      t`It hands the ${req.ent.label} to ${via ?? 'the delivery service'} and records the attempt.`,
      t`A failure is retried once, then marked failed for a person to see (${req.criteria.at(-1)!.id}).`,
    ];
  return [
    t`${capitalize(f.role)} chooses to ${phrase(req)} on ${f.type === 'mobile' ? 'the phone' : 'a screen of the web client'}.`,
    t`${f.type === 'mobile' ? `The app writes it to the local store, then` : 'The client'} sends it to the API with an idempotency key.`,
    t`The ${capitalize(req.ent.plural)} service checks ${withoutAccounts(f) ? (keptPerInstall(f) ? 'the install key, the input' : 'the input') : 'the account'} and the rules of ${req.id}, then writes the ${req.ent.label} and its history in one transaction.`,
    t`${via ? t`The ${req.service!.name} adapter calls ${via}, and the` : 'The'} answer reaches the screen within the 2 seconds of ${req.criteria[0]!.id}.`,
  ];
}

/** The context: who uses it, the services it calls, where it runs. */
const context = (f: Facts): FlowContent[] =>
  blocks(
    p`${f.name} is ${f.aLabel} for ${f.who}. This architecture shows which part of it implements each requirement, ${f.requirements[0]!.id} to ${f.requirements.at(-1)!.id}, and what it depends on outside itself.`,
    bullets([
      t`People: ${f.who}${f.type === 'mcp' ? t`, through ${f.assistant}` : ''}`,
      t`Services: ${listing(f.integrations.map((i) => theService(i.name))) || t`none; everything runs inside ${f.name}`}`,
      t`Runs on: ${listing(f.platforms)}`,
    ]),
  );

/** A component: its heading, then what it is for, what it implements and (grounded) its code. */
const component = (name: string, body: readonly (FlowContent | false)[]) =>
  componentNode(blocks(h3(name), body));

/** What a component implements, or that it implements nothing on its own. */
const implementing = (ids: readonly string[]) =>
  ids.length > 0
    ? p`Implements: ${ids.join(', ')}`
    : p`It carries the others and implements no requirement on its own.`;

/**
 * The writers of Architecture (ARCHITECTURE.md): one per section of the catalogue's
 * `architecture`, so a section missing or renamed there fails the build.
 */
export const ARCHITECTURE = {
  purpose: 'This architecture explains how it is built and why each part is there',
  sections: {
    Context: context,

    Components: (f) =>
      blocks(
        p`Each component of ${f.name} has one responsibility and names the requirements it implements.`,
        componentsOf(f).map((c) =>
          component(c.name, [p(c.responsibility), implementing(c.implements)]),
        ),
      ),

    Integrations: (f) => {
      const answer = settledOf(f).answered.integrations;
      const named = answer !== undefined && !/^(?:none|no|nothing)\b/i.test(answer);
      const said =
        named &&
        p`The team's answer on the services ${f.name} works with: "${answer}". Each service it names gets an adapter that alone holds its credentials, with its limits, cost and failure mode settled before the first task that calls it.`;
      return f.integrations.length === 0
        ? blocks(
            named
              ? p`The idea names no external service, and ${listing(f.requirements.map(phrase))} ${f.requirements.length === 1 ? 'runs' : 'run'} on its own components.`
              : p`${f.name} uses no external service: the idea names none, and ${listing(f.requirements.map(phrase))} ${f.requirements.length === 1 ? 'runs' : 'run'} on its own components.`,
            said,
          )
        : blocks(
            p`The services ${f.name} depends on, as the definition names them:`,
            table(
              [
                'Service',
                'Used for',
                'Auth',
                'Quotas and rate limits',
                'Cost',
                'Failure mode',
                'Fallback',
              ],
              f.integrations.map((i) => integrationRow(f, i.name, i.purpose)),
            ),
            said,
          );
    },

    'Technology choices': (f) =>
      blocks(
        p`The stack was settled in ${f.name}'s definition; what each part does here:`,
        table(
          ['Technology', t`Its job in ${f.name}`],
          f.stack.map((tech) => [tech, rationale(f, tech)]),
        ),
      ),

    'Data flow': (f) => {
      const lead =
        f.requirements.find((r) => r.priority === 'Must' && r.kind !== 'send') ??
        f.requirements[0]!;
      const timed = f.requirements.find((r) => r.kind === 'send' && r !== lead);
      return blocks(
        p`How "${lead.text}" (${lead.id}) travels through ${f.name}:`,
        numbered(flow(f, lead)),
        timed && p`And how "${timed.text}" (${timed.id}) does:`,
        timed && numbered(flow(f, timed)),
      );
    },

    Security: (f) =>
      blocks(
        p`What ${f.name} protects, and how:`,
        bullets([
          f.type === 'mcp'
            ? t`${listing(f.integrations.map((i) => theService(i.name))) || 'Upstream'} credentials come from the environment and never appear in a tool result or a log line (NFR-3).`
            : keptPerInstall(f)
              ? t`${f.name} has no accounts: no one signs up, and each phone keeps its ${listing(f.entities.slice(0, 2).map((e) => e.plural))} under a random install key the app makes at first launch, which names no one; the API serves an install only its own rows, checks every input and limits each install (NFR-3).`
              : withoutAccounts(f)
                ? t`${f.name} has no accounts: no one signs up, and anyone with its address can read and change its ${listing(f.entities.slice(0, 2).map((e) => e.plural))}, so it checks every input, limits each client address and stores no personal data beyond what people type (NFR-3).`
                : t`Each request is checked against the signed-in account: no one reads or changes another account's ${listing(f.entities.slice(0, 2).map((e) => e.plural))} (NFR-3).`,
          ...(f.type !== 'mcp' && signsInAnswered(f)
            ? [
                t`${f.name} ${signsIn(f)}; no request is served to a session that has not signed in.`,
              ]
            : []),
          ...(f.readOnly
            ? [t`${f.name} connects with credentials that can only read; every tool is read-only.`]
            : []),
          ...f.requirements
            .filter((r) => r.criteria.some((c) => c.role === 'approval'))
            .map(
              (r) =>
                t`Requests to ${r.verb} ${r.object} wait for an approval the tool itself checks (${r.criteria.find((c) => c.role === 'approval')!.id}).`,
            ),
          ...f.integrations
            .filter((i) => !/postgres|sqlite/i.test(i.name))
            .map(
              (i) =>
                t`Only the ${i.name} adapter holds the ${i.name} credentials; the rest of ${f.name} never sees them.`,
            ),
          f.type === 'mcp'
            ? t`Text that comes back from ${listing(f.integrations.map((i) => i.name)) || 'upstream'} is passed to ${f.assistant} as data, never followed as instructions.`
            : t`Traffic is encrypted with TLS; ${f.main.plural} are encrypted at rest by the database host.`,
        ]),
      ),

    Deployment: (f) =>
      blocks(
        f.type === 'mcp'
          ? p`${f.name} ships as ${settledOf(f).stack.tools?.package ?? 'a package'} that ${f.assistant} starts over stdio, and as a container image for Streamable HTTP when a team shares one.`
          : f.selfHosted
            ? p`${f.name} is self-hosted: one ${settledOf(f).stack.allows('Docker') ? 'Docker ' : ''}Compose file runs the ${f.type === 'web' ? 'web client, ' : ''}API, the scheduler and ${databaseOf(f, 'the database')} on the organisation's own server.`
            : f.type === 'mobile'
              ? p`The app ships through ${listing(f.platforms.map((platform) => (platform === 'Android' ? 'Google Play' : 'the App Store')))}; its API runs as a container next to a managed ${databaseOf(f, 'database')}.`
              : p`${f.name} runs as containers: the web client on a CDN, the API and the scheduler on a container platform, and a managed ${databaseOf(f, 'database')}.`,
        f.type === 'web' &&
          phoneBrowsers(f.platforms).length > 0 &&
          p`The web client is mobile-first: a web app manifest and a service worker let people install ${f.name} to their phone's home screen as a progressive web app, and each release is tested in ${listing(phoneBrowsers(f.platforms))}.`,
        p`Each change to ${f.name} goes through CI (types, tests, the trace of ${f.requirements.map((r) => r.id).join(', ')}) and then staging before it is released${f.type === 'mcp' ? '; a renamed tool is a new major version' : '; database migrations run before the new version takes traffic'}.`,
      ),

    Observability: (f) =>
      blocks(
        p`What ${f.name} records so that its goals can be measured and its failures found:`,
        table(
          ['Signal', t`What it tells about ${f.name}`],
          [
            ...f.requirements
              .slice(0, 4)
              .map((r) => [
                t`${capitalize(gerund(phrase(r)))}: count, duration, failures`,
                t`Whether ${gerund(decapitalize(r.text))} works as ${r.criteria[0]!.id} says`,
              ]),
            ...f.integrations.map((i) => [
              t`Calls to ${i.name}: latency and errors`,
              t`When ${theService(i.name)} is the cause of a failure`,
            ]),
            [
              'Logs, one JSON line per request',
              t`Which request failed, without the content of any ${f.main.label}`,
            ],
          ],
        ),
      ),
  },
  grounded: {
    'Current system': (f) => currentSystem(codebaseOf(f)),

    Context: (f) =>
      blocks(
        context(f),
        p`${f.name} is a change to ${ic(codebaseOf(f).name)}${codebaseOf(f).commit ? t` at commit ${ic(codebaseOf(f).commit!)}` : ''}: the components below are built into the current system above, on its stack, and CODEBASE_OVERVIEW.md maps the rest of it.`,
      ),

    Components: (f) =>
      blocks(
        p`Each component of ${f.name} has one responsibility, names the requirements it implements and the code of ${ic(codebaseOf(f).name)} it lives in.`,
        componentsOf(f).map((c) => {
          const reqs = f.requirements.filter((r) =>
            c.implements.some((id) => id === r.id || id.startsWith(`${r.id}.`)),
          );
          const facts = codebaseOf(f);
          // An adapter for a service the code already calls is that code.
          const calls = facts.externalServices.find((s) => c.name === `${s.name} adapter`);
          const client = /^(?:Web client|App screens)$/.test(c.name);
          return component(c.name, [
            p(c.responsibility),
            implementing(c.implements),
            calls
              ? p`Code: ${serviceCode(facts, calls.name) ?? 'undefined'} (exists)`
              : client && !hasClient(facts)
                ? p`Code: the digest of ${ic(facts.name)} holds no client code; the screens are new, or live in another repository.`
                : reqs.length > 0 && p`Code: ${filesLine(f, reqs)}`,
          ]);
        }),
      ),

    'Technology choices': (f) => {
      const facts = codebaseOf(f);
      return facts.stack.length === 0
        ? [
            p`The stack of ${ic(facts.name)} is ${NOT_FOUND}: no manifest names a technology, so none is chosen here; the team settles it before the first task.`,
          ]
        : blocks(
            p`${f.name} keeps the stack ${ic(facts.name)} already runs on; nothing is replaced, and a technology is added only where a requirement needs one the stack lacks.`,
            table(EXISTING_STACK_HEADERS, existingStack(facts)),
          );
    },
  },
} satisfies KindWriter<'architecture'>;
