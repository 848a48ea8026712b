/**
 * Change requests for the impact reader's tests: four projects (a clinic web app, a running
 * app, a GitHub MCP server, a shift planner) and realistic requests against them, each with
 * exactly the deltas a careful reader gives.
 */
import type { ProjectType } from '@pgs/contract';
import type { RequirementDelta } from '@pgs/contract/generation';

/** A project as the impact step sees it: its name, type and requirement titles (FR-1 up). */
export interface Project {
  name: string;
  type: ProjectType;
  titles: string[];
}

export const CLINIC: Project = {
  name: 'PetCare',
  type: 'web',
  titles: [
    'Book appointments online',
    'Keep medical records for each pet',
    'Send vaccine reminders by SMS',
  ],
};
export const VET: Project = {
  ...CLINIC,
  titles: [
    ...CLINIC.titles,
    'View and search appointments',
    'Sign in with an account per organisation',
  ],
};
export const RUNS: Project = {
  name: 'RunPocket',
  type: 'mobile',
  titles: [
    'Log runs offline',
    'Follow a 16-week marathon plan',
    'Share progress with a coach',
    'View and search runs',
  ],
};
export const GITHUB: Project = {
  name: 'GitHubBridge',
  type: 'mcp',
  titles: [
    'Connect to GitHub with read-only credentials',
    'List open pull requests',
    'Summarise failing CI runs',
    'Search issues by label',
  ],
};
export const SHIFTS: Project = {
  name: 'ShiftDesk',
  type: 'web',
  titles: [
    'Publish weekly shift schedules',
    'Let staff swap shifts with manager approval',
    'Track overtime hours',
    'Email staff when the schedule changes',
  ],
};

/** Coordinations made one requirement each (features.ts), beside a neighbour sharing a word. */
export const LEDGER: Project = {
  name: 'LedgerLeaf',
  type: 'web',
  titles: [
    'Track expenses and invoices',
    'Manage members, subscriptions, payments and reports',
    'View and export monthly statements',
    'Send receipts by email',
    'View and search members',
  ],
};

/** Realistic change requests over four projects; each expects exactly the deltas listed. */
export const TABLE: { project: Project; request: string; expected: Partial<RequirementDelta>[] }[] =
  [
    {
      project: VET,
      request: 'Let owners upload photos to the medical records.',
      expected: [{ op: 'added', id: 'FR-6', title: 'Upload photos to the medical records' }],
    },
    {
      project: VET,
      request: 'We no longer need online booking; owners will phone the clinic.',
      expected: [{ op: 'removed', id: 'FR-1' }],
    },
    {
      project: VET,
      request: 'Please drop the medical records and the vaccine reminders from the first release.',
      expected: [
        { op: 'removed', id: 'FR-2' },
        { op: 'removed', id: 'FR-3' },
      ],
    },
    {
      project: VET,
      request: 'Vaccine reminders should go out two days before the due date.',
      expected: [
        {
          op: 'modified',
          id: 'FR-3',
          title: 'Send vaccine reminders by SMS two days before the due date',
        },
      ],
    },
    {
      project: RUNS,
      request: 'Make the marathon plan 20 weeks instead of 16',
      expected: [{ op: 'modified', id: 'FR-2', title: 'Follow a 20-week marathon plan' }],
    },
    {
      project: RUNS,
      request: 'Drop sharing progress with a coach; let runners export runs as GPX files.',
      expected: [
        { op: 'removed', id: 'FR-3', title: 'Share progress with a coach' },
        { op: 'added', id: 'FR-5', title: 'Export runs as GPX files' },
      ],
    },
    {
      project: RUNS,
      request: 'Add Apple Watch support, and runs should also sync to Strava.',
      expected: [
        {
          op: 'added',
          id: 'FR-5',
          title: 'Support Apple Watch',
          text: 'RunPocket supports Apple Watch.',
        },
        { op: 'added', id: 'FR-6', title: 'Sync runs to Strava' },
      ],
    },
    {
      project: GITHUB,
      request: 'Also let the assistant comment on pull requests',
      expected: [
        {
          op: 'added',
          id: 'FR-5',
          title: 'Comment on pull requests',
          text: 'GitHubBridge lets the assistant comment on pull requests.',
        },
      ],
    },
    {
      project: GITHUB,
      request: 'Remove the CI run summaries and add a tool to create issues',
      expected: [
        { op: 'removed', id: 'FR-3' },
        { op: 'added', id: 'FR-5', title: 'Create issues' },
      ],
    },
    {
      project: GITHUB,
      request: 'Search issues by milestone instead of label.',
      expected: [{ op: 'modified', id: 'FR-4', title: 'Search issues by milestone' }],
    },
    {
      project: GITHUB,
      request: "Rename 'List open pull requests' to 'List pull requests awaiting review'",
      expected: [
        {
          op: 'renamed',
          id: 'FR-2',
          from: 'List open pull requests',
          to: 'List pull requests awaiting review',
        },
      ],
    },
    {
      project: SHIFTS,
      request: "We don't need overtime tracking anymore.",
      expected: [{ op: 'removed', id: 'FR-3', title: 'Track overtime hours' }],
    },
    {
      project: SHIFTS,
      request: 'Email staff by SMS instead of email when the schedule changes',
      expected: [
        {
          op: 'modified',
          id: 'FR-4',
          title: 'Notify staff by SMS when the schedule changes',
          text: 'ShiftDesk notifies staff by SMS when the schedule changes.',
        },
      ],
    },
    {
      project: SHIFTS,
      request:
        'Add push notifications when a swap is approved, and let managers export the schedule to PDF',
      expected: [
        { op: 'added', id: 'FR-5', title: 'Send push notifications when a swap is approved' },
        {
          op: 'added',
          id: 'FR-6',
          title: 'Export the schedule to PDF',
          text: 'ShiftDesk lets managers export the schedule to PDF.',
        },
      ],
    },
    {
      project: SHIFTS,
      request: 'The schedule emails should go out by Slack instead.',
      expected: [
        { op: 'modified', id: 'FR-4', title: 'Notify staff by Slack when the schedule changes' },
      ],
    },
    {
      project: SHIFTS,
      request: 'Managers should be able to approve swaps within 24 hours',
      expected: [
        {
          op: 'added',
          id: 'FR-5',
          title: 'Approve swaps within 24 hours',
          text: 'ShiftDesk lets managers approve swaps within 24 hours.',
        },
      ],
    },
    {
      project: GITHUB,
      request: 'Issues should be searchable by assignee too',
      expected: [{ op: 'modified', id: 'FR-4', title: 'Search issues by label and assignee' }],
    },
    {
      project: CLINIC,
      request:
        'Vaccine reminders should also be sent by email, and medical records should also be exported as PDF',
      expected: [
        { op: 'modified', id: 'FR-3', title: 'Send vaccine reminders by SMS and email' },
        { op: 'added', id: 'FR-4', title: 'Export medical records as PDF' },
      ],
    },
    {
      project: SHIFTS,
      request:
        'Publish schedules two weeks in advance. Overtime hours should be tracked per month.',
      expected: [
        {
          op: 'modified',
          id: 'FR-1',
          title: 'Publish weekly shift schedules two weeks in advance',
        },
        { op: 'modified', id: 'FR-3', title: 'Track overtime hours per month' },
      ],
    },
    {
      project: GITHUB,
      request: 'The server should also list closed pull requests',
      expected: [
        {
          op: 'added',
          id: 'FR-5',
          title: 'List closed pull requests',
          text: 'GitHubBridge lists closed pull requests.',
        },
      ],
    },
    {
      project: SHIFTS,
      request: 'Make the colours friendlier.',
      expected: [],
    },
    {
      project: LEDGER,
      request: 'Drop the invoices.',
      expected: [{ op: 'modified', id: 'FR-1', title: 'Track expenses' }],
    },
    {
      project: LEDGER,
      request: 'Please remove the subscriptions and the payments from the first release.',
      expected: [{ op: 'modified', id: 'FR-2', title: 'Manage members and reports' }],
    },
    {
      project: LEDGER,
      request: 'We no longer need to track expenses and invoices.',
      expected: [{ op: 'removed', id: 'FR-1' }],
    },
    {
      project: LEDGER,
      request: 'Stop exporting monthly statements; drop the receipts.',
      expected: [
        { op: 'modified', id: 'FR-3', title: 'View monthly statements' },
        { op: 'removed', id: 'FR-4' },
      ],
    },
    {
      project: LEDGER,
      request: 'Drop the members.',
      expected: [
        { op: 'modified', id: 'FR-2', title: 'Manage subscriptions, payments and reports' },
      ],
    },
    {
      project: LEDGER,
      request: 'We no longer need to view and export monthly statements.',
      expected: [{ op: 'removed', id: 'FR-3' }],
    },
  ];
