import { PgsError } from './errors.ts';

/** Where `npm start` listens. @example new Pgs({ apiKey, baseUrl: DEFAULT_SERVER_URL }); */
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:3000';

function clean(input: string): string {
  const url = input.trim().replace(/\/+$/, '');
  if (!URL.canParse(url)) throw new PgsError(`Invalid base URL: ${JSON.stringify(input)}.`);
  return url;
}

/**
 * The versioned API base from either the server root or a base that already
 * ends in `/v1`.
 *
 * @example
 * apiBaseUrl('http://127.0.0.1:3000'); // 'http://127.0.0.1:3000/api/v1'
 * apiBaseUrl('https://api.pgs.dev/v1/'); // 'https://api.pgs.dev/v1'
 */
export function apiBaseUrl(input: string): string {
  const url = clean(input);
  return /\/v\d+$/.test(url) ? url : `${url}/api/v1`;
}

/**
 * The server root, stripping a trailing `/api/v1` or `/admin/v1`.
 *
 * @example
 * serverRoot('http://127.0.0.1:3000/api/v1'); // 'http://127.0.0.1:3000'
 */
export function serverRoot(input: string): string {
  return clean(input).replace(/\/(?:api|admin)\/v\d+$/, '');
}

/**
 * The admin API base, `<root>/admin/v1`, from the root or an API or admin base.
 *
 * @example
 * adminBaseUrl('http://127.0.0.1:3000/api/v1'); // 'http://127.0.0.1:3000/admin/v1'
 */
export function adminBaseUrl(input: string): string {
  return `${serverRoot(input)}/admin/v1`;
}
