/**
 * A token mask kept in whichever of three forms is smallest (XGrammar's adaptive token
 * mask): the allowed ids, the rejected ids, or a bitset.
 * @module
 */

const enum Storage {
  Allowed = 0,
  Rejected = 1,
  Bitset = 2,
}

export interface StoredMask {
  readonly storage: Storage;
  readonly data: Uint32Array;
  /** Tokens allowed. */
  readonly count: number;
}

/**
 * Compresses a bitset of `count` allowed tokens (out of `universeCount` in `universe`).
 * A list is kept only when it is much shorter than the bitset: writing a list costs a
 * store per id, copying a bitset is one memcpy.
 */
export function storeMask(bits: Uint32Array, count: number, universe: Uint32Array, universeCount: number): StoredMask {
  const words = universe.length;
  const rejected = universeCount - count;
  const limit = listLimit(words);
  if (count <= limit) {
    const data = new Uint32Array(count);
    let at = 0;
    for (let word = 0; word < words; word++) {
      let value = bits[word]!;
      while (value !== 0) {
        const low = value & -value;
        data[at++] = word * 32 + (31 - Math.clz32(low));
        value ^= low;
      }
    }
    return { storage: Storage.Allowed, data, count };
  }
  if (rejected <= limit) {
    const data = new Uint32Array(rejected);
    let at = 0;
    for (let word = 0; word < words; word++) {
      let value = universe[word]! & ~bits[word]!;
      while (value !== 0) {
        const low = value & -value;
        data[at++] = word * 32 + (31 - Math.clz32(low));
        value ^= low;
      }
    }
    return { storage: Storage.Rejected, data, count };
  }
  return { storage: Storage.Bitset, data: bits.slice(0, words), count };
}

/** A short allowed list straight from the ids a walk collected (no pass over the bitset). */
export function storeAllowedList(ids: Uint32Array, count: number): StoredMask {
  return { storage: Storage.Allowed, data: ids.slice(0, count), count };
}

/** Most ids `storeMask` keeps as a list rather than a bitset, for a mask of `words` words. */
export function listLimit(words: number): number {
  return words >>> 3;
}

/** Writes the stored mask over `mask` (its first `universe.length` words). */
export function loadMask(stored: StoredMask, mask: Uint32Array, universe: Uint32Array): void {
  const data = stored.data;
  switch (stored.storage) {
    case Storage.Bitset:
      mask.set(data);
      return;
    case Storage.Allowed:
      mask.fill(0, 0, universe.length);
      for (let index = 0; index < data.length; index++) {
        const id = data[index]!;
        mask[id >>> 5]! |= 1 << (id & 31);
      }
      return;
    case Storage.Rejected:
      mask.set(universe);
      for (let index = 0; index < data.length; index++) {
        const id = data[index]!;
        mask[id >>> 5]! &= ~(1 << (id & 31));
      }
      return;
  }
}
