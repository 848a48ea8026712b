/**
 * House conventions (issue 32, docs/conventions.md): what a team sets once per account and
 * mode — its stack, compliance, language, requirement style, detail, naming and extra
 * sections — and every project written under them follows.
 *
 * {@link applyConventions} runs on every definition whatever model wrote it (as
 * `applyAnswers` does), so the stack and the compliance hold even when a model ignores them;
 * where the idea itself names another technology, the idea wins and the clash is a finding.
 */
import type { Conventions, ProjectDefinition } from './generation.ts';

export type { Conventions } from './generation.ts';

/**
 * A language tag in its canonical BCP 47 form, or undefined when it is no tag
 * (`Intl.getCanonicalLocales`, which every supported Node has).
 *
 * @example
 * canonicalLanguage('pt-br'); // 'pt-BR'
 * canonicalLanguage('not a tag'); // undefined
 */
export function canonicalLanguage(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag.trim())[0];
  } catch {
    return undefined;
  }
}

/** Whether a language tag is English (or none): documents need no other language. */
export const isEnglish = (language: string | null | undefined) =>
  language === null || language === undefined || /^en(?:-|$)/i.test(language);

/**
 * The language's English name (`de` → `German`), for prompts and messages; the tag itself
 * when the runtime does not know it.
 *
 * @example
 * languageName('pt-BR'); // 'Brazilian Portuguese'
 */
export function languageName(language: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(language) ?? language;
  } catch {
    return language;
  }
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The short names a technology goes by in commands and prose (`docker compose up -d postgres`):
 * text naming one of them names the technology. One way only: a short name is not the whole.
 */
const SHORT_NAMES: Readonly<Record<string, readonly string[]>> = {
  postgresql: ['Postgres'],
  'node.js': ['NodeJS'],
  mongodb: ['Mongo'],
  kubernetes: ['k8s'],
};

/**
 * Whether `text` names the technology `name`: as a whole word, case-insensitively
 * (`Go` is not found in "good", `Node.js` is found in "node.js 22"), or by one of its short
 * names (`postgres` names PostgreSQL).
 *
 * @example
 * namesTechnology('We host on AWS Lambda', 'AWS'); // true
 * namesTechnology('docker compose up -d postgres', 'PostgreSQL'); // true
 */
export function namesTechnology(text: string, name: string): boolean {
  const trimmed = name.trim();
  if (trimmed === '') return false;
  return [trimmed, ...(SHORT_NAMES[trimmed.toLowerCase()] ?? [])].some((one) =>
    new RegExp(`(?<![\\w.+#-])${escaped(one)}(?![\\w+#]|-\\w|\\.\\w)`, 'i').test(text),
  );
}

/**
 * Families of technologies that stand in for each other: an idea that names one member
 * chooses it over a required other member of the same family.
 */
const FAMILIES: readonly (readonly string[])[] = [
  [
    'PostgreSQL',
    'MySQL',
    'MariaDB',
    'MongoDB',
    'SQLite',
    'DynamoDB',
    'Firestore',
    'SQL Server',
    'Oracle',
    'Cassandra',
    'Supabase',
  ],
  ['AWS', 'Azure', 'GCP', 'Google Cloud', 'Vercel', 'Netlify', 'Heroku', 'Fly.io', 'Cloudflare'],
  ['React', 'Vue', 'Angular', 'Svelte', 'SvelteKit', 'Next.js', 'Nuxt', 'Remix', 'SolidJS'],
  ['React Native', 'Flutter', 'SwiftUI', 'Kotlin', 'Swift', 'Jetpack Compose', 'Ionic', 'Xamarin'],
  [
    'Node.js',
    'Python',
    'Django',
    'Flask',
    'FastAPI',
    'Ruby',
    'Rails',
    'Ruby on Rails',
    'Java',
    'Spring',
    'Spring Boot',
    '.NET',
    'C#',
    'PHP',
    'Laravel',
    'Elixir',
    'Phoenix',
    'Rust',
  ],
  ['Stripe', 'PayPal', 'Adyen', 'Braintree', 'Paddle'],
  ['Twilio', 'Vonage', 'MessageBird', 'Plivo'],
];

const familyOf = (name: string) =>
  FAMILIES.find((family) => family.some((member) => namesTechnology(name, member)));

/**
 * A language and the frameworks written in it: one family, but a language goes with each of
 * its frameworks, so one required never removes or overrules the other (Python required keeps
 * FastAPI, Kotlin keeps Jetpack Compose). Two frameworks (Django, FastAPI) stay rivals.
 */
const FRAMEWORKS_OF: readonly (readonly [string, readonly string[]])[] = [
  ['Python', ['Django', 'Flask', 'FastAPI']],
  ['Ruby', ['Rails', 'Ruby on Rails']],
  ['Java', ['Spring', 'Spring Boot']],
  ['Kotlin', ['Spring', 'Spring Boot', 'Jetpack Compose']],
  ['Swift', ['SwiftUI']],
  ['C#', ['.NET', 'Xamarin']],
  ['PHP', ['Laravel']],
  ['Elixir', ['Phoenix']],
];

/** Whether two technologies of a family go together (a language and its framework). */
const companions = (a: string, b: string) =>
  FRAMEWORKS_OF.some(([language, frameworks]) =>
    frameworks.some(
      (framework) =>
        (namesTechnology(a, language) && namesTechnology(b, framework)) ||
        (namesTechnology(b, language) && namesTechnology(a, framework)),
    ),
  );

/** A clash the conventions met in a definition, recorded with its provenance. */
export interface ConventionsFinding {
  rule: 'conventions';
  severity: 'medium';
  message: string;
}

/**
 * The definition under the conventions: each required technology joins the stack (first,
 * replacing a chosen one of its family) unless the idea names another of its family; each
 * forbidden one leaves the stack unless the idea names it; each compliance standard is a
 * constraint (`Compliance: GDPR`). What the idea decides against the conventions is kept and
 * reported, never silently overruled.
 *
 * @example
 * applyConventions(definition, { stack: { required: ['PostgreSQL'] } }, idea).definition
 *   .questionnaire.techStack[0]; // 'PostgreSQL'
 */
export function applyConventions(
  definition: ProjectDefinition,
  conventions: Conventions | undefined,
  idea: string,
): { definition: ProjectDefinition; findings: ConventionsFinding[] } {
  if (conventions === undefined) return { definition, findings: [] };
  const findings: ConventionsFinding[] = [];
  const finding = (message: string) =>
    findings.push({ rule: 'conventions', severity: 'medium', message });
  const q = {
    ...definition.questionnaire,
    techStack: [...definition.questionnaire.techStack],
    constraints: [...definition.questionnaire.constraints],
  };
  const forbidden = conventions.stack?.forbidden ?? [];
  for (const banned of forbidden) {
    if (namesTechnology(idea, banned)) {
      finding(
        `The idea names ${banned}, which the house conventions forbid: the idea's choice is kept.`,
      );
      continue;
    }
    q.techStack = q.techStack.filter((tech) => !namesTechnology(tech, banned));
  }
  const required: string[] = [];
  for (const tech of conventions.stack?.required ?? []) {
    const family = familyOf(tech);
    const rival = family?.find(
      (member) =>
        namesTechnology(idea, member) &&
        !namesTechnology(tech, member) &&
        !namesTechnology(member, tech) &&
        !companions(member, tech),
    );
    if (rival !== undefined && !namesTechnology(idea, tech)) {
      finding(
        `The idea names ${rival} where the house conventions require ${tech}: the idea's choice is kept.`,
      );
      continue;
    }
    // The one the model chose in its place goes, unless the idea named it.
    if (family !== undefined)
      q.techStack = q.techStack.filter(
        (chosen) =>
          namesTechnology(chosen, tech) ||
          companions(chosen, tech) ||
          !family.some((member) => namesTechnology(chosen, member)) ||
          family.some((member) => namesTechnology(chosen, member) && namesTechnology(idea, member)),
      );
    // Already chosen (`PostgreSQL 16`), it leads as the model wrote it; otherwise as required.
    const chosen = q.techStack.find((entry) => namesTechnology(entry, tech));
    q.techStack = q.techStack.filter((entry) => entry !== chosen);
    required.push(chosen ?? tech);
  }
  q.techStack = [...required, ...q.techStack];
  for (const standard of conventions.compliance ?? []) {
    if (!q.constraints.some((constraint) => namesTechnology(constraint, standard)))
      q.constraints.push(`Compliance: ${standard}`);
  }
  return { definition: { ...definition, questionnaire: q }, findings };
}
