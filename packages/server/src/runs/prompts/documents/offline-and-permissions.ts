import type { DocumentPrompt } from '../types.ts';

/**
 * The prompt for OFFLINE_AND_PERMISSIONS.md: a mobile app's offline behaviour, sync, permissions
 * and privacy.
 */
export const OFFLINE_AND_PERMISSIONS: DocumentPrompt<'offline-and-permissions'> = {
  kind: 'offline-and-permissions',
  version: 2,
  reader:
    'The mobile engineers implementing local storage, sync and permission requests, and the ' +
    'person who fills in the App Store privacy details and the Google Play Data safety form.',
  purpose:
    'Decide what the app does without a network, how changes made on the device reach the server ' +
    'and how conflicts resolve, which device permissions it asks for, when and why, and what ' +
    'personal data leaves the device, so that the app works on the move and passes store review.',
  sections: {
    'Offline behaviour':
      'A table with one row per core feature, columns Feature, Offline, What the user sees, ' +
      'Requirements, where Offline is full (read and write), read-only (cached) or none, and for ' +
      'none the reason (live data, payments, a server-side check). Then the local store (the ' +
      'technology the architecture chose, or the one the stack implies: SQLite, Core Data, Room, ' +
      'WatermelonDB and the like), what is cached and for how long, the storage budget in MB and ' +
      'what is evicted first, and how the app shows that it is offline and when the data was ' +
      'last updated.',
    'Local data model':
      'The tables or collections of the local store as a table with columns Entity, Fields, ' +
      'Synced, Kept for: the key entities the app keeps on the device, each field with its type, ' +
      'which are synced and which stay local (drafts, caches, the outbox), and how long each is ' +
      'kept. Then the schema version and how a migration runs on an app update without losing ' +
      'unsynced changes.',
    'Sync API':
      "The backend endpoints the app syncs through, as the architecture's API style implies: a " +
      'table with columns Method, Path, Request, Response, Requirements, covering the pull of ' +
      'changes since a cursor, the push of a batch of queued operations (with its idempotency ' +
      'key and the per-operation result), and what the server answers for a conflict. Then one ' +
      'JSON code block of a push request and its response.',
    'Sync and conflicts':
      'How changes made offline reach the server: an outbox of operations with client-generated ' +
      'IDs and idempotency keys; retries with exponential backoff (first delay, cap, maximum ' +
      'attempts); the ordering guaranteed; and what runs in the background (BGTaskScheduler on ' +
      'iOS, WorkManager on Android; neither guarantees when it runs, so say what happens if it ' +
      'never does). Then a table with columns Data, Conflict rule, What the user sees: for each ' +
      'kind of data that can be edited in two places, the rule (last write wins by server time, ' +
      'field-level merge, append-only, or the user chooses) and why it is safe for that data. ' +
      'Cover a delete racing an edit, and one account on two devices.',
    'Device permissions':
      'A table with columns Permission, iOS key, Android permission, Asked when, Why (the text ' +
      'the user reads), If denied, listing only the permissions a requirement needs, for example ' +
      'camera (`NSCameraUsageDescription`, `android.permission.CAMERA`), location (while in use ' +
      'or always, precise or approximate), notifications (`POST_NOTIFICATIONS` on Android 13 and ' +
      'later), photos (the system picker first, which needs no permission). Each is asked in ' +
      'context, when the user starts the action that needs it and after a one-screen primer, ' +
      'never at first launch. Say how the app recovers from a permanent denial (a path to the ' +
      'system settings) and what still works without each permission.',
    Privacy:
      'A table with columns Data, Stays on device, Sent to, Purpose, Store disclosure: what ' +
      'personal data the app handles, what stays on the device, and what is sent to the backend ' +
      'or to each third-party SDK (analytics, crash reporting, push) and why. Then how tokens ' +
      'and secrets are stored (Keychain, Android Keystore-backed storage), whether the local ' +
      'database is encrypted and when it is wiped (sign-out, account deletion), the in-app ' +
      'account deletion both stores require, whether App Tracking Transparency applies, and the ' +
      'answers the App Store privacy details and the Google Play Data safety form will need.',
  },
  rules: [
    'Cite FR and NFR IDs from the product requirements, written in full and never as a range; ' +
      'introduce no IDs of your own.',
    'Decide offline behaviour feature by feature from the requirements, never as a blanket ' +
      'promise that the app works offline.',
    'Ask for the fewest permissions: none without a requirement it serves, and only for the ' +
      'platforms the questionnaire names.',
    'About 1,200 to 2,200 words.',
  ],
  maxOutputTokens: 6_000,
};
