import { type CreditBalance, Pgs } from '@pgs/client';
import { createContext } from 'preact';
import type { Problem } from './messages.ts';

/** Where the key is kept: sessionStorage, so it ends with the tab and never reaches a URL. */
export const STORAGE_KEY = 'pgs.apiKey';

/** The key of this tab's session, if one was stored. @example const key = loadKey(); */
export function loadKey(): string | undefined {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    // Storage can be disabled (privacy settings): then the key lives only in memory.
    return undefined;
  }
}

/** Keeps the key for this tab (never localStorage: it must not outlive the session). @example saveKey(key); */
export function saveKey(key: string): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, key);
  } catch {
    // See loadKey: without storage a reload signs out, which is the safe side.
  }
}

/** Forgets the key. @example forgetKey(); */
export function forgetKey(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing was stored.
  }
}

/**
 * The SDK client of a key, talking to the server that served the page. The key travels
 * only in its `Authorization` header. No automatic retries: the console shows a problem at
 * once (a 429 with its countdown) and the person decides, instead of a page that hangs
 * while the SDK waits; the event stream still reconnects on its own.
 *
 * @example
 * const pgs = makeClient('pgs_test_…');
 */
export function makeClient(apiKey: string): Pgs {
  return new Pgs({ apiKey, baseUrl: window.location.origin, maxRetries: 0, timeoutMs: 30_000 });
}

/** What every signed-in screen shares. */
export interface Session {
  pgs: Pgs;
  /** The balance last read (undefined until the first read). */
  credits: CreditBalance | undefined;
  /** Reads the balance again (after a create, a cancel, a project that ended). */
  refreshCredits(): Promise<void>;
  /** Forgets the key; with a problem (a key the server refused), the key screen shows it. */
  signOut(problem?: Problem): void;
}

/** The signed-in session, provided by the app around every screen but the key screen. */
export const SessionContext = createContext<Session | undefined>(undefined);
