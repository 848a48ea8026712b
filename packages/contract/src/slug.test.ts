import { describe, expect, it } from 'vitest';
import { MAX_SLUG_LENGTH, projectSlug } from './slug.ts';

describe('projectSlug', () => {
  it.each([
    ['Team Pulse', 'team-pulse'],
    ['TeamPulse', 'teampulse'],
    ['Café Compost Circle!', 'cafe-compost-circle'],
    ['Ünïcödé  & more___stuff', 'unicode-more-stuff'],
    ['  --MCP: GitHub / Jira bridge--  ', 'mcp-github-jira-bridge'],
    ['日本語', 'project'],
    ['***', 'project'],
    ['', 'project'],
    [`${'a'.repeat(49)} bcd`, 'a'.repeat(49)],
    ['x'.repeat(80), 'x'.repeat(50)],
  ])('%j → %j', (name, slug) => {
    expect(projectSlug(name)).toBe(slug);
  });

  it('always answers what the contract allows in Content-Disposition', () => {
    for (const name of ['a', '--', 'É'.repeat(70), `${'word '.repeat(30)}`, '\u0000\uffff']) {
      expect(`attachment; filename="${projectSlug(name)}.zip"`).toMatch(
        new RegExp(`^attachment; filename="[a-z0-9-]{1,${MAX_SLUG_LENGTH}}\\.zip"$`),
      );
      expect(projectSlug(name)).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
  });
});
