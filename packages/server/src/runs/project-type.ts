/**
 * The project type an idea suggests, read from its words before any model has defined the
 * project: it drives the estimate and the plan until the definition settles the type.
 */
import type { ProjectType } from '@pgs/contract';

/**
 * Vocabulary that suggests a project type, with a weight. Naming the type outright (MCP,
 * iPhone, website) weighs 5, more than the domain hints of another type put together in a
 * typical idea, so "a web dashboard for medication stock" stays web.
 */
const TYPE_HINTS: Record<ProjectType, readonly (readonly [RegExp, number])[]> = {
  mcp: [
    [/\b(mcp|model context protocol|tool server)\b/, 5],
    [
      /\b(lets?|letting|allows?|helps?|gives?|give)\s+(an?\s+|the\s+|our\s+|your\s+|my\s+)?(llms?|ai|claude|chatgpt|gemini|copilot|cursor|assistants?|agents?|models?)\b/,
      4,
    ],
    [
      /\btools?\s+(for|that)\s+(an?\s+|the\s+|your\s+)?(llms?|ai|claude|chatgpt|gemini|copilot|cursor|assistants?|agents?)\b/,
      4,
    ],
    [/\b(ai|llm|claude|chatgpt) (assistants?|agents?)\b|\bagentic\b|\btool calls?\b/, 3],
    [/\b(claude|chatgpt|llms?|gpt-?\d*|gemini|copilot|cursor|windsurf)\b/, 2],
  ],
  mobile: [
    [
      /\b(mobile|ios|android|iphone|ipad|app store|play store|smartphone|phone app|react native|flutter|swiftui|jetpack compose|apple watch|wear os|wearables?|smartwatch)\b/,
      5,
    ],
    [
      /\b(push notifications?|on[ -]the[ -]go|gps|geolocation|location-based|nearby|near me|camera|barcodes?|qr codes?|pedometer|step count(er|s)?|offline-first|bluetooth|nfc|healthkit|google fit|home[- ]screen widget)\b/,
      3,
    ],
    [/\blanguage[- ]?(exchange|learning|learners?|practice|partners?|lessons?)\b/, 3],
    [
      /\b(reminders?|remind|reminds|notif(y|ies|ications?)|habits?|fitness|workouts?|steps|running|hikes?|hiking|cycling|rides|sleep|meals?|calories?|medications?|medicines?|pills?|doses?|scan(s|ning)?|photos?|selfies?|commute|in the field|on the road|walks?|flashcards?)\b/,
      2,
    ],
    [/\b(apps?|tracker|log|logs|logging|journal|diary)\b/, 1],
  ],
  web: [
    [/\b(web|website|web-based|browser|browser-based|webapp|saas|chrome extension)\b/, 5],
    [
      /\b(dashboards?|admin|portal|back-office|crm|cms|intranet|internal tools?|marketplace|analytics|reporting|landing pages?|e-?commerce|online store|webshop|b2b)\b/,
      3,
    ],
    [/\b(desktop|spreadsheets?|invoices?|invoicing|billing|payouts?|back office)\b/, 2],
    [
      /\b(remote|distributed|hybrid) (teams?|workers?)\b|\b(employees|colleagues|coworkers|workplace|company-wide)\b/,
      3,
    ],
    [/\b(teams?|booking|bookings|online|site|platform|workspace|clients)\b/, 1],
  ],
};

/**
 * The project type an idea suggests: each type scores the weights of its hints found in the
 * idea (each hint once) and the highest score wins. Web is the default, so it also wins a
 * tie; between MCP and mobile, MCP does.
 *
 * @example
 * inferProjectType('A medication reminder for elderly parents'); // 'mobile'
 */
export function inferProjectType(idea: string): ProjectType {
  const text = idea.toLowerCase();
  const score = (type: ProjectType) =>
    TYPE_HINTS[type].reduce(
      (sum, [pattern, weight]) => (pattern.test(text) ? sum + weight : sum),
      0,
    );
  let best: ProjectType = 'web';
  let bestScore = score('web');
  for (const type of ['mcp', 'mobile'] as const) {
    const current = score(type);
    if (current > bestScore) {
      best = type;
      bestScore = current;
    }
  }
  return best;
}
