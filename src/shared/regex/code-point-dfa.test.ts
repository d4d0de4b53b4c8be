import { describe, expect, it } from 'vitest';
import { AutomatonWork, AutomatonWorkLimitError, CodePointDfa } from './code-point-dfa.js';
import { parseRegex, RegexUnsupportedError, splitCountedTail } from './parse-regex.js';

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

/** Strings over the pattern's own characters plus a few others, so matches and misses both occur. */
function samples(pattern: string, count: number, seed: number): string[] {
  const alphabet = [...new Set([...pattern.replace(/[\\^$()[\]{}|?*+.]/g, ''), 'a', 'Z', '0', '9', '_', '-', ' ', '\n', 'é', '😀', '@', '.'])];
  const next = random(seed);
  const out: string[] = [''];
  for (let index = 0; index < count; index++) {
    const length = Math.floor(next() * 12);
    let text = '';
    for (let char = 0; char < length; char++) text += alphabet[Math.floor(next() * alphabet.length)];
    out.push(text);
  }
  return out;
}

const PATTERNS = [
  '^usr_[a-zA-Z0-9]{3}$',
  'abc',
  '^a*$',
  '^[^@\\s]+@\\S+\\.[a-z]{2,}$',
  '^(?:x|y)+z?$',
  '^\\d{2,4}-\\w+$',
  '😀+',
  '^[\\u00e0-\\u00ff]+$',
  '^(a|ab)(c|bcd)$',
  '[.]$',
  '^(?<word>[a-z]+)\\s\\k?$'.replace('\\k?', ''),
  '^\\x41\\u{1F600}?\\t?$',
  '^[^a-c]*$',
  'é|^Z',
  '^.{2}$',
];

describe('CodePointDfa.fromRegex', () => {
  it.each(PATTERNS)('agrees with ECMAScript RegExp (u flag) on sampled strings: /%s/', (pattern) => {
    const dfa = CodePointDfa.fromRegex(parseRegex(pattern));
    const regex = new RegExp(pattern, 'u');
    const mismatches = samples(pattern, 400, pattern.length).filter((text) => dfa.matches(text) !== regex.test(text));
    expect(mismatches).toEqual([]);
  });

  it('is minimal for simple languages (equivalent states merge)', () => {
    expect(CodePointDfa.fromRegex(parseRegex('^usr_[a-zA-Z0-9]*$')).stateCount).toBe(5);
    expect(CodePointDfa.fromRegex(parseRegex('^a*$')).stateCount).toBe(1);
  });

  it('intersects patterns', () => {
    const both = CodePointDfa.intersect([CodePointDfa.fromRegex(parseRegex('^[a-z]+$')), CodePointDfa.fromRegex(parseRegex('x'))]);
    expect(['x', 'axb', 'ab', 'X', ''].map((text) => both.matches(text))).toEqual([true, true, false, false, false]);
    const empty = CodePointDfa.intersect([CodePointDfa.fromRegex(parseRegex('^a$')), CodePointDfa.fromRegex(parseRegex('^b$'))]);
    expect(empty.start).toBe(-1);
  });

  it.each(PATTERNS)('complements exactly, trimmed (every state still reaches acceptance): /%s/', (pattern) => {
    const dfa = CodePointDfa.fromRegex(parseRegex(pattern));
    const complement = dfa.complement();
    const mismatches = samples(pattern, 400, pattern.length + 1).filter((text) => complement.matches(text) === dfa.matches(text));
    expect(mismatches).toEqual([]);
    expect(complement.complement().stateCount).toBe(dfa.stateCount);
    const live = complement.accepting.every((_, state) => reachesAcceptance(complement, state));
    expect(live).toBe(true);
  });

  it('builds finite sets of strings, and their complements', () => {
    const set = CodePointDfa.literals(['ab', 'a', '😀', '']);
    expect(['ab', 'a', '😀', '', 'b', 'abc', '😀😀'].map((text) => set.matches(text))).toEqual([true, true, true, true, false, false, false]);
    expect(['ab', 'b', 'abc'].map((text) => set.complement().matches(text))).toEqual([false, true, true]);
    expect(CodePointDfa.literals([]).start).toBe(-1);
    expect(CodePointDfa.literals([]).complement().matches('anything')).toBe(true);
  });

  it("folds ASCII case when asked (the formats' /i)", () => {
    const dfa = CodePointDfa.fromRegex(parseRegex('^[a-f]+z$', { ignoreAsciiCase: true }));
    expect(['abZ', 'ABz', 'gZ'].map((text) => dfa.matches(text))).toEqual([true, true, false]);
  });
});

describe('parseRegex refusals', () => {
  it.each([
    ['(?=a)b', 'lookahead/lookbehind assertions'],
    ['(?<!a)b', 'lookahead/lookbehind assertions'],
    ['(a)\\1', 'backreferences'],
    ['\\bword', 'word-boundary assertions'],
    ['\\p{Foo}+', 'not a property the u flag knows'],
    ['a{2000}', 'a {n,m} count above 1000'],
    ['a{', 'a quantifier without a number'],
    ['\\a', 'the escape \\a (invalid with the u flag)'],
    ['(a', 'an unterminated group'],
  ])('refuses /%s/ naming %s', (pattern, reason) => {
    expect(() => parseRegex(pattern)).toThrow(RegexUnsupportedError);
    expect(() => parseRegex(pattern)).toThrow(reason);
  });
});

describe('splitCountedTail', () => {
  it('moves a counted tail after a fixed-length prefix into length bounds', () => {
    const split = splitCountedTail(parseRegex('^usr_[a-zA-Z0-9]{20}$'))!;
    expect([split.minLength, split.maxLength]).toEqual([24, 24]);
    const dfa = CodePointDfa.fromRegex(split.tree);
    expect(['usr_', 'usr_abc', 'usx_'].map((text) => dfa.matches(text))).toEqual([true, true, false]);
  });

  it('leaves patterns alone when the prefix length varies or the tail is unbounded', () => {
    expect(splitCountedTail(parseRegex('^a+b{3}$'))).toBeUndefined();
    expect(splitCountedTail(parseRegex('^ab+$'))).toBeUndefined();
    expect(splitCountedTail(parseRegex('ab{3}$'))).toBeUndefined();
    expect(splitCountedTail(parseRegex('^\\+[1-9][0-9]{6,14}$'))).toMatchObject({ minLength: 8, maxLength: 16 });
  });
});

function reachesAcceptance(dfa: CodePointDfa, from: number): boolean {
  const seen = new Set([from]);
  const stack = [from];
  while (stack.length > 0) {
    const state = stack.pop()!;
    if (dfa.accepting[state] === 1) return true;
    const ranges = dfa.transitions[state]!;
    for (let index = 2; index < ranges.length; index += 3) {
      if (!seen.has(ranges[index]!)) {
        seen.add(ranges[index]!);
        stack.push(ranges[index]!);
      }
    }
  }
  return false;
}

describe('AutomatonWork', () => {
  it('meters a construction without changing its automaton, the same count every time, and refuses past its budget', () => {
    const sources = ['^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$', '(a|b)*a(a|b){6}', '^(.*a){12}$', 'x{3,40}y'];
    for (const source of sources) {
      const first = new AutomatonWork(Number.POSITIVE_INFINITY);
      const metered = CodePointDfa.fromRegex(parseRegex(source), first);
      const second = new AutomatonWork(Number.POSITIVE_INFINITY);
      CodePointDfa.fromRegex(parseRegex(source), second);
      const plain = CodePointDfa.fromRegex(parseRegex(source));
      expect({ source, states: metered.stateCount, accepting: [...metered.accepting] }).toEqual({
        source,
        states: plain.stateCount,
        accepting: [...plain.accepting],
      });
      expect(second.spent).toBe(first.spent);
      expect(first.spent).toBeGreaterThan(0);
      expect(() => CodePointDfa.fromRegex(parseRegex(source), new AutomatonWork(first.spent - 1))).toThrow(AutomatonWorkLimitError);
      expect(CodePointDfa.fromRegex(parseRegex(source), new AutomatonWork(first.spent)).stateCount).toBe(plain.stateCount);
    }
  });

  it('meters products and complements, and a budget spent stays spent for the next construction', () => {
    const work = new AutomatonWork(Number.POSITIVE_INFINITY);
    const left = CodePointDfa.fromRegex(parseRegex('^[a-c]{2,9}$'));
    const right = CodePointDfa.fromRegex(parseRegex('a'));
    CodePointDfa.intersect([left, right], work);
    const afterProduct = work.spent;
    expect(afterProduct).toBeGreaterThan(0);
    left.complement(work);
    expect(work.spent).toBeGreaterThan(afterProduct);
    const small = new AutomatonWork(afterProduct);
    CodePointDfa.intersect([left, right], small);
    expect(() => CodePointDfa.literals(['a'], small)).toThrow(AutomatonWorkLimitError);
  });
});
