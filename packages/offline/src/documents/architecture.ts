/**
 * The architecture: context, components citing the FRs they implement, integrations, technology
 * choices with their reasons, data flow, security, deployment and observability; a grounded
 * project starts from the current system.
 */

import { EXISTING_STACK_HEADERS, existingStack, renderCurrentSystem } from '../codebase/index.ts';
import { phrase } from '../facts/brief-model.ts';
import { componentsOf } from '../facts/delivery-model.ts';
import type { Facts, Requirement, SectionWriter } from '../facts/facts.ts';
import { theService } from '../facts/facts.ts';
import { blocks, bullets, ic, numbered, table } from '../text/markdown.ts';
import { capitalize, decapitalize, gerund, listing } from '../text/words.ts';
import { codebaseOf, filesLine, hasClient, NOT_FOUND, serviceCode } from './grounded.ts';
import type { KindWriter } from './kind.ts';

/** Why a technology of the stack serves this project. */
export function rationale(f: Facts, tech: string): string {
  const things = listing(f.entities.slice(0, 3).map((e) => e.plural));
  const lead = f.requirements[0]!;
  const rules: [RegExp, string][] = [
    [
      /^TypeScript$/,
      `one typed language for ${f.name}, so the shape of ${f.main.a} is checked end to end`,
    ],
    [
      /^(?:React|Next\.js|Vite)$/,
      `the screens to ${listing(f.requirements.slice(0, 2).map(phrase))}`,
    ],
    [
      /^Node\.js$/,
      f.type === 'mcp'
        ? `runs ${f.name} as a process the MCP client starts`
        : `runs the API and the jobs behind ${gerund(phrase(lead))}`,
    ],
    [/^Fastify$/, `schema-checked routes for ${things}`],
    [/^PostgreSQL$/, `keeps ${things} with their relations and history`],
    [/^Drizzle ORM$/, `typed queries over the tables of ${things}`],
    [
      /^(?:Swift|SwiftUI|Kotlin|Jetpack Compose|React Native|Expo|Flutter|Dart|Kotlin \(Jetpack Compose\)|Swift \(SwiftUI\))$/,
      `the app ${f.who} use to ${phrase(lead)}`,
    ],
    [/^TypeScript$|^Dart$/, 'one language for the app and its tests'],
    [
      /^SQLite/,
      `keeps ${things} on the phone${f.requirements.some((r) => r.qualifiers.includes('offline')) ? ', so the offline features work' : ''}`,
    ],
    [
      /^@modelcontextprotocol\/sdk$/,
      `the MCP protocol for ${f.assistant}: tools, resources and prompts`,
    ],
    [
      /^Zod$/,
      `input schemas for the tools, checked before any call to ${listing(f.integrations.map((i) => theService(i.name))) || 'upstream'}`,
    ],
  ];
  for (const [pattern, why] of rules) if (pattern.test(tech)) return why;
  const user = f.requirements.find(
    (r) => r.service && tech.toLowerCase().includes(r.service.name.toLowerCase().split(' ')[0]!),
  );
  if (user) return `reaches ${theService(user.service!.name)} to ${phrase(user)}`;
  return `chosen for ${f.name} when it was defined`;
}

function integrationRow(f: Facts, name: string, purpose: string): string[] {
  const users = f.requirements.filter((r) => r.service?.name === name);
  const failure = users.flatMap((r) => r.criteria.filter((c) => c.role === 'unwanted'));
  const question = f.questions.find((q) => q.question.includes(name));
  const data = /postgres|sqlite|mysql|warehouse|database/i.test(`${name} ${purpose}`);
  return [
    name,
    `${capitalize(purpose)}${users.length > 0 ? ` (${users.map((r) => r.id).join(', ')})` : ''}`,
    data
      ? 'A database role that can only read'
      : f.type === 'mcp'
        ? `A token of the user's own ${name} account, from the environment`
        : `An API key of the client's ${name} account, held by the adapter`,
    `The limits of the client's plan${question ? ` (${question.id})` : ''}; ${f.name} sends one request per ${users[0]?.ent.label ?? 'action'} and never polls`,
    `Billed to the client's ${name} account${question ? ` (${question.id})` : ''}`,
    failure.length > 0
      ? `Errors or time-outs (${failure.map((c) => c.id).join(', ')})`
      : 'Errors or time-outs',
    users.some((r) => r.kind === 'send')
      ? 'Retry once after 10 minutes, then mark it failed'
      : 'Stop, change nothing, report the failed call',
  ];
}

function flow(f: Facts, req: Requirement): string[] {
  const via = req.service ? theService(req.service.name) : undefined;
  if (f.type === 'mcp')
    return [
      `${capitalize(f.assistant)} decides to ${phrase(req)} and calls the matching tool of ${f.name}.`,
      `The handler checks the arguments against the tool's schema${req.writes && !f.readOnly ? ' and asks the client to confirm' : ''}.`,
      `It calls ${via ?? 'the upstream system'} once, with a time-out of 10 seconds.`,
      `It returns ${req.kind === 'read' ? `the ${req.ent.plural} found` : `the ${req.ent.label} it changed, with a link`}, or a tool error naming the failed call (${req.criteria.at(-1)!.id}).`,
    ];
  if (req.kind === 'send')
    return [
      `The scheduler finds each ${req.ent.label} that is due (${req.criteria[0]!.id}).`,
      `It hands the ${req.ent.label} to ${via ?? 'the delivery service'} and records the attempt.`,
      `A failure is retried once, then marked failed for a person to see (${req.criteria.at(-1)!.id}).`,
    ];
  return [
    `${capitalize(f.role)} chooses to ${phrase(req)} on ${f.type === 'mobile' ? 'the phone' : 'a screen of the web client'}.`,
    `${f.type === 'mobile' ? `The app writes it to the local store, then` : 'The client'} sends it to the API with an idempotency key.`,
    `The ${capitalize(req.ent.plural)} service checks the account and the rules of ${req.id}, then writes the ${req.ent.label} and its history in one transaction.`,
    `${via ? `The ${req.service!.name} adapter calls ${via}, and the` : 'The'} answer reaches the screen within the 2 seconds of ${req.criteria[0]!.id}.`,
  ];
}

/** The context: who uses it, the services it calls, where it runs. */
const context: SectionWriter = (f) =>
  blocks(
    `${f.name} is ${f.aLabel} for ${f.who}. This architecture shows which part of it implements each requirement, ${f.requirements[0]!.id} to ${f.requirements.at(-1)!.id}, and what it depends on outside itself.`,
    bullets([
      `People: ${f.who}${f.type === 'mcp' ? `, through ${f.assistant}` : ''}`,
      `Services: ${listing(f.integrations.map((i) => theService(i.name))) || `none; everything runs inside ${f.name}`}`,
      `Runs on: ${listing(f.platforms)}`,
    ]),
  );

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
        `Each component of ${f.name} has one responsibility and names the requirements it implements.`,
        ...componentsOf(f).map((c) =>
          blocks(
            `### ${c.name}`,
            c.responsibility,
            c.implements.length > 0
              ? `Implements: ${c.implements.join(', ')}`
              : `It carries the others and implements no requirement on its own.`,
          ),
        ),
      ),

    Integrations: (f) =>
      f.integrations.length === 0
        ? `${f.name} uses no external service: the idea names none, and ${listing(f.requirements.map(phrase))} ${f.requirements.length === 1 ? 'runs' : 'run'} on its own components.`
        : blocks(
            `The services ${f.name} depends on, as the definition names them:`,
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
          ),

    'Technology choices': (f) =>
      blocks(
        `The stack was settled in ${f.name}'s definition; what each part does here:`,
        table(
          ['Technology', `Its job in ${f.name}`],
          f.stack.map((tech) => [tech, rationale(f, tech)]),
        ),
      ),

    'Data flow': (f) => {
      const lead =
        f.requirements.find((r) => r.priority === 'Must' && r.kind !== 'send') ??
        f.requirements[0]!;
      const timed = f.requirements.find((r) => r.kind === 'send' && r !== lead);
      return blocks(
        `How "${lead.text}" (${lead.id}) travels through ${f.name}:`,
        numbered(flow(f, lead)),
        timed ? `And how "${timed.text}" (${timed.id}) does:` : '',
        timed ? numbered(flow(f, timed)) : '',
      );
    },

    Security: (f) =>
      blocks(
        `What ${f.name} protects, and how:`,
        bullets([
          f.type === 'mcp'
            ? `${listing(f.integrations.map((i) => theService(i.name))) || 'Upstream'} credentials come from the environment and never appear in a tool result or a log line (NFR-3).`
            : `Each request is checked against the signed-in account: no one reads or changes another account's ${listing(f.entities.slice(0, 2).map((e) => e.plural))} (NFR-3).`,
          ...(f.readOnly
            ? [`${f.name} connects with credentials that can only read; every tool is read-only.`]
            : []),
          ...f.requirements
            .filter((r) => r.criteria.some((c) => c.role === 'approval'))
            .map(
              (r) =>
                `Requests to ${r.verb} ${r.object} wait for an approval the tool itself checks (${r.criteria.find((c) => c.role === 'approval')!.id}).`,
            ),
          ...f.integrations
            .filter((i) => !/postgres|sqlite/i.test(i.name))
            .map(
              (i) =>
                `Only the ${i.name} adapter holds the ${i.name} credentials; the rest of ${f.name} never sees them.`,
            ),
          f.type === 'mcp'
            ? `Text that comes back from ${listing(f.integrations.map((i) => i.name)) || 'upstream'} is passed to ${f.assistant} as data, never followed as instructions.`
            : `Traffic is encrypted with TLS; ${f.main.plural} are encrypted at rest by the database host.`,
        ]),
      ),

    Deployment: (f) =>
      blocks(
        f.type === 'mcp'
          ? `${f.name} ships as an npm package that ${f.assistant} starts over stdio, and as a container image for Streamable HTTP when a team shares one.`
          : f.selfHosted
            ? `${f.name} is self-hosted: one Docker Compose file runs the ${f.type === 'web' ? 'web client, ' : ''}API, the scheduler and ${f.stack.find((t) => /PostgreSQL/.test(t)) ?? 'the database'} on the organisation's own server.`
            : f.type === 'mobile'
              ? `The app ships through ${listing(f.platforms.map((p) => (p === 'Android' ? 'Google Play' : 'the App Store')))}; its API runs as a container next to a managed ${f.stack.find((t) => /PostgreSQL/.test(t)) ?? 'database'}.`
              : `${f.name} runs as containers: the web client on a CDN, the API and the scheduler on a container platform, and a managed ${f.stack.find((t) => /PostgreSQL/.test(t)) ?? 'database'}.`,
        `Each change to ${f.name} goes through CI (types, tests, the trace of ${f.requirements.map((r) => r.id).join(', ')}) and then staging before it is released${f.type === 'mcp' ? '; a renamed tool is a new major version' : '; database migrations run before the new version takes traffic'}.`,
      ),

    Observability: (f) =>
      blocks(
        `What ${f.name} records so that its goals can be measured and its failures found:`,
        table(
          ['Signal', `What it tells about ${f.name}`],
          [
            ...f.requirements
              .slice(0, 4)
              .map((r) => [
                `${capitalize(gerund(phrase(r)))}: count, duration, failures`,
                `Whether ${gerund(decapitalize(r.text))} works as ${r.criteria[0]!.id} says`,
              ]),
            ...f.integrations.map((i) => [
              `Calls to ${i.name}: latency and errors`,
              `When ${theService(i.name)} is the cause of a failure`,
            ]),
            [
              'Logs, one JSON line per request',
              `Which request failed, without the content of any ${f.main.label}`,
            ],
          ],
        ),
      ),
  },
  grounded: {
    'Current system': (f) => renderCurrentSystem(codebaseOf(f)),

    Context: (f) =>
      blocks(
        context(f),
        `${f.name} is a change to ${ic(codebaseOf(f).name)}${codebaseOf(f).commit ? ` at commit ${ic(codebaseOf(f).commit!)}` : ''}: the components below are built into the current system above, on its stack, and CODEBASE_OVERVIEW.md maps the rest of it.`,
      ),

    Components: (f) =>
      blocks(
        `Each component of ${f.name} has one responsibility, names the requirements it implements and the code of ${ic(codebaseOf(f).name)} it lives in.`,
        ...componentsOf(f).map((c) => {
          const reqs = f.requirements.filter((r) =>
            c.implements.some((id) => id === r.id || id.startsWith(`${r.id}.`)),
          );
          const facts = codebaseOf(f);
          // An adapter for a service the code already calls is that code.
          const calls = facts.externalServices.find((s) => c.name === `${s.name} adapter`);
          const client = /^(?:Web client|App screens)$/.test(c.name);
          return blocks(
            `### ${c.name}`,
            c.responsibility,
            c.implements.length > 0
              ? `Implements: ${c.implements.join(', ')}`
              : 'It carries the others and implements no requirement on its own.',
            calls
              ? `Code: ${serviceCode(facts, calls.name)} (exists)`
              : client && !hasClient(facts)
                ? `Code: the digest of ${ic(facts.name)} holds no client code; the screens are new, or live in another repository.`
                : reqs.length > 0
                  ? `Code: ${filesLine(f, reqs)}`
                  : '',
          );
        }),
      ),

    'Technology choices': (f) => {
      const facts = codebaseOf(f);
      return facts.stack.length === 0
        ? `The stack of ${ic(facts.name)} is ${NOT_FOUND}: no manifest names a technology, so none is chosen here; the team settles it before the first task.`
        : blocks(
            `${f.name} keeps the stack ${ic(facts.name)} already runs on; nothing is replaced, and a technology is added only where a requirement needs one the stack lacks.`,
            table(EXISTING_STACK_HEADERS, existingStack(facts)),
          );
    },
  },
} satisfies KindWriter<'architecture'>;
