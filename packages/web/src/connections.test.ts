import { describe, expect, it } from 'vitest';
import { connectionRequest, emptyForm, targetText } from './connections.ts';

describe('connectionRequest', () => {
  it('makes each provider its request', () => {
    expect(
      connectionRequest({ ...emptyForm('github'), repo: ' acme/booking ', token: ' ghp_x ' }),
    ).toEqual({
      ok: true,
      request: {
        provider: 'github',
        credentials: { token: 'ghp_x' },
        target: { owner: 'acme', repo: 'booking' },
      },
    });
    expect(
      connectionRequest({ ...emptyForm('linear'), team: 'ENG', token: 't', name: 'Eng team' }),
    ).toEqual({
      ok: true,
      request: {
        provider: 'linear',
        name: 'Eng team',
        credentials: { token: 't' },
        target: { team: 'ENG' },
      },
    });
    expect(
      connectionRequest({
        ...emptyForm('jira'),
        site: 'https://acme.atlassian.net',
        projectKey: 'PGS',
        email: 'me@acme.com',
        token: 'a',
      }),
    ).toEqual({
      ok: true,
      request: {
        provider: 'jira',
        baseUrl: 'https://acme.atlassian.net',
        credentials: { email: 'me@acme.com', apiToken: 'a' },
        target: { projectKey: 'PGS' },
      },
    });
  });

  it('says what is missing', () => {
    expect(connectionRequest({ ...emptyForm('github'), repo: 'acme/booking' })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/token/),
    });
    expect(connectionRequest({ ...emptyForm('github'), repo: 'acme', token: 't' })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/owner\/repo/),
    });
    expect(
      connectionRequest({ ...emptyForm('jira'), site: 'https://x', token: 't' }),
    ).toMatchObject({ ok: false });
  });
});

describe('targetText', () => {
  it('names the target, and the site when there is one', () => {
    expect(targetText({ target: { owner: 'acme', repo: 'booking' }, baseUrl: null })).toBe(
      'acme/booking',
    );
    expect(
      targetText({
        target: { projectKey: 'PGS', cloudId: 'x' },
        baseUrl: 'https://a.atlassian.net',
      }),
    ).toBe('PGS on https://a.atlassian.net');
  });
});
