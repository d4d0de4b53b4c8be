/**
 * A parser for the ECMAScript regular-expression subset the mask engine enforces
 * exactly, with the `u` flag semantics Ajv uses for `pattern`. Anything outside the
 * subset (lookbehind, lookaheads other than leading ones, backreferences, `\b`) is refused,
 * never approximated.
 *
 * Supported: literals, `.`, classes `[…]` / `[^…]` with ranges, `\d \D \w \W \s \S`, Unicode property
 * escapes `\p{…}` / `\P{…}` (every property this engine's `u` flag knows, with its code points),
 * escapes (`\t \n \r \f \v \0 \cX \xHH \uHHHH \u{H…}`, escaped syntax characters),
 * groups `(…)`, `(?:…)`, `(?<name>…)`, alternation, quantifiers `* + ? {n} {n,} {n,m}`
 * (lazy forms too: they match the same strings), and the anchors `^` and `$`; with
 * {@link parsePattern}, lookaheads `(?=…)` / `(?!…)` right after a leading `^` too.
 * @module
 */
import {
  ANY_CHAR,
  complementSet,
  DIGIT,
  DOT,
  foldAsciiCase,
  intersectSets,
  normalizeSet,
  SPACE,
  UTF16_DOT,
  WORD,
  type CodePointSet,
} from './code-point-set.js';
import { unicodePropertySet } from './unicode-properties.js';

export type RegexNode =
  | { readonly type: 'set'; readonly set: CodePointSet }
  | { readonly type: 'concat'; readonly items: readonly RegexNode[] }
  | { readonly type: 'alt'; readonly items: readonly RegexNode[] }
  | { readonly type: 'repeat'; readonly item: RegexNode; readonly min: number; readonly max: number }
  | { readonly type: 'assert-start' }
  | { readonly type: 'assert-end' };

/** A lookahead `(?=body)`, or `(?!body)` when `negative`, right after the pattern's leading `^`; `body` starts with that `^`. */
export interface LeadingLookahead {
  readonly negative: boolean;
  readonly body: RegexNode;
}

/**
 * A pattern `^(?=A)(?!B)…R`: the text matches when `tree` (`^R`) matches and, at offset 0 (where the `^` pins them),
 * every positive lookahead's body matches a prefix of the text and no negative one's does. `lookaheads` is empty for a
 * pattern without them.
 */
export interface ParsedPattern {
  readonly tree: RegexNode;
  readonly lookaheads: readonly LeadingLookahead[];
}

/** A regex outside the supported subset, or not a valid `u`-mode regex at all. */
export class RegexUnsupportedError extends Error {}

/** Largest `{n,m}` bound accepted; larger counts belong in `minLength`/`maxLength`. */
export const MAX_REPEAT = 1000;

const SYNTAX = new Set('^$\\.*+?()[]{}|/');

export interface ParseRegexOptions {
  /** ASCII-only case-insensitivity, as the formats' `/i` needs. */
  ignoreAsciiCase?: boolean;
  /**
   * Match JavaScript strings (what JSON.parse returns, lone surrogates included) rather than
   * UTF-8 text: `.`, negated classes and `\D \W \S` then match a lone surrogate, as the
   * `u` flag does, and `\uD800`-style escapes are accepted.
   */
  loneSurrogates?: boolean;
}

export function parseRegex(source: string, options: ParseRegexOptions = {}): RegexNode {
  return parse(source, options, false).tree;
}

/** {@link parseRegex}, plus lookaheads right after a leading `^` at the top level of the pattern (see {@link ParsedPattern}). */
export function parsePattern(source: string, options: ParseRegexOptions = {}): ParsedPattern {
  return parse(source, options, true);
}

function parse(source: string, options: ParseRegexOptions, leadingLookaheads: boolean): ParsedPattern {
  const chars = Array.from(source, (char) => char.codePointAt(0)!);
  let position = 0;
  const fold = options.ignoreAsciiCase === true;
  const utf16 = options.loneSurrogates === true;
  const complement = (set: CodePointSet): number[] => complementSet(set, utf16);

  const fail = (message: string): never => {
    throw new RegexUnsupportedError(`${message} (at offset ${position} of /${source}/)`);
  };
  const peek = (offset = 0): number | undefined => chars[position + offset];
  const eat = (char: string): boolean => {
    if (peek() === char.codePointAt(0)) {
      position++;
      return true;
    }
    return false;
  };
  const literal = (codePoint: number): RegexNode => ({ type: 'set', set: fold ? foldAsciiCase([codePoint, codePoint]) : [codePoint, codePoint] });

  function disjunction(): RegexNode {
    const items = [alternative()];
    while (eat('|')) items.push(alternative());
    return items.length === 1 ? items[0]! : { type: 'alt', items };
  }

  function alternative(): RegexNode {
    const items: RegexNode[] = [];
    while (position < chars.length && peek() !== 0x7c && peek() !== 0x29) items.push(term());
    return items.length === 1 ? items[0]! : { type: 'concat', items };
  }

  function term(): RegexNode {
    const char = peek()!;
    if (char === 0x5e) {
      position++;
      return { type: 'assert-start' };
    }
    if (char === 0x24) {
      position++;
      return { type: 'assert-end' };
    }
    const item = atom();
    return quantified(item);
  }

  function quantified(item: RegexNode): RegexNode {
    let min: number;
    let max: number;
    const char = peek();
    if (char === 0x2a) [min, max] = [0, Infinity];
    else if (char === 0x2b) [min, max] = [1, Infinity];
    else if (char === 0x3f) [min, max] = [0, 1];
    else if (char === 0x7b) {
      position++;
      min = number();
      max = min;
      if (eat(',')) max = peek() === 0x7d ? Infinity : number();
      if (peek() !== 0x7d) fail('unterminated {n,m} quantifier');
      if (max < min) fail('{n,m} quantifier with n > m');
      if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) fail(`a {n,m} count above ${MAX_REPEAT}; use minLength/maxLength for long strings`);
    } else return item;
    position++;
    eat('?');
    if (item.type === 'assert-start' || item.type === 'assert-end') fail('a quantified anchor');
    return { type: 'repeat', item, min, max };
  }

  function number(): number {
    const start = position;
    while (peek() !== undefined && peek()! >= 0x30 && peek()! <= 0x39) position++;
    if (position === start) fail('a quantifier without a number');
    return Number(String.fromCodePoint(...chars.slice(start, position)));
  }

  function atom(): RegexNode {
    const char = chars[position++]!;
    switch (char) {
      case 0x2e:
        return { type: 'set', set: utf16 ? UTF16_DOT : DOT };
      case 0x28:
        return group();
      case 0x5b:
        return characterClass();
      case 0x5c:
        return atomEscape();
      case 0x2a:
      case 0x2b:
      case 0x3f:
        return fail('a quantifier with nothing to repeat');
      case 0x7b:
      case 0x7d:
      case 0x5d:
        return fail(`a lone "${String.fromCodePoint(char)}" (invalid with the u flag)`);
      default:
        return literal(char);
    }
  }

  function group(): RegexNode {
    if (eat('?')) {
      if (eat(':')) {
        // non-capturing
      } else if (peek() === 0x3c && peek(1) !== 0x3d && peek(1) !== 0x21) {
        position++;
        while (peek() !== undefined && peek() !== 0x3e) position++;
        if (!eat('>')) fail('an unterminated group name');
      } else {
        position -= 2;
        fail(
          leadingLookaheads && (peek(2) === 0x3d || peek(2) === 0x21)
            ? 'lookahead/lookbehind assertions (a lookahead is supported only right after the leading ^ of the whole pattern, as in ^(?!-)[a-z]+$)'
            : 'lookahead/lookbehind assertions',
        );
      }
    }
    const inner = disjunction();
    if (!eat(')')) fail('an unterminated group');
    return inner;
  }

  function classEscapeSet(char: number): CodePointSet | undefined {
    switch (char) {
      case 0x64:
        return DIGIT;
      case 0x44:
        return complement(DIGIT);
      case 0x77:
        return WORD;
      case 0x57:
        return complement(WORD);
      case 0x73:
        return SPACE;
      case 0x53:
        return complement(SPACE);
      case 0x70:
        return propertyEscape(false);
      case 0x50:
        return propertyEscape(true);
      default:
        return undefined;
    }
  }

  /** `\p{…}` or `\P{…}` (`negated`), read after the `p`. */
  function propertyEscape(negated: boolean): CodePointSet {
    const escapeStart = position - 2;
    const fromEscape = (message: string): never => {
      position = escapeStart;
      return fail(message);
    };
    if (!eat('{')) return fromEscape('a \\p or \\P without {…} (invalid with the u flag)');
    const bodyStart = position;
    while (peek() !== undefined && peek() !== 0x7d) position++;
    if (peek() === undefined) return fromEscape('an unterminated Unicode property escape');
    const body = String.fromCodePoint(...chars.slice(bodyStart, position));
    position++;
    // Under /iu a property matches by full Unicode case folding, which the ASCII-only folding here is not.
    if (fold) return fromEscape('a Unicode property escape with the i flag');
    const set = unicodePropertySet(body);
    if (set === undefined) return fromEscape(`the Unicode property escape \\${negated ? 'P' : 'p'}{${body}}, which is not a property the u flag knows`);
    const inText = utf16 ? set : intersectSets(set, ANY_CHAR);
    return negated ? complement(inText) : inText;
  }

  function hex(count: number): number {
    let value = 0;
    for (let index = 0; index < count; index++) {
      const digit = hexDigit(peek());
      if (digit < 0) fail('a malformed hex escape');
      value = value * 16 + digit;
      position++;
    }
    return value;
  }

  /** The code point of a CharacterEscape after the backslash, or fails. */
  function characterEscape(char: number, inClass: boolean): number {
    switch (char) {
      case 0x74:
        return 0x09;
      case 0x6e:
        return 0x0a;
      case 0x76:
        return 0x0b;
      case 0x66:
        return 0x0c;
      case 0x72:
        return 0x0d;
      case 0x30:
        if (peek() !== undefined && peek()! >= 0x30 && peek()! <= 0x39) fail('an octal escape');
        return 0;
      case 0x63: {
        const letter = peek();
        if (letter === undefined || !((letter >= 0x41 && letter <= 0x5a) || (letter >= 0x61 && letter <= 0x7a))) return fail('a malformed \\c escape');
        position++;
        return letter % 32;
      }
      case 0x78:
        return hex(2);
      case 0x75: {
        if (eat('{')) {
          const start = position;
          let value = 0;
          while (hexDigit(peek()) >= 0) value = value * 16 + hexDigit(chars[position++]);
          if (position === start || !eat('}') || value > 0x10ffff) fail('a malformed \\u{…} escape');
          return value;
        }
        const high = hex(4);
        if (high >= 0xd800 && high <= 0xdbff && peek() === 0x5c && peek(1) === 0x75) {
          const save = position;
          position += 2;
          const low = hexDigit(peek()) >= 0 ? hex(4) : -1;
          if (low >= 0xdc00 && low <= 0xdfff) return 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00);
          position = save;
        }
        if (high >= 0xd800 && high <= 0xdfff && !utf16) fail('a lone surrogate escape (JSON strings in UTF-8 cannot hold one)');
        return high;
      }
      default:
        if (SYNTAX.has(String.fromCodePoint(char)) || (inClass && char === 0x2d)) return char;
        // Report the offset of the backslash that starts the escape.
        position -= 2;
        if (char >= 0x31 && char <= 0x39) return fail('backreferences');
        if (char === 0x62 || char === 0x42) return fail('word-boundary assertions (\\b, \\B)');
        if (char === 0x6b) return fail('named backreferences');
        return fail(`the escape \\${String.fromCodePoint(char)} (invalid with the u flag)`);
    }
  }

  function atomEscape(): RegexNode {
    const char = chars[position++];
    if (char === undefined) return fail('a trailing backslash');
    const set = classEscapeSet(char);
    if (set !== undefined) return { type: 'set', set: fold ? foldAsciiCase(set) : set };
    return literal(characterEscape(char, false));
  }

  /** One class atom: a code point, or a whole set for `\d`-style escapes. */
  function classAtom(): number | CodePointSet {
    const char = chars[position++];
    if (char === undefined) return fail('an unterminated character class');
    if (char !== 0x5c) return char;
    const escaped = chars[position++];
    if (escaped === undefined) return fail('a trailing backslash');
    if (escaped === 0x62) return 0x08;
    const set = classEscapeSet(escaped);
    if (set !== undefined) return set;
    return characterEscape(escaped, true);
  }

  function characterClass(): RegexNode {
    const negated = eat('^');
    const ranges: number[] = [];
    while (peek() !== 0x5d) {
      if (peek() === undefined) fail('an unterminated character class');
      const first = classAtom();
      if (peek() === 0x2d && peek(1) !== 0x5d && peek(1) !== undefined) {
        position++;
        const second = classAtom();
        if (typeof first !== 'number' || typeof second !== 'number') return fail('a class range with a class escape as an end');
        if (second < first) fail('a class range out of order');
        ranges.push(first, second);
      } else if (typeof first === 'number') ranges.push(first, first);
      else ranges.push(...first);
    }
    position++;
    let set: CodePointSet = normalizeSet(ranges);
    if (fold) set = foldAsciiCase(set);
    return { type: 'set', set: negated ? complement(set) : set };
  }

  const isLookaheadAt = (offset: number): boolean =>
    peek(offset) === 0x28 && peek(offset + 1) === 0x3f && (peek(offset + 2) === 0x3d || peek(offset + 2) === 0x21);

  /** `^(?=A)(?!B)…R`: the lookaheads (each body `^`-anchored, as the pattern's `^` pins it to offset 0) and `^R`. */
  function pattern(): ParsedPattern {
    if (!leadingLookaheads || peek() !== 0x5e || !isLookaheadAt(1)) return { tree: disjunction(), lookaheads: [] };
    position++;
    const lookaheads: LeadingLookahead[] = [];
    while (isLookaheadAt(0)) {
      const negative = peek(2) === 0x21;
      position += 3;
      const body = disjunction();
      if (!eat(')')) fail('an unterminated lookahead');
      lookaheads.push({ negative, body: { type: 'concat', items: [{ type: 'assert-start' }, body] } });
    }
    const rest = alternative();
    if (peek() === 0x7c) {
      fail('a lookahead in one alternative of several (^(?!a)b|c means (?:^(?!a)b)|c; to apply it to every alternative, group them after it: ^(?!a)(?:b|c))');
    }
    return { tree: { type: 'concat', items: [{ type: 'assert-start' }, rest] }, lookaheads };
  }

  const parsed = pattern();
  if (position < chars.length) fail('an unmatched ")"');
  return parsed;
}

function hexDigit(char: number | undefined): number {
  if (char === undefined) return -1;
  if (char >= 0x30 && char <= 0x39) return char - 0x30;
  if (char >= 0x41 && char <= 0x46) return char - 0x37;
  if (char >= 0x61 && char <= 0x66) return char - 0x57;
  return -1;
}

/** The length of every string `node` matches, or undefined when it varies. */
function fixedLength(node: RegexNode): number | undefined {
  switch (node.type) {
    case 'set':
      return 1;
    case 'concat': {
      let total = 0;
      for (const item of node.items) {
        const length = fixedLength(item);
        if (length === undefined) return undefined;
        total += length;
      }
      return total;
    }
    case 'alt': {
      const lengths = new Set(node.items.map(fixedLength));
      return lengths.size === 1 ? [...lengths][0] : undefined;
    }
    case 'repeat': {
      const length = fixedLength(node.item);
      return length !== undefined && node.min === node.max ? length * node.min : undefined;
    }
    default:
      return undefined;
  }
}

function flatten(node: RegexNode): RegexNode[] {
  return node.type === 'concat' ? node.items.flatMap(flatten) : [node];
}

/**
 * `^L C{m,n}$` with `L` of fixed length ℓ matches exactly the strings of `^L C*$` whose
 * length is in [ℓ+m, ℓ+n]. Moving the count into the string's length constraint keeps
 * the automaton small, and lets every position of the tail share one token mask.
 */
export function splitCountedTail(tree: RegexNode): { tree: RegexNode; minLength: number; maxLength: number } | undefined {
  const items = flatten(tree);
  if (items.length < 3 || items[0]!.type !== 'assert-start' || items[items.length - 1]!.type !== 'assert-end') return undefined;
  const tail = items[items.length - 2]!;
  if (tail.type !== 'repeat' || tail.item.type !== 'set') return undefined;
  if (tail.max === Infinity && tail.min <= 1) return undefined;
  const prefix = items.slice(1, -2);
  const length = fixedLength({ type: 'concat', items: prefix });
  if (length === undefined) return undefined;
  return {
    tree: { type: 'concat', items: [items[0]!, ...prefix, { type: 'repeat', item: tail.item, min: 0, max: Infinity }, items[items.length - 1]!] },
    minLength: length + tail.min,
    maxLength: length + tail.max,
  };
}
