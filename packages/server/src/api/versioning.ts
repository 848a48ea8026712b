import { ApiError } from '../errors.ts';

/** Minor versions of API v1 this server answers, oldest first. */
export const SUPPORTED_VERSIONS = ['v1.0'] as const;
export const LATEST_VERSION = SUPPORTED_VERSIONS[SUPPORTED_VERSIONS.length - 1]!;
/** The three version headers every response carries. */
export const VERSION_HEADERS = {
  'api-version': LATEST_VERSION,
  'api-supported-versions': SUPPORTED_VERSIONS.join(', '),
  'api-latest-version': LATEST_VERSION,
} as const;

const VERSION_FORM = /^v\d+\.\d+$/;

/** The `version` parameter of a JSON media range in `Accept`, if any. */
function versionFromAccept(accept: string | undefined): string | undefined {
  if (!accept) return undefined;
  for (const range of accept.split(',')) {
    const [type, ...params] = range.split(';').map((part) => part.trim());
    if (!type || !/^(application\/(\*|json|[\w.+-]+\+json)|\*\/\*)$/i.test(type)) continue;
    for (const param of params) {
      const [name, value] = param.split('=').map((part) => part.trim());
      if (name?.toLowerCase() === 'version' && value !== undefined)
        return value.replace(/^"|"$/g, '');
    }
  }
  return undefined;
}

function unsupported(message: string, field: string, value: string): ApiError {
  return new ApiError('VALIDATION_ERROR', message, {
    details: {
      invalid_fields: { [field]: `must be one of ${SUPPORTED_VERSIONS.join(', ')}` },
      requested_version: value,
      supported_versions: [...SUPPORTED_VERSIONS],
    },
  });
}

/**
 * Picks the minor version a request asks for: the `API-Version` header, or the `version`
 * parameter of `Accept: application/json; version=v1.0`, or the latest. Throws a 400
 * VALIDATION_ERROR for a malformed or unsupported version, or when the two disagree.
 *
 * @example
 * negotiateVersion({ 'api-version': 'v1.0' }); // 'v1.0'
 */
export function negotiateVersion(headers: {
  'api-version'?: string | string[] | undefined;
  accept?: string | undefined;
}): string {
  const raw = headers['api-version'];
  const fromHeader = Array.isArray(raw) ? raw.join(',') : raw?.trim();
  const fromAccept = versionFromAccept(headers.accept);
  for (const [field, value] of [
    ['API-Version', fromHeader],
    ['Accept', fromAccept],
  ] as const) {
    if (value === undefined) continue;
    if (!VERSION_FORM.test(value)) {
      throw unsupported(`${field} "${value}" is not a version of the form v1.0.`, field, value);
    }
    if (!(SUPPORTED_VERSIONS as readonly string[]).includes(value)) {
      throw unsupported(`API version ${value} is not supported.`, field, value);
    }
  }
  if (fromHeader !== undefined && fromAccept !== undefined && fromHeader !== fromAccept) {
    throw new ApiError(
      'VALIDATION_ERROR',
      `API-Version (${fromHeader}) and the Accept version (${fromAccept}) disagree.`,
      {
        details: {
          invalid_fields: { 'API-Version': `must equal the Accept version ${fromAccept}` },
          supported_versions: [...SUPPORTED_VERSIONS],
        },
      },
    );
  }
  return fromHeader ?? fromAccept ?? LATEST_VERSION;
}
