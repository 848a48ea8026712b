/**
 * The data model of a web project: its entities, their relationships, the tables as DDL, indexes,
 * retention and privacy.
 */
import { phrase } from '../facts/brief-model.ts';
import { attributesOf, requirementsOn } from '../facts/columns.ts';
import type { Facts } from '../facts/facts.ts';
import { databaseOf, withoutAccounts } from '../facts/settled.ts';
import { blocks, bold, bullets, code, p, t, table } from '../text/nodes.ts';
import { capitalize, listing } from '../text/words.ts';
import type { KindWriter } from './kind.ts';

function ddl(f: Facts): string {
  return f.entities
    .map((e) =>
      [
        `CREATE TABLE ${e.table} (`,
        ...attributesOf(f, e).map((a, i, all) => {
          const type =
            a.column === 'id'
              ? 'uuid PRIMARY KEY'
              : a.column === 'created_by'
                ? 'uuid NOT NULL REFERENCES accounts(id)'
                : a.type;
          return `  ${a.column} ${type}${i < all.length - 1 ? ',' : ''}`;
        }),
        ');',
      ].join('\n'),
    )
    .join('\n\n');
}

/**
 * The writers of Data Model (DATA_MODEL.md): one per section of the catalogue's `data-model`, so a
 * section missing or renamed there fails the build.
 */
export const DATA_MODEL = {
  purpose: 'This data model defines the entities, tables and rules for the data it keeps',
  sections: {
    Entities: (f) => {
      const shared = withoutAccounts(f);
      return blocks(
        p`${f.name} stores ${listing(f.entities.map((e) => e.plural))} in ${databaseOf(f, 'a relational database', true)}, ${shared ? 'shared by everyone who reaches it: it has no accounts' : 'each row owned by one account'}.`,
        table(
          ['Entity', 'Holds', 'Serves'],
          [
            ...f.entities.map((e) => [
              e.name,
              `One ${e.label} ${f.type === 'web' && !shared ? 'of an account' : ''}`.trim(),
              requirementsOn(f, e)
                .map((r) => r.id)
                .join(', '),
            ]),
            ...(shared
              ? []
              : [['Account', t`Who signs in to ${f.name}, and whose data is whose`, 'NFR-3']]),
          ],
        ),
      );
    },

    Relationships: (f) =>
      blocks(
        withoutAccounts(f)
          ? p`No table of ${f.name} has an owner: anyone with its address reads and changes every row, so what protects them is the validation, rate limit and backups of NFR-3.`
          : p`Every table of ${f.name} refers to the account that owns its rows; nothing is shared between accounts (NFR-3).`,
        bullets([
          ...(withoutAccounts(f)
            ? []
            : f.entities.map(
                (e) => t`An account has many ${e.plural}; each ${e.label} belongs to one account.`,
              )),
          ...f.entities
            .slice(1)
            .map(
              (e) =>
                t`${capitalize(e.a)} may refer to ${f.main.a} (a nullable foreign key), so the two can be shown together.`,
            ),
        ]),
      ),

    Tables: (f) =>
      blocks(
        f.entities.map((e) => [
          p(bold(e.table)),
          table(
            ['Column', 'Type', 'Notes', 'Serves'],
            attributesOf(f, e).map((a) => [a.column, a.type, a.note, a.serves || '']),
          ),
        ]),
        p`The first migration of ${f.name}:`,
        code('sql', ddl(f)),
      ),

    Indexes: (f) =>
      blocks(
        p`Each index serves a query a requirement of ${f.name} makes:`,
        table(
          ['Index', 'Serves'],
          f.requirements.map((r) => {
            const col = attributesOf(f, r.ent).find(
              (a) =>
                /_at$|status|channel|region|aisle|language/.test(a.column) &&
                a.serves.startsWith(r.id),
            );
            return [
              t`${r.ent.table} (${withoutAccounts(f) ? '' : 'created_by, '}${col?.column ?? 'updated_at'})`,
              t`${capitalize(phrase(r))} (${r.id})`,
            ];
          }),
        ),
      ),

    'Retention and privacy': (f) => {
      const shared = withoutAccounts(f);
      return blocks(
        shared
          ? p`${f.name} keeps only what its features need, and no personal data beyond what people type into it:`
          : p`${f.name} keeps only what its features need, for as long as the account exists:`,
        bullets([
          ...f.entities.map((e) =>
            shared
              ? t`${capitalize(e.plural)} are kept until someone deletes them, or deleted on request within 7 days (NFR-4).`
              : t`${capitalize(e.plural)} are deleted with the account that owns them, or on request within 7 days (NFR-4).`,
          ),
          shared
            ? t`An export gives all ${listing(f.entities.map((e) => e.plural))} as JSON.`
            : t`An export gives an account all its ${listing(f.entities.map((e) => e.plural))} as JSON.`,
          t`Logs keep request IDs and timings for 30 days, never the content of ${f.main.a}.`,
        ]),
      );
    },
  },
} satisfies KindWriter<'data-model'>;
