import { readFile } from 'node:fs/promises';
import type { Download } from 'playwright-core';

/**
 * A Content-Security-Policy header as directive → sources (names lower-cased, sources as
 * written); an absent header is an empty map.
 *
 * @example
 * contentSecurityPolicy("default-src 'self'; frame-ancestors 'none'").get('frame-ancestors'); // ["'none'"]
 */
export function contentSecurityPolicy(header: string | undefined): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    // The first occurrence of a directive wins; browsers ignore repeats.
    if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

/** The bytes of a finished download (Playwright keeps it in a temporary file). */
export async function readDownload(download: Download): Promise<Uint8Array> {
  const failure = await download.failure();
  if (failure !== null) throw new Error(`the download failed: ${failure}`);
  return new Uint8Array(await readFile(await download.path()));
}
