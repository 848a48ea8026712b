import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver } from '../../src/webhooks/delivery.ts';
import { answerProblems } from '../fuzz/check.ts';
import { type FuzzApp, startFuzzApp } from '../fuzz/fuzz-app.ts';
import { bearer } from '../helpers/harness.ts';

/**
 * Issue 11 item 5, OWASP API7 (server-side request forgery): webhook URLs that point inside
 * the network are refused at creation (400, nothing stored), and at delivery before any
 * connection is made, the host resolved and checked (docs/api.md "Which URLs (SSRF)"). No
 * test needs the network: literals, `localhost` (the hosts file) and a loopback listener.
 */

const REFUSED = [
  'https://127.0.0.1/hook', // loopback
  'https://127.1.2.3/hook',
  'https://[::1]/hook',
  'https://10.0.0.1/hook', // private
  'https://172.16.5.4/hook',
  'https://192.168.1.1/hook',
  'https://[fd00::1]/hook',
  'https://169.254.169.254/latest/meta-data/', // link-local: cloud metadata
  'https://[fe80::1]/hook',
  'https://[::ffff:127.0.0.1]/hook', // IPv4-mapped IPv6
  'https://[::ffff:a9fe:a9fe]/hook', // the same, in hex: 169.254.169.254
  'https://[::ffff:10.0.0.1]/hook',
  // IPv4-compatible IPv6 (::/96, deprecated), found by the red-team probe (issue 22): the
  // URL parser writes them as ::7f00:1, which is outside IPv6 global unicast.
  'https://[::127.0.0.1]/hook',
  'https://[::169.254.169.254]/latest/meta-data/',
  'https://[::10.0.0.1]/hook',
  'https://[64:ff9b::a00:1]/hook', // NAT64 of 10.0.0.1
  'https://[2002:a00:1::1]/hook', // 6to4 of 10.0.0.1
  'https://[2001:db8::1]/hook', // documentation
  'https://[2001::1]/hook', // Teredo
  'https://[3fff::1]/hook', // documentation (RFC 9637)
  'https://0.0.0.0/hook', // unspecified
  'https://100.64.0.1/hook', // carrier-grade NAT
  'https://224.0.0.1/hook', // multicast
  'https://255.255.255.255/hook', // broadcast
  'https://2130706433/hook', // 127.0.0.1 as one number (the URL parser normalises it)
  'https://0x7f.1/hook',
  'https://localhost/hook', // a DNS name resolving to loopback
  'https://localhost./hook',
  'http://93.184.215.14/hook', // not https
  'https://user:secret@93.184.215.14/hook', // credentials
  'https://nothing.invalid/hook', // does not resolve
];

describe('webhook URLs that reach inside the network', () => {
  let fuzz: FuzzApp;
  beforeAll(async () => {
    fuzz = await startFuzzApp();
  });
  afterAll(async () => fuzz?.close());

  it.each(REFUSED)('refuses %s at creation, storing nothing', async (url) => {
    const before = await fuzz.snapshot();
    const res = await fuzz.app.inject({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      headers: { ...bearer(fuzz.keys.test.key), 'content-type': 'application/json' },
      payload: JSON.stringify({ url }),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.details.invalid_fields).toHaveProperty('url');
    expect(
      answerProblems(
        { method: 'POST', url: '/api/v1/webhook-endpoints' },
        res,
        'createWebhookEndpoint',
      ),
    ).toEqual([]);
    expect(await fuzz.snapshot()).toBe(before);
  });

  it.each([
    'https://93.184.215.40/hook',
    'https://[2606:4700::1111]/hook',
    'https://[::ffff:93.184.215.41]/hook',
  ])('accepts the public address %s (the refusals above are about the address)', async (url) => {
    const res = await fuzz.app.inject({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      headers: { ...bearer(fuzz.keys.test.key), 'content-type': 'application/json' },
      payload: JSON.stringify({ url }),
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('the delivery-time check', () => {
  let server: net.Server;
  let port: number;
  let connections = 0;
  beforeAll(async () => {
    // Anything that reaches this loopback listener would be a forged request.
    server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ['a loopback literal', (p: number) => `https://127.0.0.1:${p}/hook`],
    ['an IPv4-mapped loopback', (p: number) => `https://[::ffff:127.0.0.1]:${p}/hook`],
    ['an IPv4-compatible loopback', (p: number) => `https://[::127.0.0.1]:${p}/hook`],
    ['a name that now resolves to loopback', (p: number) => `https://localhost:${p}/hook`],
    ['plain http', (p: number) => `http://localhost:${p}/hook`],
  ])('refuses %s before connecting', async (_what, url) => {
    const result = await deliver({
      url: url(port),
      secret: `whsec_${Buffer.alloc(24, 1).toString('base64')}`,
      messageId: 'msg_01M80GE22B7QE1V75K25WY49D2',
      body: '{"type":"project.completed"}',
      allowPrivate: false,
      timeoutMs: 5_000,
    });
    expect(result.ok).toBe(false);
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/refused|not allowed|private|reserved/i);
    expect(connections).toBe(0);
  });
});
