import { PLANTED_SECRETS, SECRET_FILE_NAMES } from '@pgs/contract/testing/secrets';
import fc from 'fast-check';
import { queryArb, segmentArb } from './arbitraries-url.ts';
import type { AppRoute, FuzzApp } from './fuzz-app.ts';

/** A request in a few readable lines, its body cut short. */
export function describeRequest(request: FuzzRequest): string {
  const body = request.body?.toString('utf8') ?? '';
  return [
    `${request.method} ${request.url}  (route ${request.route})`,
    ...request.headers.map(([name, value]) => `${name}: ${value.slice(0, 120)}`),
    `body (${request.body?.length ?? 0} bytes): ${JSON.stringify(body.slice(0, 300))}`,
  ].join('\n');
}

/** A generated request: what inject or a raw socket sends. */
export interface FuzzRequest {
  method: string;
  /** Path and raw query, already percent-encoded as sent. */
  url: string;
  /** In order; a name may repeat (only the raw HTTP fuzz sends repeats as such). */
  headers: [string, string][];
  body: Buffer | undefined;
  /** The route aimed at (the pattern), for the failure report. */
  route: string;
}

const headerText = (max: number) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength: max,
  });

/** Strings that have broken parsers before: NUL, lone surrogates, prototype names, sizes. */
const EVIL_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83dy',
  '😀',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '../../etc/passwd',
  '%00',
  '<script>alert(1)</script>',
  "'; drop table projects; --",
  'x'.repeat(5001),
  'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789',
  // Refused in single-line fields (issue 27): line breaks, tabs, C1, bidi overrides, isolates.
  'Acme\n\n## Injected Section',
  'Acme\r\nX-Injected: 1',
  'tab\there',
  'next\u0085line',
  'gnp.exe\u202Etxt',
  '\u2067isolated\u2069',
];

/** A JSON value of a wrong or odd type for any field. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<unknown>(...EVIL_STRINGS) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      1e308,
      -1e308,
      2 ** 53,
      {},
      [],
    ),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
);

const KEY_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  '',
  '\u0000',
  '\ud800',
  'extra',
  'idea ',
];

/** Serializes entries as a JSON object, keeping keys (`__proto__` too) exactly as given. */
function objectText(entries: readonly [string, unknown][]): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`;
}

/**
 * A codebase digest (issue 27): files holding planted secrets of every format (none may
 * reach a log line or a stored digest: routes.test.ts), sometimes with a secret file under
 * another name, a path trick or a case twin, which must be refused.
 */
const repositoryContextArb = fc
  .tuple(
    fc.subarray([...PLANTED_SECRETS], { minLength: 1, maxLength: 4 }),
    fc.option(
      fc.constantFrom(
        ...SECRET_FILE_NAMES,
        'src/%2e%2e/x.ts',
        'src/\u2024\u2024/x.ts',
        'readme.MD',
      ),
    ),
  )
  .map(([planted, extra]) => ({
    repository: {
      name: 'fuzz-repo',
      files: [
        { path: 'README.md', content: '# Fuzz\n' },
        ...planted.map(({ path, content }) => ({ path, content })),
        ...(extra === null ? [] : [{ path: extra, content: 'not read' }]),
      ],
    },
  }));

/** Good values of each field a body of the contract has, to mix with odd ones. */
function goodFields(
  fuzz: FuzzApp,
  operationId: string | undefined,
): Record<string, fc.Arbitrary<unknown>> {
  const idea = fc.oneof(
    fc.constant('A habit tracker for remote teams that nudges people at the right time.'),
    fc.string({ minLength: 10, maxLength: 200 }),
  );
  switch (operationId) {
    case 'createProject':
      return {
        idea,
        type: fc.constantFrom('web', 'mobile', 'mcp'),
        // The last breaks the single-line rule: a 2xx to it is a fault (check.ts).
        name: fc.constantFrom('HabitTrack', 'A', 'x'.repeat(80), 'Acme\n\n## Injected'),
        simulate: fc.record({
          outcome: fc.constantFrom('completed', 'failed'),
          durationMs: fc.integer({ min: 0, max: 600_000 }),
        }),
        context: repositoryContextArb,
      };
    case 'createWebhookEndpoint':
      return {
        url: fc.constantFrom(
          'https://93.184.215.20/hook',
          'http://93.184.215.20/hook',
          'https://127.0.0.1/hook',
          'https://[::ffff:10.0.0.1]/hook',
          'https://[::127.0.0.1]/hook',
          'https://[::169.254.169.254]/hook',
          'https://[::a00:1]/hook',
          'https://[64:ff9b::a00:1]/hook',
          'https://[2002:a00:1::1]/hook',
          'https://[2001:db8::1]/hook',
          'https://[fe80::1%25eth0]/hook',
          'https://[2606:4700::1111]/hook',
          'https://169.254.169.254/latest/meta-data',
          'https://localhost/hook',
          'https://user:pass@93.184.215.20/hook',
          'ftp://93.184.215.20/',
          'https://nothing.invalid/hook',
          'not a url',
        ),
        events: fc.constantFrom(['project.completed'], ['project.failed'], [], ['nope']),
      };
    case 'adminCreateAccount':
      return { name: fc.constantFrom('Acme', '', 'Acme\u202E') };
    case 'adminCreateKey':
      return {
        mode: fc.constantFrom('test', 'live', 'prod'),
        accountId: fc.constantFrom(...fuzz.targets.accounts, 'acct_00000000000000000000000000'),
        credits: fc.integer({ min: -5, max: 2_000_000_000 }),
        name: fc.constantFrom('ci', '', 'ci\r\n'),
      };
    case 'adminGrantCredits':
      return {
        accountId: fc.constantFrom(...fuzz.targets.accounts, 'acct_00000000000000000000000000'),
        mode: fc.constantFrom('test', 'live'),
        amount: fc.integer({ min: -5, max: 2_000_000_000 }),
      };
    default:
      return { idea };
  }
}

/** A body shaped like the route's: each field good, odd, or absent; extra keys sometimes. */
function shapedBody(fuzz: FuzzApp, operationId: string | undefined): fc.Arbitrary<string> {
  const fields = Object.entries(goodFields(fuzz, operationId)).map(([name, good]) =>
    fc.oneof(
      { weight: 5, arbitrary: good.map((v) => [[name, v]] as [string, unknown][]) },
      { weight: 2, arbitrary: oddValue.map((v) => [[name, v]] as [string, unknown][]) },
      { weight: 2, arbitrary: fc.constant([] as [string, unknown][]) },
    ),
  );
  const extra = fc.array(fc.tuple(fc.constantFrom(...KEY_NAMES), oddValue), { maxLength: 2 });
  return fc
    .tuple(fc.tuple(...fields), fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, extra))
    .map(([parts, more]) => objectText([...parts.flat(), ...more]));
}

/** Bodies of every kind: shaped, arbitrary JSON, broken, deep, huge, raw bytes, known traps. */
function bodyArb(fuzz: FuzzApp, operationId: string | undefined): fc.Arbitrary<Buffer | undefined> {
  const shaped = shapedBody(fuzz, operationId);
  const text = fc.oneof(
    { weight: 6, arbitrary: shaped },
    { weight: 2, arbitrary: fc.json({ maxDepth: 3 }) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(shaped, fc.nat(), fc.constantFrom('', '}', ',', '"', '\\', 'garbage', '\u0000'))
        .map(([t, cut, tail]) => t.slice(0, cut % (t.length + 1)) + tail),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 50, max: 20_000 }), fc.constantFrom('[', '{"a":'))
        .map(([depth, open]) =>
          open === '['
            ? `${'['.repeat(depth)}${']'.repeat(depth)}`
            : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: -64, max: 256 })
        .map((delta) => `{"idea":"${'a'.repeat(Math.max(0, fuzz.bodyLimitBytes - 11 + delta))}"}`),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '{"__proto__":{"isAdmin":true},"idea":"A habit tracker for remote teams"}',
        '{"constructor":{"prototype":{"isAdmin":true}}}',
        '{"idea":"pgs_test_abcdefghijklmnopqrstuvwxyz0123456789"}',
        '{"idea":"A habit tracker \\u0000 for teams"}',
        '{"idea":"A habit tracker \\ud800 for teams"}',
        '{"\\ud800":1}',
        '{"idea":"x","idea":"A habit tracker for remote teams"}',
        '\ufeff{"idea":"A habit tracker for remote teams"}',
        'null',
        '[]',
        '1',
        '"idea"',
        '',
        ' ',
      ),
    },
  );
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 10, arbitrary: text.map((t) => Buffer.from(t, 'utf8')) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)) },
  );
}

const METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'QUERY',
];

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=utf-16',
  'application/json;charset=latin1',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/merge-patch+json',
  'application/jsonx',
  '*/*',
  '',
  'application/json, text/plain',
];

/** The Authorization header: the credential the route wants, another, or a broken one. */
function authArb(fuzz: FuzzApp, url: string): fc.Arbitrary<string | undefined> {
  const { test, live, other } = fuzz.keys;
  const right = url.startsWith('/admin/')
    ? fc.constant(`Bearer ${fuzz.adminToken}`)
    : fc.constantFrom(`Bearer ${test.key}`, `Bearer ${live.key}`, `Bearer ${other.key}`);
  return fc.oneof(
    { weight: 8, arbitrary: right },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        undefined,
        '',
        'Bearer',
        'Bearer ',
        `bearer ${test.key}`,
        `Bearer  ${test.key}`,
        `Basic ${Buffer.from(`${test.key}:`).toString('base64')}`,
        `Bearer ${test.key}x`,
        `Bearer ${fuzz.adminToken}`,
        `Bearer ${test.key}`,
        `Bearer pgs_test_${'A'.repeat(40)}`,
        `Bearer pgs_live_${'A'.repeat(40)}`,
        `Bearer ${'x'.repeat(5000)}`,
      ),
    },
    { weight: 1, arbitrary: headerText(60).map((s) => `Bearer ${s}`) },
  );
}

/** Optional headers the contract reads, each present or not, good or odd. */
function headerArbs(): fc.Arbitrary<[string, string][]> {
  const maybe = (name: string, values: fc.Arbitrary<string>) =>
    fc.option(
      values.map((v) => [name, v] as [string, string]),
      { freq: 2, nil: undefined },
    );
  return fc
    .tuple(
      maybe(
        'api-version',
        fc.constantFrom('2026-01-01', '2025-01-01', 'v1', '1', '', '2026-13-45'),
      ),
      maybe(
        'idempotency-key',
        fc.oneof(fc.uuid(), fc.constantFrom('', 'k', 'x'.repeat(300)), headerText(40)),
      ),
      maybe(
        'prefer',
        fc.constantFrom(
          'wait=0',
          'wait=1',
          'wait=-1',
          'wait=abc',
          'wait=99999999',
          'respond-async',
          'wait=1, wait=2',
        ),
      ),
      maybe('last-event-id', fc.constantFrom('0', '1', '-1', '99999999999999999999', 'abc', '')),
      maybe('if-none-match', fc.constantFrom('*', '"abc"', 'W/"abc"', '', '"')),
      maybe(
        'accept',
        fc.constantFrom(
          'application/json',
          'text/event-stream',
          'text/markdown',
          '*/*',
          'application/zip',
          'image/png',
          '',
        ),
      ),
      maybe('x-forwarded-for', fc.constantFrom('10.0.0.1', '::1', 'garbage')),
      maybe('x-request-id', fc.constantFrom('req_01M80GE22B7QE1V75K25WY49D2', 'mine', '')),
      maybe('__proto__', fc.constantFrom('x')),
    )
    .map((entries) => entries.filter((e): e is [string, string] => e !== undefined));
}

/**
 * A request aimed at one of the app's routes (or, sometimes, at a path none serves), built
 * from every part a client controls.
 *
 * @example
 * fc.asyncProperty(requestArb(fuzz), async (req) => send(req));
 */
export function requestArb(fuzz: FuzzApp): fc.Arbitrary<FuzzRequest> {
  const unrouted: AppRoute[] = [
    { method: 'GET', url: '/api/v1/nothing/:projectId', operationId: undefined },
    { method: 'POST', url: '/', operationId: undefined },
    { method: 'GET', url: '/api/v2/projects', operationId: undefined },
  ];
  return fc.constantFrom(...fuzz.routes, ...unrouted).chain((route) => {
    const params = route.url.split('/').filter((s) => s.startsWith(':'));
    const path = fc.tuple(...params.map((p) => segmentArb(fuzz, p.slice(1)))).map((values) => {
      let i = 0;
      return route.url
        .split('/')
        .map((s) => (s.startsWith(':') ? values[i++] : s))
        .join('/');
    });
    const body = bodyArb(fuzz, route.operationId);
    return fc
      .record({
        method: fc.oneof(
          { weight: 9, arbitrary: fc.constant(route.method) },
          { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
        ),
        path: fc.oneof(
          { weight: 12, arbitrary: path },
          { weight: 1, arbitrary: path.map((p) => `${p}/`) },
          { weight: 1, arbitrary: path.map((p) => p.toUpperCase()) },
        ),
        query: queryArb(fuzz),
        auth: authArb(fuzz, route.url),
        contentType: fc.oneof(
          { weight: 6, arbitrary: fc.constant('application/json') },
          { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
          { weight: 1, arbitrary: fc.constant(undefined) },
        ),
        headers: headerArbs(),
        body,
      })
      .map(({ method, path: p, query, auth, contentType, headers, body: b }) => ({
        // fast-check prints a counterexample with this: bodies cut short, not as byte lists.
        [fc.toStringMethod]() {
          return describeRequest(this);
        },
        method,
        url: `${p}${query}`,
        headers: [
          ...(auth === undefined ? [] : [['authorization', auth] as [string, string]]),
          ...(contentType === undefined || b === undefined
            ? []
            : [['content-type', contentType] as [string, string]]),
          ...headers,
        ],
        body: b,
        route: `${route.method} ${route.url}`,
      }));
  });
}
