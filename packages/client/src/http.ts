/**
 * What the transport sends and reads on the wire: the request URL with its query, the body of
 * an answer read as its `responseType` asks, and the words a failed connection is reported in.
 */
import { PgsError } from './errors.ts';

/** Query parameters; an undefined value is left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** How a 2xx body is read (see `RequestSpec.responseType`). */
export type ResponseType = 'json' | 'text' | 'bytes' | 'stream';

/**
 * Reads an answer's body: an error's always as JSON (or text), a 2xx one as `type` asks.
 *
 * @example
 * const stream = await readSuccessBody(response, 'stream');
 */
export async function readSuccessBody(
  response: Response,
  type: ResponseType | undefined,
): Promise<unknown> {
  if (!response.ok || type === undefined || type === 'json') return readBody(response);
  if (type === 'text') return response.text();
  if (type === 'bytes') return new Uint8Array(await response.arrayBuffer());
  // An empty 2xx body (no stream at all) reads as an empty stream.
  return response.body ?? new Blob([]).stream();
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!/[/+]json\b/i.test(type)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    if (response.ok)
      throw new PgsError(`The server sent invalid JSON (status ${response.status}).`);
    return text;
  }
}

/**
 * The request URL: `path` below `base`, with the defined `query` values.
 *
 * @example
 * buildUrl('http://127.0.0.1:3000/api/v1', '/projects', { limit: 10 }); // '…/projects?limit=10'
 */
export function buildUrl(base: string, path: string, query: Query | undefined): string {
  const url = `${base}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.append(name, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

/**
 * What a failed connection says: the origin and, where Node tells it, the system's code.
 *
 * @example
 * connectionMessage(url, cause); // 'Could not connect to http://127.0.0.1:3000 (ECONNREFUSED).'
 */
export function connectionMessage(url: string, cause: unknown): string {
  const origin = URL.canParse(url) ? new URL(url).origin : url;
  const reason = describeCause(cause);
  return `Could not connect to ${origin}${reason ? ` (${reason})` : ''}.`;
}

/** Node's fetch hides the useful part (`ECONNREFUSED`) one or two `cause`s down. */
function describeCause(cause: unknown): string | undefined {
  let current: unknown = cause;
  let last: string | undefined;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    last = current.message;
    current = current.cause;
  }
  return last;
}
