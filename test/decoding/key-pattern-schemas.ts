/**
 * Objects with more `patternProperties` than the key automaton used to allow (16 patterns on one object), written for
 * this repository: what decides their cost is how many sets of patterns a key can match, not how many patterns there
 * are. Each schema comes with keys that probe every pattern (a match, and near misses) and values at the bounds of
 * what the matched patterns allow, so a test can compare the mask with the registry on every pattern, not a sample.
 */

export interface KeyPatternCase {
  readonly name: string;
  readonly schema: Record<string, unknown>;
  /** Keys that probe every pattern: matches of each, keys matching several, and keys matching none. */
  readonly keys: readonly string[];
  /** Values written under each probing key: inside and just outside the bounds the patterns set, and other types. */
  readonly values: readonly unknown[];
  /** Properties every probing instance carries besides its probing key. */
  readonly base: Record<string, unknown>;
}

/** 32 patterns that exclude each other (`^x<i>_[a-z]+$`), closed, beside a required declared property: 33 key classes. */
function exclusivePrefixes(): KeyPatternCase {
  const patternProperties: Record<string, unknown> = {};
  const keys: string[] = [];
  for (let index = 0; index < 32; index++) {
    const values = [
      { type: 'integer', minimum: index, maximum: index + 2 },
      { type: 'string', maxLength: 1 },
      { type: 'boolean' },
      { enum: [index, `v${index}`] },
    ];
    patternProperties[`^x${index}_[a-z]+$`] = values[index % 4];
    // a match, a prefix of one (no letter after the underscore), and a near miss (a capital letter)
    keys.push(`x${index}_ab`, `x${index}_`, `x${index}_A`);
  }
  keys.push('x32_ab', 'id2', 'y0_ab');
  return {
    name: '32 patterns that exclude each other on a closed object',
    schema: {
      type: 'object',
      properties: { id: { type: 'integer', minimum: 0, maximum: 3 } },
      required: ['id'],
      patternProperties,
      additionalProperties: false,
    },
    keys,
    values: [-1, 0, 2, 3, 5, 31, 33, 34, 'a', 'ab', 'v5', true, null],
    base: { id: 1 },
  };
}

/**
 * 24 overlapping patterns: 12 on the first letter (`^a`…`^l`, each a minimum) and 12 on the last character (`0$`…`9$`,
 * `x$`, `y$`, each a maximum), so a key matches up to one of each and its value must meet both: 169 key classes, the
 * values of keys matching none are strings.
 */
function prefixesAndSuffixes(): KeyPatternCase {
  const firsts = 'abcdefghijkl'.split('');
  const lasts = '0123456789xy'.split('');
  const patternProperties: Record<string, unknown> = {};
  firsts.forEach((letter, index) => (patternProperties[`^${letter}`] = { type: 'integer', minimum: index }));
  lasts.forEach((last, index) => (patternProperties[`${last}$`] = { type: 'integer', maximum: 10 + index }));
  const keys: string[] = [];
  for (const first of [...firsts, 'z']) for (const last of [...lasts, 'q']) keys.push(`${first}m${last}`);
  keys.push('a', '5', 'A5');
  return {
    name: '24 overlapping prefix and suffix patterns with additional string values',
    schema: { type: 'object', patternProperties, additionalProperties: { type: 'string', maxLength: 2 }, maxProperties: 3 },
    keys,
    values: [-1, 5, 6, 11, 21, 22, 'ab', 'abc'],
    base: {},
  };
}

export const KEY_PATTERN_CASES: readonly KeyPatternCase[] = [exclusivePrefixes(), prefixesAndSuffixes()];

/** Every probing instance of a case: the base alone, the base with each key and each value, and two keys together. */
export function keyPatternInstances(testCase: KeyPatternCase): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [{ ...testCase.base }];
  for (const key of testCase.keys) for (const value of testCase.values) out.push({ ...testCase.base, [key]: value });
  // pairs of neighbouring keys with a value each allows, and a pair missing the base
  for (let index = 0; index + 1 < testCase.keys.length; index += 3) {
    out.push({ ...testCase.base, [testCase.keys[index]!]: 1, [testCase.keys[index + 1]!]: 'a' });
    out.push({ [testCase.keys[index]!]: 2, [testCase.keys[index + 1]!]: true });
  }
  return out;
}
