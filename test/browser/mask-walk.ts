/**
 * The walk the browser test runs twice, in Node and bundled into a page in Chromium: compile each tool schema over a
 * vocabulary, feed it fixed token sequences, and write down at every step what the mask allowed (the count and a hash
 * of its bits), whether the sequence's token was accepted, and which of a few probe tokens `accept` took. Equal
 * records mean equal masks at every step. Imports only the decoding entry, so the page's bundle is that entry.
 */
import { compileJsonSchema, type Vocabulary } from '../../src/decoding/index.js';

export interface MaskCase {
  readonly name: string;
  readonly schema: unknown;
  /** Token sequences to feed, each a valid call followed by an end-of-sequence id. */
  readonly sequences: readonly (readonly number[])[];
}

export interface MaskCases {
  readonly cases: readonly MaskCase[];
  /** Tokens tried (then rolled back) at every step: structural bytes, letters, EOS; most are refused at most steps. */
  readonly probes: readonly number[];
}

/** One step: allowed-token count, FNV-1a hash of the mask words, the sequence token's accept, probes' accept as bits. */
export type StepRecord = readonly [allowed: number, maskHash: number, accepted: boolean, probesAccepted: number];

export interface CaseRecord {
  readonly name: string;
  /** The error code when the schema does not compile (the same in both runtimes, or the test fails). */
  readonly compileError?: string;
  readonly sequences: readonly (readonly StepRecord[])[];
  /** Whether the matcher was terminated after each sequence's last token. */
  readonly terminated: readonly boolean[];
}

export function walkMaskCases(vocabulary: Vocabulary, input: MaskCases): CaseRecord[] {
  return input.cases.map((maskCase) => walkCase(vocabulary, maskCase, input.probes));
}

function walkCase(vocabulary: Vocabulary, maskCase: MaskCase, probes: readonly number[]): CaseRecord {
  let grammar;
  try {
    grammar = compileJsonSchema(maskCase.schema, vocabulary);
  } catch (error) {
    return { name: maskCase.name, compileError: String((error as { code?: unknown }).code ?? error), sequences: [], terminated: [] };
  }
  const mask = new Uint32Array(vocabulary.maskWords);
  const sequences: StepRecord[][] = [];
  const terminated: boolean[] = [];
  for (const tokens of maskCase.sequences) {
    const matcher = grammar.matcher();
    const steps: StepRecord[] = [];
    for (const token of tokens) {
      if (matcher.isTerminated()) break;
      matcher.fillMask(mask);
      let probesAccepted = 0;
      probes.forEach((probe, index) => {
        if (!matcher.accept(probe)) return;
        probesAccepted |= 1 << index;
        matcher.rollback(1);
      });
      const accepted = matcher.accept(token);
      steps.push([popcount(mask), fnv1a(mask), accepted, probesAccepted]);
      if (!accepted) break;
    }
    sequences.push(steps);
    terminated.push(matcher.isTerminated());
  }
  return { name: maskCase.name, sequences, terminated };
}

function popcount(mask: Uint32Array): number {
  let count = 0;
  for (const word of mask) {
    let bits = word;
    while (bits !== 0) {
      bits &= bits - 1;
      count++;
    }
  }
  return count;
}

function fnv1a(mask: Uint32Array): number {
  let hash = 0x811c9dc5;
  for (const word of mask) {
    for (let shift = 0; shift < 32; shift += 8) {
      hash ^= (word >>> shift) & 0xff;
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
  }
  return hash;
}
