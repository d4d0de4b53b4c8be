/**
 * The sections of a vocabulary index file (`vocabulary-index-file.ts`): its typed arrays in
 * groups, each group one contiguous run of the file that is read at once into a fresh
 * `ArrayBuffer` and viewed in place, and the structure checks that keep a mask walk inside
 * its arrays. The `core` group (token bytes and offsets, the text-token bitset, the
 * vocabulary trie) is what a load reads; the others (the per-token string facts, the string
 * statistics' tries, their length lists) are read when first used, each under its own CRC-32.
 * @module
 */
import type { StringLengthLists } from './string-token-stats.js';
import type { TokenTrieArrays } from './token-trie.js';

export type ArrayKind = 'u8' | 'u16' | 'u32' | 'i32';
export type StoredArray = Uint8Array | Uint16Array | Uint32Array | Int32Array;

/** One typed array, at `offset` bytes from its group's start (a multiple of 8). */
export interface SectionEntry {
  name: string;
  kind: ArrayKind;
  offset: number;
  length: number;
}

/** A run of sections read at once: `offset` from the data start (a multiple of 8), `bytes` long, its CRC-32 (0 for `core`, which the preamble's covers). */
export interface GroupEntry {
  name: string;
  offset: number;
  bytes: number;
  crc: number;
  sections: SectionEntry[];
}

/** The group every load reads; the rest are read on first use. */
export const CORE_GROUP = 'core';
/** The per-token string facts' group, read when a string body's mask or a build from them first needs them. */
export const STRING_FACTS_GROUP = 'stringFacts';
/** The length lists' group, read when a length-bounded string first narrows a mask. */
export const LENGTH_LISTS_GROUP = 'lengthLists';

export function kindOf(array: StoredArray): ArrayKind {
  if (array instanceof Uint8Array) return 'u8';
  if (array instanceof Uint16Array) return 'u16';
  if (array instanceof Uint32Array) return 'u32';
  return 'i32';
}

const WIDTH: Record<ArrayKind, number> = { u8: 1, u16: 2, u32: 4, i32: 4 };

/** Lays `arrays` out as one group starting at `offset` (its CRC-32 is set once its bytes are written). */
export function layOutGroup(name: string, offset: number, arrays: ReadonlyMap<string, StoredArray>): GroupEntry {
  const sections: SectionEntry[] = [];
  let at = 0;
  for (const [section, array] of arrays) {
    at = align8(at);
    sections.push({ name: section, kind: kindOf(array), offset: at, length: array.length });
    at += array.byteLength;
  }
  return { name, offset, bytes: at, crc: 0, sections };
}

/** A group's sections written into `output` at `start`. */
export function writeGroup(output: Uint8Array, start: number, group: GroupEntry, arrays: ReadonlyMap<string, StoredArray>): void {
  for (const section of group.sections) {
    const array = arrays.get(section.name)!;
    output.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), start + section.offset);
  }
}

/** Whether a group entry read from a header is well formed (its sections are checked when it is viewed). */
export function isGroupEntry(value: unknown): value is GroupEntry {
  if (typeof value !== 'object' || value === null) return false;
  const group = value as Partial<GroupEntry>;
  return (
    typeof group.name === 'string' &&
    Number.isSafeInteger(group.offset) &&
    Number.isSafeInteger(group.bytes) &&
    Number.isSafeInteger(group.crc) &&
    group.offset! >= 0 &&
    group.offset! % 8 === 0 &&
    group.bytes! >= 0 &&
    Array.isArray(group.sections)
  );
}

/**
 * The group's sections as views over `buffer`, whose byte `base` is the group's first
 * (`base` a multiple of 8): each must lie inside the group. No copy.
 */
export function viewGroup(buffer: ArrayBufferLike, base: number, group: GroupEntry): Map<string, StoredArray> {
  const views = new Map<string, StoredArray>();
  for (const section of group.sections) {
    const width = WIDTH[section.kind] ?? 0;
    if (width === 0) throw new Error(`section ${String(section.name)} has an unknown element kind`);
    if (
      !Number.isSafeInteger(section.length) ||
      !Number.isSafeInteger(section.offset) ||
      section.length < 0 ||
      section.offset < 0 ||
      section.offset % 8 !== 0 ||
      section.offset + section.length * width > group.bytes
    )
      throw new Error(`section ${section.name} lies outside the file`);
    const start = base + section.offset;
    const view =
      section.kind === 'u8'
        ? new Uint8Array(buffer, start, section.length)
        : section.kind === 'u16'
          ? new Uint16Array(buffer, start, section.length)
          : section.kind === 'u32'
            ? new Uint32Array(buffer, start, section.length)
            : new Int32Array(buffer, start, section.length);
    views.set(section.name, view);
  }
  return views;
}

/** Takes a named section of the expected type (and length, when given) from a group's views. */
export type TakeSection = <T extends StoredArray>(name: string, type: new (...args: never[]) => T, length?: number) => T;

export function sectionTaker(views: ReadonlyMap<string, StoredArray>): TakeSection {
  return <T extends StoredArray>(name: string, type: new (...args: never[]) => T, length?: number): T => {
    const array = views.get(name);
    if (!(array instanceof type)) throw new Error(`section ${name} is missing`);
    if (length !== undefined && array.length !== length) throw new Error(`section ${name} has ${array.length} entries, not ${length}`);
    return array;
  };
}

/**
 * What a trie stores. Its subtree ends (`nodeEnd`) follow from the depths and are derived on
 * reading, so no file can hold an end that would stall a walk; its same-bytes chains are
 * stored as the few (token, next) pairs there are instead of one entry per id; the content
 * walk's token slices (`tokenOrder`, `tokenStart`) are derived on first use.
 */
export const TRIE_FIELDS = ['nodeByte', 'nodeDepth', 'nodeToken'] as const;

/** A trie's stored sections, under `name.` in `arrays`. */
export function addTrieSections(arrays: Map<string, StoredArray>, name: string, trie: TokenTrieArrays): void {
  for (const field of TRIE_FIELDS) arrays.set(`${name}.${field}`, trie[field]);
  arrays.set(`${name}.sameBytesPairs`, sameBytesPairs(trie.nextSameBytes));
}

/** The trie `name` back from its sections, checked and its subtree ends and same-bytes chains derived. */
export function trieFromSections(take: TakeSection, name: string, maxDepth: unknown, size: number): TokenTrieArrays {
  const nodeByte = take(`${name}.nodeByte`, Uint8Array);
  const nodes = nodeByte.length;
  if (typeof maxDepth !== 'number' || !Number.isSafeInteger(maxDepth) || maxDepth < 0 || maxDepth > 0xffff) throw new Error(`${name} has a damaged depth`);
  const nodeDepth = take(`${name}.nodeDepth`, Uint16Array, nodes);
  const nodeToken = take(`${name}.nodeToken`, Int32Array, nodes);
  return {
    nodeByte,
    nodeDepth,
    nodeEnd: subtreeEnds(name, nodeDepth, nodeToken, maxDepth, size),
    nodeToken,
    nextSameBytes: sameBytesChains(name, take(`${name}.sameBytesPairs`, Int32Array), size),
    maxDepth,
  };
}

export const LENGTH_LIST_FIELDS = ['longestFirst', 'longerThan', 'closingShortestFirst', 'closingShorterThan', 'denseBudgets'] as const;

/** The length lists back from their sections, their cuts checked (they bound the loops that clear listed ids). */
export function lengthListsFromSections(take: TakeSection, maxConsumed: number, maskWords: number): StringLengthLists {
  const lists: StringLengthLists = {
    longestFirst: take('stats.longestFirst', Uint32Array),
    longerThan: take('stats.longerThan', Int32Array, maxConsumed + 1),
    closingShortestFirst: take('stats.closingShortestFirst', Uint32Array),
    closingShorterThan: take('stats.closingShorterThan', Int32Array, maxConsumed + 2),
    denseBudgets: take('stats.denseBudgets', Uint32Array),
  };
  // token ids in the lists are left to the checksum: a wrong one gives a wrong mask, not an endless walk
  checkCuts('stats.longerThan', lists.longerThan, lists.longestFirst.length, true);
  checkCuts('stats.closingShorterThan', lists.closingShorterThan, lists.closingShortestFirst.length);
  if (lists.denseBudgets.length % Math.max(1, maskWords) !== 0) throw new Error('section stats.denseBudgets is not whole masks');
  return lists;
}

/** The same-bytes chains as (token, next) pairs: only SentencePiece byte fallback and duplicate spellings have any. */
function sameBytesPairs(nextSameBytes: Int32Array): Int32Array {
  const pairs: number[] = [];
  for (let token = 0; token < nextSameBytes.length; token++) if (nextSameBytes[token] !== -1) pairs.push(token, nextSameBytes[token]!);
  return Int32Array.from(pairs);
}

/** Per token id, the next token with the same bytes or -1, from stored pairs whose chains must ascend (so every chain ends). */
function sameBytesChains(name: string, pairs: Int32Array, size: number): Int32Array {
  if (pairs.length % 2 !== 0) throw new Error(`section ${name}.sameBytesPairs is not whole pairs`);
  const chains = new Int32Array(size).fill(-1);
  for (let at = 0; at < pairs.length; at += 2) {
    const token = pairs[at]!;
    const next = pairs[at + 1]!;
    if (token < 0 || next <= token || next >= size) throw new Error(`${name} has a damaged same-bytes chain`);
    chains[token] = next;
  }
  return chains;
}

/**
 * Each node's subtree end, derived from the depths of the DFS layout (a subtree ends at the
 * next node no deeper than its root), while checking what the mask walks rely on: the first
 * node is a token's first byte, a node is at most one deeper than the node before it (so a
 * walk's stack slot for its parent is always set), depths stay within `maxDepth`, and token
 * ids are in range. Derived ends always lie after their node, so a walk always advances.
 *
 * The loop runs once per process, mostly before the JIT optimizes it, so it only ORs its
 * verdict; the slow search for what is wrong runs only when something is.
 */
function subtreeEnds(name: string, nodeDepth: Uint16Array, nodeToken: Int32Array, maxDepth: number, size: number): Uint32Array {
  const nodes = nodeDepth.length;
  const ends = new Uint32Array(nodes);
  const open = new Uint32Array(maxDepth + 1);
  let top = 0;
  let damaged = 0;
  for (let node = 0; node < nodes; node++) {
    const depth = nodeDepth[node]!;
    const token = nodeToken[node]!;
    damaged |= +(depth < 1) | +(depth > top + 1) | +(depth > maxDepth) | +(token < -1) | +(token >= size);
    while (top >= depth && top > 0) ends[open[top--]!] = node;
    top = depth;
    open[depth] = node;
  }
  if (damaged !== 0) {
    let previous = 0;
    for (let node = 0; node < nodes; node++) {
      const depth = nodeDepth[node]!;
      const token = nodeToken[node]!;
      if (depth < 1 || depth > previous + 1 || depth > maxDepth || token < -1 || token >= size) throw new Error(`${name} node ${node} is damaged`);
      previous = depth;
    }
  }
  while (top > 0) ends[open[top--]!] = nodes;
  return ends;
}

/** Positions into a list of `length` entries, ascending unless `descending`. */
export function checkCuts(name: string, cuts: Uint32Array | Int32Array, length: number, descending = false): void {
  const sign = descending ? -1 : 1;
  let damaged = 0;
  let previous = cuts.length === 0 ? 0 : cuts[0]!;
  for (let index = 0; index < cuts.length; index++) {
    const cut = cuts[index]!;
    damaged |= +(cut < 0) | +(cut > length) | +(sign * (cut - previous) < 0);
    previous = cut;
  }
  if (damaged !== 0) throw new Error(`section ${name} is damaged`);
}

export function align8(value: number): number {
  return (value + 7) & ~7;
}
