import { screensOf } from '../facts/delivery-model.ts';
import type { Facts } from '../facts/facts.ts';
import { withoutAccounts } from '../facts/settled.ts';
import { blocks, bold, bullets, code, ic, p, t, table } from '../text/nodes.ts';
import { capitalize, listing } from '../text/words.ts';
import type { KindWriter } from './kind.ts';

const tabsOf = (f: Facts) =>
  screensOf(f)
    .filter((s) => !s.route.includes('-') || s.route === 'sign-in')
    .filter((s) => s.route !== 'sign-in');

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
  if (/^Flutter$/.test(f.stack[0] ?? ''))
    return ['enum AppRoute {', ...screens.map((s) => `  ${camel(s.route)},`), '}'].join('\n');
  return [
    'export type Routes = {',
    ...screens.map((s) => `  ${camel(s.route)}: undefined;`),
    '};',
  ].join('\n');
}

const language = (f: Facts) =>
  /^Swift/.test(f.stack[0] ?? '')
    ? 'swift'
    : /^Kotlin/.test(f.stack[0] ?? '')
      ? 'kotlin'
      : /^Flutter$/.test(f.stack[0] ?? '')
        ? 'dart'
        : 'ts';

/**
 * The writers of Navigation (NAVIGATION.md): one per section of the catalogue's `navigation`, so a
 * section missing or renamed there fails the build.
 */
export const NAVIGATION = {
  purpose:
    'This navigation guide describes how people move between screens and how links open them',
  sections: {
    'Navigation structure': (f) => {
      const actions = screensOf(f).filter((s) => s.route.includes('-') && s.route !== 'sign-in');
      return blocks(
        p`${f.name} opens on a tab bar with one tab per list (${listing(tabsOf(f).map((s) => s.name))}); each action opens from its list as a sheet, so closing it returns where it started.`,
        bullets(
          tabsOf(f)
            .filter((tab) => tab.route !== 'settings')
            .map((tab) => {
              const own = actions.filter((a) =>
                f.requirements.some(
                  (r) =>
                    r.ent.path === tab.route && a.serves.some((id) => id.startsWith(`${r.id}.`)),
                ),
              );
              return t`${bold(tab.name)} (${tab.serves.join(', ')}): ${tab.purpose}${own.length > 0 ? t`; opens ${listing(own.map((a) => `"${a.name}"`))}` : ''}.`;
            }),
        ),
        withoutAccounts(f)
          ? p`${f.name} has no accounts, so it opens straight on its first tab; Settings is reached from every tab.`
          : p`Sign-in comes first, once per device; Settings is reached from every tab.`,
      );
    },

    Routes: (f) =>
      blocks(
        p`Routes are typed once in ${f.stack[0] ?? ''} and shared by the screens and the deep links:`,
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

    'Deep links': (f) =>
      blocks(
        p`Links into ${f.name} use the scheme ${ic(`${f.slug}://`)} and, verified, ${ic(`https://${f.slug}.app/`)}:`,
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
                t`A notification from "${r.text}" (${r.criteria[0]!.id}) opens ${ic(`${f.slug}://${r.ent.path}`)} on the ${r.ent.label} it is about.`,
            ),
          ...(withoutAccounts(f)
            ? [
                t`A link to ${f.main.a} that is not on this phone (deleted, or made on another phone) opens the first tab, with a sentence saying why.`,
              ]
            : [
                t`A link to a screen the account may not see opens the first tab, with a sentence saying why.`,
                t`A link opened before sign-in leads through Sign in, then on to the screen it names.`,
              ]),
        ]),
      ),

    'Back behaviour': (f) => [
      bullets([
        ...screensOf(f)
          .filter((s) => s.route.includes('-') && s.route !== 'sign-in')
          .map(
            (s) =>
              t`Back from "${s.name}" closes the sheet; what was typed stays as a draft until it is sent or discarded.`,
          ),
        t`Back from a deep link into ${f.main.a} leads to the list of ${f.main.plural}, not out of ${f.name}.`,
        t`Back never ${withoutAccounts(f) ? '' : 'signs out and never '}discards a queued change${f.requirements.some((r) => r.criteria.some((c) => c.role === 'offline')) ? `, offline included (${f.requirements.flatMap((r) => r.criteria.filter((c) => c.role === 'offline').map((c) => c.id)).join(', ')})` : ''}.`,
      ]),
    ],
  },
} satisfies KindWriter<'navigation'>;
