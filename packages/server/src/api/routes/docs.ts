import { openapiDocument } from '@pgs/contract';
import type { FastifyInstance } from 'fastify';
import { ERROR_CATALOGUE } from '../../errors.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * The error page's headers: a static page with an inline style at most, so nothing may load,
 * run or frame it.
 */
const DOCS_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** The error reference that `error.documentation` links to, and the OpenAPI document. */
export async function docsRoutes(app: FastifyInstance) {
  const rows = Object.entries(ERROR_CATALOGUE)
    .map(
      ([code, entry]) =>
        `<section id="${code}"><h2>${code}</h2><p>HTTP ${entry.status}</p><p>${escapeHtml(entry.description)}</p></section>`,
    )
    .join('\n');
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>PGS errors</title></head><body><h1>PGS error codes</h1>${rows}</body></html>`;
  const openapi = JSON.stringify(openapiDocument);
  app.get('/docs/errors', async (_request, reply) =>
    reply.headers(DOCS_HEADERS).type('text/html; charset=utf-8').send(page),
  );
  app.get('/openapi.json', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(openapi),
  );
}
