import type { DocumentPrompt } from '../types.ts';

/** The prompt for API_DESIGN.md: every endpoint of a web project's API, traced to the FRs. */
export const API_DESIGN: DocumentPrompt<'api-design'> = {
  kind: 'api-design',
  version: 1,
  reader:
    'The engineers building the server and its clients (the web front end, integrators, a future ' +
    'mobile app), who implement against it endpoint by endpoint, and the testers who write ' +
    'contract tests from it.',
  purpose:
    'Specify the API completely enough that the server and its clients can be built in parallel ' +
    'without asking: conventions, authentication, every endpoint with its request and response, ' +
    'one error format, the limits, and the versioning promise, with each endpoint traced to the ' +
    'FRs it serves.',
  sections: {
    Conventions:
      'A short list that every later example follows: the base path with its version (`/v1`), ' +
      'JSON in UTF-8, one field naming style chosen to fit the stack (camelCase or snake_case), ' +
      'identifiers (format, for example prefixed opaque strings), timestamps in RFC 3339 UTC, ' +
      'money as integer minor units with an ISO 4217 currency code, how partial updates work ' +
      '(PATCH semantics, how a field is cleared), an `Idempotency-Key` header on every POST that ' +
      'creates or charges and how long keys are kept, and ETag with If-Match wherever two people ' +
      'may edit the same thing.',
    Authentication:
      'The mechanism the stack and the clients imply (a secure, HTTP-only, same-site session ' +
      'cookie for a same-site web front end; OAuth 2.0 or OpenID Connect bearer tokens for ' +
      'third-party or native clients; API keys for server-to-server use), with token or session ' +
      'lifetimes, refresh and revocation; the exact header or cookie a request carries; which ' +
      'endpoints are public. Then a table with columns Role, May, May not that states ' +
      'authorisation per role, and one authenticated request as an `http` code block.',
    'Resources and endpoints':
      'First a table listing every endpoint, columns Method, Path, Purpose, Auth, Requirements ' +
      '(FR IDs). Paths are resource-oriented plural nouns with at most one level of nesting. ' +
      'Then a ### heading per resource with its representation as a json code block, a table of ' +
      'its fields (name, type, required, limits), and for every endpoint that creates, changes ' +
      'or searches, its request and response as json code blocks with realistic values that fit ' +
      'this product, and the status codes it returns. Every FR that needs the server is served ' +
      'by at least one endpoint.',
    Errors:
      'One error format for every endpoint: Problem Details (RFC 9457, ' +
      '`application/problem+json`) with `type`, `title`, `status`, `detail`, a stable ' +
      'machine-readable `code`, and an `errors` list of field and message for validation ' +
      'failures; one full example in a json code block. Then a table with columns Code, HTTP ' +
      'status, When, Client should, listing every error the endpoints above can return: ' +
      'validation, unauthenticated, forbidden, not found, conflict, precondition failed, payload ' +
      "too large, rate limited, and this product's own domain errors. Say which errors are safe " +
      'to retry.',
    'Pagination and limits':
      'Cursor pagination for every list endpoint: `limit` with its default and maximum as ' +
      'numbers, an opaque `cursor`, the response shape with `nextCursor`, and the sort orders ' +
      'and filters allowed. Then a table with columns Limit, Value, Applies to: requests per ' +
      'minute per user or key with the 429 response and its `Retry-After` header, maximum ' +
      'request body size, maximum upload size and accepted file types, maximum items per batch, ' +
      'request timeout. The numbers meet the NFRs.',
    Versioning:
      'What is a breaking change (removing or renaming a field, tightening validation, changing ' +
      'a status code or a default) and what is not (optional fields added, new endpoints, new ' +
      'error codes that clients must tolerate); how a new major version is introduced and how ' +
      'long the old one runs; the deprecation notice period and the `Deprecation` and `Sunset` ' +
      'response headers; and that an OpenAPI 3.1 document kept in the repository is the source ' +
      'of truth that contract tests run against.',
  },
  rules: [
    'Cite FR and NFR IDs from the product requirements, written in full and never as a range; ' +
      'introduce no requirement IDs of your own.',
    'Design only the endpoints the requirements need; no generic administration or CRUD ' +
      'endpoints that no FR asks for.',
    'Examples are valid JSON (no comments, no trailing commas, no elisions) and agree with the ' +
      'field tables: the same names, types and limits. Show paths without a host (`GET /v1/…`) ' +
      'rather than inventing a domain.',
    'If the tech stack names GraphQL or an RPC framework instead of REST, keep the section ' +
      'headings and describe its schema, operations and errors in that style, with examples in its ' +
      'own syntax.',
    'About 2,000 to 3,500 words; with many resources, keep one example per operation and let the ' +
      'tables carry the rest, so that the Versioning section is still written.',
  ],
  maxOutputTokens: 8_000,
};
