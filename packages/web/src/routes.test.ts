import { describe, expect, it } from 'vitest';
import { parseHash, projectHref, syncHref } from './routes.ts';

describe('parseHash', () => {
  it.each([
    ['', { name: 'projects' }],
    ['#', { name: 'projects' }],
    ['#/', { name: 'projects' }],
    ['#/new', { name: 'new' }],
    ['#/connections', { name: 'connections' }],
    ['#/conventions', { name: 'conventions' }],
    ['#/projects/0b6f2c8e/sync', { name: 'sync', projectId: '0b6f2c8e' }],
    ['#/projects/0b6f2c8e/sync/', { name: 'sync', projectId: '0b6f2c8e' }],
    ['#/projects/0b6f2c8e/other', { name: 'not-found', hash: '#/projects/0b6f2c8e/other' }],
    ['#/projects/0b6f2c8e', { name: 'project', projectId: '0b6f2c8e' }],
    ['#/projects/0b6f2c8e/', { name: 'project', projectId: '0b6f2c8e' }],
    ['#/projects/', { name: 'not-found', hash: '#/projects/' }],
    ['#/projects/a/b', { name: 'not-found', hash: '#/projects/a/b' }],
    ['#/projects/%E0%A4%A', { name: 'not-found', hash: '#/projects/%E0%A4%A' }],
    ['#/settings', { name: 'not-found', hash: '#/settings' }],
  ])('%s', (hash, route) => {
    expect(parseHash(hash)).toEqual(route);
  });

  it('reads back what projectHref writes', () => {
    const id = 'd535be94-4d41-4883-9fe3-9eba969f14f5';
    expect(parseHash(projectHref(id))).toEqual({ name: 'project', projectId: id });
    expect(parseHash(syncHref(id))).toEqual({ name: 'sync', projectId: id });
  });
});
