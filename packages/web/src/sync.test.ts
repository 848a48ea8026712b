import { describe, expect, it } from 'vitest';
import {
  actionLabel,
  countActions,
  linkText,
  pendingText,
  safeUrl,
  syncSummary,
  taskLinks,
} from './sync.ts';

const item = (id: string, action: Parameters<typeof actionLabel>[0]) => ({
  id,
  action,
  externalId: null,
  url: null,
});

describe('syncSummary', () => {
  it('says what a dry run would do, the auxiliary once', () => {
    const items = [
      item('FR-1', 'created'),
      item('T-1', 'created'),
      item('T-2', 'updated'),
      item('T-3', 'closed'),
      item('T-4', 'unchanged'),
    ];
    expect(syncSummary({ dryRun: true, items })).toBe(
      'Would create 2, update 1 and close 1; 1 unchanged.',
    );
  });

  it('says what a sync did, and what failed', () => {
    const items = [item('T-1', 'created'), item('T-2', 'reopened'), item('T-3', 'failed')];
    expect(syncSummary({ dryRun: false, items })).toBe('Created 1 and reopened 1; 1 failed.');
  });

  it('says when nothing changes or there was nothing', () => {
    expect(syncSummary({ dryRun: true, items: [item('T-1', 'unchanged')] })).toBe(
      'Nothing would change; 1 unchanged.',
    );
    expect(syncSummary({ dryRun: false, items: [] })).toBe('Nothing was pushed.');
    expect(syncSummary({ dryRun: true, items: [] })).toBe('Nothing to push.');
  });
});

describe('the words of a sync', () => {
  it('names each action, as done or as would be done', () => {
    expect(actionLabel('closed', false)).toBe('Closed');
    expect(actionLabel('reopened', true)).toBe('Would reopen');
    expect(actionLabel('unchanged', true)).toBe('Unchanged');
    expect(countActions([item('T-1', 'failed'), item('T-2', 'failed')])).toEqual({
      created: 0,
      updated: 0,
      closed: 0,
      reopened: 0,
      unchanged: 0,
      failed: 2,
    });
    expect(pendingText('queued', true)).toBe('The preview is queued…');
    expect(pendingText('running', false)).toBe('The sync is running…');
  });
});

describe('taskLinks', () => {
  const link = {
    provider: 'github',
    connectionId: 'con_1',
    externalId: '12',
    url: 'https://github.com/acme/booking/issues/12',
  };

  it('reads the links a task carries, none when it has no field', () => {
    expect(taskLinks({ id: 'T-1' })).toEqual([]);
    expect(
      taskLinks({
        links: [link, { ...link, provider: 'linear', externalId: 'ENG-4', state: 'closed' }],
      }),
    ).toEqual([link, { ...link, provider: 'linear', externalId: 'ENG-4', state: 'closed' }]);
  });

  it('drops a link it cannot show safely or does not understand', () => {
    expect(
      taskLinks({
        links: [
          { ...link, url: 'javascript:alert(1)' },
          { ...link, url: 'data:text/html,x' },
          { ...link, provider: 'trello' },
          { ...link, externalId: 12 },
          null,
          'https://github.com',
        ],
      }),
    ).toEqual([]);
    expect(taskLinks({ links: 'https://github.com' })).toEqual([]);
  });

  it('words a link with its tracker, id and state', () => {
    expect(linkText({ provider: 'github', externalId: '12' })).toBe('GitHub #12');
    expect(linkText({ provider: 'jira', externalId: 'PAY-7', state: 'Done' })).toBe(
      'Jira PAY-7 (Done)',
    );
  });

  it('shows only http and https URLs', () => {
    expect(safeUrl('https://linear.app/acme/issue/ENG-4')).toBe(
      'https://linear.app/acme/issue/ENG-4',
    );
    expect(safeUrl('http://127.0.0.1:9000/x')).toBe('http://127.0.0.1:9000/x');
    expect(safeUrl('JavaScript:alert(1)')).toBeUndefined();
    expect(safeUrl('/relative')).toBeUndefined();
    expect(safeUrl(null)).toBeUndefined();
  });
});
