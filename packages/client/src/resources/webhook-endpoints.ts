import type {
  CreateWebhookEndpointRequest,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointCreated,
} from '@pgs/contract';
import type { RequestOptions } from '../core.ts';
import { APIResource } from './resource.ts';

const endpointPath = (id: string) => `/webhook-endpoints/${encodeURIComponent(id)}`;

/**
 * The key's webhook endpoints (its account, its mode). `pgs.webhookEndpoints`. Verify what
 * they receive with `webhooks.verify`.
 *
 * @example
 * const { id, secret } = await pgs.webhookEndpoints.create({ url: 'https://hooks.example.com/pgs' });
 */
export class WebhookEndpoints extends APIResource {
  /**
   * Registers an https URL; the answer carries the signing secret, shown only now.
   * Retries are safe: the request's idempotency key makes the server replay the first answer.
   *
   * @example
   * const endpoint = await pgs.webhookEndpoints.create({ url, events: ['project.failed'] });
   * saveSecret(endpoint.secret);
   */
  async create(
    params: CreateWebhookEndpointRequest,
    options: RequestOptions = {},
  ): Promise<WebhookEndpointCreated> {
    const { body } = await this.request<{ data: WebhookEndpointCreated }>({
      ...options,
      method: 'POST',
      path: '/webhook-endpoints',
      body: params,
    });
    return body.data;
  }

  /**
   * The endpoints, oldest first, without secrets.
   *
   * @example
   * for (const endpoint of await pgs.webhookEndpoints.list()) console.log(endpoint.url);
   */
  async list(options: RequestOptions = {}): Promise<WebhookEndpoint[]> {
    const { body } = await this.request<{ data: WebhookEndpoint[] }>({
      ...options,
      method: 'GET',
      path: '/webhook-endpoints',
    });
    return body.data;
  }

  /**
   * Deletes an endpoint; its pending attempts are not made.
   *
   * @example
   * await pgs.webhookEndpoints.delete('we_01JD6WQ8V4Z9K3M2N5P7R8S0TA');
   */
  async delete(id: string, options: RequestOptions = {}): Promise<void> {
    await this.request<undefined>({ ...options, method: 'DELETE', path: endpointPath(id) });
  }

  /**
   * The endpoint's 50 most recent delivery attempts, newest first.
   *
   * @example
   * const [last] = await pgs.webhookEndpoints.deliveries(id);
   * if (last?.state === 'failed') console.warn(last.error);
   */
  async deliveries(id: string, options: RequestOptions = {}): Promise<WebhookDelivery[]> {
    const { body } = await this.request<{ data: WebhookDelivery[] }>({
      ...options,
      method: 'GET',
      path: `${endpointPath(id)}/deliveries`,
    });
    return body.data;
  }
}
