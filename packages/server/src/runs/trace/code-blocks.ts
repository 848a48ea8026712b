/**
 * Syntax checks of the fenced code in the documents: a JSON example that does not parse
 * or a diagram that will not render is a defect a reader meets first.
 *
 * What is parsed and what is not:
 * - ```json: `JSON.parse`.
 * - ```yaml / ```yml: the parser the caller injects (`parseYaml`); skipped without one, as
 *   the server carries no YAML dependency of its own.
 * - ```mermaid: `@mermaid-js/parser` has grammars for only some diagram types (info, pie,
 *   gitGraph, architecture-beta, packet, radar-beta, treemap and a few newer ones, see
 *   `PARSED`); those are parsed in full. Flowcharts, sequence, class, state and ER
 *   diagrams, gantt, journey, mindmap, timeline, quadrant and sankey charts have no grammar
 *   there (mermaid itself parses them with jison), so for them only the first line is
 *   checked: it must name a known diagram type.
 * - Anything else is not checked.
 */
import type { CodeBlock, Finding } from './types.ts';

type ParseDiagram = (type: string, text: string) => Promise<unknown>;

let parser: Promise<ParseDiagram> | undefined;
// Loaded on first use: the grammars cost some 50 ms and memory a server without diagrams need not pay.
const mermaid = (): Promise<ParseDiagram> =>
  (parser ??= import('@mermaid-js/parser').then((module) => module.parse as ParseDiagram));

/** Diagram keywords (a block's first word) that `@mermaid-js/parser` parses, and its name for each. */
const PARSED: Readonly<Record<string, string>> = {
  info: 'info',
  pie: 'pie',
  gitGraph: 'gitGraph',
  'architecture-beta': 'architecture',
  // Not a mermaid keyword (it is `architecture-beta`), but a likely slip: the parser names the fix.
  architecture: 'architecture',
  packet: 'packet',
  'packet-beta': 'packet',
  'radar-beta': 'radar',
  radar: 'radar',
  treemap: 'treemap',
  'treemap-beta': 'treemap',
  'treeView-beta': 'treeView',
  eventmodeling: 'eventmodeling',
  'railroad-beta': 'railroad',
  'railroad-ebnf-beta': 'railroadEbnf',
  'railroad-abnf-beta': 'railroadAbnf',
  'railroad-peg-beta': 'railroadPeg',
  'wardley-beta': 'wardley',
  'cynefin-beta': 'cynefin',
};

/** Diagram keywords accepted on the first line only (no grammar in `@mermaid-js/parser`). */
const NAMED = new Set([
  'flowchart',
  'flowchart-elk',
  'graph',
  'sequenceDiagram',
  'classDiagram',
  'classDiagram-v2',
  'stateDiagram',
  'stateDiagram-v2',
  'erDiagram',
  'gantt',
  'journey',
  'mindmap',
  'timeline',
  'quadrantChart',
  'sankey',
  'sankey-beta',
  'xychart',
  'xychart-beta',
  'block',
  'block-beta',
  'requirementDiagram',
  'kanban',
  'C4Context',
  'C4Container',
  'C4Component',
  'C4Dynamic',
  'C4Deployment',
]);

export interface CodeCheckOptions {
  /** Parses YAML and throws on invalid input (e.g. `parse` from the `yaml` package). */
  parseYaml?: (text: string) => unknown;
}

/**
 * Checks the fenced code of one document; one `code-block` finding per block that fails.
 *
 * @example
 * await checkCodeBlocks('api-design.md', [{ lang: 'json', value: '{', section: 'Errors', line: 4 }]); // one finding
 */
export async function checkCodeBlocks(
  document: string,
  blocks: readonly CodeBlock[],
  options: CodeCheckOptions = {},
): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const block of blocks) {
    const problem = await problemOf(block, options);
    if (problem === undefined) continue;
    findings.push({
      rule: 'code-block',
      severity: 'medium',
      message: `The \`\`\`${block.lang} block at line ${block.line} of ${document}${block.section ? ` (section "${block.section}")` : ''} ${problem}`,
      document,
      section: block.section,
    });
  }
  return findings;
}

async function problemOf(block: CodeBlock, options: CodeCheckOptions): Promise<string | undefined> {
  switch (block.lang) {
    case 'json':
      return attempt(() => JSON.parse(block.value), 'is not valid JSON');
    case 'yaml':
    case 'yml':
      return options.parseYaml
        ? attempt(() => options.parseYaml?.(block.value), 'is not valid YAML')
        : undefined;
    case 'mermaid':
      return diagramProblem(block.value);
    default:
      return undefined;
  }
}

async function attempt(run: () => unknown, what: string): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    return `${what}: ${brief(error)}. Fix the syntax so the block parses, keeping its meaning.`;
  }
}

async function diagramProblem(text: string): Promise<string | undefined> {
  const keyword = keywordOf(text);
  if (keyword === undefined) return 'is empty. Write the diagram or remove the block.';
  const type = PARSED[keyword];
  if (type !== undefined) {
    const parse = await mermaid();
    return attempt(() => parse(type, text), 'is not a valid mermaid diagram');
  }
  if (NAMED.has(keyword)) return undefined;
  return (
    `does not start with a mermaid diagram type ("${keyword}"). Its first line must name one, ` +
    'e.g. "flowchart LR", "sequenceDiagram", "erDiagram", "classDiagram" or "stateDiagram-v2".'
  );
}

/** The diagram keyword: the first word after any front matter, blank lines and `%%` lines. */
function keywordOf(text: string): string | undefined {
  const lines = text.split(/\r?\n/);
  let index = 0;
  while (index < lines.length && lines[index]?.trim() === '') index++;
  if (lines[index]?.trim() === '---') {
    index++;
    while (index < lines.length && lines[index]?.trim() !== '---') index++;
    index++;
  }
  for (; index < lines.length; index++) {
    const line = lines[index]?.trim() ?? '';
    if (line === '' || line.startsWith('%%')) continue;
    return line.split(/[\s;]+/)[0]?.replace(/:$/, '');
  }
  return undefined;
}

/** An error's message, on one line and short enough to quote. */
function brief(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message
    .replace(/^Parsing failed:\s*/, '')
    .split('\n')
    .map((part) => part.trim())
    .filter(Boolean)
    .slice(0, 2)
    .join(' ');
  return line.length > 240 ? `${line.slice(0, 239)}…` : line.replace(/\.$/, '');
}
