/**
 * What the brief and the requirements state beyond the features: goals with their metrics,
 * risks with likelihood and impact, and the non-functional requirements, each derived from the
 * requirements, the services and the qualifiers, so no two projects share them word for word.
 */

import { capitalize, decapitalize, gerund, listing, participle } from '../text/words.ts';
import { regimeNfr } from './compliance.ts';
import type { Facts, Requirement } from './facts.ts';
import { theService } from './facts.ts';
import { settledOf, withoutAccounts } from './settled.ts';
import { noAccountsData, noAccountsRisk, noAccountsSecurity } from './without-accounts.ts';

export interface Goal {
  id: string;
  goal: string;
  metric: string;
  target: string;
  measured: string;
}

export interface Risk {
  id: string;
  risk: string;
  likelihood: 'High' | 'Medium' | 'Low';
  impact: 'High' | 'Medium' | 'Low';
  mitigation: string;
  /** The requirements it threatens (a high-impact one gets a spike before them). */
  threatens: string[];
  /** What the spike proves. */
  spike: string;
}

export interface Nfr {
  id: string;
  category: string;
  text: string;
  /** The compliance regime it checks, for a Compliance NFR. */
  regime?: string;
}

const lower = (req: Requirement) => decapitalize(req.text);
const quals = (req: Requirement) =>
  req.qualifiers.length > 0 ? ` ${req.qualifiers.join(' ')}` : '';

function goalOf(f: Facts, req: Requirement): string {
  if (req.kind === 'read')
    return `${f.type === 'mcp' ? capitalize(f.assistant) : capitalize(f.who)} can ${lower(req)} in one step`;
  if (req.kind === 'send')
    return `${capitalize(req.object)} go out${quals(req)} without anyone sending them by hand`;
  if (req.kind === 'create')
    return `${capitalize(req.ent.plural)} are ${participle(req.verb)} in ${f.name}${quals(req)}`;
  return `${capitalize(req.object)} are ${participle(req.verb)}${quals(req)} without a manual step`;
}

function measuredOf(f: Facts, req: Requirement): string {
  if (req.kind === 'read') return `Server timing of each request to ${req.verb} ${req.object}`;
  if (req.kind === 'send')
    return `Delivery status ${req.service ? `reported by ${theService(req.service.name)}` : 'in the delivery log'}, per ${req.ent.label}`;
  if (req.kind === 'create')
    return `${capitalize(req.ent.plural)} stored by ${f.name} against those started, from its events`;
  return `The history of each ${req.ent.label}: who ${participle(req.verb)} it, when, and whether by rule or by hand`;
}

/** "Metric: target" → both; a metric without a colon keeps "as stated" for its target. */
function splitMetric(text: string): [string, string] {
  const at = text.lastIndexOf(':');
  return at === -1
    ? [text, 'As stated in the definition']
    : [text.slice(0, at).trim(), text.slice(at + 1).trim()];
}

/**
 * Goals G-1… (3 to 5): one per Must requirement, then the definition's other metrics.
 *
 * @example
 * goalsOf(facts)[0]?.id; // 'G-1'
 */
export function goalsOf(f: Facts): Goal[] {
  const musts = f.requirements.filter((r) => r.priority === 'Must').slice(0, 4);
  const goals = musts.map((req, i) => {
    const [metric, target] = splitMetric(f.metrics[i] ?? `Time to ${lower(req)}: under 2 seconds`);
    return { goal: goalOf(f, req), metric, target, measured: measuredOf(f, req) };
  });
  for (const extra of f.metrics.slice(goals.length)) {
    if (goals.length >= 5) break;
    const [metric, target] = splitMetric(extra);
    goals.push({
      goal: `${capitalize(f.who)} keep using ${f.name}`,
      metric,
      target,
      measured: `${f.name}'s own usage events, without personal data`,
    });
  }
  while (goals.length < 3) {
    const req = f.requirements[goals.length] ?? f.requirements[0]!;
    goals.push({
      goal: goalOf(f, req),
      metric: `Time to ${lower(req)}`,
      target: 'Under 2 seconds at the 95th percentile',
      measured: measuredOf(f, req),
    });
  }
  return goals.map((goal, i) => ({ ...goal, id: `G-${i + 1}` }));
}

/**
 * Risks R-1… (3 to 6), from what the project depends on and what the idea promises.
 *
 * @example
 * risksOf(facts).filter((r) => r.impact === 'High'); // the ones the plan spikes first
 */
export function risksOf(f: Facts): Risk[] {
  const risks: Omit<Risk, 'id'>[] = [];
  const musts = f.requirements.filter((r) => r.priority === 'Must');
  for (const integration of f.integrations.slice(0, 2)) {
    const users = f.requirements.filter((r) => r.service?.name === integration.name);
    if (users.length === 0) continue;
    const name = theService(integration.name);
    risks.push({
      risk: `${capitalize(name)} is unavailable, slow or changes its API, so ${gerund(lower(users[0]!))} stops`,
      likelihood: 'Medium',
      impact: users.some((r) => r.priority === 'Must') ? 'High' : 'Medium',
      mitigation: `Reach ${name} through one adapter with time-outs and one retry; prove the calls with a test account first`,
      threatens: users.map((r) => r.id),
      spike: `call ${name} end to end with a test account and record its limits and errors`,
    });
  }
  const offline = f.requirements.filter((r) => r.qualifiers.some((q) => /^offline$/i.test(q)));
  if (offline.length > 0)
    risks.push({
      risk: `${capitalize(offline[0]!.ent.plural)} changed offline on two devices conflict when they sync`,
      likelihood: 'Medium',
      impact: 'High',
      mitigation: `Sync per field with a version on each ${offline[0]!.ent.label}; show a conflict instead of overwriting`,
      threatens: offline.map((r) => r.id),
      spike: `edit one ${offline[0]!.ent.label} on two devices offline and sync them, to settle the merge rule`,
    });
  if (f.readOnly)
    risks.push({
      risk: `A tool writes to ${listing(f.integrations.map((i) => theService(i.name))) || 'the data'} despite the read-only promise`,
      likelihood: 'Low',
      impact: 'High',
      mitigation:
        'Connect with credentials that can only read, and test that every write is refused',
      threatens: f.requirements.map((r) => r.id),
      spike: 'prove that the credentials the server uses are refused every write',
    });
  for (const req of f.requirements.filter((r) => r.qualifiers.some((q) => /\bapproval\b/i.test(q))))
    risks.push({
      risk: `A request to ${req.verb} ${req.object} runs without the approval the idea requires`,
      likelihood: 'Low',
      impact: 'High',
      mitigation: `Make approval a step of the tool itself, not a convention of the client; log who approved each one`,
      threatens: [req.id],
      spike: `try to ${req.verb} ${req.ent.a} without approval through every path the client offers`,
    });
  for (const req of f.requirements.filter((r) =>
    r.qualifiers.some((q) => /^(?:after|within)\s+\d/i.test(q)),
  ))
    risks.push({
      risk: `${capitalize(gerund(lower(req)))} acts on ${req.ent.a} someone still needs`,
      likelihood: 'Medium',
      impact: 'Medium',
      mitigation: `Record the rule that acted on each ${req.ent.label} and let a person undo it in one step`,
      threatens: [req.id],
      spike: '',
    });
  if (withoutAccounts(f)) risks.push(noAccountsRisk(f));
  const lead = musts[0] ?? f.requirements[0]!;
  risks.push({
    risk: `${capitalize(f.who)} keep their current way to ${phrase(lead)} instead of ${f.name}`,
    likelihood: 'Medium',
    impact: 'Medium',
    mitigation: `Make ${gerund(lower(lead))} the first thing ${withoutAccounts(f) ? 'anyone who opens it' : 'a new account'} can do, and review use against the goals after a month`,
    threatens: [lead.id],
    spike: '',
  });
  if (f.questions.length > 0)
    risks.push({
      risk: `${f.questions[0]!.id} is answered late and changes "${f.questions[0]!.affects}"`,
      likelihood: 'Medium',
      impact: 'Medium',
      mitigation: `Ask ${listing(f.questions.map((q) => q.id))} before the first slice and build on the defaults of the assumptions meanwhile`,
      threatens: [],
      spike: '',
    });
  return risks.slice(0, 6).map((risk, i) => ({ ...risk, id: `R-${i + 1}` }));
}

/** The verb phrase of a requirement without its qualifiers: "send vaccine reminders". */
export function phrase(r: Requirement): string {
  return r.object ? `${r.verb} ${r.object}` : r.verb;
}

/**
 * Non-functional requirements NFR-1…, each with a number, a condition and a measurement.
 *
 * @example
 * nfrsOf(facts)[0]?.category; // 'Performance'
 */
export function nfrsOf(f: Facts): Nfr[] {
  const lead = f.requirements.find((r) => r.kind === 'read') ?? f.requirements[0]!;
  const list: Omit<Nfr, 'id'>[] = [
    {
      category: 'Performance',
      text: `A request to ${phrase(lead)} answers within 2 seconds at the 95th percentile with ${volumesOf(f)} stored, measured by a load test against staging before each release.`,
    },
    f.type === 'mcp'
      ? {
          category: 'Reliability',
          text: `${f.name} starts in under 2 seconds and holds no state that a restart would lose, checked by starting it in CI on every build.`,
        }
      : {
          category: 'Availability',
          text: `${f.name} answers 99.5% of each month's requests for ${f.main.plural}, measured by an external check every minute.`,
        },
    f.type === 'mcp'
      ? {
          category: 'Security',
          text: `No tool result or log line contains the ${listing(f.integrations.map((i) => i.name)) || 'upstream'} credentials, checked by a test that scans every tool's output for them.`,
        }
      : withoutAccounts(f)
        ? { category: 'Security', text: noAccountsSecurity(f) }
        : {
            category: 'Security',
            text: `No account can read or change another account's ${listing(f.entities.slice(0, 3).map((e) => e.plural))}, checked by an access test per endpoint on every build.`,
          },
    {
      category: 'Data',
      text:
        f.type === 'mcp'
          ? `${f.name} stores nothing it reads from ${listing(f.integrations.map((i) => theService(i.name))) || 'upstream'} beyond the life of one request, checked by inspecting its files after the test suite.`
          : withoutAccounts(f)
            ? noAccountsData(f)
            : `An account's ${listing(f.entities.slice(0, 3).map((e) => e.plural))} can be exported as JSON and deleted within 7 days of a request, checked in the release checklist.`,
    },
  ];
  if (f.type !== 'mcp')
    list.push({
      category: 'Accessibility',
      text: `Every screen used to ${listing(f.requirements.slice(0, 3).map(phrase))} works with a keyboard or a screen reader alone, with text contrast of at least 4.5:1, checked with an automated audit on every build.`,
    });
  const offline = f.requirements.filter((r) => r.qualifiers.some((q) => /^offline$/i.test(q)));
  if (offline.length > 0)
    list.push({
      category: 'Offline',
      text: `${capitalize(listing(offline.map((r) => gerund(phrase(r)))))} keeps working for 7 days without a connection, and queued changes sync within 30 seconds of reconnecting, tested in airplane mode.`,
    });
  if (f.readOnly)
    list.push({
      category: 'Safety',
      text: `Every write attempted through ${f.name}'s connection fails, checked by a test that tries one write per tool on every build.`,
    });
  if (f.selfHosted)
    list.push({
      category: 'Operations',
      text: `${f.name} installs on one server with ${settledOf(f).stack.allows('Docker') ? 'Docker Compose' : 'its Compose file'} in under 30 minutes, checked on a clean machine before each release.`,
    });
  for (const regime of settledOf(f).answered.compliance)
    list.push({
      category: 'Compliance',
      text: regimeNfr(regime.name, f.name),
      regime: regime.name,
    });
  return list.map((nfr, i) => ({ ...nfr, id: `NFR-${i + 1}` }));
}

/**
 * The volumes a load test stores: the assumption that sizes them, the team's answer, or, when
 * neither is left, the volumes of the definition.
 */
function volumesOf(f: Facts): string {
  const assumed = f.assumptions.find((a) => /\bno volumes\b/i.test(a.fact));
  if (assumed) return `the volumes of ${assumed.id}`;
  const answered = settledOf(f).answered.volumes;
  return answered === undefined
    ? 'the expected volumes'
    : `the volumes the team gave ("${answered}")`;
}
