import { randomBytes, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, bearer, type Harness, startHarness } from './helpers/harness.ts';

const KEY = /^pgs_test_[0-9A-Za-z]{32,}$/;
const LIVE_KEY = /^pgs_live_[0-9A-Za-z]{32,}$/;
const KEY_ID = /^key_[0-9A-HJKMNP-TV-Z]{26}$/;
const ACCOUNT_ID = /^acct_[0-9A-HJKMNP-TV-Z]{26}$/;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A well-formed id that no server has issued (random ULID-shaped tail). */
const unknownId = (prefix: 'acct' | 'key') =>
  `${prefix}_${[...randomBytes(26)].map((byte) => CROCKFORD[byte % 32]).join('')}`;

interface KeyCreated {
  key: string;
  keyId: string;
  accountId: string;
  mode: 'live' | 'test';
  createdAt: string;
  creditsGranted?: number;
}
interface KeyView {
  keyId: string;
  accountId: string;
  mode: 'live' | 'test';
  prefix: string;
  name: string | null;
  createdAt: string;
  revokedAt: string | null;
}
interface AccountView {
  accountId: string;
  name: string | null;
  createdAt: string;
  balances: { live: number; test: number };
  keys: KeyView[];
}

function expectError(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as {
    success: boolean;
    error: { code: string; details?: Record<string, unknown> };
  };
  expect(body.success).toBe(false);
  expect(body.error.code).toBe(code);
  return body.error;
}

describe.each(await backends())('admin API on %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(backend);
  });
  afterAll(async () => h?.close());

  const json = (token: string) => ({ ...bearer(token), 'content-type': 'application/json' });
  const post = (url: string, body: unknown, token = h.adminToken) =>
    h.request({ method: 'POST', url, headers: json(token), payload: JSON.stringify(body) });
  const getAccount = (accountId: string, token = h.adminToken) =>
    h.request({ method: 'GET', url: `/admin/v1/accounts/${accountId}`, headers: bearer(token) });
  const revoke = (keyId: string) =>
    h.request({ method: 'DELETE', url: `/admin/v1/keys/${keyId}`, headers: bearer(h.adminToken) });
  const getProject = (key: string, id = randomUUID()) =>
    h.request({ method: 'GET', url: `/api/v1/projects/${id}`, headers: bearer(key) });

  async function createKey(body: Record<string, unknown>): Promise<KeyCreated> {
    const res = await post('/admin/v1/keys', body);
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { data: KeyCreated }).data;
  }

  async function account(accountId: string): Promise<AccountView> {
    const res = await getAccount(accountId);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: AccountView }).data;
  }

  describe('the admin token', () => {
    it('missing → 401 AUTHENTICATION_FAILED, issue missing', async () => {
      const res = await h.request({
        method: 'POST',
        url: '/admin/v1/keys',
        headers: { 'content-type': 'application/json' },
        payload: '{"mode":"test"}',
      });
      const error = expectError(res, 401, 'AUTHENTICATION_FAILED');
      expect(error.details).toMatchObject({ field: 'authorization', issue: 'missing' });
      expect(String(res.headers['www-authenticate'])).toMatch(/^Bearer\b/);
    });

    it('an API key instead of the admin token → 401', async () => {
      const key = await h.createKey('test');
      expectError(await getAccount(key.accountId, key.key), 401, 'AUTHENTICATION_FAILED');
      expectError(
        await post('/admin/v1/keys', { mode: 'test' }, key.key),
        401,
        'AUTHENTICATION_FAILED',
      );
    });

    it('a wrong token → 401, also on every other admin route', async () => {
      const wrong = `pgs_admin_${randomBytes(32).toString('base64url')}`;
      const key = await h.createKey('test');
      const responses = [
        await getAccount(key.accountId, wrong),
        await post('/admin/v1/keys', { mode: 'test' }, wrong),
        await post('/admin/v1/accounts', {}, wrong),
        await post(
          '/admin/v1/credits/grants',
          { accountId: key.accountId, mode: 'test', amount: 5 },
          wrong,
        ),
        await h.request({
          method: 'DELETE',
          url: `/admin/v1/keys/${key.keyId}`,
          headers: bearer(wrong),
        }),
        // The admin token with one character changed.
        await getAccount(
          key.accountId,
          `${h.adminToken.slice(0, -1)}${h.adminToken.endsWith('A') ? 'B' : 'A'}`,
        ),
      ];
      for (const res of responses) {
        const error = expectError(res, 401, 'AUTHENTICATION_FAILED');
        expect(error.details).toMatchObject({ field: 'authorization' });
      }
      // None of the refused requests did anything.
      const view = await account(key.accountId);
      expect(view.balances).toEqual({ live: 0, test: 0 });
      expect(view.keys).toHaveLength(1);
      expect(view.keys[0]?.revokedAt).toBeNull();
    });
  });

  describe('keys', () => {
    it('creates a test key with credits: 201 and a key that works on the API', async () => {
      const started = Date.now();
      const res = await post('/admin/v1/keys', { mode: 'test', credits: 50 });
      expect(res.statusCode, res.body).toBe(201);
      const data = (res.json() as { data: KeyCreated }).data;
      expect(data.key).toMatch(KEY);
      expect(data.keyId).toMatch(KEY_ID);
      expect(data.accountId).toMatch(ACCOUNT_ID);
      expect(data.mode).toBe('test');
      expect(data.creditsGranted).toBe(50);
      const createdAt = Date.parse(data.createdAt);
      expect(createdAt).toBeGreaterThanOrEqual(started - 5000);
      expect(createdAt).toBeLessThanOrEqual(Date.now() + 5000);

      // Authenticated: an unknown project is 404, not 401.
      const projectId = randomUUID();
      const project = await getProject(data.key, projectId);
      const error = expectError(project, 404, 'RESOURCE_NOT_FOUND');
      expect(error.details).toEqual({ resource_type: 'project', resource_id: projectId });
    });

    it('shows the account: balances per mode, and the key by prefix, never whole', async () => {
      const created = await createKey({ mode: 'test', credits: 50 });
      const res = await getAccount(created.accountId);
      expect(res.statusCode).toBe(200);
      const view = (res.json() as { data: AccountView }).data;
      expect(view.accountId).toBe(created.accountId);
      expect(view.balances).toEqual({ test: 50, live: 0 });
      expect(view.keys).toHaveLength(1);
      const [listed] = view.keys;
      expect(listed).toMatchObject({
        keyId: created.keyId,
        accountId: created.accountId,
        mode: 'test',
        revokedAt: null,
      });
      expect(listed?.prefix).not.toBe(created.key);
      expect(listed?.prefix.length).toBeLessThan(created.key.length);
      expect(created.key.startsWith(listed?.prefix.replace(/…$/, '') ?? '-')).toBe(true);
      expect(listed?.prefix.startsWith('pgs_test_')).toBe(true);
      // The secret part appears nowhere in the listing.
      expect(res.body).not.toContain(created.key.slice('pgs_test_'.length));
    });

    it('adds a second key to the same account with accountId', async () => {
      const first = await createKey({ mode: 'test', credits: 50 });
      const second = await createKey({ mode: 'live', accountId: first.accountId, credits: 7 });
      expect(second.accountId).toBe(first.accountId);
      expect(second.key).toMatch(LIVE_KEY);
      expect(second.keyId).not.toBe(first.keyId);
      const view = await account(first.accountId);
      expect(view.keys.map((k) => k.keyId).sort()).toEqual([first.keyId, second.keyId].sort());
      expect(view.balances).toEqual({ test: 50, live: 7 });
      expect((await getProject(second.key)).statusCode).toBe(404);
    });

    it('an unknown accountId → 404 RESOURCE_NOT_FOUND, resource_type account', async () => {
      const accountId = unknownId('acct');
      const res = await post('/admin/v1/keys', { mode: 'test', accountId, credits: 5 });
      const error = expectError(res, 404, 'RESOURCE_NOT_FOUND');
      expect(error.details).toEqual({ resource_type: 'account', resource_id: accountId });
      const get = await getAccount(accountId);
      const getError = expectError(get, 404, 'RESOURCE_NOT_FOUND');
      expect(getError.details).toEqual({ resource_type: 'account', resource_id: accountId });
    });

    it('revokes: 200 with revokedAt, idempotent, and the key then gets 401 revoked', async () => {
      const created = await createKey({ mode: 'test' });
      const sibling = await createKey({ mode: 'test', accountId: created.accountId });
      expect((await getProject(created.key)).statusCode).toBe(404);

      const first = await revoke(created.keyId);
      expect(first.statusCode, first.body).toBe(200);
      const revoked = (first.json() as { data: KeyView }).data;
      expect(revoked.keyId).toBe(created.keyId);
      expect(revoked.revokedAt).not.toBeNull();
      expect(Number.isNaN(Date.parse(revoked.revokedAt ?? ''))).toBe(false);
      expect(JSON.stringify(revoked)).not.toContain(created.key);

      const again = await revoke(created.keyId);
      expect(again.statusCode, again.body).toBe(200);
      expect((again.json() as { data: KeyView }).data.revokedAt).toBe(revoked.revokedAt);

      const refused = await getProject(created.key);
      const error = expectError(refused, 401, 'AUTHENTICATION_FAILED');
      expect(error.details).toEqual({ field: 'authorization', issue: 'revoked' });

      // Only that key: the account's other key still works.
      expect((await getProject(sibling.key)).statusCode).toBe(404);
      const view = await account(created.accountId);
      expect(view.keys.find((k) => k.keyId === created.keyId)?.revokedAt).toBe(revoked.revokedAt);
      expect(view.keys.find((k) => k.keyId === sibling.keyId)?.revokedAt).toBeNull();
    });

    it('revoking an unknown key id → 404 RESOURCE_NOT_FOUND', async () => {
      const keyId = unknownId('key');
      const error = expectError(await revoke(keyId), 404, 'RESOURCE_NOT_FOUND');
      expect(error.details).toEqual({ resource_type: 'key', resource_id: keyId });
    });
  });

  describe('credit grants', () => {
    const grant = (accountId: string, mode: string, amount: number) =>
      post('/admin/v1/credits/grants', { accountId, mode, amount });

    it('grants: 201 with the new balance; grants add up; modes are separate', async () => {
      const created = await createKey({ mode: 'test', credits: 10 });
      const first = await grant(created.accountId, 'test', 25);
      expect(first.statusCode, first.body).toBe(201);
      expect((first.json() as { data: unknown }).data).toEqual({
        accountId: created.accountId,
        mode: 'test',
        amount: 25,
        balance: 35,
      });
      const second = await grant(created.accountId, 'test', 40);
      expect(second.statusCode).toBe(201);
      expect((second.json() as { data: { balance: number } }).data.balance).toBe(75);

      const live = await grant(created.accountId, 'live', 300);
      expect(live.statusCode).toBe(201);
      expect((live.json() as { data: { balance: number } }).data.balance).toBe(300);
      expect((await account(created.accountId)).balances).toEqual({ test: 75, live: 300 });
    });

    it('grants to an account without keys', async () => {
      const res = await post('/admin/v1/accounts', {});
      const accountId = (res.json() as { data: AccountView }).data.accountId;
      const granted = await grant(accountId, 'live', 3);
      expect(granted.statusCode, granted.body).toBe(201);
      expect((await account(accountId)).balances).toEqual({ test: 0, live: 3 });
    });

    it('an unknown account → 404 RESOURCE_NOT_FOUND', async () => {
      const accountId = unknownId('acct');
      const error = expectError(await grant(accountId, 'test', 5), 404, 'RESOURCE_NOT_FOUND');
      expect(error.details).toEqual({ resource_type: 'account', resource_id: accountId });
    });

    it('amount 0 (or negative) → 400 VALIDATION_ERROR, balance unchanged', async () => {
      const created = await createKey({ mode: 'test', credits: 10 });
      for (const amount of [0, -5]) {
        const error = expectError(
          await grant(created.accountId, 'test', amount),
          400,
          'VALIDATION_ERROR',
        );
        expect(error.details?.invalid_fields).toHaveProperty('amount');
      }
      expect((await account(created.accountId)).balances).toEqual({ test: 10, live: 0 });
    });
  });

  describe('accounts', () => {
    it('POST /admin/v1/accounts with no body → 201', async () => {
      const res = await h.request({
        method: 'POST',
        url: '/admin/v1/accounts',
        headers: bearer(h.adminToken),
      });
      expect(res.statusCode, res.body).toBe(201);
      const view = (res.json() as { data: AccountView }).data;
      expect(view.accountId).toMatch(ACCOUNT_ID);
      expect(view.name).toBeNull();
      expect(view.balances).toEqual({ live: 0, test: 0 });
      expect(view.keys).toEqual([]);
    });

    it('POST /admin/v1/accounts with {name} → 201, and the account can then get keys', async () => {
      const res = await post('/admin/v1/accounts', { name: 'Acme' });
      expect(res.statusCode, res.body).toBe(201);
      const view = (res.json() as { data: AccountView }).data;
      expect(view.accountId).toMatch(ACCOUNT_ID);
      expect(view.name).toBe('Acme');
      expect((await account(view.accountId)).name).toBe('Acme');

      const key = await createKey({ mode: 'test', accountId: view.accountId });
      expect(key.accountId).toBe(view.accountId);
    });

    it('each new account is distinct', async () => {
      const a = (await post('/admin/v1/accounts', {})).json() as { data: AccountView };
      const b = (await post('/admin/v1/accounts', {})).json() as { data: AccountView };
      expect(a.data.accountId).not.toBe(b.data.accountId);
    });
  });
});
