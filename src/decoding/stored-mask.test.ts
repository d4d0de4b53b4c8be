import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../shared/seeded-random.js';
import { bitsetOf, countBits, listLimit, loadMask, storeBitset, storeMaskOver, type StoredMask } from './stored-mask.js';

const WORDS = 512; // 16,384 tokens: list limit 64 ids
const random = mulberry32(32);

function randomBits(density: number, universe: Uint32Array): Uint32Array {
  const bits = new Uint32Array(WORDS);
  for (let id = 0; id < WORDS * 32; id++) if (random() < density && (universe[id >>> 5]! & (1 << (id & 31))) !== 0) bits[id >>> 5]! |= 1 << (id & 31);
  return bits;
}

/** `bits` with `count` of its set ids cleared, chosen at random. */
function narrowed(bits: Uint32Array, count: number): Uint32Array {
  const out = bits.slice();
  for (let cleared = 0; cleared < count;) {
    const id = Math.floor(random() * WORDS * 32);
    if ((out[id >>> 5]! & (1 << (id & 31))) === 0) continue;
    out[id >>> 5]! &= ~(1 << (id & 31));
    cleared++;
  }
  return out;
}

function written(stored: StoredMask, universe: Uint32Array): Uint32Array {
  // a dirty buffer longer than the mask: every form must overwrite all of the mask's words and nothing past them
  const mask = new Uint32Array(WORDS + 2).fill(0xdeadbeef);
  loadMask(stored, mask, universe);
  expect(mask[WORDS]).toBe(0xdeadbeef);
  return mask.subarray(0, WORDS);
}

describe('stored masks', () => {
  // every id but the last word's top bit is a text token
  const universe = new Uint32Array(WORDS).fill(0xffffffff);
  universe[WORDS - 1] = 0x7fffffff;
  const universeCount = countBits(universe, WORDS);

  it('counts bits like a per-id scan', () => {
    const bits = randomBits(0.3, universe);
    let slow = 0;
    for (let id = 0; id < WORDS * 32; id++) if ((bits[id >>> 5]! & (1 << (id & 31))) !== 0) slow++;
    expect(countBits(bits, WORDS)).toBe(slow);
    expect(countBits(universe, WORDS)).toBe(WORDS * 32 - 1);
  });

  it('keeps a mask a few ids away from a bitset as those ids flipped over it, and writes back the same bits', () => {
    const base = randomBits(0.5, universe);
    for (const removed of [1, 17, listLimit(WORDS)]) {
      const bits = narrowed(base, removed);
      const stored = storeMaskOver(base, bits, countBits(bits, WORDS), universe, universeCount);
      expect(stored.data.length).toBe(removed);
      expect(stored.base).toBe(base);
      expect(written(stored, universe)).toEqual(bits);
    }
  });

  it('falls back to storeMask when flipping is not the shortest list worth writing', () => {
    const base = randomBits(0.5, universe);
    // too many flips: a bitset
    const far = narrowed(base, listLimit(WORDS) + 1);
    const farStored = storeMaskOver(base, far, countBits(far, WORDS), universe, universeCount);
    expect(bitsetOf(farStored)).toEqual(far);
    expect(written(farStored, universe)).toEqual(far);
    // few allowed tokens: the allowed list, even though the flips would be as many
    const sparse = new Uint32Array(WORDS);
    sparse[3] = 0b1011;
    const sparseStored = storeMaskOver(new Uint32Array(WORDS), sparse, 3, universe, universeCount);
    expect(sparseStored.base.length).toBe(0);
    expect(Array.from(sparseStored.data)).toEqual([96, 97, 99]);
    expect(written(sparseStored, universe)).toEqual(sparse);
    // nearly everything allowed: the rejected list
    const dense = universe.slice();
    dense[7] = 0xfffffff0;
    const denseStored = storeMaskOver(randomBits(0.5, universe), dense, universeCount - 4, universe, universeCount);
    expect(Array.from(denseStored.data)).toEqual([224, 225, 226, 227]);
    expect(written(denseStored, universe)).toEqual(dense);
  });

  it('keeps a bitset as a bitset whatever its count', () => {
    const sparse = new Uint32Array(WORDS);
    sparse[0] = 1;
    const stored = storeBitset(sparse, 1, WORDS);
    expect(bitsetOf(stored)).toEqual(sparse);
    expect(written(stored, universe)).toEqual(sparse);
  });
});
