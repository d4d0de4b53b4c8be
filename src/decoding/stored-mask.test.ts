import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../shared/seeded-random.js';
import { bitsetOf, loadMask, narrowAllowedList, storeAllowedList, storeBitset, storeMask, storePatched, type StoredMask } from './stored-mask.js';

/** Set bits in the first `words` words of `bits`. */
function countBits(bits: Uint32Array, words: number): number {
  let count = 0;
  for (let id = 0; id < words * 32; id++) if ((bits[id >>> 5]! & (1 << (id & 31))) !== 0) count++;
  return count;
}

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

  it('writes back a bitset with ids flipped as that bitset with those bits toggled, the base left as it was', () => {
    const base = randomBits(0.5, universe);
    const before = base.slice();
    const bits = narrowed(base, 17);
    const ids: number[] = [];
    for (let id = 0; id < WORDS * 32; id++) if (((base[id >>> 5]! ^ bits[id >>> 5]!) & (1 << (id & 31))) !== 0) ids.push(id);
    // a longer scratch list: only its first `length` ids count
    const scratch = Uint32Array.from([...ids, 5, 6, 7]);
    const stored = storePatched(base, scratch, ids.length, countBits(bits, WORDS));
    expect(stored.data.length).toBe(17);
    expect(written(stored, universe)).toEqual(bits);
    expect(base).toEqual(before);
  });

  it('narrows an allowed list to the ids still set in a mask, and leaves other forms to the caller', () => {
    const list = storeAllowedList(Uint32Array.of(3, 40, 41, 900, 16_000), 5);
    const mask = new Uint32Array(WORDS);
    for (const id of [40, 900, 901]) mask[id >>> 5]! |= 1 << (id & 31);
    const narrowedList = narrowAllowedList(list, mask)!;
    expect(Array.from(narrowedList.data)).toEqual([40, 900]);
    expect(narrowedList.count).toBe(2);
    expect(written(narrowedList, universe)).toEqual(Uint32Array.from(mask, (word, index) => (index === 901 >>> 5 ? word & ~(1 << (901 & 31)) : word)));
    const bits = randomBits(0.5, universe);
    expect(narrowAllowedList(storeMask(bits, countBits(bits, WORDS), universe, universeCount), mask)).toBeUndefined();
  });

  it('keeps a bitset as a bitset whatever its count', () => {
    const sparse = new Uint32Array(WORDS);
    sparse[0] = 1;
    const stored = storeBitset(sparse, 1, WORDS);
    expect(bitsetOf(stored)).toEqual(sparse);
    expect(written(stored, universe)).toEqual(sparse);
  });
});
