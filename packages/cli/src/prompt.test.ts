import { PassThrough } from 'node:stream';
import { APIUserAbortError } from '@pgs/client';
import { describe, expect, it } from 'vitest';
import { isInteractive, lineReader } from './prompt.ts';

describe('lineReader', () => {
  it('writes each prompt and keeps lines that arrived before they were asked for', async () => {
    const input = new PassThrough();
    let written = '';
    const lines = lineReader(input, { write: (s: string) => (written += s) });
    input.end('first\r\nsecond\n\nlast');
    expect(await lines.ask('1? ')).toBe('first');
    expect(await lines.ask('2? ')).toBe('second');
    expect(await lines.ask('3? ')).toBe('');
    expect(await lines.ask('4? ')).toBe('last');
    expect(await lines.ask('5? ')).toBeUndefined();
    expect(written).toBe('1? 2? 3? 4? 5? ');
    lines.close();
  });

  it('rejects the pending question with APIUserAbortError on abort', async () => {
    const input = new PassThrough();
    const abort = new AbortController();
    const lines = lineReader(input, { write: () => {} }, abort.signal);
    const pending = lines.ask('? ');
    abort.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    await expect(lines.ask('again? ')).rejects.toBeInstanceOf(APIUserAbortError);
    lines.close();
  });
});

describe('isInteractive', () => {
  it('is true only for a terminal', () => {
    const pipe = new PassThrough();
    expect(isInteractive(pipe)).toBe(false);
    expect(isInteractive(Object.assign(new PassThrough(), { isTTY: true }))).toBe(true);
  });
});
