import type { Facts } from './facts.ts';
import { blocks, bullets, code, ic, numbered, table } from './markdown.ts';
import type { SectionWriter } from './phrases.ts';
import { capitalize, decapitalize, listing } from './words.ts';

function tabs(f: Facts): string[] {
  return ['Today', capitalize(f.main.plural), 'Notifications', 'Settings'];
}

function localStore(f: Facts): string {
  return f.stack.find((t) => /SQLite/.test(t)) ?? 'SQLite';
}

function pushService(f: Facts): string {
  return f.stack.find((t) => /[Pp]ush|APNs|FCM|Messaging/.test(t)) ?? 'push notifications';
}

function routeLanguage(f: Facts): string {
  if (/^Swift/.test(f.stack[0] ?? '')) return 'swift';
  if (/^Kotlin/.test(f.stack[0] ?? '')) return 'kotlin';
  return 'ts';
}

function camel(route: string): string {
  return route.replace(/[^a-z0-9]+(.)/g, (_, c: string) => c.toUpperCase());
}

function routeCode(f: Facts): string {
  const cases = f.screens.map((screen) => ({
    name: screen.route.endsWith('/detail') ? `${camel(f.main.label)}Detail` : camel(screen.route),
    id: screen.route.endsWith('/detail'),
  }));
  const language = routeLanguage(f);
  if (language === 'swift')
    return [
      'enum Route: Hashable {',
      ...cases.map((c) => `  case ${c.name}${c.id ? '(id: String)' : ''}`),
      '}',
    ].join('\n');
  if (language === 'kotlin')
    return [
      'sealed interface Route {',
      ...cases.map((c) =>
        c.id
          ? `  data class ${capitalize(c.name)}(val id: String) : Route`
          : `  data object ${capitalize(c.name)} : Route`,
      ),
      '}',
    ].join('\n');
  return [
    'export type Routes = {',
    ...cases.map((c) => `  ${c.name}: ${c.id ? '{ id: string }' : 'undefined'};`),
    '};',
  ].join('\n');
}

export const MOBILE_SECTIONS: Record<string, SectionWriter> = {
  'screens/Screen inventory': (f) =>
    blocks(
      `${f.name} has ${f.screens.length} screens. Each exists because a feature or a persona needs it; none is there for decoration.`,
      table(
        ['Screen', 'Route', 'Purpose'],
        f.screens.map((screen) => [screen.name, ic(screen.route), screen.purpose]),
      ),
      `The layout targets phones first on ${listing(f.platforms)}; everything works one-handed, with primary actions in the lower half of the screen.`,
    ),

  'screens/Screen details': (f) =>
    blocks(
      ...f.screens
        .slice(1, 6)
        .map((screen) =>
          blocks(
            `**${screen.name}.** This screen ${screen.purpose}.`,
            bullets(
              screen.route === 'today'
                ? [
                    `A summary card per ${f.main.label} that needs attention`,
                    `A prominent button to ${decapitalize(f.actions[0] ?? 'add a new item')}`,
                    'Pull to refresh; the last sync time is shown discreetly',
                  ]
                : screen.route === f.main.path
                  ? [
                      'Search field and filter chips (active, done, archived)',
                      `Swipe actions on each ${f.main.label}`,
                      'Items created offline show a small pending-sync mark',
                    ]
                  : screen.route.endsWith('/detail')
                    ? [
                        `Title, status and notes of the ${f.main.label}`,
                        'A history list of every change with names and times',
                        `Buttons for ${listing(f.actions.slice(0, 2).map(decapitalize)) || 'the main actions'}`,
                      ]
                    : [
                        'One decision per step, with a clear primary button',
                        'Input is validated as the user types',
                        'A confirmation that says exactly what happened',
                      ],
            ),
          ),
        ),
      `Every screen uses the same components from the design system built with ${f.stack[1] ?? f.stack[0]}, so behaviour is consistent.`,
    ),

  'screens/Empty and error states': (f) =>
    blocks(
      `Empty and error states are designed, not left to chance, because ${f.audienceShort} often open ${f.name} in a hurry.`,
      table(
        ['Situation', 'What the user sees'],
        [
          [
            `No ${f.main.plural} yet`,
            `A short explanation, an illustration and a button to ${decapitalize(f.actions[0] ?? 'get started')}`,
          ],
          ['Offline', 'A calm banner: changes are saved on the phone and will sync later'],
          [
            'Sync failed',
            'The affected items are marked; tapping one explains the problem and offers retry',
          ],
          [
            'Permission denied',
            'Why the permission helps, and a button that opens system settings',
          ],
          [
            'Server error',
            'A plain message, the time, and a retry button; no codes unless the user asks',
          ],
        ],
      ),
      'Error messages never blame the user and always say what to do next.',
    ),

  'screens/Accessibility': (f) =>
    blocks(
      `${f.name} must be usable by everyone among ${f.audienceShort}, including people using assistive technology.`,
      bullets([
        'All text scales with the system font size up to the largest accessibility sizes without truncating actions.',
        'Every control has a label for VoiceOver and TalkBack; custom gestures have button alternatives.',
        'Colour contrast meets WCAG 2.2 AA; status is never conveyed by colour alone.',
        'Touch targets are at least 44 by 44 points; motion respects the reduce-motion setting.',
        `Each release is tested with a screen reader on the flow to ${decapitalize(f.actions[0] ?? f.features[0]!)}.`,
      ]),
    ),

  'navigation/Navigation structure': (f) =>
    blocks(
      `${f.name} uses a bottom tab bar with four tabs and a stack inside each tab. The tabs reflect how ${f.audienceShort} think about their work:`,
      numbered(tabs(f).map((tab) => `**${tab}**`)),
      'Focused flows (creating and acting on items) open as modal sheets so that the user always knows how to leave them.',
      `The Welcome screen appears only until sign-in; afterwards the app opens on Today, or on the screen a notification points to.`,
      `State is kept per tab: switching tabs and coming back preserves the scroll position and any filters on the ${f.main.plural} list. ` +
        `When the operating system ends the app in the background, the next launch restores the last tab and the open ${f.main.label}, ` +
        'but never a half-finished modal flow, because resuming one out of context causes mistakes.',
    ),

  'navigation/Routes': (f) =>
    blocks(
      'Routes are named and typed so that navigation and deep links share one definition. A route that needs an id cannot be opened without one; the compiler checks it.',
      table(
        ['Route', 'Screen', 'Parameters', 'Presented as'],
        f.screens.map((screen) => [
          ic(screen.route),
          screen.name,
          screen.route.endsWith('/detail') ? 'id' : 'none',
          ['welcome', 'today', f.main.path, 'notifications', 'settings'].includes(screen.route)
            ? 'Tab or root'
            : screen.route.endsWith('/detail')
              ? 'Push'
              : 'Modal sheet',
        ]),
      ),
      `In ${f.stack[0]} the routes are declared once:`,
      code(routeLanguage(f), routeCode(f)),
    ),

  'navigation/Deep links': (f) =>
    blocks(
      `${f.name} answers both a custom scheme and universal links on ${ic(`${f.slug}.app`)}, so links from notifications, email and chat open the right screen.`,
      code(
        'text',
        [
          `${f.slug}://today`,
          `${f.slug}://${f.main.path}/detail?id=3f2a9c`,
          `https://${f.slug}.app/${f.main.path}/3f2a9c`,
          ...f.screens
            .filter(
              (s) =>
                !['welcome', 'today', 'settings', 'notifications', f.main.path].includes(s.route) &&
                !s.route.endsWith('/detail'),
            )
            .map((s) => `${f.slug}://${s.route}`),
        ].join('\n'),
      ),
      'A deep link to content the user may not see opens Today with a short explanation instead of failing silently.',
      bullets([
        `Universal links are verified through ${f.platforms.includes('Android') ? 'apple-app-site-association and assetlinks.json' : 'the apple-app-site-association file'} served from the same domain.`,
        'Parameters are validated before navigation; an unknown route or a malformed id falls back to Today.',
        `Links in notifications carry the workspace id, so someone who belongs to several groups lands on the right ${f.main.label}.`,
        'Links work when the user is signed out: the app signs them in first, then continues to the target.',
      ]),
    ),

  'navigation/Back behaviour': (f) =>
    blocks(
      'Back always goes where the user expects:',
      bullets([
        'Within a tab, back pops the stack; tapping the active tab returns to its root.',
        'Modal sheets close with a swipe down or a Cancel button; if there is unsaved input, the app asks first.',
        `A deep link into ${f.main.a} builds the stack underneath, so back leads to the list, not out of the app.`,
        f.platforms.includes('Android')
          ? 'On Android the system back gesture follows the same rules; on the root of Today it leaves the app.'
          : 'The iOS edge swipe follows the same rules and is never disabled, not even inside modal flows.',
      ]),
      `Back never discards work silently. If ${f.personas[0].name} is halfway through a flow to ${decapitalize(f.actions[0] ?? f.features[0]!)} ` +
        'and leaves, the input is kept as a draft for 24 hours and offered again the next time the flow opens.',
    ),

  'offline-and-permissions/Offline behaviour': (f) =>
    blocks(
      `Offline support is a core promise of ${f.name}: ${f.audienceShort} must be able to ${f.purpose} without a connection.`,
      bullets([
        `All ${f.entities.map((e) => e.plural).join(', ')} the user can see are stored in ${localStore(f)} on the device.`,
        'Every change is written locally first and queued for sync with a client-generated id.',
        'Read-only features that need the server (such as search across the whole workspace) say so instead of failing.',
        'The local store is limited to the last 12 months of data; older items load on demand.',
      ]),
      'What each core feature does without a connection:',
      table(
        ['Feature', 'Offline behaviour'],
        f.features.map((feature) => [
          feature,
          /sign-in|sign in/i.test(feature)
            ? 'Needs a connection the first time; afterwards the session is kept on the device'
            : /push|reminder|notification/i.test(feature)
              ? 'Local reminders fire on schedule; server updates arrive when back online'
              : f.actions.includes(feature)
                ? 'Fully available; the change is queued and synced later'
                : 'Shows the data stored on the device, with the time of the last sync',
        ]),
      ),
    ),

  'offline-and-permissions/Sync and conflicts': (f) =>
    blocks(
      'Sync runs when the app starts, when it returns to the foreground, after each change and on a silent push.',
      numbered([
        'Send queued changes in order; each carries the version it was based on.',
        'Pull the change feed since the last cursor and apply it to the local store.',
        `If the same field of ${f.main.a} changed on two devices, the later change wins and the other is kept in history.`,
        'If a change is rejected (for example, permission removed), the item is marked and the user can copy their input.',
      ]),
      'Sync is idempotent: repeating a request never creates duplicates.',
    ),

  'offline-and-permissions/Device permissions': (f) =>
    blocks(
      `${f.name} asks for permissions only when a feature needs them, with an explanation first.`,
      table(
        ['Permission', 'Used for', 'When asked'],
        [
          [
            'Notifications',
            `Reminders and updates about ${f.main.plural} via ${pushService(f)}`,
            'After the first completed action',
          ],
          ['Camera and photos', `Attaching pictures to ${f.main.a}`, 'When the user taps Attach'],
          ...(f.constraints.some((c) => /[Ll]ocation/.test(c))
            ? [
                [
                  'Location (while using)',
                  `Tagging ${f.main.a} with a place`,
                  'When the user turns the option on',
                ],
              ]
            : []),
        ],
      ),
      'Declining a permission never blocks the core flow.',
    ),

  'offline-and-permissions/Privacy': (f) =>
    blocks(
      `Privacy rules for ${f.name}: ${listing(f.constraints.map(decapitalize))}.`,
      bullets([
        'Data on the device is protected by the operating system file encryption and removed on sign-out.',
        'Analytics are anonymous and can be turned off in Settings.',
        'No third-party advertising SDKs are included.',
        'The App Store privacy labels and the Play data safety form are kept in the repository and reviewed each release.',
      ]),
    ),
};
