import type { DocumentKindName, SectionsOf } from '@pgs/contract';

/**
 * The shape of a document's prompt, whatever its kind: its sections are read by heading.
 * Each document kind has one file in `documents/`, versioned: a change to a prompt bumps
 * its `version`, which provenance records, so a document can always be traced to the words
 * that asked for it.
 */
export interface AnyDocumentPrompt {
  /** The document kind (`data.project.documents[].type`). */
  readonly kind: DocumentKindName;
  /** Bumped on every change of the words below. */
  readonly version: number;
  /** Who reads the document and what they do with it. */
  readonly reader: string;
  /** What the document is for: the job it must do for that reader. */
  readonly purpose: string;
  /** What each section must contain, keyed by its heading, in the catalogue's order. */
  readonly sections: Readonly<Record<string, string>>;
  /** Rules particular to this kind, on top of the shared ones. */
  readonly rules: readonly string[];
  /** The answer's length limit; generous, so a complete document is never cut. */
  readonly maxOutputTokens: number;
}

/**
 * The prompt of kind `K`: its sections are keyed by the catalogue's headings of that kind,
 * so a missing or misnamed one breaks the build (a test checks their order).
 *
 * @example
 * export const README: DocumentPrompt<'readme'> = { kind: 'readme', sections: { About: '…', … }, … };
 */
export interface DocumentPrompt<K extends DocumentKindName> extends AnyDocumentPrompt {
  readonly kind: K;
  readonly sections: Readonly<Record<SectionsOf<K>, string>>;
}

/** `kind@version`, as provenance records it. */
export const promptId = (prompt: Pick<AnyDocumentPrompt, 'kind' | 'version'>) =>
  `${prompt.kind}@${prompt.version}`;
