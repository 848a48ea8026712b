import type { DocumentPrompt } from '../types.ts';

/** The prompt for NAVIGATION.md: how a mobile app's screens connect, its routes and deep links. */
export const NAVIGATION: DocumentPrompt<'navigation'> = {
  kind: 'navigation',
  version: 1,
  reader:
    'The mobile engineers wiring screens together and the testers checking every way into and ' +
    'out of a screen, including from a notification or a shared link.',
  purpose:
    'Define how the user moves through the app: the structure of tabs, stacks and modals, every ' +
    'route with its parameters, the deep links that open the app on a given screen, and what ' +
    'Back does everywhere, so that no screen is a dead end or a trap.',
  sections: {
    'Navigation structure':
      'The hierarchy of navigators as a mermaid `flowchart` code block: the signed-out flow and ' +
      'the signed-in app, the tab bar with its tabs in order, the stack inside each tab, and the ' +
      'modals and sheets. Then a short explanation: why these tabs (at most five, the core ' +
      'feature first), which screens are modal and why (a task the user completes or cancels), ' +
      'and where the user lands after launch, after signing in, after signing out and after the ' +
      'first run.',
    Routes:
      'A table with one row per screen of the Screens document, columns Route, Screen, ' +
      'Parameters, Presented as, Requires sign-in. Route names follow the convention of the ' +
      'navigation library the stack implies (React Navigation, Expo Router, Jetpack Navigation, ' +
      'SwiftUI NavigationStack, go_router, and so on). Parameters are typed identifiers only, ' +
      'never whole objects, so that every route can be restored after the app is killed and ' +
      'opened from a link. Presented as is push, modal, sheet or tab root.',
    'Deep links':
      "The custom URL scheme, derived from the project's name, and the universal links (iOS) and " +
      'App Links (Android): the paths the app claims and the two verification files the web ' +
      'domain must serve (`apple-app-site-association` and `assetlinks.json` under ' +
      '`/.well-known/`). Use the production domain if an earlier document names one; otherwise ' +
      'give the paths alone (`/trips/123`) and list choosing and verifying the domain as a ' +
      'release prerequisite. Then a table with columns Link, Opens, Parameters, If signed out, ' +
      'If the item is missing, covering every notification and shareable item the requirements ' +
      'imply. Say how a link into a nested screen builds the stack beneath it, and how unknown ' +
      'paths and malformed identifiers are handled.',
    'Back behaviour':
      'A table with columns Situation, iOS, Android stating what Back does in each case: within ' +
      'a stack (edge swipe; the system back gesture, predictive back on Android 14 and later); ' +
      'closing a modal or sheet; leaving a form with unsaved changes (confirm, or keep a draft); ' +
      'a screen opened from a deep link or notification (back to its parent in the app, not out ' +
      'of it); a tab root (Android leaves the app, with no press-again-to-exit trap); after ' +
      'signing out (the stack is cleared and Back never reveals signed-in content); and inside a ' +
      'multi-step flow (one step back, or cancel the whole flow).',
  },
  rules: [
    'Every screen of the Screens document appears in Routes exactly once and is reachable from ' +
      'the launch screen; name no screen that document does not define.',
    'Cite US IDs and FR IDs from the documents you were given where a route or link serves them, ' +
      'written in full and never as a range; introduce no IDs of your own.',
    'Cover only the platforms the questionnaire names; drop the column of a platform it does not ' +
      'name.',
    'About 900 to 1,800 words, plus the diagram.',
  ],
  maxOutputTokens: 5_000,
};
