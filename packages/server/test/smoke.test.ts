import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, bearer, type Harness, startHarness } from './helpers/harness.ts';

describe.each(await backends())('smoke on %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(backend);
  });
  afterAll(async () => h?.close());

  it('serves the three states', async () => {
    const key = await h.createKey('test');
    for (const status of ['in_progress', 'completed', 'failed'] as const) {
      const id = await h.seedProject(key, { status });
      const res = await h.request({
        method: 'GET',
        url: `/api/v1/projects/${id}`,
        headers: bearer(key.key),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.status).toBe(status);
    }
  });
});
