/**
 * Token lists grouped by their first byte, for the matcher's memory (`written-strings.ts`): a token whose first byte the
 * state refuses is not allowed, so a walk over a list skips each group whose byte the automaton's transition sends to
 * DEAD without reading its tokens' mask bits (Gemma 3's 6,254 tokens with a digit and another byte all begin with `<`
 * (`<unused…>`), read one by one at every mask inside an array of unique integers).
 * @module
 */
import type { Vocabulary } from './vocabulary.js';

/** The ids of a list by first byte, ascending within a group: byte b's group is `ids[starts[b], starts[b + 1])`. */
export interface FirstByteGroups {
  readonly ids: Int32Array;
  /** 257 entries. */
  readonly starts: Int32Array;
  /** The first bytes whose group is not empty, ascending (a walk reads only those). */
  readonly firstBytes: Uint8Array;
}

export function groupByFirstByte(ids: Int32Array, vocabulary: Vocabulary): FirstByteGroups {
  const firstByte = (id: number): number => vocabulary.tokenBytesFlat[vocabulary.tokenOffsets[id]!]!;
  const starts = new Int32Array(257);
  for (const id of ids) starts[firstByte(id) + 1]!++;
  for (let byte = 0; byte < 256; byte++) starts[byte + 1]! += starts[byte]!;
  const filled = starts.slice(0, 256);
  const grouped = new Int32Array(ids.length);
  for (const id of ids) grouped[filled[firstByte(id)]!++] = id;
  const firstBytes: number[] = [];
  for (let byte = 0; byte < 256; byte++) if (starts[byte + 1]! > starts[byte]!) firstBytes.push(byte);
  return { ids: grouped, starts, firstBytes: Uint8Array.from(firstBytes) };
}
