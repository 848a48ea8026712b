import { describe, expect, it } from 'vitest';
import { runSchedule, UnreachableDocumentsError } from './schedule.ts';

const doc = (kind: string, ...dependsOn: string[]) => ({ kind, dependsOn });

/** A write step each document of which finishes when the test says so. */
function controlled() {
  const started: string[] = [];
  const gates = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
  const signals = new Map<string, AbortSignal>();
  const write = (d: { kind: string }, signal: AbortSignal) => {
    started.push(d.kind);
    signals.set(d.kind, signal);
    return new Promise<void>((resolve, reject) => gates.set(d.kind, { resolve, reject }));
  };
  // Lets the scheduler react to what finished (its awaits are microtasks, never the clock).
  const settle = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  const finish = async (kind: string) => {
    gates.get(kind)!.resolve();
    await settle();
  };
  const fail = async (kind: string, error: Error) => {
    gates.get(kind)!.reject(error);
    await settle();
  };
  return { started, signals, write, finish, fail, settle };
}

describe('runSchedule', () => {
  it('starts a document once what it builds on is written, in the order given', async () => {
    const step = controlled();
    const run = runSchedule({
      label: 'plan',
      documents: [doc('a'), doc('b', 'a'), doc('c', 'a'), doc('d', 'b', 'c')],
      done: [],
      concurrency: 4,
      signal: new AbortController().signal,
      write: step.write,
    });
    await step.settle();
    expect(step.started).toEqual(['a']);
    await step.finish('a');
    expect(step.started).toEqual(['a', 'b', 'c']);
    await step.finish('c');
    expect(step.started).toEqual(['a', 'b', 'c']);
    await step.finish('b');
    expect(step.started).toEqual(['a', 'b', 'c', 'd']);
    await step.finish('d');
    expect(await run).toEqual({ written: ['a', 'c', 'b', 'd'] });
  });

  it('runs at most `concurrency` documents at once', async () => {
    const step = controlled();
    const run = runSchedule({
      label: 'plan',
      documents: [doc('a'), doc('b'), doc('c')],
      done: [],
      concurrency: 2,
      signal: new AbortController().signal,
      write: step.write,
    });
    await step.settle();
    expect(step.started).toEqual(['a', 'b']);
    await step.finish('b');
    expect(step.started).toEqual(['a', 'b', 'c']);
    await step.finish('a');
    await step.finish('c');
    expect((await run).written).toEqual(['b', 'a', 'c']);
  });

  it('resumes: what is done is not written again and counts as written for what needs it', async () => {
    const step = controlled();
    const run = runSchedule({
      label: 'plan',
      documents: [doc('a'), doc('b', 'a')],
      done: ['a'],
      concurrency: 4,
      signal: new AbortController().signal,
      write: step.write,
    });
    await step.settle();
    expect(step.started).toEqual(['b']);
    await step.finish('b');
    expect((await run).written).toEqual(['b']);
  });

  it('does not wait on a dependency that is not scheduled (a revision keeps the base version)', async () => {
    const step = controlled();
    const run = runSchedule({
      label: 'revision',
      documents: [doc('b', 'a')],
      done: [],
      concurrency: 4,
      signal: new AbortController().signal,
      write: step.write,
    });
    await step.settle();
    expect(step.started).toEqual(['b']);
    await step.finish('b');
    expect((await run).written).toEqual(['b']);
  });

  it('stops at the first failure: the others are aborted and awaited, nothing more starts', async () => {
    const step = controlled();
    const run = runSchedule({
      label: 'plan',
      documents: [doc('a'), doc('b'), doc('c', 'a')],
      done: [],
      concurrency: 4,
      signal: new AbortController().signal,
      write: step.write,
    });
    const outcome = run.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    await step.settle();
    await step.fail('b', new Error('model gave up'));
    expect(step.signals.get('a')!.aborted).toBe(true);
    // The run waits for `a` to settle before it reports the failure.
    let reported = false;
    void outcome.then(() => {
      reported = true;
    });
    await step.settle();
    expect(reported).toBe(false);
    await step.finish('a');
    expect(await outcome).toBe('model gave up');
    expect(step.started).toEqual(['a', 'b']);
  });

  it('names the documents no order can reach', async () => {
    const step = controlled();
    const run = runSchedule({
      label: 'plan for web',
      documents: [doc('a', 'b'), doc('b', 'a')],
      done: [],
      concurrency: 4,
      signal: new AbortController().signal,
      write: step.write,
    });
    await expect(run).rejects.toThrow(UnreachableDocumentsError);
    await expect(run).rejects.toThrow('plan for web has unreachable documents: a, b');
    expect(step.started).toEqual([]);
  });

  it('gives each write the caller’s signal: aborting the run reaches every document', async () => {
    const step = controlled();
    const caller = new AbortController();
    const run = runSchedule({
      label: 'plan',
      documents: [doc('a')],
      done: [],
      concurrency: 4,
      signal: caller.signal,
      write: step.write,
    });
    await step.settle();
    caller.abort(new Error('shutdown'));
    expect(step.signals.get('a')!.aborted).toBe(true);
    await step.finish('a');
    await run;
  });

  it('starts nothing after an abort from outside, and throws its reason once the rest settle', async () => {
    const step = controlled();
    const caller = new AbortController();
    const run = runSchedule({
      label: 'plan',
      documents: [doc('a'), doc('b'), doc('c', 'a')],
      done: [],
      concurrency: 1,
      signal: caller.signal,
      write: step.write,
    });
    const outcome = run.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    await step.settle();
    caller.abort(new Error('cancelled'));
    // The write in flight ignores the signal and finishes: b and c must still not start.
    await step.finish('a');
    expect(step.started).toEqual(['a']);
    expect(await outcome).toBe('cancelled');
  });

  it('refuses a concurrency below one instead of blaming the graph', async () => {
    for (const concurrency of [0, -1, 0.5, Number.NaN]) {
      const step = controlled();
      await expect(
        runSchedule({
          label: 'plan',
          documents: [doc('a')],
          done: [],
          concurrency,
          signal: new AbortController().signal,
          write: step.write,
        }),
      ).rejects.toBeInstanceOf(RangeError);
      expect(step.started).toEqual([]);
    }
  });
});
