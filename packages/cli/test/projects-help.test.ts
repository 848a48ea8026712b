import { describe, expect, it } from 'vitest';
import { EXIT } from '../src/index.ts';
import { pgs, server, useProjectsServer } from './projects-fixture.ts';

// The --help of the project commands, in-process (see projects-fixture.ts).

useProjectsServer();

describe('help', () => {
  it.each([['generate'], ['status'], ['wait'], ['credits']])(
    'pgs %s --help lists its options, the key options and the exit codes',
    async (name) => {
      const r = await pgs([name, '--help']);
      expect(r.code).toBe(EXIT.OK);
      expect(r.stdout).toContain(`Usage: pgs ${name}`);
      expect(r.stdout).toContain('--api-key KEY');
      expect(r.stdout).toContain('PGS_BASE_URL');
      expect(r.stdout).toContain('Exit codes:');
      expect(r.stdout).toMatch(/ {2}9 {2}generation failed/);
      expect(server.requests).toHaveLength(0);
    },
  );

  it('says the progress shows only what the API exposes', async () => {
    const generate = await pgs(['generate', '-h']);
    expect(generate.stdout).toContain("follows the project's event stream");
    const r = await pgs(['wait', '-h']);
    expect(r.stdout).toContain('reports only the status and the estimated');
    expect(r.stdout).toContain('no stage or count of documents done is shown');
    const credits = await pgs(['credits', '--help']);
    expect(credits.stdout).toContain('pgs credits grant --account ID');
  });

  it('the program help lists the project commands first', async () => {
    const r = await pgs(['--help']);
    for (const name of ['generate', 'status', 'wait', 'credits ', 'keys create', 'credits grant']) {
      expect(r.stdout).toContain(`  ${name}`);
    }
    expect(r.stdout.indexOf('generate')).toBeLessThan(r.stdout.indexOf('keys create'));
    expect(r.stdout).toContain('npx pgs keys create --mode test --credits 1000');
  });
});
