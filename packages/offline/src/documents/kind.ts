/**
 * What one document kind's file of the engine holds (documents/<kind>.ts): the sentence of its
 * introduction and a writer per section of the catalogue's kind, keyed by the catalogue's
 * section titles, so a section added to or renamed in `@pgs/contract`'s catalogue fails the
 * build until its writer exists.
 */
import type { DocumentKindName, GROUNDED_ARCHITECTURE_SECTIONS, SectionsOf } from '@pgs/contract';
import type { FlowContent } from '@pgs/contract/document';
import type { Facts } from '../facts/facts.ts';

/** The body of one `## ` section: the blocks of its tree (text/nodes.ts). */
export type SectionBody = readonly FlowContent[];

/**
 * Writes the body of one `## ` section from the facts.
 *
 * @example
 * const accessibility: SectionWriter = (f) => blocks(p`${f.name} must work for everyone:`, bullets([…]));
 */
export type SectionWriter = (facts: Facts) => SectionBody;

/**
 * The sections a grounded project's document of a kind may have: the architecture adds its current
 * system.
 */
export type GroundedSectionsOf<K extends DocumentKindName> = K extends 'architecture'
  ? (typeof GROUNDED_ARCHITECTURE_SECTIONS)[number]
  : SectionsOf<K>;

/**
 * A document kind as the engine writes it.
 *
 * @example
 * export const USER_STORIES = { purpose: 'These stories…', sections: { Epics, Stories, 'Edge
 * cases': edges } } satisfies KindWriter<'user-stories'>;
 */
export interface KindWriter<K extends DocumentKindName> {
  /** What the document is for, the second sentence of its introduction. */
  readonly purpose: string;
  /** One writer per section of the kind, in any order (the request orders them). */
  readonly sections: Readonly<Record<SectionsOf<K>, SectionWriter>>;
  /** A grounded project's writers where they differ from `sections` (docs/brownfield.md). */
  readonly grounded?: Readonly<Partial<Record<GroundedSectionsOf<K>, SectionWriter>>>;
}
