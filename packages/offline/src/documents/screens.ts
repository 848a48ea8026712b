/**
 * The screens of a mobile project: the inventory, each screen in detail, empty and error states,
 * accessibility.
 */
import { phrase } from '../facts/brief-model.ts';
import { attributesOf } from '../facts/columns.ts';
import { type Screen, screensOf } from '../facts/delivery-model.ts';
import { type Facts, unitsOf } from '../facts/facts.ts';
import { withoutAccounts } from '../facts/settled.ts';
import { blocks, bullets, h3, type Inline, ic, p, t, table } from '../text/nodes.ts';
import { capitalize, listing } from '../text/words.ts';
import type { KindWriter } from './kind.ts';

function detail(f: Facts, screen: Screen): Inline[] {
  // A coordination's parts each have their screens: the part the screen lists or acts for.
  const parts = f.requirements
    .flatMap(unitsOf)
    .filter((r) => screen.serves.some((id) => id === r.id || id.startsWith(`${r.id}.`)));
  const req =
    parts.find((r) => r.ent.path === screen.route) ??
    parts.find((r) => r.criteria.some((c) => screen.serves.includes(c.id))) ??
    parts[0];
  if (!req) return [t`What ${f.name} keeps about the account, and a way to sign out`];
  const fields = attributesOf(f, req.ent)
    .filter((a) => !/^(?:id|created_by|updated_at)$/.test(a.column))
    .map((a) => a.name);
  const failure = req.criteria.find((c) => c.role === 'unwanted');
  const offline = req.criteria.find((c) => c.role === 'offline');
  if (screen.route === req.ent.path)
    return [
      t`Each row shows ${listing(fields.slice(0, 3)) || `the ${req.ent.label}`}.`,
      t`A button opens ${listing(
        f.requirements
          .flatMap(unitsOf)
          .filter((r) => r.ent === req.ent)
          .map((r) => `"${capitalize(phrase(r))}"`),
      )}.`,
    ];
  return [
    req.kind === 'read' || req.kind === 'send'
      ? t`Shows ${listing(fields.slice(0, 3)) || `the ${req.ent.label}`} of each ${req.ent.label}.`
      : t`Asks for ${listing(fields.slice(0, 3)) || `the ${req.ent.label}`}, and nothing the criteria do not need.`,
    t`Done when ${listing(screen.serves)} ${screen.serves.length === 1 ? 'passes' : 'pass'} on a phone.`,
    ...(offline
      ? [t`Offline, it keeps working (${offline.id}) and shows what waits to sync.`]
      : []),
    ...(failure ? [t`On failure it shows what ${failure.id} requires, and keeps the input.`] : []),
  ];
}

/**
 * The writers of Screens (SCREENS.md): one per section of the catalogue's `screens`, so a section
 * missing or renamed there fails the build.
 */
export const SCREENS = {
  purpose: 'This screen guide lists every screen and what each one must show',
  sections: {
    'Screen inventory': (f) =>
      blocks(
        withoutAccounts(f)
          ? p`${f.name} has ${screensOf(f).length} screens: a list for each thing it keeps, one for each action of its requirements, and settings; it has no accounts, so none of them asks who someone is.`
          : p`${f.name} has ${screensOf(f).length} screens: a list for each thing it keeps, one for each action of its requirements, sign-in and settings.`,
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

    'Screen details': (f) =>
      blocks(
        screensOf(f)
          .filter((s) => s.serves.length > 0)
          .map((s) => [h3(s.name), p`This screen ${s.purpose}.`, bullets(detail(f, s))]),
      ),

    'Empty and error states': (f) =>
      blocks(
        p`What each screen of ${f.name} shows when there is nothing yet, or when something fails:`,
        table(
          ['Screen', 'Empty', 'Error'],
          f.requirements.map((r) => [
            capitalize(phrase(r)),
            t`No ${r.ent.plural} yet, and one button to ${phrase(r)}`,
            t`${r.criteria.at(-1)!.id}: ${r.service ? t`${r.service.name} failed; nothing was lost` : r.kind === 'read' ? 'nothing matched; how to widen the search' : 'what is missing, with the input kept'}`,
          ]),
        ),
      ),

    Accessibility: (f) =>
      blocks(
        p`${f.name} must work for every one of the ${f.who} (NFR-5):`,
        bullets([
          t`Each action (${listing(f.requirements.map(phrase))}) is a labelled button that VoiceOver and TalkBack read out.`,
          t`Text scales with the system size without cutting off the ${f.main.label} titles.`,
          t`Status, such as a failed ${f.requirements.find((r) => r.kind === 'send')?.ent.label ?? f.main.label}, is never shown by colour alone.`,
        ]),
      ),
  },
} satisfies KindWriter<'screens'>;
