/**
 * Small markdown builders for the offline writers, until they build document trees
 * (`@pgs/contract/document`) directly.
 */
import { cellMarkdown } from '@pgs/contract/document';

/** Paragraphs separated by blank lines; empty entries are dropped. */
export function blocks(...parts: (string | false | undefined)[]): string {
  return parts
    .filter((part): part is string => typeof part === 'string' && part.length > 0)
    .join('\n\n');
}

export function bullets(items: readonly string[]): string {
  return items.map((item) => `- ${item}`).join('\n');
}

export function numbered(items: readonly string[]): string {
  return items.map((item, index) => `${index + 1}. ${item}`).join('\n');
}

/**
 * A table of markdown cells. A pipe in a cell is escaped (`\|`) and reads as a pipe, where it
 * used to become a slash (`cellMarkdown` of the document model).
 *
 * @example
 * table(['Name', 'Use'], [['TCP | UDP', 'transport']]); // '| Name | Use |\n| --- | --- |\n| TCP \\| UDP | transport |'
 */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = cellMarkdown;
  return [
    `| ${headers.map(cell).join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

export function code(language: string, text: string): string {
  return `\`\`\`${language}\n${text.trimEnd()}\n\`\`\``;
}

/** Inline code. */
export function ic(text: string): string {
  return `\`${text}\``;
}
