/**
 * A stand-in for a hosted model, for tests and benchmarks: it reads a PGS prompt's text the
 * way a model reads it (the `<pgs-context>` and `<pgs-task>` blocks, the `<pgs-repository>`
 * block before them) and answers with the offline engine. The product never does this: the
 * offline engine is handed the typed context (models/sdk/offline-model.ts). The fake provider of
 * `fake-ai.ts` answers with it, so the provider packages and the prompts are on the path.
 */

import type { Conventions } from '@pgs/contract';
import type { RepositorySource } from '@pgs/contract/generation';
import {
  CONTEXT_TAGS,
  type GenerationContext,
  REPOSITORY_CLOSE,
} from '../../src/models/context.ts';
import { answerCall } from '../../src/models/sdk/offline-model.ts';

const { open: OPEN, close: CLOSE, taskOpen: TASK_OPEN, taskClose: TASK_CLOSE } = CONTEXT_TAGS;

/**
 * Reads the context back out of a prompt, a `taskBlock` after it merged in and the
 * `repositoryBlock` before it read as `repository`; `undefined` when there is none.
 */
export function readContext(prompt: string): GenerationContext | undefined {
  const start = prompt.lastIndexOf(OPEN);
  const end = prompt.lastIndexOf(CLOSE);
  if (start === -1 || end <= start) return undefined;
  try {
    const parsed = JSON.parse(prompt.slice(start + OPEN.length, end)) as GenerationContext;
    const repository = readRepository(prompt.slice(0, start));
    const conventions = readConventions(prompt.slice(0, start));
    const context = {
      ...parsed,
      ...(repository === undefined ? {} : { repository }),
      ...(conventions === undefined ? {} : { conventions }),
    } as GenerationContext;
    const taskStart = prompt.indexOf(TASK_OPEN, end);
    const taskEnd = prompt.lastIndexOf(TASK_CLOSE);
    if (taskStart === -1 || taskEnd <= taskStart) return context;
    return { ...context, ...JSON.parse(prompt.slice(taskStart + TASK_OPEN.length, taskEnd)) };
  } catch {
    return undefined;
  }
}

/** The `<pgs-conventions>` block that opens a prompt of a project with house conventions. */
function readConventions(text: string): Conventions | undefined {
  const match = /<pgs-conventions>\n([\s\S]*?)\n<\/pgs-conventions>/.exec(text);
  return match === null ? undefined : (JSON.parse(match[1]!) as Conventions);
}

const unescapeAttribute = (value: string) =>
  value.replaceAll('&lt;', '<').replaceAll('&quot;', '"').replaceAll('&amp;', '&');

/** The first `repositoryBlock` of a text, read back (a file's `&lt;` kept); undefined when it has none. */
function readRepository(text: string): RepositorySource | undefined {
  const start = text.indexOf('<pgs-repository ');
  const end = text.indexOf(REPOSITORY_CLOSE, start);
  if (start === -1 || end === -1) return undefined;
  const block = text.slice(start, end);
  const head = /^<pgs-repository name="([^"]*)"(?: commit="([^"]*)")?>\n/.exec(block);
  if (!head) return undefined;
  const files = [
    ...block.slice(head[0].length).matchAll(/<file path="([^"]*)">\n([\s\S]*?)<\/file>\n/g),
  ].map((match) => ({ path: unescapeAttribute(match[1]!), content: match[2]! }));
  return {
    name: unescapeAttribute(head[1]!),
    commit: head[2] === undefined ? null : unescapeAttribute(head[2]),
    files,
  };
}

/**
 * The offline engine's answer to a prompt's text; throws when the prompt carries no PGS context.
 *
 * @example
 * answerPrompt(contextBlock({ task: 'definition', idea: 'A habit tracker for remote teams' }));
 */
export function answerPrompt(prompt: string): string {
  const context = readContext(prompt);
  if (!context) throw new Error("the prompt has no <pgs-context> block: not one of PGS's prompts");
  return answerCall(context);
}
