/**
 * What the quality gate adds for a project under house conventions or in another language
 * (docs/conventions.md): a document that names a forbidden technology, an architecture
 * without a section for a required compliance standard, and a model's document not written
 * in the language asked, detected with tinyld (pure JS, its profiles inside the package).
 */
import { createRequire } from 'node:module';
import { isEnglish, languageName, namesTechnology } from '@pgs/contract';
import { parseShared, visit } from '@pgs/contract/document';
import type { Nodes } from 'mdast';
import { toString as plainText } from 'mdast-util-to-string';
import { OFFLINE_ENGINE } from './estimate.ts';
import type { Finding } from './gate.ts';
import { housed, type PromptHouse } from './prompts/conventions.ts';

const requireHere = createRequire(import.meta.url);
let detector: ((text: string) => string) | undefined;

/**
 * tinyld's detection, loaded on first use: its profiles cost every process about a third of
 * a second of CPU at start, and only a model's document in a language other than English
 * needs them.
 */
function detect(text: string): string {
  detector ??= (requireHere('tinyld') as typeof import('tinyld')).detect;
  return detector(text);
}

/** Below this many letters of prose the detector guesses: no language finding is made. */
const MIN_LETTERS = 200;

/**
 * A document's headings (## and below) and its prose, code left out: code blocks and code
 * spans name technologies and paths, not the language the document is written in.
 */
export function readProse(markdown: string): { headings: string[]; prose: string[] } {
  const headings: string[] = [];
  const prose: string[] = [];
  visit(parseShared(markdown, { defines: [] }), (node) => {
    if (node.type === 'heading') {
      // The "## " headings stay as the catalogue lists them, in English, whatever the language.
      if (node.depth >= 2) headings.push(plainText(node));
      if (node.depth >= 3) prose.push(withoutCode(node));
    } else if (node.type === 'paragraph' || node.type === 'tableCell')
      prose.push(withoutCode(node));
  });
  return { headings, prose };
}

/** A node's text without its code spans. */
function withoutCode(node: Nodes): string {
  if (node.type === 'inlineCode') return ' ';
  if ('children' in node) return (node.children as Nodes[]).map(withoutCode).join('');
  return 'value' in node ? String(node.value) : '';
}

/**
 * The prose a language is read from: IDs, the keywords formats keep in English (EARS,
 * Given/When/Then), words in capitals and links left out (code is, by `readProse`).
 */
export function languageText(prose: readonly string[]): string {
  return prose
    .join('\n')
    .replace(/\b[A-Z]{1,4}-\d+(?:\.\d+)*\b/g, ' ')
    .replace(/\b(?:Given|When|Then|And|But)\b/g, ' ')
    .replace(/\b[A-Z]{2,}\b/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The house findings of one document; empty when the project has no conventions and is in
 * English. `engine` is the model that wrote it: the offline engine writes English only, which
 * provenance reports for the whole project (`writtenInEnglish`), so it is not faulted here.
 *
 * @example
 * houseFindings({ kind: 'architecture', content, idea, house, engine: 'anthropic:claude-sonnet-4-5' });
 */
export function houseFindings(input: {
  kind: string;
  content: string;
  idea: string;
  house: PromptHouse | undefined;
  engine: string;
}): Finding[] {
  const { house, content } = input;
  // Nothing to check (no conventions, English): the document is not read again.
  if (!housed(house)) return [];
  const findings: Finding[] = [];
  const { headings, prose } = readProse(content);
  const conventions = house.conventions;
  // A technology the idea itself names is the idea's choice: recorded with the definition.
  const forbidden = (conventions?.stack?.forbidden ?? []).filter(
    (tech) => !namesTechnology(input.idea, tech) && namesTechnology(content, tech),
  );
  if (forbidden.length > 0) {
    findings.push({
      rule: 'forbidden-technology',
      severity: 'high',
      message: `The document names ${forbidden.map((t) => `"${t}"`).join(', ')}, which the house conventions forbid: use the stack they require instead, and do not name ${forbidden.length === 1 ? 'it' : 'them'} at all, not even as a rejected alternative.`,
    });
  }
  if (input.kind === 'architecture') {
    const missing = (conventions?.compliance ?? []).filter(
      (standard) => !headings.some((heading) => namesTechnology(heading, standard)),
    );
    if (missing.length > 0) {
      findings.push({
        rule: 'missing-compliance',
        severity: 'high',
        message: `The architecture has no section for ${missing.map((s) => `"${s}"`).join(', ')}, which the house conventions require: add a "### " heading with exactly each standard's name, saying how the design meets it.`,
      });
    }
  }
  const language = house.language;
  if (!isEnglish(language) && input.engine !== OFFLINE_ENGINE) {
    const text = languageText(prose);
    const asked = language!.split('-')[0]!.toLowerCase();
    const found = text.replace(/[^\p{L}]/gu, '').length >= MIN_LETTERS ? detect(text) : '';
    if (found !== '' && found !== asked) {
      findings.push({
        rule: 'language',
        severity: 'high',
        message: `The document is written in ${languageName(found)}, not in ${languageName(language!)} (${language}): write its prose, tables and sub-headings in ${languageName(language!)}, keeping the "## " headings, IDs, EARS keywords, file names and code as they are.`,
      });
    }
  }
  return findings;
}
