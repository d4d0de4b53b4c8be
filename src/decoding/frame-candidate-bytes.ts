/**
 * The bytes a parser frame might consume next, over-approximated per frame kind. The
 * byte automaton (`json-automaton.ts`) marks every other byte of a new state dead up
 * front, so a structural state costs a handful of transition computations, not 256.
 * @module
 */
import { ArrayPhase, Kind, ObjectPhase, type Frame } from './automaton-frames.js';
import type { Alternative, ObjectAlternative, StringAlternative, ValueNode } from './grammar-ir.js';
import { NUMBER_SYMBOL_OF_BYTE } from './number-language.js';
import { markStringCandidateBytes } from './string-stepping.js';

/**
 * Sets the bytes `frame` might consume; false when that is too many to be worth listing.
 * Only ever sets bits, since several configurations of one state share `candidates`.
 */
export function markCandidateBytes(
  frame: Frame,
  alternatives: readonly (Alternative | undefined)[],
  literalNodes: ReadonlyMap<number, ValueNode>,
  flexible: boolean,
  candidates: Uint8Array,
): boolean {
  // whitespace is a candidate for every frame in the flexible layout (over-approximation is safe)
  if (flexible) {
    candidates[0x20] = 1;
    candidates[0x09] = 1;
    candidates[0x0a] = 1;
    candidates[0x0d] = 1;
  }
  switch (frame.kind) {
    case Kind.Done:
      return true;
    case Kind.Literal:
      for (const byte of literalNodes.get(frame.literalNode)!.literals!.children[frame.trieNode]!.keys()) candidates[byte] = 1;
      return true;
    case Kind.Number:
      for (let byte = 0x2b; byte <= 0x65; byte++) if (NUMBER_SYMBOL_OF_BYTE[byte]! >= 0) candidates[byte] = 1;
      candidates[0x45] = 1;
      // an item of a `uniqueNumbers` array finishes at the byte after it (its array's comma or close)
      candidates[0x2c] = 1;
      candidates[0x5d] = 1;
      return true;
    case Kind.Object:
      markObjectCandidateBytes(frame, alternatives[frame.alternative] as ObjectAlternative, candidates);
      return true;
    case Kind.Array:
      markArrayCandidateBytes(frame, candidates);
      return true;
    case Kind.String:
      markStringCandidateBytes(frame, alternatives[frame.alternative] as StringAlternative, candidates);
      return true;
  }
}

const NO_BYTES: readonly number[] = [];

/** Per phase: the bytes a frame in it may take, from `[phase, bytes]` entries (phases whose bytes a frame above reads take none). */
function bytesByPhase(entries: readonly (readonly [phase: number, bytes: readonly number[]])[]): (readonly number[])[] {
  const table: (readonly number[])[] = [];
  for (const [phase, bytes] of entries) table[phase] = bytes;
  return table;
}

/** Object phases other than `Key`, whose bytes come from the declared-keys trie; `PreValue` takes only whitespace. */
const OBJECT_PHASE_BYTES = bytesByPhase([
  [ObjectPhase.Open, [0x7b]],
  [ObjectPhase.First, [0x22, 0x7d]],
  [ObjectPhase.Next, [0x22, 0x7d]],
  [ObjectPhase.Colon, [0x3a]],
  [ObjectPhase.After, [0x2c, 0x7d]],
]);

const ARRAY_PHASE_BYTES = bytesByPhase([
  [ArrayPhase.Open, [0x5b]],
  [ArrayPhase.First, [0x5d]],
  [ArrayPhase.Next, [0x5d]],
  [ArrayPhase.After, [0x2c, 0x5d]],
]);

function markObjectCandidateBytes(frame: Frame, alternative: ObjectAlternative, candidates: Uint8Array): void {
  if (frame.phase === ObjectPhase.Key) {
    for (const byte of alternative.keys.children[frame.keyNode]!.keys()) candidates[byte] = 1;
    return;
  }
  for (const byte of OBJECT_PHASE_BYTES[frame.phase] ?? NO_BYTES) candidates[byte] = 1;
}

function markArrayCandidateBytes(frame: Frame, candidates: Uint8Array): void {
  for (const byte of ARRAY_PHASE_BYTES[frame.phase] ?? NO_BYTES) candidates[byte] = 1;
}
