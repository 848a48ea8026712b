import { randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The admin token the fake server accepts. */
export const ADMIN_TOKEN = 'adm_0123456789abcdef';

/** One request as the fake server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  body: unknown;
}

/** A fixed answer that replaces the admin logic for the next requests. */
export interface Override {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * A node:http server that answers like the admin API of openapi/pgs.openapi.yaml:
 * status codes, `{ success, data }` bodies and error envelopes.
 */
export interface FakeAdminServer {
  url: string;
  requests: SeenRequest[];
  /** Answers every following request with this, until `reset()`. */
  override(answer: Override): void;
  reset(): void;
  close(): Promise<void>;
}

const ULID = () =>
  [...randomBytes(26)].map((b) => '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[b % 32]).join('');
const requestId = () => `req_${ULID()}`;

/** The contract's error envelope. */
export function envelope(code: string, message: string, details?: Record<string, unknown>) {
  return {
    success: false,
    error: {
      code,
      message,
      request_id: requestId(),
      documentation: `https://docs.pgs.dev/errors#${code}`,
      ...(details ? { details } : {}),
    },
  };
}

/**
 * Starts the fake admin API on 127.0.0.1 and an ephemeral port.
 *
 * @example
 * const server = await startFakeAdmin(); // server.url + '/admin/v1/keys'
 */
export async function startFakeAdmin(): Promise<FakeAdminServer> {
  const requests: SeenRequest[] = [];
  let forced: Override | undefined;
  const keys = new Map<string, { accountId: string; mode: string; createdAt: string }>();
  const balances = new Map<string, number>();

  const send = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    const rid =
      typeof body === 'object' && body !== null && 'error' in body
        ? (body as { error: { request_id: string } }).error.request_id
        : requestId();
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': rid,
      ...headers,
    });
    res.end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        send(res, 400, envelope('INVALID_JSON', 'The body is not JSON.'));
        return;
      }
      const seen: SeenRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        body,
      };
      requests.push(seen);
      if (forced) {
        send(res, forced.status, forced.body, forced.headers);
        return;
      }
      if (seen.authorization !== `Bearer ${ADMIN_TOKEN}`) {
        send(
          res,
          401,
          envelope('AUTHENTICATION_FAILED', 'The admin token is not valid.', {
            field: 'authorization',
            issue: seen.authorization ? 'invalid_key' : 'missing',
          }),
          { 'www-authenticate': 'Bearer' },
        );
        return;
      }
      route(seen, res);
    });
  });

  function route(seen: SeenRequest, res: ServerResponse) {
    const b = (seen.body ?? {}) as Record<string, unknown>;
    if (seen.method === 'POST' && seen.url === '/admin/v1/keys') {
      if (b.mode !== 'test' && b.mode !== 'live') {
        send(
          res,
          400,
          envelope('VALIDATION_ERROR', 'The body is not valid.', { missing_fields: ['mode'] }),
        );
        return;
      }
      const accountId = typeof b.accountId === 'string' ? b.accountId : `acct_${ULID()}`;
      if (accountId === 'acct_MISSING') {
        send(res, 404, envelope('RESOURCE_NOT_FOUND', 'No account with this identifier exists.'));
        return;
      }
      const keyId = `key_${ULID()}`;
      const createdAt = new Date().toISOString();
      keys.set(keyId, { accountId, mode: b.mode, createdAt });
      const credits = typeof b.credits === 'number' ? b.credits : undefined;
      send(res, 201, {
        success: true,
        data: {
          key: `pgs_${b.mode}_${'a'.repeat(40)}`,
          keyId,
          accountId,
          mode: b.mode,
          createdAt,
          ...(credits !== undefined ? { creditsGranted: credits } : {}),
        },
      });
      return;
    }
    const revoke = /^\/admin\/v1\/keys\/([^/]+)$/.exec(seen.url);
    if (seen.method === 'DELETE' && revoke) {
      const keyId = decodeURIComponent(revoke[1]!);
      const key = keys.get(keyId);
      if (!key) {
        send(res, 404, envelope('RESOURCE_NOT_FOUND', 'No key with this identifier exists.'));
        return;
      }
      send(res, 200, {
        success: true,
        data: {
          keyId,
          accountId: key.accountId,
          mode: key.mode,
          prefix: `pgs_${key.mode}_aaaa`,
          name: null,
          createdAt: key.createdAt,
          revokedAt: new Date().toISOString(),
        },
      });
      return;
    }
    if (seen.method === 'POST' && seen.url === '/admin/v1/credits/grants') {
      const accountId = String(b.accountId);
      if (accountId === 'acct_MISSING') {
        send(res, 404, envelope('RESOURCE_NOT_FOUND', 'No account with this identifier exists.'));
        return;
      }
      const balanceKey = `${accountId}:${String(b.mode)}`;
      const balance = (balances.get(balanceKey) ?? 0) + Number(b.amount);
      balances.set(balanceKey, balance);
      send(res, 201, {
        success: true,
        data: { accountId, mode: b.mode, amount: b.amount, balance },
      });
      return;
    }
    send(res, 404, envelope('RESOURCE_NOT_FOUND', 'No such route.'));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    override(answer) {
      forced = answer;
    },
    reset() {
      forced = undefined;
      requests.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
