/**
 * A mobile app's screens and navigation: a screen per entity and per action, each citing the
 * requirements it serves, and the routes and deep links that reach them.
 */
import { phrase } from '../facts/brief-model.ts';
import { attributesOf } from '../facts/columns.ts';
import { type Screen, screensOf } from '../facts/delivery-model.ts';
import type { Facts, SectionWriter } from '../facts/facts.ts';
import { blocks, bullets, code, ic, table } from '../text/markdown.ts';
import { capitalize, listing } from '../text/words.ts';

const tabsOf = (f: Facts) =>
  screensOf(f)
    .filter((s) => !s.route.includes('-') || s.route === 'sign-in')
    .filter((s) => s.route !== 'sign-in');

function detail(f: Facts, screen: Screen): string[] {
  const req = f.requirements.find((r) =>
    screen.serves.some((id) => id === r.id || id.startsWith(`${r.id}.`)),
  );
  if (!req) return [`What ${f.name} keeps about the account, and a way to sign out`];
  const fields = attributesOf(f, req.ent)
    .filter((a) => !/^(?:id|created_by|updated_at)$/.test(a.column))
    .map((a) => a.name);
  const failure = req.criteria.find((c) => c.role === 'unwanted');
  const offline = req.criteria.find((c) => c.role === 'offline');
  if (screen.route === req.ent.path)
    return [
      `Each row shows ${listing(fields.slice(0, 3)) || `the ${req.ent.label}`}.`,
      `A button opens ${listing(f.requirements.filter((r) => r.ent === req.ent).map((r) => `"${capitalize(phrase(r))}"`))}.`,
    ];
  return [
    req.kind === 'read' || req.kind === 'send'
      ? `Shows ${listing(fields.slice(0, 3)) || `the ${req.ent.label}`} of each ${req.ent.label}.`
      : `Asks for ${listing(fields.slice(0, 3)) || `the ${req.ent.label}`}, and nothing the criteria do not need.`,
    `Done when ${listing(screen.serves)} ${screen.serves.length === 1 ? 'passes' : 'pass'} on a phone.`,
    ...(offline ? [`Offline, it keeps working (${offline.id}) and shows what waits to sync.`] : []),
    ...(failure ? [`On failure it shows what ${failure.id} requires, and keeps the input.`] : []),
  ];
}

function routeCode(f: Facts): string {
  const screens = screensOf(f);
  const camel = (route: string) => route.replace(/-(.)/g, (_, c: string) => c.toUpperCase());
  if (/^Swift/.test(f.stack[0] ?? ''))
    return ['enum Route: Hashable {', ...screens.map((s) => `  case ${camel(s.route)}`), '}'].join(
      '\n',
    );
  if (/^Kotlin/.test(f.stack[0] ?? ''))
    return [
      'sealed interface Route {',
      ...screens.map((s) => `  data object ${capitalize(camel(s.route))} : Route`),
      '}',
    ].join('\n');
  return [
    'export type Routes = {',
    ...screens.map((s) => `  ${camel(s.route)}: undefined;`),
    '};',
  ].join('\n');
}

const language = (f: Facts) =>
  /^Swift/.test(f.stack[0] ?? '') ? 'swift' : /^Kotlin/.test(f.stack[0] ?? '') ? 'kotlin' : 'ts';

export const MOBILE_SECTIONS: Record<string, SectionWriter> = {
  'screens/Screen inventory': (f) =>
    blocks(
      `${f.name} has ${screensOf(f).length} screens: a list for each thing it keeps, one for each action of its requirements, sign-in and settings.`,
      table(
        ['Screen', 'Route', 'Purpose', 'Serves'],
        screensOf(f).map((s) => [
          s.name,
          ic(s.route),
          capitalize(s.purpose),
          s.serves.join(', ') || 'none',
        ]),
      ),
    ),

  'screens/Screen details': (f) =>
    blocks(
      ...screensOf(f)
        .filter((s) => s.serves.length > 0)
        .map((s) => blocks(`### ${s.name}`, `This screen ${s.purpose}.`, bullets(detail(f, s)))),
    ),

  'screens/Empty and error states': (f) =>
    blocks(
      `What each screen of ${f.name} shows when there is nothing yet, or when something fails:`,
      table(
        ['Screen', 'Empty', 'Error'],
        f.requirements.map((r) => [
          capitalize(phrase(r)),
          `No ${r.ent.plural} yet, and one button to ${phrase(r)}`,
          `${r.criteria.at(-1)!.id}: ${r.service ? `${r.service.name} failed; nothing was lost` : r.kind === 'read' ? 'nothing matched; how to widen the search' : 'what is missing, with the input kept'}`,
        ]),
      ),
    ),

  'screens/Accessibility': (f) =>
    blocks(
      `${f.name} must work for every one of the ${f.who} (NFR-5):`,
      bullets([
        `Each action (${listing(f.requirements.map(phrase))}) is a labelled button that VoiceOver and TalkBack read out.`,
        `Text scales with the system size without cutting off the ${f.main.label} titles.`,
        `Status, such as a failed ${f.requirements.find((r) => r.kind === 'send')?.ent.label ?? f.main.label}, is never shown by colour alone.`,
      ]),
    ),

  'navigation/Navigation structure': (f) => {
    const actions = screensOf(f).filter((s) => s.route.includes('-') && s.route !== 'sign-in');
    return blocks(
      `${f.name} opens on a tab bar with one tab per list (${listing(tabsOf(f).map((s) => s.name))}); each action opens from its list as a sheet, so closing it returns where it started.`,
      bullets(
        tabsOf(f)
          .filter((t) => t.route !== 'settings')
          .map((tab) => {
            const own = actions.filter((a) =>
              f.requirements.some(
                (r) => r.ent.path === tab.route && a.serves.some((id) => id.startsWith(`${r.id}.`)),
              ),
            );
            return `**${tab.name}** (${tab.serves.join(', ')}): ${tab.purpose}${own.length > 0 ? `; opens ${listing(own.map((a) => `"${a.name}"`))}` : ''}.`;
          }),
      ),
      `Sign-in comes first, once per device; Settings is reached from every tab.`,
    );
  },

  'navigation/Routes': (f) =>
    blocks(
      `Routes are typed once in ${f.stack[0]} and shared by the screens and the deep links:`,
      table(
        ['Route', 'Screen', 'Presented as', 'Serves'],
        screensOf(f).map((s) => [
          ic(s.route),
          s.name,
          s.route.includes('-') && s.route !== 'sign-in' ? 'Sheet' : 'Tab or root',
          s.serves.join(', ') || 'none',
        ]),
      ),
      code(language(f), routeCode(f)),
    ),

  'navigation/Deep links': (f) =>
    blocks(
      `Links into ${f.name} use the scheme ${ic(`${f.slug}://`)} and, verified, ${ic(`https://${f.slug}.app/`)}:`,
      code(
        'text',
        screensOf(f)
          .map((s) => `${f.slug}://${s.route}`)
          .join('\n'),
      ),
      bullets([
        ...f.requirements
          .filter((r) => r.kind === 'send')
          .map(
            (r) =>
              `A notification from "${r.text}" (${r.criteria[0]!.id}) opens ${ic(`${f.slug}://${r.ent.path}`)} on the ${r.ent.label} it is about.`,
          ),
        `A link to a screen the account may not see opens the first tab, with a sentence saying why.`,
        `A link opened before sign-in leads through Sign in, then on to the screen it names.`,
      ]),
    ),

  'navigation/Back behaviour': (f) =>
    bullets([
      ...screensOf(f)
        .filter((s) => s.route.includes('-') && s.route !== 'sign-in')
        .map(
          (s) =>
            `Back from "${s.name}" closes the sheet; what was typed stays as a draft until it is sent or discarded.`,
        ),
      `Back from a deep link into ${f.main.a} leads to the list of ${f.main.plural}, not out of ${f.name}.`,
      `Back never signs out and never discards a queued change${f.requirements.some((r) => r.criteria.some((c) => c.role === 'offline')) ? `, offline included (${f.requirements.flatMap((r) => r.criteria.filter((c) => c.role === 'offline').map((c) => c.id)).join(', ')})` : ''}.`,
    ]),
};
