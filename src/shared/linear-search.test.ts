import { describe, expect, it } from 'vitest';
import { mulberry32 } from './seeded-random.js';
import { includesLinear, someOccurrence } from './linear-search.js';

/** Every occurrence start, by the obvious quadratic search. */
function occurrencesByIndexOf(haystack: string, needle: string): number[] {
  const starts: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1 && needle.length > 0; at = haystack.indexOf(needle, at + 1)) starts.push(at);
  return starts;
}

describe('linear search', () => {
  it('finds every occurrence, overlapping ones included, in order, as indexOf does (seeded, small alphabets)', () => {
    const random = mulberry32(11);
    const word = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    for (let trial = 0; trial < 3_000; trial++) {
      const alphabet = trial % 3 === 0 ? 'a' : trial % 3 === 1 ? 'ab' : 'abc\u{1F600}';
      const haystack = word(alphabet, Math.floor(random() * 40));
      const needle = word(alphabet, 1 + Math.floor(random() * 6));
      const starts: number[] = [];
      someOccurrence(haystack, needle, (start) => (starts.push(start), false));
      expect(starts, `${JSON.stringify(needle)} in ${JSON.stringify(haystack)}`).toEqual(occurrencesByIndexOf(haystack, needle));
      expect(includesLinear(haystack, needle)).toBe(haystack.includes(needle));
    }
  });

  it('stops at the first occurrence the visitor accepts, and treats an empty needle as includes does', () => {
    const visited: number[] = [];
    expect(someOccurrence('abababab', 'aba', (start) => (visited.push(start), start === 2))).toBe(true);
    expect(visited).toEqual([0, 2]);
    expect(someOccurrence('abc', '', () => true)).toBe(false);
    expect(includesLinear('abc', '')).toBe(true);
    expect(includesLinear('ab', 'abc')).toBe(false);
  });
});
