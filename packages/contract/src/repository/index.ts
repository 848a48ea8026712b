/**
 * `@pgs/contract/repository`: the rules of a repository digest that both the digest builder
 * (SDK, CLI) and the server apply: limits, paths, secret files, binary text and secret
 * redaction. Unlike the main entry, it has runtime dependencies (secretlint's core and its
 * recommended rules), which is why it is a separate entry.
 */
export { type Redacted, redactSecrets } from './redact.ts';
export {
  CONTEXT_BODY_LIMIT_BYTES,
  looksBinary,
  normalisePath,
  pathProblem,
  REPOSITORY_LIMITS,
  samePathKey,
  secretContentKind,
  secretFileKind,
  utf8Bytes,
} from './rules.ts';
