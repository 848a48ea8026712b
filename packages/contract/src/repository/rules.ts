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

/** Why a path is refused; undefined when it is a relative, normalised path. */
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
  const segments = path.split('/');
  if (segments.some((segment) => segment === '..')) return 'must not contain ..';
  if (segments.some((segment) => segment === '' || segment === '.')) {
    return 'must be normalised (no empty or . segments, no trailing /)';
  }
  return undefined;
}

/**
 * File names that hold credentials by their nature, matched on the last segment (and, for
 * credential stores kept in a folder, the folder): environment files, private keys and
 * certificates, keystores, package-manager and cloud credentials. Their content is never
 * read, so no pattern needs to recognise what is inside.
 */
const SECRET_FILES: readonly (readonly [RegExp, string])[] = [
  [/^\.env(\..*)?$|^\.envrc$|\.env$/i, 'an environment file'],
  [
    /\.(pem|key|p8|p12|pfx|jks|keystore|kdbx|ppk|asc|gpg|pgp|crt|cer|der|csr)$/i,
    'a key or certificate',
  ],
  [/^id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$|^known_hosts$|^authorized_keys$/i, 'an SSH key'],
  [
    /^\.(npmrc|pypirc|netrc|git-credentials|htpasswd|pgpass|my\.cnf|dockercfg)$/i,
    'a credential store',
  ],
  [
    /^(credentials|credentials\.json|secrets?\.(json|ya?ml|toml)|service[-_]account.*\.json|.*\.tfstate(\.backup)?|.*\.tfvars)$/i,
    'a credential file',
  ],
];
const SECRET_FOLDERS = /(^|\/)(\.aws|\.ssh|\.gnupg|\.docker|\.kube|\.azure|\.config\/gcloud)\//i;

/**
 * What kind of secret-holding file a path names, or undefined.
 *
 * @example
 * secretFileKind('config/.env.production'); // 'an environment file'
 * secretFileKind('src/env.ts'); // undefined
 */
export function secretFileKind(path: string): string | undefined {
  if (SECRET_FOLDERS.test(path)) return 'a credential store';
  const name = path.slice(path.lastIndexOf('/') + 1);
  return SECRET_FILES.find(([pattern]) => pattern.test(name))?.[1];
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
