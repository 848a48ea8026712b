/**
 * Acceptance criteria in EARS form, written from a feature's own verb, object and qualifiers:
 * the event that triggers it, one criterion per qualifier the idea attached (so "by SMS" and
 * "after 30 days" are tested, not just mentioned), and the unwanted behaviour most likely to
 * hit it. Two to five per requirement, numbered without gaps.
 */
import type { ProjectType } from '@pgs/contract';
import type { Integration } from '@pgs/contract/generation';
import { theService } from '../reading/define-members.ts';
import { namesPeople } from '../reading/reading-people.ts';
import { participle, plural, thirdPerson, uncountable } from '../text/words.ts';
import type { SignIn, SignInMethod } from './answers.ts';
import type { Criterion, Requirement } from './model.ts';

/** What the criteria need besides the requirement. */
export interface CriteriaContext {
  type: ProjectType;
  /** The AI client ("Claude", "the assistant"). */
  assistant: string;
  /** One of the audience ("someone at a small veterinary clinic"). */
  role: string;
  /** The name of the product, for the set-up criteria. */
  name: string;
  service: Integration | undefined;
  readOnly: boolean;
}

type Draft = Omit<Criterion, 'id'>;
type Req = Omit<Requirement, 'criteria'>;

const CHANNELS = /^by\s+(?:sms|text|e-?mail|push|phone|post|whatsapp)\b/i;
const NUMBERED_OBJECT = /\b(\d+)-([a-z]+)\b/i;
const LANGUAGES = /^in\s+(?:\p{Lu}\p{Ll}+|the\s+[\w'’]+\s+language)$/u;

/** One of the object: "a 16-week marathon plan", "an appointment", "cloud spend". */
function one(req: Req): string {
  if (/^(?:a|an)\s/i.test(req.object)) return req.object;
  return req.ent.a;
}

/** The object once introduced: "the marathon plan", "the Postgres analytics warehouse". */
function the(req: Req): string {
  if (/^the\s/i.test(req.object) && !/s$/.test(req.object)) return req.object;
  return `the ${req.ent.label}`;
}

/** Who acts: the assistant of an MCP server, or one of the audience. */
const actor = (ctx: CriteriaContext) => (ctx.type === 'mcp' ? ctx.assistant : ctx.role);

/** The role with a definite article: "the runner", "the person at a small veterinary clinic". */
export const theRole = (role: string) =>
  role.replace(/^someone\s/, 'the person ').replace(/^(?:a|an)\s/, 'the ');

/** What a read answers with, by verb. */
function answer(req: Req): string {
  const things = uncountable(req.ent.label) ? req.ent.label : req.ent.plural;
  if (/^summari[sz]e$/.test(req.verb)) return `a summary of ${req.object}`;
  if (/^(?:track|monitor|follow|watch)$/.test(req.verb)) return `the current state of ${the(req)}`;
  if (/^(?:identify|detect|recognise|recognize)$/.test(req.verb))
    return `the most likely ${req.ent.label} and how certain the match is`;
  if (req.verb === 'query') return `the rows the query returns, at most 50 of them`;
  if (req.verb === 'review') return `its findings on each ${req.ent.label}`;
  if (/^(?:get|read|view|show|expose)$/.test(req.verb)) return `the ${things} asked for`;
  return `the matching ${things}`;
}

/** The qualifiers that are not the trigger ("when a spot opens"), offline or an approval. */
const plainQualifiers = (req: Req) =>
  req.qualifiers.filter((q) => !/^when\b|^offline$|\bapproval\b/i.test(q));

function event(req: Req, ctx: CriteriaContext): Draft {
  // The event names where and to whom; a time rule ("after 30 days") is a criterion of its own.
  const quals = plainQualifiers(req).filter(
    (q) =>
      (req.kind !== 'send' || CHANNELS.test(q)) && !/^(?:after|within|from the last)\s/i.test(q),
  );
  const tail = quals.length > 0 ? ` ${quals.join(' ')}` : '';
  const trigger = req.qualifiers.find((q) => /^when\b/i.test(q))?.replace(/^when\s+/i, '');
  const approval = req.qualifiers.some((q) => /\bapproval\b/i.test(q));
  let text: string;
  if (req.kind === 'send') {
    text =
      req.verb === 'receive'
        ? `WHEN ${req.ent.a} falls due THE SYSTEM SHALL deliver it to ${theRole(ctx.role)}${tail} as a notification within one minute.`
        : trigger
          ? `WHEN ${trigger} THE SYSTEM SHALL ${req.verb} ${req.object}${tail} once and record when it went out.`
          : `WHEN ${req.ent.a} falls due THE SYSTEM SHALL ${req.verb === 'send' ? 'send it' : `${req.verb} ${req.object}`}${tail} once and record when it went out.`;
  } else if (req.kind === 'read') {
    text = `WHEN ${actor(ctx)} asks to ${req.verb} ${req.object}${tail} THE SYSTEM SHALL answer within 2 seconds with ${answer(req)}.`;
  } else if (ctx.type === 'mcp') {
    text = approval
      ? `WHEN ${ctx.assistant} calls the tool to ${req.verb} ${one(req)}${tail} with an approval THE SYSTEM SHALL ${req.verb} it once and return its new state.`
      : `WHEN ${ctx.assistant} calls the tool to ${req.verb} ${one(req)}${tail} THE SYSTEM SHALL ask the client to confirm, then ${req.verb} it once and return a link to it.`;
  } else if (req.kind === 'create') {
    text = `WHEN ${actor(ctx)} ${thirdPerson(req.verb)} ${one(req)}${tail} THE SYSTEM SHALL store ${the(req)} and show it in the list of ${req.ent.plural} within 2 seconds.`;
  } else {
    text = `WHEN ${actor(ctx)} ${thirdPerson(req.verb)} ${one(req)}${tail} THE SYSTEM SHALL record that ${the(req)} was ${participle(req.verb)}, by whom and when, and show it within 2 seconds.`;
  }
  return { text, role: 'event' };
}

/** The criterion that holds one qualifier, by what kind of qualifier it is. */
function quality(req: Req, q: string, ctx: CriteriaContext): Draft {
  const span = /^(?:after|within)\s+(.+)$/i.exec(q);
  const recent = /^from the last\s+(.+)$/i.exec(q);
  const party = /^(?:with|to)\s+(?:(?:a|an|the)\s+)?([\w-]+(?:\s[\w-]+)?)$/i.exec(q);
  const service =
    ctx.service && q.toLowerCase().includes(ctx.service.name.toLowerCase())
      ? ctx.service
      : undefined;
  let text: string;
  if (span && /\d/.test(q))
    text = `WHEN ${req.ent.a} has had no change for ${span[1]} THE SYSTEM SHALL ${req.verb} it and record the rule that did.`;
  else if (recent)
    text = `THE SYSTEM SHALL ${req.verb} only ${req.ent.plural} from the last ${recent[1]}, and say so in its answer.`;
  else if (CHANNELS.test(q))
    text = `THE SYSTEM SHALL ${req.verb} every ${req.ent.label} ${q} and through no other channel.`;
  else if (/^(?:by|grouped by|per)\s/i.test(q))
    text = `THE SYSTEM SHALL present ${req.object} ${/^grouped/i.test(q) ? q : `broken down ${q}`}, one group per value.`;
  else if (/^across\s/i.test(q))
    text = `THE SYSTEM SHALL ${req.verb} ${req.object} from each of ${q.replace(/^across\s+/i, '')}, and show which one each figure comes from.`;
  else if (service)
    text = `THE SYSTEM SHALL ${req.verb} ${req.object} ${q} only, and keep the ${service.name} reference of each ${req.ent.label}.`;
  else if (/^on\s+(?:a|the)\s+live\s/i.test(q))
    text = `THE SYSTEM SHALL show ${req.object} ${q}, updated at least every 30 seconds while it is open.`;
  else if (LANGUAGES.test(q))
    text = `THE SYSTEM SHALL ${req.verb} ${req.object} ${q}, and mark any part it could not write ${q}.`;
  else if (party && (namesPeople(party[1]!) || namesPeople(plural(party[1]!))))
    text = `THE SYSTEM SHALL ${req.verb} ${req.object} ${q} and with no one else.`.replace(
      / to (.+) and with no one else/,
      ' to $1 and to no one else',
    );
  else if (/^against\s/i.test(q))
    text = `THE SYSTEM SHALL ${req.verb} ${req.object} ${q} and name the rule behind each finding.`;
  else if (/^from\s/i.test(q))
    text = `THE SYSTEM SHALL ${req.verb} ${req.object} ${q} and keep where each one came from.`;
  else if (/^together$/i.test(q))
    text = `THE SYSTEM SHALL let several people ${req.verb} ${req.object} together and show who did what.`;
  else text = `THE SYSTEM SHALL ${req.verb} ${req.object} ${q}.`;
  return { text, role: 'quality' };
}

function qualities(req: Req, ctx: CriteriaContext): Draft[] {
  const drafts: Draft[] = [];
  const numbered = NUMBERED_OBJECT.exec(req.object);
  if (numbered)
    drafts.push({
      text: `THE SYSTEM SHALL hold each ${req.ent.label} to ${numbered[1]} ${plural(numbered[2]!)}, as "${req.object.replace(/^(?:a|an|the)\s/i, '')}" says.`,
      role: 'quality',
    });
  for (const q of plainQualifiers(req)) drafts.push(quality(req, q, ctx));
  return drafts.slice(0, 2);
}

function unwanted(req: Req, ctx: CriteriaContext): Draft {
  const service = ctx.service ? theService(ctx.service.name) : undefined;
  if (service && req.kind === 'send')
    return {
      text: `IF ${service} rejects ${req.ent.a} THEN THE SYSTEM SHALL retry it once after 10 minutes and mark it failed for a person to see.`,
      role: 'unwanted',
    };
  if (service)
    return {
      text: `IF ${service} does not answer within 10 seconds THEN THE SYSTEM SHALL stop, change nothing and report which call failed${ctx.type === 'mcp' ? ' as a tool error' : ''}.`,
      role: 'unwanted',
    };
  if (req.kind === 'read')
    return {
      text: `IF no ${req.ent.label} matches THEN THE SYSTEM SHALL say so and suggest how to widen the request.`,
      role: 'unwanted',
    };
  if (req.kind === 'create')
    return {
      text: `IF ${req.ent.a} lacks a required field THEN THE SYSTEM SHALL keep what was entered, refuse to store it and name the missing field.`,
      role: 'unwanted',
    };
  return {
    text: `IF ${actor(ctx)} may not ${req.verb} ${the(req)} THEN THE SYSTEM SHALL refuse and leave it unchanged.`,
    role: 'unwanted',
  };
}

/** The criteria of a set-up feature: connecting to a service, or signing in. */
function setup(req: Req, ctx: CriteriaContext): Draft[] {
  const service = ctx.service ? theService(ctx.service.name) : 'its data source';
  if (req.verb === 'connect')
    return [
      {
        text: `WHEN ${ctx.name} starts THE SYSTEM SHALL connect to ${service} with the credentials in its environment before it lists any tool.`,
        role: 'event',
      },
      ...(ctx.readOnly || req.qualifiers.some((q) => /read-only/i.test(q))
        ? [
            {
              text: `IF the credentials ${ctx.name} is given can write THEN THE SYSTEM SHALL refuse to start and say that it needs read-only credentials.`,
              role: 'readonly' as const,
            },
          ]
        : []),
      {
        text: `IF ${service} refuses the credentials THEN THE SYSTEM SHALL refuse to start and name the variable to fix.`,
        role: 'unwanted',
      },
    ];
  return [
    {
      text: `WHEN ${actor(ctx)} signs in THE SYSTEM SHALL show only what belongs to their own account.`,
      role: 'event',
    },
    { text: signInFailure(undefined), role: 'unwanted' },
  ];
}

/** What goes wrong at sign-in by the method the answers chose: an expired link by default. */
const SIGN_IN_FAILURES: Record<SignInMethod, string> = {
  'email-link': 'IF a sign-in link has expired THEN THE SYSTEM SHALL say so and offer a new one.',
  sso: "IF the identity provider refuses the sign-in THEN THE SYSTEM SHALL say so, keep the person signed out and name the organisation's administrator as the one to ask.",
  password:
    'IF a password is entered wrongly five times in a row THEN THE SYSTEM SHALL pause sign-in for that account for 15 minutes and say so.',
  social:
    'IF the sign-in provider refuses or is cancelled THEN THE SYSTEM SHALL say so and leave the person signed out.',
  none: 'IF a person has no account THEN THE SYSTEM SHALL let them use every feature without one, as the team decided.',
};

/**
 * The unwanted behaviour of signing in: by the method of the sign-in answer, or, for an
 * answer the engine cannot read, a failure that quotes it rather than guessing a method.
 *
 * @example
 * signInFailure({ method: 'sso', answer: 'Google Workspace SSO only' }); // 'IF the identity provider refuses…'
 */
export function signInFailure(signIn: SignIn | undefined): string {
  if (signIn === undefined) return SIGN_IN_FAILURES['email-link'];
  if (signIn.method !== undefined) return SIGN_IN_FAILURES[signIn.method];
  return `IF signing in as the team decided ("${signIn.answer}") fails THEN THE SYSTEM SHALL say so and keep the person signed out.`;
}

/**
 * The criteria of a requirement, numbered `FR-n.1` up.
 *
 * @example
 * criteriaFor(requirement, context)[0]?.text; // 'WHEN a vaccine reminder falls due THE SYSTEM SHALL send it by SMS once …'
 */
export function criteriaFor(req: Req, ctx: CriteriaContext): Criterion[] {
  const number = (drafts: Draft[]) =>
    drafts.map((draft, i) => ({ ...draft, id: `${req.id}.${i + 1}` }));
  if (req.verb === 'connect' || req.verb.startsWith('sign')) return number(setup(req, ctx));
  const drafts: Draft[] = [event(req, ctx), ...qualities(req, ctx)];
  if (req.qualifiers.some((q) => /^offline$/i.test(q)))
    drafts.push({
      text: `WHILE the device is offline THE SYSTEM SHALL let ${actor(ctx)} ${req.verb} ${req.object} and ${req.kind === 'read' ? 'answer from the data stored on the device' : 'queue the change until the connection returns'}.`,
      role: 'offline',
    });
  if (req.qualifiers.some((q) => /\bapproval\b/i.test(q)))
    drafts.push({
      text: `IF the request to ${req.verb} ${one(req)} has not been approved THEN THE SYSTEM SHALL leave ${the(req)} as it is and say whose approval is missing.`,
      role: 'approval',
    });
  if (ctx.readOnly)
    drafts.push({
      text: `THE SYSTEM SHALL ${req.verb} ${req.object} through a connection that can only read, and refuse any statement that would write.`,
      role: 'readonly',
    });
  return number([...drafts.slice(0, 4), unwanted(req, ctx)]);
}
