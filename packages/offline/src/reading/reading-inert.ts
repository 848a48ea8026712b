/** The reading of an idea made safe to write: see {@link inert}. */
import { inertText } from '@pgs/contract/document';
import type { IdeaCapabilities } from './reading-types.ts';

/**
 * A reading whose every phrase is safe to write into a document: what the engine writes of an
 * idea (names, features, the idea quoted) comes from here, so this is where user text is made
 * inert (user-text.ts).
 *
 * @example
 * inert({ ...reading, product: 'a <b>tool</b>' }).product; // 'a &lt;b>tool&lt;/b>'
 */
export function inert(reading: IdeaCapabilities): IdeaCapabilities {
  const t = inertText;
  const maybe = (text: string | undefined) => (text === undefined ? undefined : t(text));
  return {
    ...reading,
    text: t(reading.text),
    capabilities: reading.capabilities.map((c) => ({
      verb: t(c.verb),
      object: t(c.object),
      qualifiers: c.qualifiers.map(t),
      text: t(c.text),
      entity: t(c.entity),
      ...(c.priority ? { priority: c.priority } : {}),
      ...(c.group === undefined ? {} : { group: c.group }),
    })),
    product: t(reading.product),
    name: maybe(reading.name),
    audience: maybe(reading.audience),
    assistant: maybe(reading.assistant),
    entities: reading.entities.map(t),
    integrations: reading.integrations.map(t),
    numbers: reading.numbers.map(t),
    qualifiers: reading.qualifiers.map(t),
  };
}
