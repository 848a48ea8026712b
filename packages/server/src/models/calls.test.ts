import { describe, expect, it } from 'vitest';
import { scrub } from './calls.ts';
import { Semaphore } from './semaphore.ts';

describe('Semaphore', () => {
  it('grants up to its size, then in order of arrival as slots are released', async () => {
    const slots = new Semaphore(2);
    const signal = new AbortController().signal;
    const a = await slots.acquire(signal);
    await slots.acquire(signal);
    const order: string[] = [];
    const c = slots.acquire(signal).then((release) => {
      order.push('c');
      return release;
    });
    const d = slots.acquire(signal).then(() => order.push('d'));
    a();
    (await c)();
    await d;
    expect(order).toEqual(['c', 'd']);
  });

  it('a waiter whose signal aborts leaves the queue and rejects with the reason', async () => {
    const slots = new Semaphore(1);
    const held = await slots.acquire(new AbortController().signal);
    const controller = new AbortController();
    const waiting = slots.acquire(controller.signal);
    controller.abort(new Error('project cancelled'));
    await expect(waiting).rejects.toThrow('project cancelled');
    held();
    // The slot went to nobody else: it is free again at once.
    const again = await slots.acquire(new AbortController().signal);
    expect(typeof again).toBe('function');
  });

  it('releasing twice frees one slot only', async () => {
    const slots = new Semaphore(1);
    const release = await slots.acquire(new AbortController().signal);
    release();
    release();
    await slots.acquire(new AbortController().signal);
    const controller = new AbortController();
    const third = slots.acquire(controller.signal);
    controller.abort(new Error('still taken'));
    await expect(third).rejects.toThrow('still taken');
  });
});

describe('scrub', () => {
  it('removes configured secrets and anything shaped like a provider key, masked or not', () => {
    const secret = 'local-SECRET-0123456789';
    const text = `Incorrect API key provided: sk-proj-abc123XYZ; ant sk-ant-api03-****wxyz; ${secret} again`;
    const clean = scrub(text, [secret]);
    expect(clean).not.toContain(secret);
    expect(clean).not.toMatch(/sk-proj-abc123XYZ|sk-ant-api03/);
    expect(clean).toContain('Incorrect API key provided: [redacted]');
  });
});
