/**
 * The API design of a web project: conventions, authentication, the resources and endpoints of
 * each requirement, errors, pagination and versioning.
 */
import { phrase } from '../facts/brief-model.ts';
import { attributesOf } from '../facts/columns.ts';
import type { Requirement } from '../facts/facts.ts';
import { theService, unitsOf } from '../facts/facts.ts';
import { settledOf, withoutAccounts } from '../facts/settled.ts';
import { blocks, bullets, code, ic, listingOf, p, t, table } from '../text/nodes.ts';
import { capitalize, kebab, listing } from '../text/words.ts';
import type { KindWriter } from './kind.ts';
import { signsIn } from './settled-text.ts';

/** The endpoints of one requirement: its own action, on the resource of its entity. */
function endpointsOf(req: Requirement): string[][] {
  const base = `/v1/${req.ent.path}`;
  const serves = req.criteria
    .filter((c) => c.role !== 'unwanted')
    .map((c) => c.id)
    .join(', ');
  if (req.kind === 'read') return [['GET', `${base}?q=…`, `${capitalize(phrase(req))}`, serves]];
  if (req.kind === 'create')
    return [
      ['POST', base, `${capitalize(req.verb)} ${req.ent.a}`, serves],
      ['GET', `${base}/{id}`, `Read one ${req.ent.label}`, req.id],
    ];
  if (req.kind === 'send')
    return [
      [
        'GET',
        `${base}?status=failed`,
        `The ${req.ent.plural} that did not go out`,
        req.criteria.at(-1)!.id,
      ],
      [
        'POST',
        `${base}/{id}/retry`,
        `Send a failed ${req.ent.label} again`,
        req.criteria.at(-1)!.id,
      ],
    ];
  return [
    [
      'POST',
      `${base}/{id}/${kebab(req.verb, 1)}`,
      `${capitalize(req.verb)} ${req.ent.a}${req.qualifiers.length > 0 ? ` ${req.qualifiers.join(' ')}` : ''}`,
      serves,
    ],
  ];
}

const snakeUpper = (name: string) =>
  name
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .toUpperCase();

/**
 * The writers of API Design (API_DESIGN.md): one per section of the catalogue's `api-design`, so a
 * section missing or renamed there fails the build.
 */
export const API_DESIGN = {
  purpose: 'This API design specifies the HTTP API that the client and future integrations use',
  sections: {
    Conventions: (f) =>
      blocks(
        p`The ${f.name} API is JSON over HTTPS, one resource per entity of the data model (${listingOf(f.entities.map((e) => ic(`/v1/${e.path}`)))}), described by an OpenAPI document checked in CI.`,
        bullets([
          t`Dates are ISO 8601 in UTC; IDs are UUIDs, which the client may generate so that a retried create of ${f.main.a} is harmless.`,
          t`Every write takes an ${ic('Idempotency-Key')} header; the same key returns the first answer.`,
        ]),
      ),

    Authentication: (f) =>
      withoutAccounts(f)
        ? blocks(
            p`${f.name} has no accounts and no sign-in (the team's answer: "${settledOf(f).answered.signIn!.answer}"): requests carry no cookie and no token, and everyone who reaches the API reads and changes the same ${listing(f.entities.slice(0, 2).map((e) => e.plural))}.`,
            p`Every endpoint validates what it is sent, and each client address has its own rate limit (NFR-3).`,
          )
        : blocks(
            p`${f.name} ${signsIn(f)}, then keeps a session cookie (HttpOnly, Secure, SameSite=Lax).`,
            p`Every endpoint checks that the ${listing(f.entities.slice(0, 2).map((e) => e.label))} it touches belongs to the signed-in account, and answers 404 otherwise (NFR-3).`,
          ),

    'Resources and endpoints': (f) => {
      const lead =
        f.requirements.find((r) => r.kind === 'create' || r.kind === 'change') ??
        f.requirements[0]!;
      const [method, path] = endpointsOf(lead)[0]!;
      const body = Object.fromEntries(
        attributesOf(f, lead.ent)
          .filter(
            (a) =>
              !/^(?:id|created_by|updated_at|delivery_status)$/.test(a.column) &&
              !a.column.endsWith('_at'),
          )
          .map((a) => [
            a.column.replace(/_(.)/g, (_, c: string) => c.toUpperCase()),
            a.type === 'integer' ? 1 : `…`,
          ]),
      );
      return blocks(
        p`One or two endpoints per requirement of ${f.name}, each citing what it serves:`,
        table(
          ['Method', 'Path', 'Purpose', 'Serves'],
          f.requirements.flatMap(unitsOf).flatMap(endpointsOf),
        ),
        f.integrations.length > 0 &&
          p`Calls to ${listing(f.integrations.map((i) => theService(i.name)))} happen behind these endpoints, never from the browser.`,
        p`For example, to ${phrase(lead)} (${lead.criteria[0]!.id}):`,
        code(
          'http',
          `${method} ${path!.replace('{id}', '3f2a9c61-0b7e-4d55-9a41-8c2e1f07b6d3')}\nIdempotency-Key: 7d0e2a4c-5b1f-4e8a-9c3d-2f6b8a1e0c54\nContent-Type: application/json\n\n${JSON.stringify(body, null, 2)}`,
        ),
      );
    },

    Errors: (f) =>
      blocks(
        p`Errors of ${f.name} share one body, ${ic('{ "error": { "code", "message" } }')}; the codes, and the rule each one enforces:`,
        table(
          ['Status', 'Code', 'When'],
          [
            [
              '400',
              'VALIDATION_ERROR',
              t`${capitalize(f.main.a)} lacks a required field (${f.requirements[0]!.criteria.at(-1)!.id})`,
            ],
            ...(withoutAccounts(f)
              ? [['404', 'NOT_FOUND', t`No such ${f.main.label}`]]
              : [
                  ['401', 'UNAUTHENTICATED', t`No session; sign in to ${f.name} first`],
                  ['404', 'NOT_FOUND', t`No such ${f.main.label} in this account`],
                ]),
            ['409', 'CONFLICT', t`The ${f.main.label} changed since it was read`],
            ...f.integrations.map((i) => [
              '502',
              `${snakeUpper(i.name)}_FAILED`,
              t`${capitalize(theService(i.name))} failed or timed out`,
            ]),
          ],
        ),
      ),

    'Pagination and limits': (f) =>
      blocks(
        p`Lists of ${listing(f.entities.map((e) => e.plural))} are paged with an opaque ${ic('cursor')}: ${ic('limit')} defaults to 25, at most 100.`,
        p`Each ${withoutAccounts(f) ? 'client address' : 'account'} may make 600 requests a minute to ${f.name}; the answer to one more is 429 with Retry-After.`,
      ),

    Versioning: (f) =>
      blocks(
        p`The version is in the path (${ic('/v1')}). Within it, ${f.name} only adds: new endpoints, new optional fields, new error codes. A change that would break a client of ${ic(`/v1/${f.main.path}`)} waits for ${ic('/v2')}.`,
      ),
  },
} satisfies KindWriter<'api-design'>;
