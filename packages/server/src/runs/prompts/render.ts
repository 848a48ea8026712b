import { DOCUMENT_KINDS, type RequirementStyle } from '@pgs/contract';
import {
  definitionsOf,
  type IdPrefix,
  ownedPrefixes,
  parseShared,
  sectionsOf,
} from '@pgs/contract/document';
import {
  type DocumentContext,
  inertInline,
  type ProjectDefinition,
  projectBlock,
  type RevisionContext,
  taskBlock,
} from '../../models/context.ts';
import { countTokens } from '../../models/tokens.ts';
import type { DocumentKind } from '../catalogue.ts';
import { DETAIL_SCALE, type Detail } from '../pricing.ts';
import { buildTrace } from '../trace/index.ts';
import {
  houseContext,
  housePart,
  houseSections,
  houseSystem,
  houseVersion,
  type PromptHouse,
} from './conventions.ts';
import { documentPromptOf } from './documents/index.ts';
import {
  GROUNDED_GUIDANCE,
  GROUNDED_ID,
  GROUNDED_SYSTEM,
  type GroundedGuidance,
  repositoryPart,
} from './grounded.ts';
import type { PromptRepository } from './repository.ts';
import { styleFrame } from './style.ts';
import { DOCUMENT_SYSTEM, SYSTEM_VERSION } from './system.ts';
import { type AnyDocumentPrompt, promptId } from './types.ts';

/** Tokens of earlier documents one prompt carries at most (o200k, as counted here). */
export const CONTEXT_TOKEN_BUDGET = 48_000;

/** An earlier document, in full, that the new one builds on. */
export interface EarlierDocument {
  kind: string;
  title: string;
  filename: string;
  content: string;
  /** Lower is kept first when the budget is short. */
  priority: number;
  /** `content` is the document's digest (its IDs and titles, digest.ts), not its text. */
  digest?: boolean;
}

/** An earlier document as the budget left it: whole, or `cut` at a section boundary. */
type KeptDocument = EarlierDocument & { cut: boolean };

/**
 * One text part of a prompt's user message. `cache` marks the end of a prefix worth
 * caching: an Anthropic cache breakpoint goes there (docs/cost.md).
 */
export interface PromptPart {
  text: string;
  cache: boolean;
}

export interface RenderedPrompt {
  system: string;
  /** The user message's text: its `parts` joined, when it has parts. */
  prompt: string;
  /** The user message in parts, laid out for prompt caches; absent, `prompt` is one part. */
  parts?: PromptPart[];
  maxOutputTokens: number;
  /** `kind@n+system@m`: the words that asked for this document. */
  version: string;
  /** Earlier documents left out or cut to fit the budget, least important first. */
  trimmed: string[];
  /**
   * The call as typed data, what the prompt's `<pgs-context>` block says in text: the offline
   * engine is handed this, never the prompt (models/sdk/offline-model.ts).
   */
  context: DocumentContext | RevisionContext;
}

/**
 * Fits earlier documents into the token budget: whole documents by priority; the first
 * that does not fit is cut at a section boundary; the rest are left out.
 */
export function fitToBudget(
  documents: readonly EarlierDocument[],
  budget: number,
): { kept: KeptDocument[]; trimmed: string[] } {
  const byPriority = [...documents].sort((a, b) => a.priority - b.priority);
  const kept: KeptDocument[] = [];
  const trimmed: string[] = [];
  let left = budget;
  let full = false;
  for (const doc of byPriority) {
    if (full) {
      trimmed.push(doc.kind);
      continue;
    }
    const tokens = countTokens(doc.content);
    if (tokens <= left) {
      kept.push({ ...doc, cut: false });
      left -= tokens;
      continue;
    }
    trimmed.push(doc.kind);
    full = true;
    const sections = sectionsOf(doc.content);
    let content = '';
    for (const section of sections) {
      const next = content === '' ? section : `${content}\n${section}`;
      if (countTokens(next) > left) break;
      content = next;
    }
    if (content !== '') {
      kept.push({ ...doc, content, cut: true });
      left -= countTokens(content);
    }
  }
  // Present them in the order given (the plan's context order), whatever was cut.
  const order = new Map(documents.map((doc, i) => [doc.kind, i]));
  kept.sort((a, b) => order.get(a.kind)! - order.get(b.kind)!);
  return { kept, trimmed };
}

/** What {@link documentPrompt} is given. */
interface DocumentPromptInput {
  idea: string;
  definition: ProjectDefinition;
  document: DocumentKind;
  /** In the plan's context order (catalogue.ts `contextOrder`): the prompt keeps it. */
  earlier: readonly EarlierDocument[];
  budget?: number;
  /** How much the document says (default `standard`): its length guidance and allowance. */
  detail?: Detail;
  /** The codebase a grounded project changes, fitted to its budget (repository.ts). */
  repository?: PromptRepository | undefined;
  /** How acceptance criteria are written (default `ears`, which adds nothing: style.ts). */
  requirementStyle?: RequirementStyle | undefined;
  /** The house conventions and language the project follows (conventions.ts). */
  house?: PromptHouse | undefined;
}

/**
 * The prompt for one document, laid out so that the requests of one project share the
 * longest possible prefix (docs/cost.md): first what every document of the project shares
 * (the idea and the definition), then the earlier documents in full in the plan's one
 * context order (catalogue.ts), and only then what this document is and how to write it. Long
 * material before the question also reads best. The shared part and the last earlier
 * document end a cacheable prefix each. A grounded project's shared part opens with its
 * codebase digest, and its prompts add the grounded guidance (grounded.ts); any other
 * project's prompt is exactly what it was before grounded projects existed.
 *
 * @example
 * documentPrompt({ idea, definition, document: documentPlan('web')[1]!, earlier: [brief] });
 */
export function documentPrompt(input: DocumentPromptInput): RenderedPrompt {
  const { repository, house } = input;
  const detail = input.detail ?? 'standard';
  const style = styleFrame(input.requirementStyle);
  const brief = documentPromptOf(input.document.kind);
  const { kept, trimmed } = fitToBudget(input.earlier, input.budget ?? CONTEXT_TOKEN_BUDGET);
  const earlier = earlierParts(inertInline(input.definition.name), kept);
  const call = documentContext(input, kept, detail);
  const parts: PromptPart[] = [
    { text: sharedPart(input), cache: true },
    ...earlier.map((text, i) => ({ text, cache: i === earlier.length - 1 })),
    { text: documentTask(input, call, kept, detail), cache: false },
  ];
  const grounded = repository === undefined ? '' : `+${GROUNDED_ID}`;
  return {
    system:
      (repository === undefined ? DOCUMENT_SYSTEM : `${DOCUMENT_SYSTEM}\n\n${GROUNDED_SYSTEM}`) +
      style.system +
      houseSystem(house),
    prompt: parts.map((part) => part.text).join(''),
    parts,
    maxOutputTokens: outputAllowance(brief.maxOutputTokens, detail),
    version: `${promptId(brief)}${grounded}${style.id}${houseVersion(house)}+system@${SYSTEM_VERSION}`,
    // The files of the digest left out count as trimmed context of every part.
    trimmed: [...trimmed, ...(repository?.trimmed ?? [])],
    context: call,
  };
}

/** What every document of the project shares: the conventions, the digest, the project. */
function sharedPart({ house, repository, idea, definition }: DocumentPromptInput): string {
  return `${housePart(house)}${repository === undefined ? '' : repositoryPart(repository)}The project, as settled in its definition:\n\n${projectBlock({ idea, definition })}\n\n`;
}

/** The earlier documents, one part each, the first introducing them all. */
function earlierParts(name: string, kept: readonly KeptDocument[]): string[] {
  return kept.map(
    (doc, i) =>
      `${i === 0 ? `The earlier documents of ${name}. Build on them; do not contradict them. A document marked digest="true" is given as the IDs it defines, each with its title, not its full text: cite those IDs as they are, and take nothing else from it for granted.\n\n` : ''}<document kind="${doc.kind}" title="${doc.title}" filename="${doc.filename}"${doc.digest ? ' digest="true"' : ''}${doc.cut ? ' trimmed="true"' : ''}>\n${doc.content.trim()}\n</document>\n\n`,
  );
}

/** The call as typed data: what the prompt's `<pgs-context>` and task blocks say. */
function documentContext(
  input: DocumentPromptInput,
  kept: readonly KeptDocument[],
  detail: Detail,
): DocumentContext {
  const { document, repository } = input;
  return {
    task: 'document',
    idea: input.idea,
    definition: input.definition,
    document: {
      kind: document.kind,
      title: document.title,
      filename: document.filename,
      stage: document.stage,
      sections: document.sections,
    },
    related: kept.map((doc) => ({ kind: doc.kind, title: doc.title })),
    // A standard document's context says nothing of its detail, as its task block does not.
    ...(detail === 'standard' ? {} : { detail }),
    ...(input.requirementStyle === 'gherkin' ? { requirementStyle: 'gherkin' as const } : {}),
    ...(repository === undefined ? {} : { repository: repository.source }),
    ...houseContext(input.house),
  };
}

/** What this document is and how to write it: its reader, purpose, sections and rules. */
function documentTask(
  input: DocumentPromptInput,
  call: DocumentContext,
  kept: readonly KeptDocument[],
  detail: Detail,
): string {
  const { document } = input;
  const name = inertInline(input.definition.name);
  const brief = documentPromptOf(document.kind);
  const guidance = input.repository === undefined ? undefined : GROUNDED_GUIDANCE[document.kind];
  const rules = [...brief.rules, ...(guidance?.rules ?? [])].map((rule) => `- ${rule}`).join('\n');
  return `The document to write now:

${taskBlock({ document: call.document, related: call.related, detail })}

Write the ${document.title} (${document.filename}) for ${name}.${LENGTH[detail]}

Who reads it: ${brief.reader}

What it is for: ${brief.purpose}

Sections, in this order, each a "## " heading with exactly this text:
${sectionLines(document, brief, guidance, input.house)}

Rules:
- Start with the title line "# ${document.title}: ${name}", then one short paragraph saying what this document covers.
- Name ${name} in the text; use the questionnaire's audience, features and tech stack.
${rules}
${citableLine(kept)}`.trimEnd();
}

/** The document's sections, numbered, each with what its kind and the guidance ask of it. */
function sectionLines(
  document: DocumentKind,
  brief: AnyDocumentPrompt,
  guidance: GroundedGuidance | undefined,
  house: PromptHouse | undefined,
): string {
  return document.sections
    .map((heading, i) => {
      const text = [brief.sections[heading], guidance?.sections?.[heading]].filter(Boolean);
      return `${i + 1}. "## ${heading}": ${text.join(' ')}`.trimEnd();
    })
    .concat(houseSections(house, document.kind, document.sections.length + 1))
    .join('\n');
}

/** The rule listing the IDs the kept documents define, or '' when they define none. */
function citableLine(kept: readonly KeptDocument[]): string {
  const ids = kept
    .filter((doc) => ID_DEFINERS[doc.kind] !== undefined)
    .flatMap((doc) => (doc.digest ? idsOfDigest(doc) : citableIds([doc])));
  return ids.length > 0
    ? `- IDs you may cite (defined in the documents above): ${ids.join(', ')}.`
    : '';
}

/** What a detail level asks of the length; a standard document's prompt is unchanged. */
export const LENGTH: Readonly<Record<Detail, string>> = {
  brief:
    '\n\nLength: brief. Write the shortest document that still does its job for the team: every section, every ID and acceptance criterion it needs, each point in a sentence or two or a compact table row; no background, no restating what the earlier documents say. About half the length of a standard document.',
  standard: '',
  deep: '\n\nLength: deep. Go further than a standard document where it helps the team build: more edge cases, failure modes, limits and worked examples, and the reasoning behind each decision. Depth, not padding, and still nothing the idea, the definition or the earlier documents do not support.',
};

/**
 * A document's output allowance at a detail level: its kind's `maxOutputTokens` scaled as
 * its price is (pricing.ts `DETAIL_SCALE`), within the 1,000–16,000 the prompts keep to.
 *
 * @example
 * outputAllowance(8_000, 'brief'); // 4_000
 */
export function outputAllowance(maxOutputTokens: number, detail: Detail): number {
  return Math.min(16_000, Math.max(1_000, Math.round(maxOutputTokens * DETAIL_SCALE[detail])));
}

/**
 * The kinds that define IDs, and the prefixes each defines (docs/trace.md): read from the
 * contract's owners of each prefix, so the two never disagree.
 *
 * @example
 * ID_DEFINERS['user-stories']; // ['US']
 */
export const ID_DEFINERS: Readonly<Record<string, readonly IdPrefix[]>> = Object.fromEntries(
  Object.entries(DOCUMENT_KINDS)
    .map(([kind, { filename }]) => [kind, ownedPrefixes(filename)] as const)
    .filter(([, prefixes]) => prefixes.length > 0),
);

/**
 * The IDs the given documents define, in document order (read with the trace parser, so
 * an ID counts only where its owning document defines it).
 *
 * @example
 * citableIds([{ filename: 'PRODUCT_REQUIREMENTS.md', content }]); // ['FR-1', 'FR-1.1', …]
 */
export function citableIds(documents: readonly { filename: string; content: string }[]): string[] {
  return buildTrace(documents).nodes.map((node) => node.id);
}

/** The IDs a digest lists (digest.ts: one list item per ID), in its order, read from its tree. */
function idsOfDigest(digest: { filename: string; content: string }): string[] {
  return definitionsOf(parseShared(digest.content, { filename: digest.filename })).map(
    (definition) => definition.id,
  );
}

/** The follow-up that asks the model to repair its document after the quality gate. */
export function repairMessage(findings: readonly { message: string }[]): string {
  return `A review of your document found these problems:
${findings.map((f) => `- ${f.message}`).join('\n')}

Rewrite the complete document so that every problem is fixed, keeping everything that was right. Answer with the whole markdown document only.`;
}

/** The follow-up to an answer the output limit cut off: the rest of it, from where it stopped. */
export const CONTINUE_MESSAGE =
  'Your answer was cut off by the length limit. Continue the document exactly where it stopped, without repeating anything already written and without any preamble, and finish it.';

/** The follow-up that asks the model to correct a structured answer that failed validation. */
export function correctionMessage(errors: readonly string[]): string {
  return `Your answer did not pass validation:
${errors.map((e) => `- ${e}`).join('\n')}

Answer again with the complete JSON object only, matching the schema and fixing every point above.`;
}
