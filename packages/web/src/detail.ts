import { DETAIL_LEVELS, type DetailLevel } from '@pgs/client';

/** The lines the New project form says of each detail level; a level missing one fails the build. */
const LINES: Readonly<Record<DetailLevel, { label: string; hint: string }>> = {
  brief: {
    label: 'Brief',
    hint: 'About half the length: the essentials, with every ID and criterion kept.',
  },
  standard: { label: 'Standard', hint: 'The default documents.' },
  deep: { label: 'Deep', hint: 'More depth: edge cases, failure modes, rationale.' },
};

/**
 * The detail levels, shortest first, each with the line the New project form says of it.
 * Their prices are the SDK's (`projectCredits`, `revisionCredits`), the server's own table.
 *
 * @example
 * DETAILS.map((level) => level.value); // ['brief', 'standard', 'deep']
 */
export const DETAILS: readonly { value: DetailLevel; label: string; hint: string }[] =
  DETAIL_LEVELS.map((value) => ({ value, ...LINES[value] }));
