/**
 * What the SDK learns from the JavaScript runtime it runs in (Node, Deno, Bun or a browser),
 * without importing any of them: the headers that name the client, a random idempotency key,
 * and environment variables where there are any.
 */
import { VERSION } from './version.ts';

/**
 * A v4 UUID, from `crypto.randomUUID` where the context allows it.
 *
 * @example
 * headers['Idempotency-Key'] = randomUUID();
 */
export function randomUUID(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  // Insecure browser contexts lack randomUUID; a v4 shape from getRandomValues still serves as a key.
  const b = new Uint8Array(16);
  c.getRandomValues(b);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function isBrowser(): boolean {
  const g = globalThis as { window?: unknown; document?: unknown };
  return typeof g.window !== 'undefined' && typeof g.document !== 'undefined';
}

/**
 * The headers that name this SDK and its runtime (`User-Agent` outside browsers).
 *
 * @example
 * clientHeaders()['X-PGS-Client']; // 'pgs-js/0.1.0'
 */
export function clientHeaders(): Record<string, string> {
  const headers: Record<string, string> = { 'X-PGS-Client': `pgs-js/${VERSION}` };
  // Browsers forbid setting User-Agent; they send their own.
  if (!isBrowser()) headers['User-Agent'] = `pgs-js/${VERSION} ${runtimeName()}`;
  return headers;
}

function runtimeName(): string {
  const g = globalThis as {
    Deno?: { version?: { deno?: string } };
    Bun?: { version?: string };
    process?: { versions?: { node?: string } };
  };
  if (g.Deno?.version?.deno) return `deno/${g.Deno.version.deno}`;
  if (g.Bun?.version) return `bun/${g.Bun.version}`;
  if (g.process?.versions?.node) return `node/${g.process.versions.node}`;
  return 'js';
}

/**
 * Reads an environment variable where there is one (Node, Bun, Deno with --allow-env); never throws.
 *
 * @example
 * readEnv('PGS_API_KEY'); // undefined in a browser
 */
export function readEnv(name: string): string | undefined {
  try {
    const value = (
      globalThis as { process?: { env?: Record<string, string | undefined> } }
    ).process?.env?.[name]?.trim();
    return value ? value : undefined;
  } catch {
    return undefined;
  }
}
