import type { ConventionsParams, DetailLevel, HouseConventions } from '@pgs/client';

/** The house conventions as `PUT /conventions` takes them (docs/conventions.md). */
export type ConventionsBody = ConventionsParams;

/** A version as the server keeps it: what was sent, its number and when. */
export type ConventionsVersion = HouseConventions;

/** What the Conventions form holds, as typed. Lists are one item a line. */
export interface ConventionsForm {
  markdown: string;
  required: string;
  forbidden: string;
  compliance: string;
  language: string;
  requirementStyle: '' | 'ears' | 'gherkin';
  detail: '' | DetailLevel;
  naming: string;
  sections: { title: string; content: string }[];
}

/** The compliance standards offered as a hint; any other is accepted. */
export const COMMON_COMPLIANCE = ['GDPR', 'HIPAA', 'SOC 2', 'PCI DSS'] as const;

/** An empty form: no conventions set. */
export const emptyConventionsForm = (): ConventionsForm => ({
  markdown: '',
  required: '',
  forbidden: '',
  compliance: '',
  language: '',
  requirementStyle: '',
  detail: '',
  naming: '',
  sections: [],
});

/**
 * The form showing a version of the conventions (or an empty one while none are set).
 *
 * @example
 * formOf({ version: 2, stack: { required: ['PostgreSQL'] }, createdAt }).required; // 'PostgreSQL'
 */
export function formOf(conventions: ConventionsBody | undefined): ConventionsForm {
  if (conventions === undefined) return emptyConventionsForm();
  const lines = (items: readonly string[] | undefined) => (items ?? []).join('\n');
  return {
    markdown: conventions.markdown ?? '',
    required: lines(conventions.stack?.required),
    forbidden: lines(conventions.stack?.forbidden),
    compliance: lines(conventions.compliance),
    language: conventions.language ?? '',
    requirementStyle: conventions.requirementStyle ?? '',
    detail: conventions.detail ?? '',
    naming: lines(conventions.naming),
    sections: (conventions.sections ?? []).map(({ title, content }) => ({ title, content })),
  };
}

/** The items of a list field: one a line (commas also split the short lists). */
function items(text: string, commas: boolean): string[] | undefined {
  const parts = text
    .split(commas ? /[\n,]/ : /\n/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const unique = [...new Set(parts)];
  return unique.length > 0 ? unique : undefined;
}

/**
 * The body a form sends, or what is wrong in plain words. A field left empty is left out:
 * the server keeps exactly what is sent, so an empty field is a convention not set.
 *
 * @example
 * conventionsBody({ ...emptyConventionsForm(), required: 'PostgreSQL, TypeScript' });
 * // { ok: true, body: { stack: { required: ['PostgreSQL', 'TypeScript'] } } }
 */
export function conventionsBody(
  form: ConventionsForm,
): { ok: true; body: ConventionsBody } | { ok: false; problem: string } {
  const body: ConventionsBody = {};
  const markdown = form.markdown.trim();
  if (markdown !== '') body.markdown = markdown;
  const required = items(form.required, true);
  const forbidden = items(form.forbidden, true);
  const clash = required?.find((name) =>
    forbidden?.some((other) => other.toLowerCase() === name.toLowerCase()),
  );
  if (clash !== undefined) {
    return { ok: false, problem: `${clash} cannot be both required and forbidden.` };
  }
  if (required || forbidden) {
    body.stack = { ...(required ? { required } : {}), ...(forbidden ? { forbidden } : {}) };
  }
  const compliance = items(form.compliance, true);
  if (compliance) body.compliance = compliance;
  const language = form.language.trim();
  if (language !== '') {
    if (!/^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/.test(language)) {
      return {
        ok: false,
        problem: 'Write the language as a BCP 47 tag, for example en, de or pt-BR.',
      };
    }
    body.language = language;
  }
  if (form.requirementStyle !== '') body.requirementStyle = form.requirementStyle;
  if (form.detail !== '') body.detail = form.detail;
  const naming = items(form.naming, false);
  if (naming) body.naming = naming;
  const sections = form.sections
    .map(({ title, content }) => ({ title: title.trim(), content: content.trim() }))
    .filter(({ title, content }) => title !== '' || content !== '');
  const untitled = sections.findIndex(({ title }) => title === '');
  if (untitled !== -1) {
    return { ok: false, problem: `Section ${untitled + 1} needs a title.` };
  }
  if (sections.length > 0) body.sections = sections;
  return { ok: true, body };
}

/**
 * What the page says of the version shown.
 *
 * @example
 * versionText({ version: 3, createdAt: '2026-11-28T18:00:00Z' }, format); // 'Version 3, set …'
 */
export function versionText(
  version: Pick<ConventionsVersion, 'version' | 'createdAt'> | undefined,
  formatDate: (date: Date) => string,
): string {
  if (version === undefined) {
    return 'No conventions are set: projects follow only their own idea.';
  }
  return `Version ${version.version}, set ${formatDate(new Date(version.createdAt))}. Every new project follows it.`;
}
