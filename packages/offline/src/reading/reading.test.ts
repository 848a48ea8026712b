import { describe, expect, it } from 'vitest';
import { HELD_OUT, HELD_OUT_BLIND } from '../../test/reading.held-out.ts';
import { type BenchmarkIdea, READING_IDEAS, scoreIdea } from '../../test/reading.ideas.ts';
import { type Capability, contentTerms, missingTerms, readIdeaNlp } from './reading.ts';

interface Totals {
  found: number;
  expected: number;
  typesRight: number;
  misses: string[];
}

function score(ideas: readonly BenchmarkIdea[]): Totals {
  const totals: Totals = { found: 0, expected: 0, typesRight: 0, misses: [] };
  for (const entry of ideas) {
    const reading = readIdeaNlp(entry.idea);
    const result = scoreIdea(entry, reading);
    totals.found += result.found;
    totals.expected += result.expected;
    if (result.typeRight) totals.typesRight++;
    else totals.misses.push(`${entry.idea} → ${reading.type.type}`);
    for (const missed of result.missed)
      totals.misses.push(
        `${entry.idea}: ${JSON.stringify(missed)} not in ${JSON.stringify(reading.capabilities)}`,
      );
  }
  return totals;
}

function find(capabilities: readonly Capability[], verb: string, object: string) {
  return capabilities.find((cap) => cap.verb === verb && cap.object.includes(object));
}

const VET =
  'A tool for small veterinary clinics to schedule appointments, send vaccine reminders by SMS, and keep pet medical records';

describe('readIdeaNlp on the benchmark', () => {
  const totals = score(READING_IDEAS);

  it('finds at least 90 % of the expected capabilities of the twelve ideas', () => {
    expect(totals.misses.filter((miss) => !miss.includes(' → '))).toEqual([]);
    expect(totals.found / totals.expected).toBeGreaterThanOrEqual(0.9);
  });

  it('types at least 11 of the 12 ideas right', () => {
    expect(totals.typesRight).toBeGreaterThanOrEqual(11);
  });
});

describe('readIdeaNlp on blind held-out ideas', () => {
  const totals = score(HELD_OUT_BLIND);
  const share = Math.round((100 * totals.found) / totals.expected);

  it(`finds ${totals.found}/${totals.expected} capabilities (${share} %, bar 75 %) and ${totals.typesRight}/8 types (bar 6)`, () => {
    expect(totals.found / totals.expected).toBeGreaterThanOrEqual(0.75);
    expect(totals.typesRight).toBeGreaterThanOrEqual(6);
  });
});

// First run, with the rules frozen before it: 20/23 capabilities (87 %) and 8/8 types. Its two
// misses led to two general fixes (a number after a head noun starts a measure, not more of the
// phrase; an adverb before a noun is its adjective), so its figure now is no longer blind.
describe('readIdeaNlp on held-out ideas (written before the rules)', () => {
  const totals = score(HELD_OUT);
  const share = Math.round((100 * totals.found) / totals.expected);

  // The bar is lower than the benchmark's on purpose: these ideas show how the rules
  // generalise, and the figure in the name is the one to read.
  it(`finds ${totals.found}/${totals.expected} capabilities (${share} %, bar 80 %) and ${totals.typesRight}/8 types (bar 7)`, () => {
    expect(totals.found / totals.expected).toBeGreaterThanOrEqual(0.8);
    expect(totals.typesRight).toBeGreaterThanOrEqual(7);
  });
});

describe('readIdeaNlp', () => {
  it('reads every verb of a coordinated list as its own capability', () => {
    const reading = readIdeaNlp(VET);
    expect(reading.capabilities.map(({ verb, object }) => [verb, object])).toEqual([
      ['schedule', 'appointments'],
      ['send', 'vaccine reminders'],
      ['keep', 'pet medical records'],
    ]);
    expect(find(reading.capabilities, 'send', 'reminders')?.text).toBe(
      'send vaccine reminders by SMS',
    );
  });

  it('never turns a verb of the list into an entity', () => {
    const reading = readIdeaNlp(
      'An app that sends reminders, gives rewards to kids and tracks chores',
    );
    expect(reading.capabilities.map((cap) => cap.verb)).toEqual(['send', 'give', 'track']);
    for (const verb of ['send', 'sends', 'give', 'gives', 'track', 'tracks'])
      expect(reading.entities).not.toContain(verb);
    expect(reading.entities).toEqual(['reminder', 'reward', 'chore']);
  });

  it('gives each coordinated object of a shared verb its own capability, qualifiers and coordination shared', () => {
    const reading = readIdeaNlp('A tool to track expenses and invoices by client');
    expect(reading.capabilities).toEqual([
      {
        verb: 'track',
        object: 'expenses',
        qualifiers: ['by client'],
        text: 'track expenses by client',
        entity: 'expense',
        group: 0,
      },
      {
        verb: 'track',
        object: 'invoices',
        qualifiers: ['by client'],
        text: 'track invoices by client',
        entity: 'invoice',
        group: 0,
      },
    ]);
  });

  it("names each capability's entity without the words that only qualify it", () => {
    const entities = (idea: string) => readIdeaNlp(idea).capabilities.map((cap) => cap.entity);
    expect(entities(READING_IDEAS[3]!.idea)).toEqual(['support ticket', 'ticket', 'ticket']);
    expect(entities(READING_IDEAS[4]!.idea)).toEqual(['marathon plan', 'run', 'progress']);
    expect(entities(READING_IDEAS[8]!.idea)).toEqual(['analytics warehouse', 'revenue']);
    expect(entities(READING_IDEAS[11]!.idea)).toEqual(['pull request', 'diff', 'commit']);
  });

  it('gives both verbs of "view and export" the object that follows', () => {
    const reading = readIdeaNlp('A web app where freelancers can view and export reports');
    expect(reading.capabilities.map((cap) => cap.text)).toEqual(['view reports', 'export reports']);
    expect(reading.audience).toBe('freelancers');
  });

  it('reads a verb the tagger calls a noun after "and" ("swap shifts and track overtime")', () => {
    const reading = readIdeaNlp(
      'A shift app for nurses who want to swap shifts and track overtime',
    );
    expect(reading.capabilities.map((cap) => cap.text)).toEqual(['swap shifts', 'track overtime']);
  });

  it('keeps qualifiers attached to their own capability', () => {
    const reading = readIdeaNlp(
      'A portal that helps landlords screen tenants within 14 days and collect deposits',
    );
    expect(find(reading.capabilities, 'screen', 'tenants')?.qualifiers).toEqual(['within 14 days']);
    expect(find(reading.capabilities, 'collect', 'deposits')?.qualifiers).toEqual([]);
    expect(find(readIdeaNlp(VET).capabilities, 'keep', 'records')?.qualifiers).toEqual([]);
  });

  it('keeps numbers with their unit, in the capability and in numbers', () => {
    const runner = readIdeaNlp(
      'An iPhone app for runners to follow a 16-week marathon plan, log runs offline, and share progress with a coach',
    );
    expect(find(runner.capabilities, 'follow', 'plan')?.qualifiers).toEqual(['16-week']);
    expect(find(runner.capabilities, 'log', 'runs')?.qualifiers).toEqual(['offline']);
    expect(runner.numbers).toEqual(['16-week']);
    const bot = readIdeaNlp(
      'Build a chatbot for restaurants. It answers questions in under 2 seconds and books tables for up to 8 guests within 5 minutes.',
    );
    expect(bot.numbers).toEqual(['under 2 seconds', 'up to 8 guests', '5 minutes']);
    expect(find(bot.capabilities, 'answer', 'questions')?.qualifiers).toEqual([
      'in under 2 seconds',
    ]);
    expect(find(bot.capabilities, 'book', 'tables')?.qualifiers).toEqual([
      'for up to 8 guests',
      'within 5 minutes',
    ]);
  });

  it('reads "lets X", "helps X", "that X", "to X" and "for X-ing" as capabilities', () => {
    const verbs = (idea: string) => readIdeaNlp(idea).capabilities.map((cap) => cap.verb);
    expect(verbs('A bot that lets users book rooms')).toEqual(['book']);
    expect(verbs('A service that helps small teams plan sprints')).toEqual(['plan']);
    expect(verbs('An app that tracks expenses, sends reminders and exports reports')).toEqual([
      'track',
      'send',
      'export',
    ]);
    expect(verbs('A tool to compare energy tariffs')).toEqual(['compare']);
    expect(verbs('An app for tracking workouts and sharing playlists with friends')).toEqual([
      'track',
      'share',
    ]);
    // An idea that opens with a verb the tagger calls a noun.
    expect(verbs('Track expenses for freelancers and send invoices')).toEqual(['track', 'send']);
  });

  it('reads features named by nouns as capabilities', () => {
    const reading = readIdeaNlp(
      'A simple habit tracker with offline mode, dark theme and CSV export',
    );
    expect(reading.capabilities.map(({ verb, object }) => [verb, object])).toEqual([
      ['support', 'offline mode'],
      ['support', 'dark theme'],
      ['support', 'CSV export'],
    ]);
    expect(reading.product).toBe('habit tracker');
    const journal = readIdeaNlp('A journaling app with mood tracking and daily prompts');
    expect(journal.capabilities.map((cap) => cap.text)).toEqual([
      'track mood',
      'provide daily prompts',
    ]);
  });

  it('takes the audience as written and never invents one', () => {
    expect(readIdeaNlp(VET).audience).toBe('small veterinary clinics');
    const mcp = readIdeaNlp('An MCP server that lets Claude search our Confluence wiki');
    expect(mcp.audience).toBeUndefined();
    expect(mcp.assistant).toBe('Claude');
    expect(readIdeaNlp('A habit tracker with streaks and reminders').audience).toBeUndefined();
    expect(readIdeaNlp('An app for iPhone to log meals').audience).toBeUndefined();
  });

  it('names the product without its scope words', () => {
    expect(readIdeaNlp(VET).product).toBe('tool');
    const warehouse = readIdeaNlp(
      'A read-only MCP server that lets Claude query our Postgres analytics warehouse and summarise weekly revenue by region',
    );
    expect(warehouse.product).toBe('MCP server');
    expect(warehouse.qualifiers).toEqual(['read-only']);
    expect(find(warehouse.capabilities, 'summarise', 'revenue')?.qualifiers).toEqual(['by region']);
    const named = readIdeaNlp('An app named Pocketvet for iPhone');
    expect(named.product).toBe('app');
    expect(named.name).toBe('Pocketvet');
    expect(named.integrations).toEqual([]);
  });

  it('lists the services named, "by SMS" included', () => {
    expect(readIdeaNlp(VET).integrations).toEqual(['SMS']);
    expect(
      readIdeaNlp(
        'A dashboard for finance teams to track cloud spend across AWS and GCP, set budget alerts, and export monthly reports',
      ).integrations,
    ).toEqual(['AWS', 'GCP']);
    expect(
      readIdeaNlp('An MCP server that lets Claude search our Confluence wiki').integrations,
    ).toEqual(['Confluence']);
  });

  it('collects scope qualifiers as written', () => {
    const reading = readIdeaNlp(
      'An open-source, self-hosted help desk for IT teams to triage support tickets in real time',
    );
    expect(reading.qualifiers).toEqual(['open-source', 'self-hosted', 'in real time']);
    expect(reading.product).toBe('help desk');
  });

  it('gives entities as singular nouns of the objects', () => {
    expect(readIdeaNlp(VET).entities).toEqual([
      'appointment',
      'reminder',
      'record',
      'vaccine',
      'pet',
    ]);
  });

  it('weighs the whole idea for the type, web by default', () => {
    const type = (idea: string) => readIdeaNlp(idea).type.type;
    expect(type(VET)).toBe('web');
    expect(type('An app named Pocketvet for iPhone')).toBe('mobile');
    expect(type('An MCP server that lets Claude search our Confluence wiki')).toBe('mcp');
    expect(type('A tool to compare energy tariffs')).toBe('web');
    expect(readIdeaNlp('A tool to compare energy tariffs').type.reasons).toEqual([
      'names no platform: a web application by default',
    ]);
    expect(
      type('Something for dog owners to share walks on their phone with push notifications'),
    ).toBe('mobile');
  });

  it('reads the same idea the same way every time', () => {
    expect(readIdeaNlp(VET)).toEqual(readIdeaNlp(VET));
  });
});

describe('contentTerms and missingTerms', () => {
  it('stems content words and leaves stop words and product words out', () => {
    expect(contentTerms('A tool to send vaccine reminders by SMS')).toEqual([
      'send',
      'vaccin',
      'remind',
      'sms',
    ]);
  });

  it('names the idea words a definition lost, as written', () => {
    const lost = missingTerms(
      VET,
      'VetDesk schedules appointments for veterinary clinics and sends vaccine reminders.',
    );
    expect(lost).toEqual(['small', 'SMS', 'keep', 'pet', 'medical', 'records']);
  });

  it('reads the whole definition, however long, for the words it keeps', () => {
    const padding = 'a definition member that says nothing of the idea. '.repeat(60);
    expect(missingTerms('Send reminders by SMS', `${padding} send reminders by SMS`)).toEqual([]);
  });

  it('matches other forms of the same word', () => {
    expect(
      missingTerms(
        'Summarise weekly revenue by region',
        'It summarizes the revenue of each week, region by region.',
      ),
    ).toEqual([]);
  });
});
