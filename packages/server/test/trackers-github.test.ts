import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { githubAdapter } from '../src/trackers/providers/github.ts';
import { itemMarker, type TrackerClient } from '../src/trackers/providers/provider.ts';
import { type FakeGitHub, startFakeGitHub } from './fakes/github.ts';
import { draft, failure, PROJECT, stamp } from './helpers/trackers-github.ts';

/**
 * Issue 31 items 4 and 6: the GitHub adapter, Octokit unchanged, against a fake GitHub that
 * speaks the REST API on loopback (paging by Link header, sub-issues, dependencies, labels,
 * comments). The fake's clock is the test's; nothing waits on the wall clock. Rate limits,
 * failures and webhooks: trackers-github-failures.test.ts.
 */

const OTHER = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';

let clock = new Date('2026-03-01T10:00:00Z');
const tick = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000);
};

let fake: FakeGitHub;
let client: TrackerClient;

const connect = (changes: { token?: string; repo?: string } = {}) =>
  githubAdapter.connect({
    baseUrl: fake.baseUrl,
    credentials: { token: changes.token ?? (fake.credentials as { token: string }).token },
    target: { owner: 'acme', repo: changes.repo ?? 'booking' },
    timeoutMs: 5_000,
  });

const issue = (externalId: string) => fake.issues().find((i) => i.externalId === externalId)!;

beforeAll(async () => {
  // Five to a page, whatever the adapter asks, so every listing here pages.
  fake = await startFakeGitHub({ owner: 'acme', repo: 'booking', maxPerPage: 5, now: () => clock });
  client = connect();
});
afterAll(() => fake.close());

describe('validate', () => {
  it('takes a token and GitHub names, and says what is wrong otherwise', () => {
    const token = { token: 'ghp_x' };
    expect(githubAdapter.validate(token, { owner: 'acme-co', repo: 'app.web_2' })).toBeUndefined();
    expect(githubAdapter.validate(token, { owner: 'octo_acme', repo: 'x' })).toBeUndefined();
    expect(
      githubAdapter.validate({ email: 'a@b', apiToken: 't' }, { owner: 'a', repo: 'b' }),
    ).toMatch(/token/);
    expect(githubAdapter.validate({ token: 'two words' }, { owner: 'a', repo: 'b' })).toMatch(
      /token/,
    );
    for (const owner of ['-acme', 'acme-', 'ac--me', 'a'.repeat(40), 'ac me']) {
      expect(githubAdapter.validate(token, { owner, repo: 'b' }), owner).toMatch(/owner/);
    }
    for (const repo of ['..', '.', 'a b', 'a/b', '', 'r'.repeat(101)]) {
      expect(githubAdapter.validate(token, { owner: 'a', repo }), repo).toMatch(/repo/);
    }
    expect(githubAdapter.validate(token, { team: 'ENG' })).toMatch(/owner/);
  });
});

describe('verify', () => {
  it('names the repository and its id', async () => {
    expect(await client.verify()).toEqual({
      owner: 'acme',
      repo: 'booking',
      repositoryId: '424242',
    });
  });

  it("gives GitHub's reason for a wrong token, never the token", async () => {
    const error = await failure(connect({ token: 'ghp_wrongWrongWrong' }).verify());
    expect(error.status).toBe(401);
    expect(error.retryable).toBe(false);
    expect(error.reason).toContain('Bad credentials');
    expect(error.reason).not.toContain('ghp_');
  });

  it('says an unknown repository does not exist or cannot be seen', async () => {
    const error = await failure(connect({ repo: 'nothing-here' }).verify());
    expect(error.status).toBe(404);
    expect(error.retryable).toBe(false);
    expect(error.reason).toContain('acme/nothing-here does not exist');
  });

  it('refuses a token that cannot write issues', async () => {
    fake.configure({ permissions: { admin: false, maintain: false, push: false, triage: false } });
    try {
      const error = await failure(client.verify());
      expect(error.retryable).toBe(false);
      expect(error.reason).toContain('the token cannot write issues to acme/booking');
      // A write tried anyway is refused with the permission GitHub wanted.
      const refused = await failure(client.create(draft('T-90')));
      expect(refused).toMatchObject({ status: 403, retryable: false });
      expect(refused.reason).toBe(
        'GitHub answered 403: Resource not accessible by personal access token (the token needs issues: write)',
      );
    } finally {
      fake.configure({ permissions: { admin: true, maintain: true, push: true, triage: true } });
    }
  });

  it('refuses a classic token without the repo scope, and takes one with it', async () => {
    fake.configure({ scopes: 'read:org, gist' });
    try {
      expect((await failure(client.verify())).reason).toMatch(/scopes \(read:org, gist\).*"repo"/);
      fake.configure({ scopes: 'repo, read:org' });
      expect(await client.verify()).toMatchObject({ repositoryId: '424242' });
    } finally {
      fake.configure({ scopes: null });
    }
  });
});

describe('create, update, close and reopen', () => {
  let parent: string;
  let first: string;
  let second: string;

  it('creates issues with labels (made when missing), a parent and a blocker', async () => {
    const group = await client.create(draft('FR-1', { title: 'FR-1 Booking' }));
    parent = group.externalId;
    expect(group).toMatchObject({ key: `#${parent}`, state: 'open', updatedAt: stamp(clock) });
    expect(group.url).toBe(`${fake.baseUrl}/acme/booking/issues/${parent}`);
    expect(group.marker).toEqual({ projectId: PROJECT, itemId: 'FR-1' });
    first = (await client.create(draft('T-1', { parent }))).externalId;
    tick(5);
    const made = await client.create(draft('T-2', { parent, blockedBy: [first] }));
    second = made.externalId;
    expect(issue(second)).toMatchObject({
      title: 'T-2 Build it',
      labels: ['pgs', 'FR-1'],
      parent,
      blockedBy: [first],
      comments: [],
    });
    expect(issue(first).parent).toBe(parent);
    expect(made.updatedAt).toBe(issue(second).updatedAt);
    expect(fake.labels()).toEqual([
      { name: 'pgs', color: '5319e7', description: 'Kept in sync by PGS' },
      { name: 'FR-1', color: '0e8a16', description: 'PGS requirement FR-1' },
    ]);
  });

  it('updates title, body, labels, parent and blockers, keeping what people added', async () => {
    const group2 = (await client.create(draft('FR-2', { labels: ['pgs', 'FR-2'] }))).externalId;
    const unmarked = String(fake.addIssue({ title: 'A person blocks it' }));
    fake.edit(second, { labels: ['pgs', 'FR-1', 'bug'], blockedBy: [first, unmarked] });
    tick(60);
    const before = fake.requests().length;
    const updated = await client.update(
      second,
      draft('T-2', { title: 'T-2 Build it well', labels: ['pgs', 'FR-2'], parent: group2 }),
    );
    expect(issue(second)).toMatchObject({
      title: 'T-2 Build it well',
      labels: ['bug', 'pgs', 'FR-2'],
      parent: group2,
      blockedBy: [unmarked],
    });
    expect(issue(second).body).toContain(itemMarker(PROJECT, 'T-2'));
    expect(updated.updatedAt).toBe(stamp(clock));
    expect(
      fake
        .requests()
        .slice(before)
        .filter((r) => r.includes('/labels')),
    ).toEqual([]);
    // An unchanged draft changes no relation.
    const again = fake.requests().length;
    await client.update(
      second,
      draft('T-2', { title: 'T-2 Build it well', labels: ['pgs', 'FR-2'], parent: group2 }),
    );
    const writes = fake
      .requests()
      .slice(again)
      .filter((r) => !r.startsWith('GET'));
    expect(writes).toEqual([`PATCH /repos/acme/booking/issues/${second}`]);
  });

  it('keeps a parent GitHub already has when issues do not say their parent', async () => {
    fake.configure({ parentUrls: false });
    try {
      const group = issue(second).parent!;
      const before = fake.requests().length;
      await client.update(second, draft('T-2', { labels: ['pgs', 'FR-2'], parent: group }));
      const asked = fake.requests().slice(before);
      // replace_parent to the same parent is refused as a duplicate, and the parent checked.
      expect(asked).toContain(`POST /repos/acme/booking/issues/${group}/sub_issues`);
      expect(asked).toContain(`GET /repos/acme/booking/issues/${second}/parent`);
      expect(issue(second).parent).toBe(group);
    } finally {
      fake.configure({ parentUrls: true });
    }
  });

  it('closes with a comment, then reopens', async () => {
    tick(60);
    const closed = await client.setState(first, 'closed', 'Obsolete after revision 2.');
    expect(closed).toMatchObject({ state: 'closed', updatedAt: stamp(clock) });
    expect(issue(first)).toMatchObject({
      state: 'closed',
      comments: ['Obsolete after revision 2.'],
    });
    tick(60);
    const reopened = await client.setState(first, 'open', undefined);
    expect(reopened).toMatchObject({ state: 'open', updatedAt: stamp(clock) });
    expect(issue(first).comments).toHaveLength(1);
    expect(await client.get(first)).toMatchObject({ externalId: first, state: 'open' });
  });

  it('writes relations into the body, and says so once, where GitHub lacks their APIs', async () => {
    fake.configure({ subIssues: false, dependencies: false });
    try {
      const ghes = connect();
      const made = await ghes.create(draft('T-3', { parent, blockedBy: [first] }));
      const held = issue(made.externalId);
      expect(held.parent).toBeUndefined();
      expect(held.blockedBy).toEqual([]);
      expect(held.body).toContain(`Part of #${parent}\nBlocked by #${first}`);
      expect(held.comments).toHaveLength(1);
      expect(held.comments[0]).toMatch(/does not offer sub-issues or issue dependencies/);
      await ghes.update(made.externalId, draft('T-3', { parent, blockedBy: [first] }));
      expect(issue(made.externalId).comments).toHaveLength(1);
      expect(issue(made.externalId).body.match(/Blocked by/g)).toHaveLength(1);
    } finally {
      fake.configure({ subIssues: true, dependencies: true });
    }
  });

  it('says an unknown issue is not found, not retryable', async () => {
    const error = await failure(client.get('9999'));
    expect(error).toMatchObject({ status: 404, retryable: false });
    expect(error.reason).toContain('Not Found');
  });
});

describe('findMarked', () => {
  it("finds the project's marked issues across pages, and nothing else", async () => {
    const ours = new Set((await client.findMarked(PROJECT)).map((i) => i.externalId));
    for (let n = 10; n < 18; n += 1) ours.add((await client.create(draft(`T-${n}`))).externalId);
    await client.create(draft('T-1', {}, OTHER));
    fake.addIssue({
      title: 'PR',
      body: itemMarker(PROJECT, 'T-99'),
      labels: ['pgs'],
      pullRequest: true,
    });
    fake.addIssue({ title: 'No label', body: itemMarker(PROJECT, 'T-98') });
    fake.addIssue({ title: 'No marker', labels: ['pgs'] });
    const closed = (await client.create(draft('T-20'))).externalId;
    await client.setState(closed, 'closed', undefined);
    ours.add(closed);
    const before = fake.requests().length;
    const found = await client.findMarked(PROJECT);
    expect(new Set(found.map((i) => i.externalId))).toEqual(ours);
    expect(found.find((i) => i.externalId === closed)?.state).toBe('closed');
    const pages = fake.requests().slice(before);
    expect(pages.length).toBeGreaterThanOrEqual(4);
    expect(pages.every((r) => r.startsWith('GET /repos/acme/booking/issues?'))).toBe(true);
    expect(pages[0]).toContain('labels=pgs');
    expect(pages[0]).toContain('state=all');
  });
});
