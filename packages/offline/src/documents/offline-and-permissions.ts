/**
 * A mobile project's behaviour without a connection (local data, the sync API, conflicts) and the
 * device permissions it asks for.
 */
import { phrase } from '../facts/brief-model.ts';
import { attributesOf, requirementsOn } from '../facts/columns.ts';
import { screensOf } from '../facts/delivery-model.ts';
import type { Facts, Requirement } from '../facts/facts.ts';
import { withoutAccounts } from '../facts/settled.ts';
import { blocks, bullets, code, type Inline, ic, p, t, table } from '../text/nodes.ts';
import { capitalize, listing } from '../text/words.ts';
import type { KindWriter } from './kind.ts';
import { localStoreOf } from './settled-text.ts';

const offline = (r: Requirement) => r.criteria.find((c) => c.role === 'offline');

function withoutConnection(r: Requirement): Inline {
  const crit = offline(r);
  if (crit) return t`Works fully, as the idea asks (${crit.id}); changes wait in the queue`;
  if (r.service) return t`Needs ${r.service.name}: the request waits in the queue and says so`;
  if (r.kind === 'read') return `Answers from what is on the phone, with the time of the last sync`;
  if (r.kind === 'send') return `Goes out when the phone is back online`;
  return `Saved on the phone at once, synced later`;
}

/** The device permissions the features need, and nothing else. */
function permissions(f: Facts): Inline[][] {
  const rows: Inline[][] = [];
  const text = (r: Requirement) => `${r.verb} ${r.object} ${r.qualifiers.join(' ')}`;
  const camera = f.requirements.filter((r) =>
    /\b(?:photograph|scan|photo|camera|capture)\b/i.test(text(r)),
  );
  if (camera.length > 0)
    rows.push([
      'Camera',
      t`To ${listing(camera.map(phrase))} (${camera.map((r) => r.id).join(', ')})`,
      t`The first time someone taps ${capitalize(phrase(camera[0]!))}`,
    ]);
  const place = f.requirements.filter((r) =>
    /\b(?:map|nearby|location|gps|where)\b/i.test(text(r)),
  );
  if (place.length > 0)
    rows.push([
      'Location, while in use',
      t`To ${listing(place.map(phrase))} (${place.map((r) => r.id).join(', ')})`,
      t`When ${capitalize(phrase(place[0]!))} opens`,
    ]);
  const notify = f.requirements.filter((r) => r.kind === 'send');
  if (notify.length > 0)
    rows.push([
      'Notifications',
      t`To ${listing(notify.map(phrase))} (${notify.map((r) => r.id).join(', ')})`,
      'After the first one is set up, not at launch',
    ]);
  return rows;
}

/**
 * The writers of Offline Support and Permissions (OFFLINE_AND_PERMISSIONS.md): one per section of
 * the catalogue's `offline-and-permissions`, so a section missing or renamed there fails the
 * build.
 */
export const OFFLINE_AND_PERMISSIONS = {
  purpose:
    'This document covers how it behaves without a connection and which device permissions it asks for',
  sections: {
    'Offline behaviour': (f) =>
      blocks(
        p`What each requirement of ${f.name} does without a connection:`,
        table(
          ['Requirement', 'Without a connection'],
          f.requirements.map((r) => [t`${r.id} ${r.text}`, withoutConnection(r)]),
        ),
      ),

    'Local data model': (f) =>
      blocks(
        p`The phone keeps its own copy of ${listing(f.entities.map((e) => e.plural))} in ${localStoreOf(f)}, plus a queue of changes not yet synced:`,
        table(
          ['Table', 'Columns', 'Serves'],
          [
            ...f.entities.map((e) => [
              e.table,
              attributesOf(f, e)
                .map((a) => a.column)
                .join(', '),
              requirementsOn(f, e)
                .map((r) => r.id)
                .join(', '),
            ]),
            [
              'outbox',
              'id, entity, entity_id, change (JSON), created_at, attempts',
              listing(f.requirements.filter((r) => r.writes).map((r) => r.id)) || 'none',
            ],
          ],
        ),
      ),

    'Sync API': (f) =>
      blocks(
        withoutAccounts(f)
          ? p`The app syncs with two endpoints of ${f.name}'s API; both take the random install key the app made at first launch and keeps in the phone's secure storage, which names no one, and serve only that install's rows.`
          : p`The app syncs with two endpoints of ${f.name}'s API; both take the account's session.`,
        table(
          ['Method', 'Path', 'Does'],
          [
            [
              'GET',
              ic('/v1/sync?cursor=…'),
              t`The changes to ${listing(f.entities.map((e) => e.plural))} since the cursor, and the next cursor`,
            ],
            [
              'POST',
              ic('/v1/sync'),
              'The outbox, in order; each change carries the version it was based on',
            ],
          ],
        ),
        code(
          'json',
          JSON.stringify(
            {
              changes: [
                {
                  entity: f.main.table,
                  id: '3f2a9c61-0b7e-4d55-9a41-8c2e1f07b6d3',
                  version: 4,
                  change: { title: `First ${f.main.label}` },
                },
              ],
            },
            null,
            2,
          ),
        ),
      ),

    'Sync and conflicts': (f) =>
      blocks(
        p`${f.name} syncs when it opens, after each change and when the connection returns. Sending the same change twice changes nothing the second time.`,
        bullets([
          t`Two devices change different fields of ${f.main.a}: both changes are kept.`,
          t`Two devices change the same field: the later one wins, and the earlier one stays in the ${f.main.label}'s history, where it can be restored.`,
          ...f.requirements
            .filter(offline)
            .map(
              (r) =>
                t`${capitalize(phrase(r))} offline (${offline(r)!.id}): the change is applied on the phone first and never lost by a failed sync.`,
            ),
        ]),
      ),

    'Device permissions': (f) => {
      const rows = permissions(f);
      return rows.length > 0
        ? blocks(
            p`${f.name} asks only for what its features need, at the moment they need it:`,
            table(['Permission', 'Needed for', 'Asked'], rows),
            p`Refusing a permission disables only the feature that needs it.`,
          )
        : [
            p`None of ${f.name}'s features (${listing(f.requirements.map(phrase))}) needs a device permission beyond the network, so it asks for none.`,
          ];
    },

    Privacy: (f) =>
      blocks(
        withoutAccounts(f)
          ? p`What ${f.name} keeps on the phone is the install's own ${listing(f.entities.map((e) => e.plural))}, under a key that names no one; Settings exports them, and deleting the app removes them from the phone.`
          : p`What ${f.name} keeps on the phone is the account's own ${listing(f.entities.map((e) => e.plural))}; it is removed at sign-out.`,
        bullets([
          t`Nothing leaves the phone except through the sync API of ${f.name}${f.integrations.length > 0 ? t` and ${listing(f.integrations.map((i) => i.name))}` : ''}.`,
          t`The store listings' privacy answers name exactly these data, and are reviewed each release (NFR-4).`,
          ...screensOf(f)
            .filter((s) => /camera|photo|map|location/i.test(`${s.name} ${s.purpose}`))
            .map(
              (s) => t`${s.name}: what it captures stays with the ${f.main.label} it belongs to.`,
            ),
        ]),
      ),
  },
} satisfies KindWriter<'offline-and-permissions'>;
