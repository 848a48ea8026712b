import type { Connection, ConnectionCreated, CreateConnectionRequest } from '@pgs/contract';
import type { RequestOptions } from '../core.ts';
import { APIResource } from './resource.ts';

const connectionPath = (id: string) => `/connections/${encodeURIComponent(id)}`;

/**
 * The key's issue-tracker connections (its account, its mode): GitHub repositories, Linear
 * teams, Jira projects. `pgs.connections`.
 *
 * @example
 * const { connection, webhook } = await pgs.connections.create({
 *   provider: 'github',
 *   credentials: { token: process.env.GITHUB_TOKEN! },
 *   target: { owner: 'acme', repo: 'booking' },
 * });
 */
export class Connections extends APIResource {
  /**
   * Connects a tracker once it accepted the credentials and the target (a refusal is a
   * `TRACKER_REJECTED` error carrying the tracker's reason). The answer carries the inbound
   * webhook's URL and secret, shown only now. Retries are safe: the request's idempotency key
   * makes the server replay the first answer.
   *
   * @example
   * const { webhook } = await pgs.connections.create({ provider: 'linear', credentials: { token }, target: { team: 'ENG' } });
   * console.log(webhook.url, webhook.secret);
   */
  async create(
    params: CreateConnectionRequest,
    options: RequestOptions = {},
  ): Promise<ConnectionCreated> {
    const { body } = await this.request<{ data: ConnectionCreated }>({
      ...options,
      method: 'POST',
      path: '/connections',
      body: params,
    });
    return body.data;
  }

  /**
   * The connections, oldest first, never with credentials or secrets.
   *
   * @example
   * for (const c of await pgs.connections.list()) console.log(c.id, c.provider, c.name);
   */
  async list(options: RequestOptions = {}): Promise<Connection[]> {
    const { body } = await this.request<{ data: Connection[] }>({
      ...options,
      method: 'GET',
      path: '/connections',
    });
    return body.data;
  }

  /**
   * One connection.
   *
   * @example
   * const { reconciledAt } = await pgs.connections.get('tc_01JD6WQ8V4Z9K3M2N5P7R8S0TA');
   */
  async get(id: string, options: RequestOptions = {}): Promise<Connection> {
    const { body } = await this.request<{ data: Connection }>({
      ...options,
      method: 'GET',
      path: connectionPath(id),
    });
    return body.data;
  }

  /**
   * Deletes a connection with its links of tasks to issues; the issues stay on the tracker.
   *
   * @example
   * await pgs.connections.delete('tc_01JD6WQ8V4Z9K3M2N5P7R8S0TA');
   */
  async delete(id: string, options: RequestOptions = {}): Promise<void> {
    await this.request<undefined>({ ...options, method: 'DELETE', path: connectionPath(id) });
  }
}
