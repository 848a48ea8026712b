import type { DocumentPrompt } from '../types.ts';

/**
 * The prompt for DATA_MODEL.md: a web project's entities, tables and indexes, traced to the FRs.
 */
export const DATA_MODEL: DocumentPrompt<'data-model'> = {
  kind: 'data-model',
  version: 1,
  reader:
    'The engineers writing the schema, migrations and queries, and whoever reviews data ' +
    'protection. They copy table definitions from it and check every query against its indexes.',
  purpose:
    'Define the data the product stores: the entities and how they relate, each table with its ' +
    "columns, types and constraints, the indexes that serve the product's queries, and how long " +
    'each kind of data is kept and how it is protected, each traced to the FRs that need it.',
  sections: {
    Entities:
      'A table with columns Entity, What it represents, Key attributes, Personal data, ' +
      "Requirements: one row per thing the product stores, named in the users' words (a booking, " +
      'not a reservation record), with the FR IDs that create or read it. Include the supporting ' +
      'entities the requirements imply (users, memberships and roles, sessions or tokens, ' +
      'invitations, files, audit events) and say for each whether it holds personal data.',
    Relationships:
      "A mermaid `erDiagram` code block with every entity and relationship, using crow's-foot " +
      'cardinality (`||--o{` and its kin) and a short verb label on each relationship. Then one ' +
      'line per relationship stating the rule in words, including what happens to the children ' +
      'when the parent is deleted (cascade, restrict, set null, or soft delete) and why that is ' +
      'right for this data.',
    Tables:
      'One sentence choosing the primary key style for all tables and why. Then, for each table, ' +
      'a ### heading with its name, one sentence on what a row is, and a table with columns ' +
      'Column, Type, Null, Default, Constraints: types in the dialect of the database the tech ' +
      'stack names (PostgreSQL if it names none); the primary key; foreign keys with their ON ' +
      'DELETE action; unique and check constraints with their values (lengths, ranges, the full ' +
      'list of an enumeration); `created_at` and `updated_at` as timestamps with time zone. If ' +
      "the stack names a document database, keep the headings and describe each collection's " +
      'document shape as a json code block with its validation rules instead.',
    Indexes:
      'A table with columns Table, Index, Columns, Kind, Serves: every index beyond the primary ' +
      'keys, its kind (unique, B-tree, partial with its condition, GIN for full-text or JSON), ' +
      'and the query it serves, named by the behaviour and its FR ("a member\'s bookings, newest ' +
      'first: FR-4"). Every foreign key used in a join or a cascade has an index. Then the ' +
      'expected row counts after one year for the three largest tables, derived from the numbers ' +
      'in the requirements, and which queries would need attention first as they grow.',
    'Retention and privacy':
      'A table with columns Data, Personal data, Kept for, Then, Why: for each kind of data, ' +
      'whether it is personal (and whether it is a special category), how long it is kept as a ' +
      'number, what happens at the end (deleted, anonymised, archived) and the reason. Then how ' +
      "a user's request to export or erase their data is carried out across the tables, how long " +
      'backups keep deleted data, what is encrypted beyond the disk (tokens, secrets, special ' +
      'categories), and which columns must never appear in logs or analytics.',
  },
  rules: [
    'Cite FR and NFR IDs from the product requirements, written in full and never as a range; ' +
      'introduce no requirement IDs of your own.',
    'Model what the requirements need now: no speculative tables or columns. Table names ' +
      'snake_case and plural, columns snake_case, foreign keys named after the referenced table in ' +
      'the singular with `_id` (`user_id`).',
    'Money as integer minor units next to a currency column, never floating point; time as ' +
      'timestamps with time zone in UTC; a date without a time only when the requirement is about ' +
      'a calendar day.',
    'The diagram and the tables agree: every entity has a table, every foreign key a ' +
      'relationship, every relationship a foreign key or a join table.',
    'About 1,500 to 3,000 words; with many tables keep each to its essential columns, so that ' +
      'the Retention and privacy section is still written.',
  ],
  maxOutputTokens: 8_000,
};
