import { randomInt } from 'node:crypto';

/**
 * A Bloom filter of project ids: `has` is never false for an id that was added, and true
 * for an id never added about once in a hundred (10 bits and 7 probes per id at
 * capacity). The probes are a hash keyed by a secret drawn per process, so a client cannot
 * pick ids that all land on set bits.
 *
 * @example
 * const ids = new IdFilter(1_000_000); ids.add(id); ids.has(id); // true
 */
export class IdFilter {
  /** Ids the filter is sized for; past it the false-positive rate climbs. */
  readonly capacity: number;
  #count = 0;
  readonly #bits: Uint32Array;
  readonly #size: number;
  readonly #seedA = randomInt(2 ** 31);
  readonly #seedB = randomInt(2 ** 31);

  static readonly PROBES = 7;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.#size = Math.max(1024, capacity * 10);
    this.#bits = new Uint32Array(Math.ceil(this.#size / 32));
  }

  /** Ids added (an id added twice counts twice: an upper bound). */
  get count(): number {
    return this.#count;
  }

  /** Bytes the filter holds. */
  get bytes(): number {
    return this.#bits.byteLength;
  }

  add(id: string): void {
    this.#count++;
    const [a, b] = this.#hash(id);
    for (let i = 0; i < IdFilter.PROBES; i++) {
      const bit = (a + i * b) % this.#size;
      this.#bits[bit >>> 5]! |= 1 << (bit & 31);
    }
  }

  has(id: string): boolean {
    const [a, b] = this.#hash(id);
    for (let i = 0; i < IdFilter.PROBES; i++) {
      const bit = (a + i * b) % this.#size;
      if ((this.#bits[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }

  /** Two 32-bit FNV-1a hashes with secret offsets (double hashing makes the probes). */
  #hash(id: string): [number, number] {
    let a = 0x811c9dc5 ^ this.#seedA;
    let b = 0x01000193 ^ this.#seedB;
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    // Unsigned; the step is odd, so the probes differ.
    return [a >>> 0, (b | 1) >>> 0];
  }
}
