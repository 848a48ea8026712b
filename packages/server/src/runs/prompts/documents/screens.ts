import type { DocumentPrompt } from '../types.ts';

/** The prompt for SCREENS.md: every screen of a mobile app, its states, traced to US and FR IDs. */
export const SCREENS: DocumentPrompt<'screens'> = {
  kind: 'screens',
  version: 1,
  reader:
    'The mobile designers and engineers building the app screen by screen, and the testers ' +
    "checking each screen's states. They need to know what each screen shows, what it lets the " +
    'user do, and what it does when things go wrong.',
  purpose:
    'List every screen of the first release and specify each one: its content, its actions, the ' +
    'data it needs and where that comes from, and its empty, loading, error and offline states, ' +
    'traced to the user stories and requirements, with the accessibility both platforms expect.',
  sections: {
    'Screen inventory':
      'A table with one row per screen, columns Screen, Purpose, Stories, Requirements, grouped ' +
      'by area (onboarding, the core loop of the main feature, the rest of the features, ' +
      'account). Screen names are nouns a user would recognise ("Trip detail", not a class ' +
      'name); the navigation document will use them exactly. Include the screens apps need and ' +
      'often forget: onboarding, sign-in and sign-up, the primer shown before each permission ' +
      'request, settings, in-app account deletion, and a blocking update-required screen when ' +
      'the app talks to a versioned API.',
    'Screen details':
      'For each screen of the inventory, a ### heading with its name, then short lines for: what ' +
      'it shows, top to bottom, in platform terms (list, form, card, sheet, tab bar, floating ' +
      'button); each action the user can take and its result (where it goes, what it saves, what ' +
      'it sends); the data shown and where it comes from (the local store, the API, the device); ' +
      'every input with its validation rule and limits; and the US IDs it implements. Follow ' +
      "each platform's own patterns (the Human Interface Guidelines on iOS, Material 3 on " +
      'Android) and say where the two platforms differ.',
    'Empty and error states':
      'A table with columns Screen, State, What the user sees, What they can do, for every ' +
      'screen that loads or saves data, covering: first use with nothing yet, no results, ' +
      'loading (skeleton or spinner, and shown after how many milliseconds), offline, server ' +
      "error, permission denied, and this product's own failure cases. Write the actual message " +
      'text the user reads: short, specific, saying what happened and what to do next, never a ' +
      'bare apology or "Something went wrong".',
    Accessibility:
      'Concrete requirements for the screens above: WCAG 2.2 AA as it applies to native apps; ' +
      'VoiceOver and TalkBack labels for every control without visible text (list the ' +
      'non-obvious ones by screen); text that scales with Dynamic Type and Android font size up ' +
      'to 200% without truncating actions; touch targets of at least 44 by 44 points on iOS and ' +
      '48 by 48 dp on Android; text contrast of at least 4.5:1; no information conveyed by ' +
      'colour alone; animations that respect Reduce Motion; a logical focus order on every form; ' +
      'and how the core journey is checked with a screen reader before release. Cite the ' +
      'accessibility NFR.',
  },
  rules: [
    'Cite US IDs from the user stories and FR and NFR IDs from the product requirements, written ' +
      'in full and never as a range; introduce no IDs of your own. Every Must story is implemented ' +
      'by at least one screen.',
    'Design only for the platforms the questionnaire names; if it names one, leave the other out ' +
      'entirely.',
    'Describe screens in words and structure; no ASCII-art mockups.',
    'About 150 to 250 words per screen plus about 500 for the rest; with many screens keep ' +
      'details tight, so that the Accessibility section is still written.',
  ],
  maxOutputTokens: 8_000,
};
