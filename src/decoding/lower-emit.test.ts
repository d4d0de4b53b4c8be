import { describe, expect, it } from 'vitest';
import { byteVocabulary } from '../../test/decoding/byte-vocabulary.js';
import { DEFAULT_DECODING_LIMITS } from './decoding-limits.js';
import type { ObjectAlternative } from './grammar-ir.js';
import { lowerJsonSchema } from './lower-json-schema.js';

function objectAlternatives(schema: unknown): ObjectAlternative[] {
  const lowered = lowerJsonSchema(schema, { lenient: false, schemas: {}, cache: byteVocabulary().grammarCache, limits: DEFAULT_DECODING_LIMITS });
  return lowered.nodes.flatMap((node) => node.alternatives.filter((alternative): alternative is ObjectAlternative => alternative.kind === 'object'));
}

describe('object alternatives that lay out the same names', () => {
  // a recursive or large schema repeats its names in every object alternative: one trie each, not one per alternative
  const schema = {
    type: 'object',
    properties: { first: { $ref: '#/$defs/pair' }, second: { $ref: '#/$defs/other' }, third: { $ref: '#/$defs/renamed' } },
    $defs: {
      pair: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'string' } }, required: ['a'] },
      other: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'boolean' } } },
      renamed: { type: 'object', properties: { a: { type: 'integer' }, c: { type: 'string' } } },
    },
  };

  it('share one key trie and one excluded-name trie; other names get their own', () => {
    const alternatives = objectAlternatives(schema);
    const named = (names: string) => alternatives.filter((alternative) => alternative.properties.map((property) => property.name).join(',') === names);
    const [sameNames, [renamed]] = [named('a,b'), named('a,c')];
    expect(sameNames).toHaveLength(2);
    expect(sameNames[0]!.keys).toBe(sameNames[1]!.keys);
    expect(sameNames[0]!.keyValues).toBe(sameNames[1]!.keyValues);
    const excludedOf = (alternative: ObjectAlternative) => alternative.keyClasses.flatMap((keyClass) => keyClass.keys.map((key) => key.exclude));
    expect(excludedOf(sameNames[0]!)[0]).toBe(excludedOf(sameNames[1]!)[0]);
    expect(renamed!.keys).not.toBe(sameNames[0]!.keys);
    // the shared trie still holds the names, each at its own index
    const keyAt = (alternative: ObjectAlternative, text: string): number => {
      let node = 0;
      for (const byte of new TextEncoder().encode(text)) node = alternative.keys.children[node]!.get(byte) ?? -1;
      return alternative.keys.terminal[node]!;
    };
    expect([keyAt(sameNames[1]!, '"a"'), keyAt(sameNames[1]!, '"b"'), keyAt(renamed!, '"c"')]).toEqual([0, 1, 1]);
  });
});
