/**
 * The masks of a matcher that leaves walks out against a reference matcher of the same grammar that walks more (a test
 * switch set by `reference`), compared bit by bit at every step: the memory's skips must change no bit.
 */
import type { CompiledGrammar, GrammarMatcher } from '../../src/decoding/index.js';
import { maskHas, randomAllowedId } from './generation.js';

/**
 * Steps where the two masks differ (`label` names the tested matcher's answer), feeding `ids` and past them
 * `randomSteps` random tokens the reference allows, to both.
 */
export function maskDifferences(
  grammar: CompiledGrammar,
  reference: (matcher: GrammarMatcher) => void,
  label: string,
  ids: readonly number[],
  random: () => number,
  randomSteps: number,
): string[] {
  const vocabulary = grammar.vocabulary;
  const tested = grammar.matcher();
  const full = grammar.matcher();
  reference(full);
  const testedMask = new Uint32Array(vocabulary.maskWords);
  const fullMask = new Uint32Array(vocabulary.maskWords);
  const differences: string[] = [];
  for (let step = 0; step < ids.length + randomSteps && !tested.isTerminated(); step++) {
    tested.fillMask(testedMask);
    full.fillMask(fullMask);
    for (let word = 0; word < vocabulary.maskWords; word++) {
      if (testedMask[word] === fullMask[word]) continue;
      for (let bit = 0; bit < 32; bit++) {
        const id = word * 32 + bit;
        if (maskHas(testedMask, id) !== maskHas(fullMask, id))
          differences.push(`step ${step}, token ${id} ${JSON.stringify(vocabulary.tokenText(id))}: ${label} ${maskHas(testedMask, id)}`);
      }
    }
    let id = ids[step];
    if (id === undefined) {
      id = randomAllowedId(fullMask, vocabulary.maskWords, random);
      if (id < 0) break;
    }
    if (!maskHas(fullMask, id) || !tested.accept(id) || !full.accept(id)) break;
  }
  return differences;
}
