import { access } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.ts';

/**
 * The Content-Security-Policy of the console's pages: scripts, styles and requests only
 * from this origin (no inline script or style, no eval), images also as `data:` (markdown
 * images), no plugins, no `<base>`, forms only here, and no framing (clickjacking).
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers on every console response (page, assets, and a console error). */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // For browsers that predate frame-ancestors.
  'x-frame-options': 'DENY',
};

/** Hashed assets never change under their name: a year, immutable. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** The page names the current assets: always revalidated (its ETag makes that cheap). */
const PAGE_CACHE = 'no-cache';

/** What the server answers at `/` when the console was not built. */
export const CONSOLE_NOT_BUILT =
  'The PGS console has not been built. `npm start` builds it before starting; otherwise run `npm run build -w @pgs/web`, or set PGS_CONSOLE_DIR to a built console. The API at /api/v1 works without it.';

/** Options of {@link consoleRoutes}. */
export interface ConsoleRoutesOptions {
  /** The console's build output: `index.html` and `assets/` (PGS_CONSOLE_DIR). */
  dir: string;
}

/**
 * The web console at `/`: `index.html` and its hashed `assets/`, read from the build output
 * at each request (so a rebuild is served without a restart). Only these two routes exist,
 * so every other path keeps its 404 envelope and a wrong method its 405. The console routes
 * by the URL's hash, so no fallback to `index.html` is needed. A console not built answers
 * `/` with a RESOURCE_NOT_FOUND envelope saying how to build it.
 *
 * @example
 * await app.register(consoleRoutes, { dir: config.consoleDir });
 */
export async function consoleRoutes(app: FastifyInstance, { dir }: ConsoleRoutesOptions) {
  const root = path.resolve(dir);
  const assets = path.join(root, 'assets');
  // Only `sendFile` (ETag, Last-Modified, ranges, HEAD, safe paths); no routes of its own.
  await app.register(fastifyStatic, { serve: false });

  if (!(await exists(path.join(root, 'index.html')))) {
    app.log.warn({ dir: root }, 'the console is not built; / answers how to build it');
  }

  app.get('/', async (_request, reply) => {
    reply.headers(CONSOLE_HEADERS);
    if (!(await exists(path.join(root, 'index.html')))) {
      throw new ApiError('RESOURCE_NOT_FOUND', CONSOLE_NOT_BUILT, {
        details: { resource_type: 'console', resource_id: '/' },
      });
    }
    reply.header('cache-control', PAGE_CACHE);
    return reply.sendFile('index.html', root, { cacheControl: false, dotfiles: 'deny' });
  });

  app.get<{ Params: { file: string } }>('/assets/:file', async (request, reply) => {
    reply.headers(CONSOLE_HEADERS);
    const { file } = request.params;
    // Answered here rather than by sendFile's not-found, which the app would read as a
    // wrong method on a known route (405).
    if (!ASSET_NAME.test(file) || !(await exists(path.join(assets, file)))) {
      throw assetNotFound(file);
    }
    reply.header('cache-control', ASSET_CACHE);
    return reply.sendFile(file, assets, { cacheControl: false, dotfiles: 'deny' });
  });
}

/** Vite's asset names: `index-B3Cwf9qF.js`; nothing with a slash or a leading dot. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

function assetNotFound(file: string): ApiError {
  return new ApiError('RESOURCE_NOT_FOUND', `The console has no asset ${file}.`, {
    details: { resource_type: 'asset', resource_id: file },
  });
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
