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

function markObjectCandidateBytes(frame: Frame, alternative: ObjectAlternative, candidates: Uint8Array): void {
  switch (frame.phase as ObjectPhase) {
    case ObjectPhase.Open:
      candidates[0x7b] = 1;
      return;
    case ObjectPhase.First:
    case ObjectPhase.Next:
      candidates[0x22] = 1;
      candidates[0x7d] = 1;
      return;
    case ObjectPhase.Key:
      for (const byte of alternative.keys.children[frame.keyNode]!.keys()) candidates[byte] = 1;
      return;
    case ObjectPhase.Colon:
      candidates[0x3a] = 1;
      return;
    case ObjectPhase.After:
      candidates[0x2c] = 1;
      candidates[0x7d] = 1;
      return;
    default:
      // PreValue takes only whitespace; AdditionalKey and Value sit under a frame that reads the bytes
      return;
  }
}

function markArrayCandidateBytes(frame: Frame, candidates: Uint8Array): void {
  switch (frame.phase as ArrayPhase) {
    case ArrayPhase.Open:
      candidates[0x5b] = 1;
      return;
    case ArrayPhase.First:
    case ArrayPhase.Next:
      candidates[0x5d] = 1;
      return;
    case ArrayPhase.After:
      candidates[0x2c] = 1;
      candidates[0x5d] = 1;
      return;
    default:
      return;
  }
}
