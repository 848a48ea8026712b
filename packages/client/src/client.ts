import { apiBaseUrl, DEFAULT_SERVER_URL } from './base-url.ts';
import { type CommonClientOptions, createTransport, type Transport } from './core.ts';
import { PgsError } from './errors.ts';
import { Connections } from './resources/connections.ts';
import { Conventions } from './resources/conventions.ts';
import { Credits } from './resources/credits.ts';
import { Ideas } from './resources/ideas.ts';
import { Projects } from './resources/projects.ts';
import { WebhookEndpoints } from './resources/webhook-endpoints.ts';
import { readEnv } from './runtime.ts';

/** Options shared by {@link Pgs} and {@link PgsAdmin}: the transport's knobs. */
export type { CommonClientOptions };

/** Options of {@link Pgs}. */
export interface PgsOptions extends CommonClientOptions {
  /** `pgs_test_…` or `pgs_live_…`; default `PGS_API_KEY`. */
  apiKey?: string | undefined;
  /**
   * The server root (`http://127.0.0.1:3000`) or the versioned base (ending in
   * `/v1`, e.g. `http://127.0.0.1:3000/api/v1`); default `PGS_BASE_URL`, else
   * `http://127.0.0.1:3000`.
   */
  baseUrl?: string | undefined;
  /**
   * Answers kept in memory: finished projects (a failed one is read again without a
   * request, a completed one is revalidated with `If-None-Match`), ended revisions and
   * reads pinned to a revision (never asked for again); default 100, 0 turns the cache off.
   */
  maxCachedProjects?: number | undefined;
}

/**
 * The PGS API client.
 *
 * @example
 * const pgs = new Pgs({ apiKey: process.env.PGS_API_KEY });
 * const { projectId } = await pgs.projects.create({ idea: 'A habit tracker for remote teams' });
 * const result = await pgs.projects.waitForCompletion(projectId);
 */
export class Pgs {
  /** The versioned base every path is appended to, e.g. `http://127.0.0.1:3000/api/v1`. */
  readonly baseUrl: string;
  /** Generated projects: create, get, waitForCompletion; their revisions: `projects.revisions`. */
  readonly projects: Projects;
  /** Ideas before they are projects: `ideas.clarify` asks what an idea leaves open. */
  readonly ideas: Ideas;
  /** House conventions every new project of the account follows: get, put, version. */
  readonly conventions: Conventions;
  /** The key's credit balance. */
  readonly credits: Credits;
  /** Webhook endpoints of the key's account and mode. */
  readonly webhookEndpoints: WebhookEndpoints;
  /** Issue-tracker connections (GitHub, Linear, Jira) of the key's account and mode. */
  readonly connections: Connections;

  constructor({
    apiKey = readEnv('PGS_API_KEY'),
    baseUrl = readEnv('PGS_BASE_URL') ?? DEFAULT_SERVER_URL,
    maxCachedProjects,
    ...common
  }: PgsOptions = {}) {
    if (!apiKey) {
      throw new PgsError('Missing API key: pass new Pgs({ apiKey }) or set PGS_API_KEY.');
    }
    this.baseUrl = apiBaseUrl(baseUrl);
    const request: Transport = createTransport({ ...common, baseUrl: this.baseUrl, token: apiKey });
    this.projects = new Projects(request, {
      baseUrl: this.baseUrl,
      sleep: common.sleep,
      now: common.now,
      random: common.random,
      timeoutMs: common.timeoutMs,
      maxCachedProjects,
    });
    this.ideas = new Ideas(request);
    this.conventions = new Conventions(request);
    this.credits = new Credits(request);
    this.webhookEndpoints = new WebhookEndpoints(request);
    this.connections = new Connections(request);
  }
}
