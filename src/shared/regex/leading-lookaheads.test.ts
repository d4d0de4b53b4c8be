import { describe, expect, it } from 'vitest';
import { AutomatonWork, AutomatonWorkLimitError, CodePointDfa } from './code-point-dfa.js';
import { compileLinearRegExp, MAX_PATTERN_NFA_STATES } from './linear-regexp.js';
import { parsePattern, parseRegex, RegexUnsupportedError } from './parse-regex.js';

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

const LOOKAHEAD_PATTERNS = [
  '^(?!default$)',
  '^(?!default$).*',
  '^(?!-)[a-z0-9-]+$',
  '^(?=.*[A-Z])(?=.*\\d).{8,}$',
  '^(?!.*\\.\\.)[a-z.]+$',
  '^(?=a)(?!ab)',
  '^(?=)',
  '^(?!)',
  // bodies with `$` and with alternation
  '^(?=ab$|c)',
  '^(?!a|bc$)\\w*',
  '^(?=a$)',
  '^(?!$)',
  '^(?=(?:a|b)+$)(?!.*aa).*b$',
  // a `^` inside a body holds at offset 0; a second `^` after the lookaheads too
  '^(?=^a)',
  '^(?=a)^a',
  '^(?!x)(?=\\w{2})b',
  '^(?=[^]*😀)',
  '^(?=.*-)[^.]*\\.',
  '^(?=a{2,3})(?!a{3}b)a*',
];

/** Short strings over the pattern's own characters and a few others, each length up to 3 in full, then random longer ones. */
function texts(pattern: string, seed: number): string[] {
  const alphabet = [...new Set([...pattern.replace(/[\\^$()[\]{}|?*+=!]/g, ''), 'a', 'b', 'A', '1', '-', '.', '\n', '😀', '\ud800'])];
  const out = [''];
  for (let start = 0; start < out.length && out[start]!.length < 3; start++) for (const char of alphabet) out.push(out[start]! + char);
  const next = random(seed);
  for (let index = 0; index < 600; index++) {
    const length = Math.floor(next() * 14);
    let text = '';
    for (let char = 0; char < length; char++) text += alphabet[Math.floor(next() * alphabet.length)];
    out.push(text);
  }
  return [...out, 'default', 'defaults', 'xdefault', 'Passw0rd', 'passw0rd', 'PASSWORD1', 'Pw1', 'a..b', 'a.b', '-ab', 'ab-', 'aab', 'abab', 'aaab'];
}

describe('leading lookaheads: the same answers as new RegExp(pattern, "u").test', () => {
  it.each(LOOKAHEAD_PATTERNS.map((pattern, index) => [pattern, index]))('agrees on %j in the registry engine and the mask automaton', (pattern, index) => {
    const native = new RegExp(pattern, 'u');
    const linear = compileLinearRegExp(pattern);
    const automaton = CodePointDfa.fromPattern(parsePattern(pattern));
    const disagreements: string[] = [];
    let matched = 0;
    const all = texts(pattern, 500 + index);
    for (const text of all) {
      const expected = native.test(text);
      if (expected) matched++;
      if (linear.test(text) !== expected) disagreements.push(`linear ${JSON.stringify(text)}`);
      // the mask's automata read UTF-8 text, which holds no lone surrogate
      if (!/[\ud800-\udfff]/u.test(text) && automaton.matches(text) !== expected) disagreements.push(`automaton ${JSON.stringify(text)}`);
    }
    expect(disagreements).toEqual([]);
    if (pattern !== '^(?!)') expect(matched).toBeGreaterThan(0);
    if (pattern !== '^(?=)') expect(matched).toBeLessThan(all.length);
  });

  it('keeps source, flags and toString', () => {
    const linear = compileLinearRegExp('^(?!-)[a-z]+$');
    expect([linear.source, linear.flags, linear.toString()]).toEqual(['^(?!-)[a-z]+$', 'u', '/^(?!-)[a-z]+$/u']);
  });

  it('parses the lookaheads apart from the rest, each body anchored at the start', () => {
    const parsed = parsePattern('^(?=a)(?!b)c');
    expect(parsed.lookaheads.map(({ negative }) => negative)).toEqual([false, true]);
    expect(parsed.lookaheads.map(({ body }) => body)).toEqual([
      { type: 'concat', items: [{ type: 'assert-start' }, parseRegex('a')] },
      { type: 'concat', items: [{ type: 'assert-start' }, parseRegex('b')] },
    ]);
    expect(parsed.tree).toEqual({ type: 'concat', items: [{ type: 'assert-start' }, parseRegex('c')] });
    expect(parsePattern('^a|b')).toEqual({ tree: parseRegex('^a|b'), lookaheads: [] });
  });

  it('counts the states of every part against one NFA budget', () => {
    // about 3,000 states a part: three parts fit the budget of 10,000, four do not
    const part = 'a{1000}b{1000}c{1000}';
    expect(MAX_PATTERN_NFA_STATES).toBe(10_000);
    expect(() => compileLinearRegExp(`^(?=${part})(?=${part})${part}`)).not.toThrow();
    expect(() => compileLinearRegExp(`^(?=${part})(?=${part})(?=${part})${part}`)).toThrow(`more than ${MAX_PATTERN_NFA_STATES} automaton states`);
  });

  it.each([
    ['^(?=(a|b)*a(a|b){20}$)(a|b)*$', true],
    // a negative lookahead out of work must not let the text through as "the lookahead did not match"
    ['^(?!(a|b)*a(a|b){20}$)(a|b)*$', false],
  ])('answers "no match" when a lookahead of %j runs out of its share of the work budget', (pattern, matchesShort) => {
    const linear = compileLinearRegExp(pattern);
    const next = random(11);
    const noise = Array.from({ length: 50_000 }, () => (next() < 0.5 ? 'a' : 'b')).join('');
    expect(linear.test(`a${'b'.repeat(20)}`)).toBe(matchesShort);
    expect(linear.test(`${noise}a${'b'.repeat(20)}`)).toBe(false);
    expect(linear.test(`${noise}b${'b'.repeat(20)}`)).toBe(false);
    expect(linear.budgetExhaustions).toBe(2);
  });

  it('meters the automaton construction, past its budget refusing it by the named limit', () => {
    expect(() => CodePointDfa.fromPattern(parsePattern('^(?!.*a.{12}$).*'), new AutomatonWork(10_000))).toThrow(AutomatonWorkLimitError);
  });

  it.each([
    ['a(?=b)', 'lookahead/lookbehind assertions (a lookahead is supported only right after the leading ^ of the whole pattern'],
    ['(?!a)b', 'lookahead/lookbehind assertions (a lookahead is supported only right after'],
    ['^a(?=b)', 'lookahead/lookbehind assertions (a lookahead is supported only right after'],
    ['(?:^(?=a))', 'lookahead/lookbehind assertions (a lookahead is supported only right after'],
    ['^^(?=a)', 'lookahead/lookbehind assertions (a lookahead is supported only right after'],
    ['^(?=(?=a))', 'lookahead/lookbehind assertions (a lookahead is supported only right after'],
    ['^(?=(?<=a))', 'lookahead/lookbehind assertions (at offset'],
    ['(?<=a)b', 'lookahead/lookbehind assertions (at offset'],
    ['^(?<!a)b', 'lookahead/lookbehind assertions (at offset'],
    ['^(?!a)b|c', 'a lookahead in one alternative of several'],
    ['^(?=a)|b', 'a lookahead in one alternative of several'],
    ['^(?=(a))\\1', 'backreferences'],
    ['^(?=a', 'an unterminated lookahead'],
    ['^(?=a)*', 'a quantifier with nothing to repeat'],
  ])('refuses %j (%s)', (pattern, reason) => {
    expect(() => compileLinearRegExp(pattern)).toThrow(RegexUnsupportedError);
    expect(() => compileLinearRegExp(pattern)).toThrow(reason);
    expect(() => parsePattern(pattern)).toThrow(reason);
  });

  it('leaves parseRegex refusing every lookaround (a regex grammar is wrapped in a group, where a lookahead cannot lead)', () => {
    expect(() => parseRegex('^(?!a)b')).toThrow('lookahead/lookbehind assertions (at offset 1');
  });
});
