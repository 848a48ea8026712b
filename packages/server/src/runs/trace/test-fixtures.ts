/**
 * A small project whose documents trace cleanly: every rule in check.ts passes on it, and
 * each test breaks one thing. Shared by parse.test.ts and check.test.ts.
 */

export const BRIEF = `# Project Brief: PetPal

PetPal reminds pet owners of vaccinations.

## Goals

1. G-1 — Owners never miss a vaccination for their pets
2. G-2 — Clinics spend less time on reminder phone calls

## Assumptions and open questions

| ID | Statement |
| --- | --- |
| A-1 | Owners have a phone that receives SMS (for G-1) |
| Q-1 | Which SMS provider do clinics already use? |

## Risks

- **R-1** SMS delivery fails silently; NFR-1 bounds the delay.
`;

export const REQUIREMENTS = `# Product Requirements: PetPal

## Functional requirements

### FR-1 Pet profiles (Must)

**FR-1.1** WHEN an owner adds a pet THE SYSTEM SHALL store its species and birth date.

### FR-2 Vaccination reminders

Priority: Must. Serves G-1.

**FR-2.1** WHEN a vaccination falls due within 14 days THE SYSTEM SHALL send one SMS to the owner.

**FR-2.2** WHEN an SMS fails THE SYSTEM SHALL retry once after an hour.

### FR-3 Clinic calendar

Priority: Should. Serves G-2.

- **FR-3.1** WHEN a clinic opens the calendar THE SYSTEM SHALL list the week's due vaccinations.

## Non-functional requirements

| ID | Requirement |
| --- | --- |
| NFR-1 | Reminders leave within 5 minutes of their due time |
`;

export const STORIES = `# User Stories: PetPal

## Stories

### US-1: Add my dog

As an owner I want to add my dog so that reminders know its age. Covers FR-1.1.

### US-2: Get a reminder

As an owner I want an SMS before a vaccination is due (FR-2.1, FR-2.2).
`;

export const ARCHITECTURE = `# Architecture: PetPal

## Components

### Pet service

Stores pets and owners (FR-1) in PostgreSQL.

### Reminder worker

Sends due reminders (FR-2.1) and serves the clinic calendar (FR-3) within NFR-1.

\`\`\`mermaid
flowchart LR
  worker --> sms
\`\`\`
`;

export const API = `# API Design: PetPal

## Endpoints

\`POST /pets\` creates a pet (FR-1); the header \`X-Trace: FR-9\` is ignored. Example body:

\`\`\`json
{ "name": "Rex", "species": "dog", "note": "see T-99" }
\`\`\`
`;

export const PLAN = `# Implementation Plan: PetPal

## Tasks

- **T-1** Create the pets table and API. Implements FR-1.
- **T-2** Build the reminder job for FR-2.1 and FR-2.2.
  Depends on: T-1
- **T-3** Calendar view for clinics (FR-3). Depends on: T-1, T-2

## Release checklist

- [ ] All Must requirements (FR-1, FR-2) pass in staging
- [ ] A reminder SMS is checked on a real phone
`;

export const PROJECT = {
  'project-brief.md': BRIEF,
  'product-requirements.md': REQUIREMENTS,
  'user-stories.md': STORIES,
  'architecture.md': ARCHITECTURE,
  'api-design.md': API,
  'implementation-plan.md': PLAN,
};

export type Filename = keyof typeof PROJECT;

/** The project as `buildTrace` takes it, with some documents replaced. */
export function documents(
  changes: Partial<Record<Filename, string>> = {},
): Array<{ filename: string; content: string }> {
  return Object.entries({ ...PROJECT, ...changes }).map(([filename, content]) => ({
    filename,
    content,
  }));
}
