import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { creation, header } from './helpers/creation.ts';
import { backends, bearer, harnessFor, roomy } from './helpers/harness.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Issue 30, item 4: a revision keeps the work on the plan. A project made and revised by the
 * offline engine through the real queue and workers: every task is finished, then one change
 * request modifies one requirement, removes another and adds a third. Done tasks of the
 * modified requirement reopen with a note naming the revision and the requirement, those of
 * the removed one go obsolete, the rest keep their status, new ones start todo, and the
 * revision's read lists what it reopened and made obsolete.
 */

const IDEA =
  'A web app for small veterinary clinics to book appointments online, keep medical records for each pet, and send vaccine reminders by SMS.';
/** Read by the offline engine as FR-3 modified, FR-2 removed and FR-4 added. */
const CHANGE =
  'Send the vaccine reminders by email instead of SMS; drop the medical records; add online payment of appointments';

interface Task {
  id: string;
  status: string;
  requirements: string[];
  history?: { from: string | null; to: string; note: string | null; keyId: string | null }[];
}

describe.each(await backends())('revisions and tasks on %s', (backend) => {
  const harness = harnessFor(backend, {
    generation: 'workers',
    rules: roomy('status', 'create', 'downloads', 'list', 'manage', 'tasks'),
  });
  const { create, settle } = creation(harness);
  const api = (
    key: CreatedKey,
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    body?: unknown,
    headers = {},
  ) =>
    harness().request({
      method,
      url: `/api/v1/projects/${url}`,
      headers: {
        ...bearer(key.key),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const tasksOf = async (key: CreatedKey, id: string) => {
    const res = await api(key, 'GET', `${id}/tasks`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Task[];
  };
  const finish = async (key: CreatedKey, id: string, task: string) => {
    const etag = header(await api(key, 'GET', `${id}/tasks/${task}`), 'etag');
    const res = await api(
      key,
      'PATCH',
      `${id}/tasks/${task}`,
      { status: 'done' },
      { 'if-match': etag },
    );
    expect(res.statusCode, res.body).toBe(200);
  };

  it('reopens the done work a modified requirement changes, retires the removed one, keeps the rest', async () => {
    const key = await harness().createKey('test', { credits: 500 });
    const id = (await create(key, { idea: IDEA, type: 'web' })).json().data.projectId as string;
    expect((await settle(key, id)).json().data.status).toBe('completed');
    const before = await tasksOf(key, id);
    const of = (tasks: Task[], requirement: string) =>
      tasks.filter((t) => t.requirements.includes(requirement)).map((t) => t.id);
    // The plan serves the three requirements, and has work that serves none of them.
    for (const fr of ['FR-1', 'FR-2', 'FR-3']) expect(of(before, fr).length, fr).toBeGreaterThan(0);
    // All done but one task left in progress on the modified requirement and one left todo.
    const [first, ...doneFr3] = of(before, 'FR-3');
    const working = first!;
    const untouched = before.find((t) => t.requirements.length === 0)!;
    for (const task of before) {
      if (task.id !== working && task.id !== untouched.id) await finish(key, id, task.id);
    }
    const claimed = await api(
      key,
      'PATCH',
      `${id}/tasks/${working}`,
      { status: 'in_progress' },
      {
        'if-match': header(await api(key, 'GET', `${id}/tasks/${working}`), 'etag'),
      },
    );
    expect(claimed.statusCode).toBe(200);

    const res = await api(key, 'POST', `${id}/revisions`, { changeRequest: CHANGE });
    expect(res.statusCode, res.body).toBe(202);
    const revision = await waitFor(
      async () => {
        const read = await api(key, 'GET', `${id}/revisions/2`);
        expect(read.statusCode, read.body).toBe(200);
        const data = read.json().data;
        return data.status === 'in_progress' ? undefined : data;
      },
      { timeoutMs: 30_000, what: 'revision 2 to end' },
    );
    expect(revision.status, JSON.stringify(revision.error)).toBe('completed');
    const ops = Object.fromEntries(
      (revision.deltas as { op: string; id: string }[]).map((d) => [d.id, d.op]),
    );
    expect(ops).toEqual({ 'FR-3': 'modified', 'FR-2': 'removed', 'FR-4': 'added' });

    const after = await tasksOf(key, id);
    const status = new Map(after.map((t) => [t.id, t.status] as const));
    // Done work on the modified requirement is back in todo; work in hand stays in hand.
    expect(doneFr3.length).toBeGreaterThan(0);
    for (const task of doneFr3) expect(status.get(task), task).toBe('todo');
    expect(status.get(working)).toBe('in_progress');
    // The removed requirement's tasks are obsolete, whether or not the new plan still lists them.
    const removed = of(before, 'FR-2');
    for (const task of removed) expect(status.get(task), task).toBe('obsolete');
    // Work the new plan no longer has is obsolete too; the rest keeps its status.
    const plan = await api(key, 'GET', `${id}/documents/IMPLEMENTATION_PLAN.md`);
    const dropped = before
      .filter((t) => !removed.includes(t.id) && !plan.body.includes(`| ${t.id} |`))
      .map((t) => t.id);
    let kept = 0;
    for (const task of before) {
      if ([...removed, ...dropped, ...doneFr3, working].includes(task.id)) continue;
      expect(status.get(task.id), task.id).toBe(task.id === untouched.id ? 'todo' : 'done');
      kept++;
    }
    expect(kept).toBeGreaterThan(3);
    expect(dropped).not.toContain(untouched.id);
    for (const task of dropped) expect(status.get(task), task).toBe('obsolete');
    // New work starts todo: the added requirement's tasks, none of them known before.
    const added = after.filter((t) => !before.some((b) => b.id === t.id)).map((t) => t.id);
    expect(added.length).toBeGreaterThan(0);
    expect(of(after, 'FR-4').every((t) => added.includes(t))).toBe(true);
    for (const task of added) expect(status.get(task), task).toBe('todo');

    // The revision's read names exactly what it did.
    expect(revision.tasks).toEqual({
      added: expect.arrayContaining(added),
      reopened: doneFr3,
      obsoleted: expect.arrayContaining([...removed, ...dropped]),
    });
    expect(revision.tasks.obsoleted).toHaveLength(removed.length + dropped.length);
    expect(revision.tasks.added).toHaveLength(added.length);

    // Each change is in the task's history, by PGS, naming the revision and the requirement.
    const reopened = (await api(key, 'GET', `${id}/tasks/${doneFr3[0]}`)).json().data as Task;
    expect(reopened.history!.at(-1)).toMatchObject({
      keyId: null,
      from: 'done',
      to: 'todo',
      note: expect.stringMatching(/revision 2, which modified FR-3/),
    });
    const retired = (await api(key, 'GET', `${id}/tasks/${removed[0]}`)).json().data as Task;
    expect(retired.history!.at(-1)).toMatchObject({
      from: 'done',
      to: 'obsolete',
      note: expect.stringMatching(/revision 2 removed FR-2/),
    });
    for (const task of dropped) {
      const gone = (await api(key, 'GET', `${id}/tasks/${task}`)).json().data as Task;
      expect(gone.history!.at(-1)).toMatchObject({
        to: 'obsolete',
        note: 'Not in the plan of revision 2.',
      });
    }
    const inHand = (await api(key, 'GET', `${id}/tasks/${working}`)).json().data as Task;
    expect(inHand.history!.at(-1)).toMatchObject({
      from: 'in_progress',
      to: 'in_progress',
      note: expect.stringMatching(/Revision 2 modified FR-3/),
    });
    // OpenSpec's change for the revision lists the work it gave, unticked.
    const zip = await api(key, 'GET', `${id}/archive?layout=openspec`);
    expect(zip.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(zip.rawPayload));
    const list = Object.keys(files).find((path) =>
      /^openspec\/changes\/2-[^/]+\/tasks\.md$/.test(path),
    );
    const items = strFromU8(files[list!]!)
      .split('\n')
      .filter((line) => line.startsWith('- ['));
    expect(items.map((line) => line.split(' ')[4])).toEqual(
      after.filter((t) => [...doneFr3, ...added].includes(t.id)).map((t) => t.id),
    );
    expect(items.every((line) => line.startsWith('- [ ]'))).toBe(true);
    // Revision 1 made the tasks; it lists no changes of its own.
    expect((await api(key, 'GET', `${id}/revisions/1`)).json().data).not.toHaveProperty('tasks');
  }, 90_000);
});
