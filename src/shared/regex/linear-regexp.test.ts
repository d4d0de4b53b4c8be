import { describe, expect, it } from 'vitest';
import { tools as badTools } from '../../../examples/bad-tools/index.js';
import { tools as conjugateTools } from '../../../examples/conjugate/index.js';
import { tools as subscriptionTools } from '../../../examples/subscriptions/index.js';
import { compileLinearRegExp } from './linear-regexp.js';
import { parseRegex, RegexUnsupportedError, type RegexNode } from './parse-regex.js';

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

function patternsIn(node: unknown): string[] {
  if (typeof node !== 'object' || node === null) return [];
  const own = !Array.isArray(node) && typeof (node as { pattern?: unknown }).pattern === 'string' ? [(node as { pattern: string }).pattern] : [];
  return [...own, ...Object.values(node).flatMap(patternsIn)];
}

const examplePatterns = [...badTools, ...conjugateTools, ...subscriptionTools].flatMap((tool) => patternsIn(tool.inputSchema));

const PATTERNS = [
  ...new Set([
    ...examplePatterns,
    '^inv_[0-9]{6}$',
    '^\\+[1-9][0-9]{6,14}$',
    '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}$',
    '^[0-9]{4}-(0[1-9]|1[0-2])$',
    '\\d+',
    '\\D',
    '\\w+\\s\\W',
    '\\S*x',
    '[^a-c]',
    '[\\d-]',
    '[a\\-z]',
    '[\\w.]+',
    '^[\\u00e9\\u{1F600}]+$',
    '\\u{1F600}',
    '[😀-😂]',
    '😀+',
    '.',
    '^.*$',
    '^.$',
    'a.c',
    '(?:ab|a)(?:bc|c)',
    'a{2,4}',
    '^a{3}$',
    'a{2,}b',
    '^(a|ab)(c|bcd)(d*)$',
    '^$',
    '^',
    '$',
    '',
    'a^b',
    'a$b',
    '(^a|b$)',
    '(?:^|,)x(?:,|$)',
    'x*?y',
    'x+?y??z{1,2}?',
    '(?<year>\\d{4})-(?<month>\\d\\d)',
    '[^]',
    '[]',
    'a[]|b',
    '\\x41\\u0042\\cJ',
    '\\t\\n\\v\\f\\r\\0',
    '[\\b]',
    '\\/',
    '\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$',
    '^(a+)+$',
    '^(\\w+\\s?)*$',
    '(a|b)*a(a|b){5}',
    '^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$',
    '^\\s*$',
    '\\s',
    '\\uD83D\\uDE00',
    '\\uD800',
    '[\\uD800-\\uDFFF]',
    '^[^\\n]*$',
    'é',
    '[\\s\\S]',
    '^[^a-z]{2,3}$',
    '(?:a|b|)+c',
    '((a)|b)*?c',
    '^(?:[a-z]|\\d{2})*$',
  ]),
];

/** A string the pattern is likely to match: walks the tree choosing branches, counts and characters at random. */
function sample(node: RegexNode, next: () => number, out: string[]): void {
  switch (node.type) {
    case 'set': {
      if (node.set.length === 0) return;
      const range = Math.floor(next() * (node.set.length / 2)) * 2;
      const lo = node.set[range]!;
      const hi = node.set[range + 1]!;
      const span = Math.min(hi - lo, next() < 0.7 ? 30 : hi - lo);
      out.push(String.fromCodePoint(lo + Math.floor(next() * (span + 1))));
      return;
    }
    case 'concat':
      for (const item of node.items) sample(item, next, out);
      return;
    case 'alt':
      if (node.items.length > 0) sample(node.items[Math.floor(next() * node.items.length)]!, next, out);
      return;
    case 'repeat': {
      const max = Math.min(node.max, node.min + 4);
      const count = node.min + Math.floor(next() * (max - node.min + 1));
      for (let index = 0; index < count; index++) sample(node.item, next, out);
      return;
    }
    default:
      return;
  }
}

const NOISE = ['a', 'b', 'c', 'x', 'Z', '0', '9', '_', '-', ' ', '.', '\n', '\r', '\t', '\u2028', '\u00a0', 'é', '😀', '😂', '\ud800', '\udc00', ',', '+', '@'];

function generatedStrings(pattern: string, count: number, seed: number): string[] {
  const next = random(seed);
  const tree = parseRegex(pattern, { loneSurrogates: true });
  const own = [...new Set(Array.from(pattern))];
  const alphabet = [...NOISE, ...own];
  const texts: string[] = [''];
  for (let index = 0; index < count; index++) {
    const parts: string[] = [];
    if (next() < 0.6) {
      sample(tree, next, parts);
      // Mutate a likely match: drop, repeat or replace one character, or add text around it.
      const roll = next();
      const at = Math.floor(next() * (parts.length + 1));
      if (roll < 0.15 && parts.length > 0) parts.splice(Math.min(at, parts.length - 1), 1);
      else if (roll < 0.3) parts.splice(at, 0, alphabet[Math.floor(next() * alphabet.length)]!);
      else if (roll < 0.4) parts.unshift(alphabet[Math.floor(next() * alphabet.length)]!);
      else if (roll < 0.5) parts.push(alphabet[Math.floor(next() * alphabet.length)]!);
    } else {
      const length = Math.floor(next() * 12);
      for (let position = 0; position < length; position++) parts.push(alphabet[Math.floor(next() * alphabet.length)]!);
    }
    texts.push(parts.join(''));
  }
  return texts;
}

describe('compileLinearRegExp: the same answers as new RegExp(pattern, "u").test', () => {
  it('covers the example tool packs', () => {
    expect(examplePatterns.length).toBeGreaterThan(5);
  });

  it.each(PATTERNS.map((pattern, index) => [pattern, index]))('agrees on %j', (pattern, index) => {
    const native = new RegExp(pattern, 'u');
    const linear = compileLinearRegExp(pattern);
    const disagreements: string[] = [];
    let matched = 0;
    const texts = generatedStrings(pattern, 400, 1000 + index);
    for (const text of texts) {
      const expected = native.test(text);
      if (expected) matched++;
      if (linear.test(text) !== expected) disagreements.push(JSON.stringify(text));
    }
    expect(disagreements).toEqual([]);
    // The generator must exercise both answers wherever both are possible.
    if (!['[]', '^$', '^', '$', '', '[^]', 'a$b', 'a^b', '[\\s\\S]'].includes(pattern)) {
      expect(matched).toBeGreaterThan(0);
      expect(matched).toBeLessThan(texts.length);
    }
  });

  it('answers the same again once its automaton is cached, and after the cache is flushed', () => {
    const pattern = '(a|b)*a(a|b){12}$';
    const native = new RegExp(pattern, 'u');
    const linear = compileLinearRegExp(pattern);
    const next = random(7);
    const texts = Array.from({ length: 60 }, () => Array.from({ length: 400 }, () => (next() < 0.5 ? 'a' : 'b')).join('') + (next() < 0.5 ? 'c' : ''));
    for (let round = 0; round < 2; round++) for (const text of texts) expect(linear.test(text)).toBe(native.test(text));
    // 2^13 subsets are reachable, far more than MAX_CACHE_CELLS holds: the answers above span flushes.
    expect(linear.cacheFlushes).toBeGreaterThan(0);
  });

  it('bounds the uncached work of one test: past the budget a text is reported as not matching', () => {
    const linear = compileLinearRegExp('(a|b)*a(a|b){20}$');
    const next = random(11);
    const noise = Array.from({ length: 50_000 }, () => (next() < 0.5 ? 'a' : 'b')).join('');
    const matching = `${noise}a${'b'.repeat(20)}`;
    expect(linear.test(`a${'b'.repeat(20)}`)).toBe(true);
    // The automaton of this pattern has 2^21 states; 50 000 random letters visit a new one almost every step.
    expect(linear.test(matching)).toBe(false);
    expect(linear.budgetExhaustions).toBe(1);
  });

  it('has a toString that differs for different sources (Ajv keys compiled patterns by it)', () => {
    expect(compileLinearRegExp('a/b').toString()).toBe('/a/b/u');
    expect(compileLinearRegExp('a\\/b').toString()).toBe('/a\\/b/u');
  });

  it.each([
    ['(a)\\1', 'backreferences'],
    ['(?<n>a)\\k<n>', 'named backreferences'],
    ['(?=a)', 'lookahead/lookbehind assertions'],
    ['(?!a)b', 'lookahead/lookbehind assertions'],
    ['(?<=a)b', 'lookahead/lookbehind assertions'],
    ['(?<!a)b', 'lookahead/lookbehind assertions'],
    ['\\bfoo', 'word-boundary assertions'],
    ['\\p{Foo}+', 'not a property the u flag knows'],
    ['a{1001}', 'a {n,m} count above 1000'],
    ['((a{1000}){1000})', 'automaton states'],
  ])('refuses %j (%s) instead of approximating it', (pattern, reason) => {
    expect(() => compileLinearRegExp(pattern)).toThrow(RegexUnsupportedError);
    expect(() => compileLinearRegExp(pattern)).toThrow(reason);
  });

  it('refuses flags other than u', () => {
    expect(() => compileLinearRegExp('a', 'i')).toThrow('only "u"');
  });
});
