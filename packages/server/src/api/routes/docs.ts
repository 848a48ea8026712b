import { openapiDocument } from '@pgs/contract';
import type { FastifyInstance } from 'fastify';
import { ERROR_CATALOGUE } from '../../errors.ts';

const WHEN: Record<keyof typeof ERROR_CATALOGUE, string> = {
  AUTHENTICATION_FAILED:
    'The API key is missing, malformed, unknown or revoked. details.field names the input, details.issue says why (missing, malformed, invalid_key, revoked). Send "Authorization: Bearer pgs_test_…".',
  RESOURCE_NOT_FOUND:
    'No such resource is visible to your key (projects belong to one account and one mode), or no such route. details.resource_type and details.resource_id say what was looked up.',
  RATE_LIMIT_EXCEEDED:
    'Too many requests in the window. Wait details.retry_after seconds (also in Retry-After) before retrying.',
  INVALID_JSON: 'The request body is not valid JSON.',
  VALIDATION_ERROR:
    'A parameter, header or body is not valid: details.missing_fields lists what is missing and details.invalid_fields maps each bad field to its rule. Also: 413 body too large, 415 not JSON, 405 wrong method, unsupported API version (details.supported_versions).',
  SECURITY_VIOLATION:
    'The request was refused: an API key in the query string or the body (revoke that key), or a prototype-pollution key (__proto__, constructor.prototype) in a JSON body.',
  INTERNAL_ERROR:
    'An unexpected fault on our side. Retry with backoff; quote the request id if it persists.',
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The error reference that `error.documentation` links to, and the OpenAPI document. */
export async function docsRoutes(app: FastifyInstance) {
  const rows = Object.entries(ERROR_CATALOGUE)
    .map(
      ([code, entry]) =>
        `<section id="${code}"><h2>${code}</h2><p>HTTP ${entry.status}</p><p>${escapeHtml(WHEN[code as keyof typeof WHEN])}</p></section>`,
    )
    .join('\n');
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>PGS errors</title></head><body><h1>PGS error codes</h1>${rows}</body></html>`;
  const openapi = JSON.stringify(openapiDocument);
  app.get('/docs/errors', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(page),
  );
  app.get('/openapi.json', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(openapi),
  );
}
