import { describe, expect, it } from 'vitest';
import { CodePointDfa } from './code-point-dfa.js';
import { ANY_CHAR, MAX_CODE_POINT, setHas, type CodePointSet } from './code-point-set.js';
import { compileLinearRegExp } from './linear-regexp.js';
import { parseRegex, RegexUnsupportedError } from './parse-regex.js';
import { readPropertySet, unicodePropertySet } from './unicode-properties.js';

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

/** Bodies this Node's `u` flag accepts, one or more of each kind: general categories (short, long, `gc=`), scripts, script extensions, binary properties. */
const PROPERTIES = [
  'L',
  'Letter',
  'Lu',
  'Ll',
  'Nd',
  'N',
  'P',
  'Cs',
  'Cn',
  'General_Category=Decimal_Number',
  'gc=Lo',
  'Script=Greek',
  'sc=Cyrillic',
  'Script_Extensions=Latin',
  'scx=Hira',
  'Alphabetic',
  'White_Space',
  'Emoji',
  'Emoji_Presentation',
  'Extended_Pictographic',
  'ASCII',
  'Any',
  'Assigned',
  'ID_Start',
];

/**
 * Checked against the native RegExp on every code point: letters and a script whose sets reach the supplementary
 * planes (`Han` into planes 2 and 3), the unassigned and private-use planes (`Cn`, `Co`, the noncharacters at the end
 * of every plane), the lone surrogates (`Cs`) and whole ranges (`Any`).
 */
const EVERY_CODE_POINT = ['L', 'Lu', 'N', 'P', 'Cs', 'Cn', 'Co', 'Any', 'Script=Han', 'Script_Extensions=Cyrillic', 'Emoji', 'Noncharacter_Code_Point'];

/** The code points where the set and the native RegExp (`^…$`, a single code point) disagree. */
function wrongCodePoints(set: CodePointSet, native: RegExp): number[] {
  const wrong: number[] = [];
  let range = 0;
  for (let codePoint = 0; codePoint <= MAX_CODE_POINT; codePoint++) {
    while (range < set.length && set[range + 1]! < codePoint) range += 2;
    const inSet = range < set.length && set[range]! <= codePoint;
    if (inSet !== native.test(char(codePoint))) wrong.push(codePoint);
  }
  return wrong;
}

/** Every code point on either side of each edge of the set, and of a few fixed landmarks (surrogates, plane edges). */
function probes(set: CodePointSet): number[] {
  const points = new Set([0, 0x7f, 0x80, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xffff, 0x10000, MAX_CODE_POINT]);
  for (const edge of set) for (const near of [edge - 1, edge, edge + 1]) if (near >= 0 && near <= MAX_CODE_POINT) points.add(near);
  const next = random(set.length + 1);
  for (let index = 0; index < 2000; index++) points.add(Math.floor(next() * (MAX_CODE_POINT + 1)));
  return [...points];
}

/** A string holding exactly the code point, lone surrogates included. */
function char(codePoint: number): string {
  return String.fromCodePoint(codePoint);
}

describe('unicodePropertySet', () => {
  it.each(PROPERTIES)('holds exactly the code points /\\p{%s}/u matches, at every edge of the set and at random', (body) => {
    const set = unicodePropertySet(body)!;
    const native = new RegExp(`^\\p{${body}}$`, 'u');
    const disagreements = probes(set).filter((codePoint) => setHas(set, codePoint) !== native.test(char(codePoint)));
    expect(disagreements).toEqual([]);
  });

  it.each(EVERY_CODE_POINT)('holds exactly the code points /\\p{%s}/u matches, checked one by one over all of them', (body) => {
    expect(wrongCodePoints(unicodePropertySet(body)!, new RegExp(`^\\p{${body}}$`, 'u'))).toEqual([]);
  });

  it('holds the code points of a negated script, \\P{Script=Latin}, as the registry reads it (lone surrogates included)', () => {
    const parsed = parseRegex('\\P{Script=Latin}', { loneSurrogates: true });
    expect(parsed.type).toBe('set');
    const set = (parsed as { set: CodePointSet }).set;
    expect(wrongCodePoints(set, /^\P{Script=Latin}$/u)).toEqual([]);
  });

  it('reads the same sets without the v flag, where each window is scanned with \\p{…} and \\P{…} under the u flag', () => {
    for (const body of ['L', 'Script=Han', 'Noncharacter_Code_Point', 'Cs']) expect(readPropertySet(body, false)).toEqual(unicodePropertySet(body));
    expect(readPropertySet('RGI_Emoji', false)).toBeUndefined();
  });

  it('reads sets of hundreds of ranges across the planes, and whole windows (a plane, the surrogates) as one range', () => {
    expect(unicodePropertySet('L')!.length / 2).toBeGreaterThan(500);
    expect(unicodePropertySet('Any')).toEqual([0, MAX_CODE_POINT]);
    expect(unicodePropertySet('Cs')).toEqual([0xd800, 0xdfff]);
    expect(unicodePropertySet('Co')).toEqual([0xe000, 0xf8ff, 0xf0000, 0xffffd, 0x100000, 0x10fffd]);
  });

  it('is computed once per escape: the second call returns the cached set', () => {
    expect(unicodePropertySet('Script=Latin')).toBe(unicodePropertySet('Script=Latin'));
  });

  it('is undefined for a body that would close the escape and write another regex, which it never runs', () => {
    expect(() => new RegExp('\\p{L}|(a+)+$|\\p{L}+', 'gu')).not.toThrow();
    expect(unicodePropertySet('L}|(a+)+$|\\p{L')).toBeUndefined();
  });

  it.each(['Foo', 'Script=Klingon', 'RGI_Emoji', 'L=L', 'Block=Basic_Latin', 'L}+\\w{', 'L\u0301', ''])(
    'is undefined for %j, which new RegExp refuses under the u flag',
    (body) => {
      expect(() => new RegExp(`\\p{${body}}`, 'u')).toThrow(SyntaxError);
      expect(unicodePropertySet(body)).toBeUndefined();
    },
  );
});

/** Patterns whose matches the engines below must agree on with `new RegExp(pattern, 'u')`. */
const PATTERNS = [
  '^[\\p{L}\\p{N}_ -]+$',
  '\\p{Lu}\\p{Ll}+',
  '^\\P{L}*$',
  '^[^\\p{L}]+$',
  '^[^\\P{Nd}x]$',
  '\\p{Letter}',
  '^\\p{General_Category=Decimal_Number}{2,3}$',
  '^\\p{Script=Greek}+$',
  '\\p{Script_Extensions=Latin}\\P{Script_Extensions=Latin}',
  '^[\\p{Alphabetic}\\p{White_Space}]*$',
  '^\\p{Emoji}$',
  '^[a-f\\p{Nd}-]+$',
  '^[\\p{Cs}]$',
  '^\\P{Any}*$',
  '^[\\P{Cs}]+$',
  '[\\u{1F600}-\\u{1F64F}\\p{Lo}]$',
];

/** Letters, digits, marks, symbols, astral letters and emoji, the edges of a few sets, and lone surrogates. */
const ALPHABET = [
  'a',
  'Z',
  '_',
  ' ',
  '-',
  '7',
  '٣',
  'é',
  'Ω',
  'ж',
  'ぁ',
  '中',
  '\u0301',
  '\u00aa',
  '\u02c1',
  '\u2028',
  '\u00a0',
  '\uffff',
  '\u{10000}',
  '\u{1D400}',
  '\u{1F600}',
  '\u{20000}',
  '\u{10FFFF}',
  '\uD800',
  '\uDBFF',
  '\uDC00',
  '\uDFFF',
];

function sampleTexts(count: number, alphabet: readonly string[], seed: number): string[] {
  const next = random(seed);
  const texts = ['', ...alphabet];
  for (let index = 0; index < count; index++) {
    const length = 1 + Math.floor(next() * 6);
    texts.push(Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]!).join(''));
  }
  return texts;
}

describe('property escapes in the linear-time engine and the code-point automaton', () => {
  it.each(PATTERNS)('compileLinearRegExp(%j) agrees with new RegExp(…, "u") on JavaScript strings, lone surrogates included', (pattern) => {
    const native = new RegExp(pattern, 'u');
    const linear = compileLinearRegExp(pattern);
    const disagreements = sampleTexts(3000, ALPHABET, pattern.length).filter((text) => linear.test(text) !== native.test(text));
    expect(disagreements).toEqual([]);
  });

  it.each(PATTERNS)('CodePointDfa.fromRegex(%j) agrees with new RegExp(…, "u") on text without lone surrogates', (pattern) => {
    const native = new RegExp(pattern, 'u');
    const dfa = CodePointDfa.fromRegex(parseRegex(pattern));
    const wellFormed = ALPHABET.filter((text) => !/^[\uD800-\uDFFF]$/.test(text));
    const disagreements = sampleTexts(3000, wellFormed, pattern.length).filter((text) => dfa.matches(text) !== native.test(text));
    expect(disagreements).toEqual([]);
  });

  it('keeps lone surrogates out of a property set when the text is UTF-8, and in when it is a JavaScript string', () => {
    expect(parseRegex('\\p{Any}')).toEqual({ type: 'set', set: ANY_CHAR });
    expect(parseRegex('\\p{Any}', { loneSurrogates: true })).toEqual({ type: 'set', set: [0, MAX_CODE_POINT] });
    expect(parseRegex('\\P{L}', { loneSurrogates: true })).toMatchObject({ type: 'set' });
    expect(compileLinearRegExp('^\\P{L}$').test('\uDC00')).toBe(true);
    expect(CodePointDfa.fromRegex(parseRegex('^\\p{Cs}$')).start).toBe(-1);
  });

  it.each([
    ['\\p{Foo}', 'the Unicode property escape \\p{Foo}, which is not a property the u flag knows (at offset 0'],
    ['a\\P{Script=Klingon}', 'the Unicode property escape \\P{Script=Klingon}, which is not a property the u flag knows (at offset 1'],
    ['\\p{L', 'an unterminated Unicode property escape'],
    ['\\p', 'a \\p or \\P without {…}'],
    ['\\pL', 'a \\p or \\P without {…}'],
    ['[\\p{L}-z]', 'a class range with a class escape as an end'],
    ['[a-\\p{L}]', 'a class range with a class escape as an end'],
    ['\\p{RGI_Emoji}', 'not a property the u flag knows'],
  ])('refuses %j, which new RegExp refuses under the u flag too, naming %s', (pattern, reason) => {
    expect(() => new RegExp(pattern, 'u')).toThrow(SyntaxError);
    expect(() => compileLinearRegExp(pattern)).toThrow(RegexUnsupportedError);
    expect(() => compileLinearRegExp(pattern)).toThrow(reason);
  });

  it("refuses a property escape under the formats' ASCII-only case folding, which is not what /iu does with it", () => {
    expect(new RegExp('^\\p{Lu}$', 'iu').test('a')).toBe(true);
    expect(() => parseRegex('^\\p{Lu}$', { ignoreAsciiCase: true })).toThrow('a Unicode property escape with the i flag');
  });
});
