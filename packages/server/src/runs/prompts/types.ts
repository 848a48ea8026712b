/**
 * The shape of a document's prompt. Each document kind has one file in `documents/`,
 * versioned: a change to a prompt bumps its `version`, which provenance records, so a
 * document can always be traced to the words that asked for it.
 */
export interface DocumentPrompt {
  /** The document kind (`data.project.documents[].type`). */
  readonly kind: string;
  /** Bumped on every change of the words below. */
  readonly version: number;
  /** Who reads the document and what they do with it. */
  readonly reader: string;
  /** What the document is for: the job it must do for that reader. */
  readonly purpose: string;
  /**
   * What each section must contain, keyed by its heading, in the catalogue's order (a
   * test checks they match).
   */
  readonly sections: Readonly<Record<string, string>>;
  /** Rules particular to this kind, on top of the shared ones. */
  readonly rules: readonly string[];
  /** The answer's length limit; generous, so a complete document is never cut. */
  readonly maxOutputTokens: number;
}

/** `kind@version`, as provenance records it. */
export const promptId = (prompt: Pick<DocumentPrompt, 'kind' | 'version'>) =>
  `${prompt.kind}@${prompt.version}`;
