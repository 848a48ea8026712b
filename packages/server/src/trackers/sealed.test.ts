import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import {
  decodeKey,
  keyIdOf,
  newEncryptionKey,
  open,
  Sealer,
  seal,
  sealedKeyId,
  UnsealError,
} from './sealed.ts';

const key = () => randomBytes(32);

describe('sealing', () => {
  it('seals as v1.<keyId>.<iv>.<ciphertext>.<tag> and opens back', () => {
    const ring = { current: key(), previous: [] };
    const sealed = seal(ring, 'ghp_secret-token', 'tc_1:credentials');
    const parts = sealed.split('.');
    expect(parts).toHaveLength(5);
    expect(parts[0]).toBe('v1');
    expect(parts[1]).toBe(keyIdOf(ring.current));
    for (const part of parts.slice(1)) expect(part).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('ghp_secret-token');
    expect(sealedKeyId(sealed)).toBe(keyIdOf(ring.current));
    expect(open(ring, sealed, 'tc_1:credentials')).toBe('ghp_secret-token');
  });

  it('never seals the same text the same way twice (a fresh IV each time)', () => {
    const ring = { current: key(), previous: [] };
    expect(seal(ring, 'same', 'c')).not.toBe(seal(ring, 'same', 'c'));
  });

  it('refuses another context, a changed byte and an unknown key', () => {
    const ring = { current: key(), previous: [] };
    const sealed = seal(ring, 'token', 'tc_1:credentials');
    expect(() => open(ring, sealed, 'tc_2:credentials')).toThrow(UnsealError);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString('base64url');
    expect(() => open(ring, parts.join('.'), 'tc_1:credentials')).toThrow(UnsealError);
    expect(() => open({ current: key(), previous: [] }, sealed, 'tc_1:credentials')).toThrow(
      /not configured/,
    );
    expect(() => open(ring, 'plain text', 'tc_1:credentials')).toThrow(UnsealError);
  });

  it('opens a value sealed before a rotation with the previous key it names', () => {
    const old = key();
    const sealed = seal({ current: old, previous: [] }, 'token', 'c');
    const rotated = { current: key(), previous: [old] };
    expect(open(rotated, sealed, 'c')).toBe('token');
    expect(sealedKeyId(seal(rotated, 'token', 'c'))).toBe(keyIdOf(rotated.current));
  });

  it('reads keys of exactly 32 bytes of base64', () => {
    expect(decodeKey(newEncryptionKey())).toHaveLength(32);
    expect(decodeKey(randomBytes(16).toString('base64'))).toBeUndefined();
    expect(decodeKey('not base64!')).toBeUndefined();
  });

  it('answers ENCRYPTION_NOT_CONFIGURED without a key, and loads a ring once', async () => {
    await expect(Sealer.of(undefined).seal('x', 'c')).rejects.toMatchObject({
      code: 'ENCRYPTION_NOT_CONFIGURED',
    });
    await expect(Sealer.of(undefined).ring()).rejects.toBeInstanceOf(DomainError);
    let loads = 0;
    const ring = { current: key(), previous: [] };
    const sealer = new Sealer(async () => {
      loads++;
      return ring;
    });
    const sealed = await sealer.seal('x', 'c');
    expect(await sealer.open(sealed, 'c')).toBe('x');
    expect(loads).toBe(1);
  });
});
