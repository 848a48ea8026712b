/**
 * What every side shows of a task's context pack (issue 30, item 3): the server's
 * `Accept: text/markdown`, both MCP servers' next_task and the CLI's `pgs next` render it with
 * the one function here, so an agent reads the same pack whichever way it asked.
 */
import type { components } from './generated/types.ts';
import { inlineCode, inlineText } from './markdown-text.ts';

type TaskContext = components['schemas']['TaskContext'];

/**
 * The pack as one markdown document: the task and its facts, then the criteria, stories,
 * design pieces, files, dependencies (with their notes) and constraints, each piece in the
 * documents' own words; a part with nothing in it is left out. What a person or a model wrote
 * (titles, the phase, section names, notes, paths) reads back as the same words: escaped as
 * text (an ID in it as `T\-3`) or in inline code (see `markdown-text.ts`).
 *
 * @example
 * taskContextMarkdown(pack).split('\n')[0]; // '# T-4 Build "Keep communities" until T\\-3 passes'
 */
export function taskContextMarkdown(pack: TaskContext): string {
  const { task } = pack;
  const facts = [
    `Phase: ${inlineText(task.phase) || 'none'}`,
    `Status: ${task.status}`,
    `Implements: ${task.requirements.join(', ') || 'nothing named'}`,
    `Depends on: ${task.dependsOn.join(', ') || 'nothing'}`,
  ];
  const part = (title: string, body: string[]) =>
    body.length === 0 ? [] : [`## ${title}`, ...body];
  const list = (items: string[]) => (items.length === 0 ? [] : [items.join('\n')]);
  return `${[
    `# ${task.id} ${inlineText(task.title)}`,
    facts.join(' · '),
    ...part(
      'Acceptance criteria',
      pack.criteria.map((c) => c.markdown),
    ),
    ...part(
      'Stories',
      pack.stories.map((s) => s.markdown),
    ),
    ...part(
      'Design',
      pack.design.map(
        (d) =>
          `From ${inlineText(d.document)}, ${[d.section, d.subsection]
            .filter(Boolean)
            .map((name) => inlineText(name ?? ''))
            .join(' › ')}:\n\n${d.markdown}`,
      ),
    ),
    ...part('Files', list(pack.files.map((f) => `- ${inlineCode(f)}`))),
    ...part(
      'Dependencies',
      list(
        pack.dependencies.map(
          (d) =>
            `- ${d.id} ${inlineText(d.title)} (${d.status})${d.notes.map((n) => `\n  - ${inlineText(n)}`).join('')}`,
        ),
      ),
    ),
    ...part(
      'Constraints',
      pack.constraints.map((c) => c.markdown),
    ),
  ].join('\n\n')}\n`;
}
