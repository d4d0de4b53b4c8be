/**
 * A token mask kept in whichever of four forms is smallest (XGrammar's adaptive token
 * mask): the allowed ids, the rejected ids, a bitset, or a bitset held elsewhere with a
 * few ids flipped.
 * @module
 */

const enum Storage {
  Allowed = 0,
  Rejected = 1,
  Bitset = 2,
  Patched = 3,
}

export interface StoredMask {
  readonly storage: Storage;
  /** The ids (allowed, rejected or flipped) or the bitset. */
  readonly data: Uint32Array;
  /** Tokens allowed, or `UNCOUNTED`. */
  readonly count: number;
  /** For a patched mask: the bitset it flips `data` in, owned by someone else (not counted as its bytes). Empty otherwise. */
  readonly base: Uint32Array;
}

/**
 * `count` of a mask nobody reads the count of: the bitset a length-bounded position keeps after
 * a dense AND (counting it would be a pass over the mask at a first visit, for nothing).
 */
export const UNCOUNTED = -1;

/** `base` of the forms that have none: one shape for every stored mask keeps `loadMask` monomorphic. */
const NO_BASE = new Uint32Array(0);

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
    return { storage: Storage.Allowed, data, count, base: NO_BASE };
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
    return { storage: Storage.Rejected, data, count, base: NO_BASE };
  }
  return storeBitset(bits, count, words);
}

/** A bitset of `count` allowed tokens whatever the count: the fastest form to write back, for masks written most often. */
export function storeBitset(bits: Uint32Array, count: number, words: number): StoredMask {
  return { storage: Storage.Bitset, data: bits.slice(0, words), count, base: NO_BASE };
}

/** A short allowed list straight from the ids a walk collected (no pass over the bitset). */
export function storeAllowedList(ids: Uint32Array, count: number): StoredMask {
  return { storage: Storage.Allowed, data: ids.slice(0, count), count, base: NO_BASE };
}

/**
 * `base` (a bitset of the mask's words that outlives the stored mask, such as the mask a
 * length-bounded position narrows) with the first `length` of `ids` flipped, `count` tokens
 * allowed in all.
 */
export function storePatched(base: Uint32Array, ids: Uint32Array, length: number, count: number): StoredMask {
  return { storage: Storage.Patched, data: ids.slice(0, length), count, base };
}

/** The ids of the allowed list `stored` that are still set in `mask`, as an allowed list; undefined when `stored` is not a list of allowed ids. */
export function narrowAllowedList(stored: StoredMask, mask: Uint32Array): StoredMask | undefined {
  if (stored.storage !== Storage.Allowed) return undefined;
  const ids = stored.data;
  let count = 0;
  for (let index = 0; index < ids.length; index++) if ((mask[ids[index]! >>> 5]! & (1 << (ids[index]! & 31))) !== 0) count++;
  const data = new Uint32Array(count);
  let at = 0;
  for (let index = 0; index < ids.length; index++) if ((mask[ids[index]! >>> 5]! & (1 << (ids[index]! & 31))) !== 0) data[at++] = ids[index]!;
  return { storage: Storage.Allowed, data, count, base: NO_BASE };
}

/** The bitset of a mask stored as one (to narrow others over it), or undefined. */
export function bitsetOf(stored: StoredMask): Uint32Array | undefined {
  return stored.storage === Storage.Bitset ? stored.data : undefined;
}

/** Most ids `storeMask` keeps as a list rather than a bitset, for a mask of `words` words. */
export function listLimit(words: number): number {
  return words >>> 3;
}

/**
 * Most ids a derived mask keeps as flips of its twin's bitset, for a mask of `words` words;
 * past it the bitset is kept. Flipping ids is a loop per id while copying a bitset is one
 * native copy, and the loop is slowest before the JIT has optimized it, in the first
 * generations of a process: a 493-id patch measured 18–22 µs there against 2 µs for the copy.
 */
export function patchLimit(words: number): number {
  return words >>> 6;
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
    case Storage.Patched:
      mask.set(stored.base);
      for (let index = 0; index < data.length; index++) {
        const id = data[index]!;
        mask[id >>> 5]! ^= 1 << (id & 31);
      }
      return;
  }
}
