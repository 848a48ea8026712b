/** The reader's held-out ideas (reading.test.ts scores them); kept apart from the benchmark's twelve. */
import type { BenchmarkIdea } from './reading.ideas.ts';

/**
 * Held-out ideas, written before any rule of reading.ts so that their first score showed how far
 * the rules generalise beyond the benchmark's twelve (that first score is recorded below).
 */
export const HELD_OUT: readonly BenchmarkIdea[] = [
  {
    idea: 'A web portal for property managers to collect rent online, log maintenance requests, and send lease renewal notices 60 days before expiry',
    type: 'web',
    capabilities: [
      { verb: 'collect', object: 'rent', qualifiers: ['online'] },
      { verb: 'log', object: 'requests' },
      { verb: 'send', object: 'notices', qualifiers: ['60 days before expiry'] },
    ],
  },
  {
    idea: 'An Android app that helps volunteer firefighters receive call-outs with push notifications, check in at the station, and see hydrant locations on an offline map',
    type: 'mobile',
    capabilities: [
      { verb: 'receive', object: 'call-outs', qualifiers: ['with push notifications'] },
      { verb: ['check', 'check in'], object: '', qualifiers: ['at the station'] },
      { verb: 'see', object: 'locations', qualifiers: ['on an offline map'] },
    ],
  },
  {
    idea: 'An MCP server that lets Cursor read our Jira tickets, create branches in GitHub, and post build status to Slack',
    type: 'mcp',
    capabilities: [
      { verb: 'read', object: 'tickets' },
      { verb: 'create', object: 'branches', qualifiers: ['in GitHub'] },
      { verb: 'post', object: 'status', qualifiers: ['to Slack'] },
    ],
  },
  {
    idea: 'A self-hosted wiki for research labs to store protocols, version lab notebooks, and search experiments by reagent',
    type: 'web',
    capabilities: [
      { verb: 'store', object: 'protocols' },
      { verb: 'version', object: 'notebooks' },
      { verb: 'search', object: 'experiments', qualifiers: ['by reagent'] },
    ],
  },
  {
    idea: 'A mobile app for dog walkers to track walks with GPS, photograph each dog, and invoice owners weekly',
    type: 'mobile',
    capabilities: [
      { verb: 'track', object: 'walks', qualifiers: ['with GPS'] },
      { verb: 'photograph', object: 'dog' },
      { verb: 'invoice', object: 'owners', qualifiers: ['weekly'] },
    ],
  },
  {
    idea: "A tool that lets Claude book meeting rooms, check colleagues' availability in Google Calendar, and cancel no-show bookings after 10 minutes",
    type: 'mcp',
    capabilities: [
      { verb: 'book', object: 'rooms' },
      { verb: 'check', object: 'availability', qualifiers: ['in Google Calendar'] },
      { verb: 'cancel', object: 'bookings', qualifiers: ['after 10 minutes'] },
    ],
  },
  {
    idea: 'An admin dashboard for school districts to monitor bus routes in real time and notify parents of delays by email',
    type: 'web',
    capabilities: [
      { verb: 'monitor', object: 'routes', qualifiers: ['in real time'] },
      { verb: 'notify', object: 'parents', qualifiers: ['by email'] },
    ],
  },
  {
    idea: 'A private journaling app for iPhone with mood tracking, daily prompts and Face ID lock',
    type: 'mobile',
    capabilities: [
      { verb: 'track', object: 'mood' },
      { verb: ['provide', 'support'], object: 'prompts' },
      { verb: ['provide', 'support', 'lock'], object: 'Face ID' },
    ],
  },
];

/**
 * A second held-out set, written after HELD_OUT had been looked at (and the two general fixes
 * it prompted were made). First run, with the rules frozen before it: 20/22 capabilities (91 %)
 * and 7/8 types. Its misses (a particle before a bare object, "practise" lemmatised to
 * "practice", "for wedding planners" read as a verb, an assistant named outside "lets X") led
 * to four general fixes, so its figure now is no longer blind either.
 */
export const HELD_OUT_BLIND: readonly BenchmarkIdea[] = [
  {
    idea: 'A web app for wedding planners to manage guest lists, assign seats at each table, and collect RSVPs by email',
    type: 'web',
    capabilities: [
      { verb: 'manage', object: 'lists' },
      { verb: 'assign', object: 'seats', qualifiers: ['at each table'] },
      { verb: 'collect', object: 'RSVPs', qualifiers: ['by email'] },
    ],
  },
  {
    idea: 'An iOS app that lets cyclists record routes with GPS, share rides with their club, and get weather alerts before they set off',
    type: 'mobile',
    capabilities: [
      { verb: 'record', object: 'routes', qualifiers: ['with GPS'] },
      { verb: 'share', object: 'rides', qualifiers: ['with their club'] },
      { verb: 'get', object: 'alerts', qualifiers: ['before they set off'] },
    ],
  },
  {
    idea: 'An MCP server that lets Claude look up drug interactions in a local database and explain dosage limits in plain language',
    type: 'mcp',
    capabilities: [
      { verb: ['look up', 'look'], object: 'interactions', qualifiers: ['in a local database'] },
      { verb: 'explain', object: 'limits', qualifiers: ['in plain language'] },
    ],
  },
  {
    idea: 'A back-office tool for warehouses to scan incoming pallets, reconcile stock counts nightly, and flag shortages over 5 percent',
    type: 'web',
    capabilities: [
      { verb: 'scan', object: 'pallets' },
      { verb: 'reconcile', object: 'counts', qualifiers: ['nightly'] },
      { verb: 'flag', object: 'shortages', qualifiers: ['over 5 percent'] },
    ],
  },
  {
    idea: 'A mobile app for language learners to practise speaking with flashcards, review 20 words a day, and compete with friends',
    type: 'mobile',
    capabilities: [
      { verb: 'practise', object: 'speaking', qualifiers: ['with flashcards'] },
      { verb: 'review', object: 'words', qualifiers: ['20 words'] },
      { verb: 'compete', object: '', qualifiers: ['with friends'] },
    ],
  },
  {
    idea: 'A Slack bot for engineering managers to run weekly stand-ups, collect blockers, and post summaries to a channel',
    type: 'web',
    capabilities: [
      { verb: 'run', object: 'stand-ups' },
      { verb: 'collect', object: 'blockers' },
      { verb: 'post', object: 'summaries', qualifiers: ['to a channel'] },
    ],
  },
  {
    idea: 'Give ChatGPT read-only access to our Stripe account so it can list failed payments and refund duplicate charges',
    type: 'mcp',
    capabilities: [
      { verb: 'list', object: 'payments' },
      { verb: 'refund', object: 'charges' },
    ],
  },
  {
    idea: 'An Android and iOS app for pharmacies to send refill reminders, verify prescriptions with a photo, and offer same-day delivery',
    type: 'mobile',
    capabilities: [
      { verb: 'send', object: 'reminders' },
      { verb: 'verify', object: 'prescriptions', qualifiers: ['with a photo'] },
      { verb: ['offer', 'provide', 'support'], object: 'delivery' },
    ],
  },
];
