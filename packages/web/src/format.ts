import {
  DOCUMENT_KINDS,
  type DocumentKindName,
  type ProjectState,
  type Questionnaire,
} from '@pgs/client';

/**
 * The time left of a project in progress, in plain words: seconds under a minute, else
 * whole minutes (rounded, at least 1).
 *
 * @example
 * formatTimeLeft(42_100); // 'About 43 s left'
 * formatTimeLeft(150_000); // 'About 3 min left'
 */
export function formatTimeLeft(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return 'Almost done';
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `About ${seconds} s left`;
  return `About ${Math.max(1, Math.round(seconds / 60))} min left`;
}

/**
 * Milliseconds left of a countdown that started at `startedAt` with `totalMs`, never negative.
 *
 * @example
 * remainingMs(10_000, 1_000, 4_000); // 7000
 */
export function remainingMs(totalMs: number, startedAt: number, now: number): number {
  return Math.max(0, totalMs - Math.max(0, now - startedAt));
}

/** A project's status as the console shows it. */
export type StatusText = 'In progress' | 'Completed' | 'Failed' | 'Cancelled' | 'Over budget';

/**
 * The status text of a project: a failure whose code is `generation_cancelled` was a cancel,
 * `budget_exceeded` a stop before a model call could pass the project's `maxCostUsd`.
 *
 * @example
 * statusText('failed', 'generation_cancelled'); // 'Cancelled'
 */
export function statusText(status: ProjectState, errorCode?: string | null): StatusText {
  if (status === 'in_progress') return 'In progress';
  if (status === 'completed') return 'Completed';
  if (errorCode === 'generation_cancelled') return 'Cancelled';
  return errorCode === 'budget_exceeded' ? 'Over budget' : 'Failed';
}

/** Whether a project stopped as its owner asked (a cancel, a budget), not by a failure. */
export const stoppedOnPurpose = (text: StatusText) =>
  text === 'Cancelled' || text === 'Over budget';

/** Type names as the console shows them. @example TYPE_LABELS.mcp; // 'MCP' */
export const TYPE_LABELS: Readonly<Record<string, string>> = {
  web: 'Web',
  mobile: 'Mobile',
  mcp: 'MCP',
};

/** A project's type for a table cell; `null` (not chosen yet) reads as a dash. @example typeLabel(null); // '—' */
export function typeLabel(type: string | null | undefined): string {
  if (type === null || type === undefined) return '—';
  return TYPE_LABELS[type] ?? type;
}

const ACRONYMS = new Set(['api', 'mcp', 'ui', 'ux', 'url', 'sdk', 'cli']);
const SMALL_WORDS = new Set(['and', 'or', 'of', 'the', 'for', 'to', 'in']);

/**
 * A document's title from its kind (`type`).
 *
 * @example
 * documentTitle('api-design'); // 'API Design'
 * documentTitle('release-notes-and-faq'); // 'Release Notes and Faq'
 */
export function documentTitle(type: string): string {
  // A known kind has the catalogue's title; a kind added later reads as its name in words,
  // so a new document still gets a readable tab.
  if (Object.hasOwn(DOCUMENT_KINDS, type)) return DOCUMENT_KINDS[type as DocumentKindName].title;
  const words = type.split(/[-_\s]+/).filter((w) => w !== '');
  if (words.length === 0) return 'Document';
  return words
    .map((word, i) => {
      const lower = word.toLowerCase();
      if (ACRONYMS.has(lower)) return lower.toUpperCase();
      if (i > 0 && SMALL_WORDS.has(lower)) return lower;
      return lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join(' ');
}

/** One row of the questionnaire's `<dl>`. */
export interface QuestionnaireEntry {
  label: string;
  /** A list member is shown as a list. */
  value: string | string[];
}

const QUESTIONNAIRE_ORDER = [
  'targetAudience',
  'monetization',
  'techStack',
  'platforms',
  'coreFeatures',
  'constraints',
  'successMetrics',
  'ideaCoverage',
  'keyEntities',
  'integrations',
  'nonGoals',
  'assumptions',
  'openQuestions',
];

/**
 * How the members that are lists of pairs read (docs/document-formats.md): the idea's term
 * and the feature that carries it, a service and what it is used for.
 */
const PAIR_FORMATS: Readonly<Record<string, (item: Record<string, unknown>) => string>> = {
  ideaCoverage: (item) => `"${String(item.term ?? '')}" → ${String(item.feature ?? '')}`,
  integrations: (item) => `${String(item.name ?? '')}: ${String(item.purpose ?? '')}`,
};

/**
 * The questionnaire as labelled rows: the known members first, in a reading order, then
 * any other member the model added, each under its name in words.
 *
 * @example
 * questionnaireEntries({ targetAudience: 'remote teams', monetization: 'Free', techStack: ['Vite'] })[0];
 * // { label: 'Target audience', value: 'remote teams' }
 */
export function questionnaireEntries(questionnaire: Questionnaire): QuestionnaireEntry[] {
  const record = questionnaire as Record<string, unknown>;
  const keys = [
    ...QUESTIONNAIRE_ORDER.filter((key) => key in record),
    ...Object.keys(record).filter((key) => !QUESTIONNAIRE_ORDER.includes(key)),
  ];
  const entries: QuestionnaireEntry[] = [];
  for (const key of keys) {
    const value = plainValue(record[key], PAIR_FORMATS[key]);
    if (value !== undefined) entries.push({ label: labelOf(key), value });
  }
  return entries;
}

function plainValue(
  value: unknown,
  pair?: (item: Record<string, unknown>) => string,
): string | string[] | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const items = value.flatMap((item) => plainValue(item, pair));
    return items.filter((item): item is string => typeof item === 'string' && item !== '');
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return pair === undefined ? JSON.stringify(value) : pair(record);
  }
  const text = String(value);
  return text === '' ? undefined : text;
}

/** `targetAudience` → `Target audience`, `techStack` → `Tech stack`. */
function labelOf(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
