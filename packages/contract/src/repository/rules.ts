/**
 * The rules a repository digest (`context.repository` on createProject and createRevision)
 * follows, applied the same way by the digest builder (which skips what breaks them) and by
 * the server (which refuses it): limits, path form, secret files and binary content.
 * docs/brownfield.md states them for users.
 */

/** The limits of one digest; the server answers 400 or 413 naming the field past them. */
export const REPOSITORY_LIMITS = {
  /** Text of every file together, in UTF-8 bytes (413 past it). */
  maxTotalBytes: 1_048_576,
  /** One file's text, in UTF-8 bytes. */
  maxFileBytes: 262_144,
  /** Files in one digest. */
  maxFiles: 1_000,
  /** Characters in one path. */
  maxPathLength: 512,
} as const;

/**
 * The body limit of the routes that take a digest: its text, with room for JSON's escapes
 * (a quote or a backslash doubles) and the rest of the request.
 */
export const CONTEXT_BODY_LIMIT_BYTES = 4 * 1_048_576;

/**
 * Characters that draw nothing: zero-width spaces and joiners, the word joiner, the BOM,
 * the soft hyphen, the Mongolian vowel separator and the bidirectional marks and overrides.
 * A name with one inside (`.e\u200Bnv`) reads as the name without it.
 */
const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/**
 * A path as its rules read it: Unicode NFKC (so `．env` and `․․` are `.env` and `..`),
 * without invisible characters, each segment trimmed (`.env ` is `.env`). Every rule of a
 * digest (its form, secret files, duplicates) applies to this form; the path is stored as sent.
 *
 * @example
 * normalisePath('config/\uff0ee\u200bnv '); // 'config/.env'
 */
export function normalisePath(path: string): string {
  return path
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .split('/')
    .map((segment) => segment.trim())
    .join('/');
}

/**
 * The key two paths share when they name the same file on a case-insensitive or
 * normalising file system (macOS, Windows): their normal form, lowercased. A digest may not
 * hold two paths with one key.
 *
 * @example
 * samePathKey('src/App.ts') === samePathKey('src/app.ts'); // true
 */
export function samePathKey(path: string): string {
  return normalisePath(path).toLowerCase();
}

/** Percent escapes decoded (three times over, for `%252e`), or undefined when there are none. */
function percentDecoded(path: string): string | undefined {
  if (!/%[0-9a-f]{2}/i.test(path)) return undefined;
  let decoded = path;
  for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(decoded); i++) {
    decoded = decoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  }
  return decoded;
}

const TRAVERSAL = /(^|[/\\])\.{1,2}([/\\]|$)/;

/**
 * Why a path is refused; undefined when it is a relative, normalised path. The rules read
 * its normal form ({@link normalisePath}); a `..` or `.` that only appears once the path is
 * normalised or percent-decoded (`%2e%2e`, `\u2024\u2024`, `\uff0e\uff0e`) is a path trick.
 *
 * @example
 * pathProblem('src/../x'); // 'must not contain ..'
 * pathProblem('src/%2e%2e/x'); // 'must not contain an encoded or look-alike . or .. segment'
 */
export function pathProblem(path: string): string | undefined {
  if (path.length === 0) return 'must not be empty';
  if (path.length > REPOSITORY_LIMITS.maxPathLength) {
    return `must be at most ${REPOSITORY_LIMITS.maxPathLength} characters`;
  }
  if (path.includes('\0')) return 'must not contain NUL';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'must not contain control characters';
  if (path.includes('\\')) return 'must use / as its separator';
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path) || path.startsWith('~')) {
    return 'must be relative to the repository root';
  }
  const raw = path.split('/');
  if (raw.some((segment) => segment === '..')) return 'must not contain ..';
  if (raw.some((segment) => segment === '' || segment === '.')) {
    return 'must be normalised (no empty or . segments, no trailing /)';
  }
  const normal = normalisePath(path);
  const decoded = percentDecoded(normal);
  if (TRAVERSAL.test(normal) || (decoded !== undefined && TRAVERSAL.test(decoded))) {
    return 'must not contain an encoded or look-alike . or .. segment';
  }
  if (normal.includes('\\') || decoded?.includes('\\') || decoded?.includes('\0')) {
    return 'must not contain an encoded or look-alike backslash or NUL';
  }
  if (normal.startsWith('/') || /^[a-zA-Z]:/.test(normal) || normal.startsWith('~')) {
    return 'must be relative to the repository root';
  }
  if (normal.split('/').some((segment) => segment === '')) {
    return 'must be normalised (no empty or . segments, no trailing /)';
  }
  return undefined;
}

/**
 * File names that hold credentials by their nature, matched on the last segment's normal
 * form without backup suffixes (`id_rsa.bak`, `.env~`, `terraform.tfstate.1699.backup`):
 * environment files, private keys and certificates, keystores, package-manager, cloud and
 * cluster credentials, and configuration known to hold them. Their content is never read,
 * so no pattern needs to recognise what is inside.
 */
const SECRET_FILES: readonly (readonly [RegExp, string])[] = [
  [/^\.env(?:[._-].*)?$|^\.envrc$|\.env$|^dotenv$/i, 'an environment file'],
  [
    /\.(pem|key|p8|p12|pfx|jks|keystore|kdbx|ppk|asc|gpg|pgp|crt|cer|der|csr)$/i,
    'a key or certificate',
  ],
  [/^id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$|^known_hosts$|^authorized_keys$/i, 'an SSH key'],
  [
    /^[._](npmrc|pypirc|netrc|git-credentials|htpasswd|pgpass|my\.cnf|dockercfg|s3cfg|vault-token)$|^pgpass\.conf$|^kubeconfig(\..*)?$|\.kubeconfig$/i,
    'a credential store',
  ],
  [
    /^(?:credentials?|secrets?)(?:[._-][\w-]+)*\.(?:json|ya?ml|toml|ini|cfg|conf|properties|env|txt|xml|plist)(?:\.enc)?$|^credentials$|^application_default_credentials\.json$/i,
    'a credential file',
  ],
  [
    /^service[-_]?account.*\.json$|firebase-adminsdk.*\.json$|\.tfstate(?:\..*)?$|\.tfvars(?:\.json)?$/i,
    'a credential file',
  ],
  [/^wp-config(?:[.-].*)?\.php$|^(?:keystore|key|signing)\.properties$/i, 'a credential file'],
];
const SECRET_FOLDERS = /(^|\/)(\.aws|\.ssh|\.gnupg|\.docker|\.kube|\.azure|\.config\/gcloud)\//i;
/** Suffixes editors and people add to a copy: the copy holds what the original does. */
const BACKUP_SUFFIX = /(?:~|\.(?:bak|backup|old|orig|save|sav|swp|swo|tmp|copy|prev|\d+))+$/i;

/**
 * What kind of secret-holding file a path names, or undefined. The path is read in its
 * normal form ({@link normalisePath}), so look-alike, invisible and trailing characters
 * do not hide a name, and without backup suffixes.
 *
 * @example
 * secretFileKind('config/.env.production'); // 'an environment file'
 * secretFileKind('deploy/id_rsa.bak'); // 'an SSH key'
 * secretFileKind('src/env.ts'); // undefined
 */
export function secretFileKind(path: string): string | undefined {
  const normal = normalisePath(path);
  if (SECRET_FOLDERS.test(normal)) return 'a credential store';
  const name = normal.slice(normal.lastIndexOf('/') + 1);
  const original = name.replace(BACKUP_SUFFIX, '').trim();
  for (const candidate of original === name ? [name] : [name, original]) {
    const kind = SECRET_FILES.find(([pattern]) => pattern.test(candidate))?.[1];
    if (kind !== undefined) return kind;
  }
  return undefined;
}

/**
 * What kind of secret a file's text is as a whole, whatever its name, or undefined: a
 * Google service-account key (`"private_key"` beside `"client_email"`).
 *
 * @example
 * secretContentKind('{ "type": "service_account", "client_email": "…", "private_key": "…" }');
 * // 'a Google service-account key'
 */
export function secretContentKind(content: string): string | undefined {
  if (/"private_key"\s*:/.test(content) && /"client_email"\s*:/.test(content)) {
    return 'a Google service-account key';
  }
  return undefined;
}

/**
 * True when text is not plain text: a NUL, the replacement character a decoder leaves for
 * bytes that are not UTF-8, or more than one control character in a hundred.
 */
export function looksBinary(content: string): boolean {
  if (content.includes('\0') || content.includes('\ufffd')) return true;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it counts
  const controls = content.match(/[\u0001-\u0008\u000e-\u001a\u001c-\u001f]/g)?.length ?? 0;
  return controls > content.length / 100;
}

/** UTF-8 size of a text. */
export function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}
const encoder = new TextEncoder();
