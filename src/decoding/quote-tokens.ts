/**
 * Per vocabulary, the tokens that the matcher's memory of strings written (`written-strings.ts`) must walk to filter a
 * mask, indexed once: by the quotes they hold and the text they close a string with (a repeated item), and by the
 * first code unit they write inside a string or into the string their quote opens (a prefix whose completions are
 * all held). Most tokens are then told apart from their text alone.
 * @module
 */
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../shared/json-bytes.js';
import { groupByFirstByte, type FirstByteGroups } from './first-byte-groups.js';
import type { Vocabulary } from './vocabulary.js';

/**
 * Per vocabulary: text token ids by the quotes they hold, `atLeast[k]` those with k quotes or more (k ≤ 4), with the
 * text a token writes into the string it closes first, decoded (null where it closes none, undefined where it must be
 * walked: it cannot be decoded alone, or it may open and close another string after). A token
 * can repeat an item only by closing a string: with a non-empty set from 1 quote (inside the item: the text before its
 * first quote) or 2 (`"a"` after `,`: the text between its first two quotes), with none held from 3 (close, open,
 * close) or 4. So most tokens are told apart from their text alone, and only the few others are walked.
 */
export interface QuoteTokens {
  readonly atLeast: readonly Int32Array[];
  /** Per token of `atLeast[1]`: the text before its first quote that a backslash does not escape, read inside a string. */
  readonly closingText: readonly ClosedText[];
  /**
   * Per token of `atLeast[2]`: the text of the string its first quote opens, read outside a string (walked where a
   * bracket or brace before that quote changes the container).
   */
  readonly itemText: readonly ClosedText[];
  /** The tokens of `atLeast[1]` that must be walked inside an item (their `closingText` is undefined). */
  readonly walkedInside: Int32Array;
  /**
   * The tokens of `atLeast[1]` that close the string with a known text, sorted by that text (`closingTexts`, in the
   * same order): the ones that would close the item being written as a held item are found from each held item's rest.
   */
  readonly byClosingText: Int32Array;
  readonly closingTexts: readonly string[];
  readonly longestClosingText: number;
  /** The most bytes in a token of `atLeast[1]`: a token adds at most one decoded unit per byte to the string it closes. */
  readonly longestQuoteToken: number;
}

/**
 * For `filterExhaustible` (items whose completions can run out), built on its first use per vocabulary: the tokens
 * with a comma or two quotes or more (they can follow, or close and open, items), always walked; the other tokens, by
 * the first code unit they write inside a string (before a quote, if any: the close then repeats a held item only
 * where that text goes on along it), and, with one quote, by the first unit of the string that quote opens outside a
 * string; and the tokens of neither index, walked whenever a held item could be near: a close with no text before it,
 * a first unit not known alone, a bracket before the quote.
 */
export interface UnitTokens {
  readonly commaOrQuotes: Int32Array;
  readonly insideByUnit: UnitIndex;
  readonly insideWalked: Int32Array;
  readonly openingByUnit: UnitIndex;
  readonly openingWalked: Int32Array;
  /** Per token id: its quote bytes (at most 255), escaped or not. */
  readonly quotes: Uint8Array;
  /** The text tokens without a quote, and those with one or two, longest first (`ExhaustionBound.fewCandidates`). */
  readonly noQuoteLongestFirst: Int32Array;
  readonly fewQuotesLongestFirst: Int32Array;
  /** `noQuoteLongestFirst` by first byte, longest first in each group: where the held items go on in ASCII, only a few groups can. */
  readonly noQuoteByFirstByte: FirstByteGroups;
}

/** Token ids sorted by a code unit (`units`, ascending, in the same order). */
export interface UnitIndex {
  readonly ids: Int32Array;
  readonly units: Uint16Array;
}

function unitIndex(entries: { unit: number; id: number }[]): UnitIndex {
  entries.sort((left, right) => left.unit - right.unit);
  return { ids: Int32Array.from(entries, ({ id }) => id), units: Uint16Array.from(entries, ({ unit }) => unit) };
}

/** What a token writes into the first string it closes: null when it closes none, undefined when it must be walked. */
export type ClosedText = string | null | undefined;

const quoteTokensOf = new WeakMap<Vocabulary, QuoteTokens>();

export function quoteTokens(vocabulary: Vocabulary): QuoteTokens {
  let known = quoteTokensOf.get(vocabulary);
  if (known === undefined) {
    const lists: number[][] = [[], [], [], [], []];
    const closingText: ClosedText[] = [];
    const itemText: ClosedText[] = [];
    const bytes = vocabulary.tokenBytesFlat;
    for (let id = 0; id < vocabulary.size; id++) {
      if (!vocabulary.isTextToken(id)) continue;
      const from = vocabulary.tokenOffsets[id]!;
      const to = vocabulary.tokenOffsets[id + 1]!;
      let count = 0;
      for (let offset = from; offset < to && count < 4; offset++) if (bytes[offset] === QUOTE) count++;
      if (count === 0) continue;
      for (let k = 1; k <= count; k++) lists[k]!.push(id);
      closingText.push(closedText(bytes, from, to));
      if (count < 2) continue;
      // outside a string the first quote opens one (a backslash before it is no JSON)
      const open = bytes.indexOf(QUOTE, from);
      let structural = false;
      for (let offset = from; offset < open; offset++) structural ||= CONTAINER_BYTE[bytes[offset]!] === 1;
      itemText.push(structural ? undefined : closedText(bytes, open + 1, to));
    }
    const walkedInside: number[] = [];
    const closing: { text: string; id: number }[] = [];
    lists[1]!.forEach((id, index) => {
      const text = closingText[index];
      if (text === undefined) walkedInside.push(id);
      else if (text !== null) closing.push({ text, id });
    });
    closing.sort((left, right) => compareUnits(left.text, right.text));
    known = {
      atLeast: lists.map((list) => Int32Array.from(list)),
      closingText,
      itemText,
      walkedInside: Int32Array.from(walkedInside),
      byClosingText: Int32Array.from(closing, ({ id }) => id),
      closingTexts: closing.map(({ text }) => text),
      longestClosingText: Math.max(0, ...closing.map(({ text }) => text.length)),
      longestQuoteToken: Math.max(0, ...lists[1]!.map((id) => vocabulary.tokenOffsets[id + 1]! - vocabulary.tokenOffsets[id]!)),
    };
    quoteTokensOf.set(vocabulary, known);
  }
  return known;
}

/**
 * For object and array items kept unique (`uniqueContainers`): the text tokens by how many containers they can close,
 * most first, counted from outside a string (`outside`), from inside one at a character boundary (`inside`: a `}` before
 * the token's closing quote is content), and every `}`/`]` (`any`: after a backslash, where the first byte is escaped).
 * Only those with enough closes to reach an item's close from where the matcher stands are walked.
 */
export interface CloseTokens {
  readonly outside: TokensByCloses;
  readonly inside: TokensByCloses;
  readonly any: TokensByCloses;
}

/** Token ids with their count of closes (`ids` and `closes` in the same order, most closes first, none without). */
export interface TokensByCloses {
  readonly ids: Int32Array;
  readonly closes: Uint16Array;
}

const closeTokensOf = new WeakMap<Vocabulary, CloseTokens>();

export function closeTokens(vocabulary: Vocabulary): CloseTokens {
  let known = closeTokensOf.get(vocabulary);
  if (known === undefined) {
    const bytes = vocabulary.tokenBytesFlat;
    const counted: { id: number; closes: number }[][] = [[], [], []];
    for (let id = 0; id < vocabulary.size; id++) {
      if (!vocabulary.isTextToken(id)) continue;
      const from = vocabulary.tokenOffsets[id]!;
      const to = vocabulary.tokenOffsets[id + 1]!;
      let any = 0;
      for (let offset = from; offset < to; offset++) if (bytes[offset] === CLOSE_BRACE || bytes[offset] === CLOSE_BRACKET) any++;
      if (any === 0) continue;
      [structuralCloses(bytes, from, to, false), structuralCloses(bytes, from, to, true), any].forEach((closes, mode) => {
        if (closes > 0) counted[mode]!.push({ id, closes: Math.min(closes, 0xffff) });
      });
    }
    const [outside, inside, any] = counted.map((list) => {
      list.sort((left, right) => right.closes - left.closes);
      return { ids: Int32Array.from(list, ({ id }) => id), closes: Uint16Array.from(list, ({ closes }) => closes) };
    });
    known = { outside: outside!, inside: inside!, any: any! };
    closeTokensOf.set(vocabulary, known);
  }
  return known;
}

/** The `}` and `]` of `bytes[from, to)` outside strings, starting inside a string at a character boundary or outside. */
function structuralCloses(bytes: Uint8Array, from: number, to: number, inString: boolean): number {
  let closes = 0;
  let escaped = false;
  for (let offset = from; offset < to; offset++) {
    const byte = bytes[offset]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (byte === BACKSLASH) escaped = true;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) closes++;
  }
  return closes;
}

/**
 * For integer items kept unique (`uniqueNumbers`): the text tokens with a digit and another byte (`mixed`), those of
 * digits only (`pure`, the longest `longestPure` bytes: they can only take an integer to a prefix whose completions
 * are all held), and those with two runs of digits or more (`twoNumbers`: where no array holds an integer, only a token
 * that writes two can repeat one).
 */
export interface DigitTokens {
  /** Every text token with an ASCII digit, ascending: `mixed` and `pure` together. */
  readonly any: Int32Array;
  readonly mixed: Int32Array;
  readonly pure: Int32Array;
  readonly longestPure: number;
  readonly twoNumbers: Int32Array;
  /** `mixed` and `twoNumbers` by first byte (walked where the state refuses most bytes: inside an integer). */
  readonly mixedByFirstByte: FirstByteGroups;
  readonly twoNumbersByFirstByte: FirstByteGroups;
}

const digitTokensOf = new WeakMap<Vocabulary, DigitTokens>();

export function digitTokens(vocabulary: Vocabulary): DigitTokens {
  let known = digitTokensOf.get(vocabulary);
  if (known === undefined) {
    const bytes = vocabulary.tokenBytesFlat;
    const any: number[] = [];
    const mixed: number[] = [];
    const pure: number[] = [];
    let longestPure = 0;
    const twoNumbers: number[] = [];
    for (let id = 0; id < vocabulary.size; id++) {
      if (!vocabulary.isTextToken(id)) continue;
      let runs = 0;
      let inRun = false;
      let digits = 0;
      const length = vocabulary.tokenOffsets[id + 1]! - vocabulary.tokenOffsets[id]!;
      for (let offset = vocabulary.tokenOffsets[id]!; offset < vocabulary.tokenOffsets[id + 1]!; offset++) {
        const digit = bytes[offset]! >= 0x30 && bytes[offset]! <= 0x39;
        if (digit && !inRun) runs++;
        if (digit) digits++;
        inRun = digit;
      }
      if (runs === 0) continue;
      any.push(id);
      if (digits < length) mixed.push(id);
      else {
        pure.push(id);
        longestPure = Math.max(longestPure, length);
      }
      if (runs > 1) twoNumbers.push(id);
    }
    known = {
      any: Int32Array.from(any),
      mixed: Int32Array.from(mixed),
      pure: Int32Array.from(pure),
      longestPure,
      twoNumbers: Int32Array.from(twoNumbers),
      mixedByFirstByte: groupByFirstByte(Int32Array.from(mixed), vocabulary),
      twoNumbersByFirstByte: groupByFirstByte(Int32Array.from(twoNumbers), vocabulary),
    };
    digitTokensOf.set(vocabulary, known);
  }
  return known;
}

const unitTokensOf = new WeakMap<Vocabulary, UnitTokens>();

export function unitTokens(vocabulary: Vocabulary): UnitTokens {
  let known = unitTokensOf.get(vocabulary);
  if (known === undefined) {
    const bytes = vocabulary.tokenBytesFlat;
    const commaOrQuotes: number[] = [];
    const insideByUnit: { unit: number; id: number }[] = [];
    const insideWalked: number[] = [];
    const openingByUnit: { unit: number; id: number }[] = [];
    const openingWalked: number[] = [];
    const quotes = new Uint8Array(vocabulary.size);
    for (let id = 0; id < vocabulary.size; id++) {
      if (!vocabulary.isTextToken(id)) continue;
      const token = bytes.subarray(vocabulary.tokenOffsets[id]!, vocabulary.tokenOffsets[id + 1]!);
      for (const byte of token) if (byte === QUOTE && quotes[id]! < 255) quotes[id] = quotes[id]! + 1;
      const quote = token.indexOf(QUOTE);
      if (token.includes(COMMA) || (quote >= 0 && token.indexOf(QUOTE, quote + 1) >= 0)) {
        commaOrQuotes.push(id);
        continue;
      }
      const inside = quote === 0 ? undefined : firstWrittenUnit(token);
      if (inside === undefined) insideWalked.push(id);
      else if (inside !== null) insideByUnit.push({ unit: inside, id });
      if (quote < 0) continue;
      const structural = token.subarray(0, quote).some((byte) => CONTAINER_BYTE[byte] === 1);
      const opening = structural || quote + 1 === token.length ? undefined : firstWrittenUnit(token.subarray(quote + 1));
      if (opening === undefined) openingWalked.push(id);
      else if (opening !== null) openingByUnit.push({ unit: opening, id });
    }
    const noQuote = longestFirst(vocabulary, (id) => quotes[id] === 0);
    known = {
      commaOrQuotes: Int32Array.from(commaOrQuotes),
      insideByUnit: unitIndex(insideByUnit),
      insideWalked: Int32Array.from(insideWalked),
      openingByUnit: unitIndex(openingByUnit),
      openingWalked: Int32Array.from(openingWalked),
      quotes,
      noQuoteLongestFirst: noQuote,
      fewQuotesLongestFirst: longestFirst(vocabulary, (id) => quotes[id] === 1 || quotes[id] === 2),
      noQuoteByFirstByte: groupByFirstByte(noQuote, vocabulary),
    };
    unitTokensOf.set(vocabulary, known);
  }
  return known;
}

function longestFirst(vocabulary: Vocabulary, listed: (id: number) => boolean): Int32Array {
  const ids: number[] = [];
  for (let id = 0; id < vocabulary.size; id++) if (vocabulary.isTextToken(id) && listed(id)) ids.push(id);
  const bytes = (id: number): number => vocabulary.tokenOffsets[id + 1]! - vocabulary.tokenOffsets[id]!;
  return Int32Array.from(ids.sort((left, right) => bytes(right) - bytes(left)));
}

const CONTAINER_BYTE = new Uint8Array(256);
for (const byte of [OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE]) CONTAINER_BYTE[byte] = 1;

/** What `bytes[from, to)`, read inside a string, writes into it before closing it (see `ClosedText`). */
function closedText(bytes: Uint8Array, from: number, to: number): ClosedText {
  const close = closingQuote(bytes, from, to);
  if (close < 0) return null;
  let quotesAfter = 0;
  for (let offset = close + 1; offset < to; offset++) if (bytes[offset] === QUOTE) quotesAfter++;
  return quotesAfter >= 2 ? undefined : decodeContent(bytes, from, close);
}

/**
 * The first UTF-16 code unit that `token` (no quote in it) writes into a string it starts at a character boundary:
 * undefined where it cannot be read alone (a cut escape or character), null where no string takes it there.
 */
export function firstWrittenUnit(token: Uint8Array): number | null | undefined {
  const lead = token[0]!;
  if (lead === BACKSLASH) {
    if (token.length < 2) return undefined;
    if (token[1] !== 0x75) return ESCAPED_UNIT[token[1]!]! < 0 ? null : ESCAPED_UNIT[token[1]!]!;
    if (token.length < 6) return undefined;
    const hex = String.fromCharCode(...token.subarray(2, 6));
    return /^[0-9a-fA-F]{4}$/.test(hex) ? Number.parseInt(hex, 16) : null;
  }
  if (lead < 0x80) return lead;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
  if (length === 0) return null;
  if (token.length < length) return undefined;
  return firstUtf16Unit(token, length);
}

/**
 * The first UTF-16 unit of the UTF-8 character `token[0, length)` (2 to 4 bytes), or null where a fatal decoder refuses
 * it (an overlong form, a surrogate, past U+10FFFF, a bad continuation byte). Decoded by hand: this runs once per token
 * of the vocabulary, where a decoder call and a parse per token cost tens of milliseconds.
 */
function firstUtf16Unit(token: Uint8Array, length: number): number | null {
  const lead = token[0]!;
  if (lead >= 0xf8) return null;
  let codePoint = lead & (length === 2 ? 0x1f : length === 3 ? 0x0f : 0x07);
  for (let index = 1; index < length; index++) {
    const byte = token[index]!;
    if ((byte & 0xc0) !== 0x80) return null;
    codePoint = (codePoint << 6) | (byte & 0x3f);
  }
  const smallest = length === 2 ? 0x80 : length === 3 ? 0x800 : 0x10000;
  if (codePoint < smallest || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return null;
  return codePoint > 0xffff ? 0xd800 + ((codePoint - 0x10000) >> 10) : codePoint;
}

/** The first quote of `bytes[from, to)` that a backslash does not escape (read inside a string), or -1. */
function closingQuote(bytes: Uint8Array, from: number, to: number): number {
  for (let offset = from; offset < to; offset++) {
    if (bytes[offset] === BACKSLASH) offset++;
    else if (bytes[offset] === QUOTE) return offset;
  }
  return -1;
}

// ignoreBOM: a token may write U+FEFF, which is content, not a byte-order mark
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The value of JSON string content bytes (escapes decoded), or undefined where they are not whole (a cut escape or character). */
function decodeContent(bytes: Uint8Array, start: number, end: number): string | undefined {
  try {
    return JSON.parse(`"${UTF8.decode(bytes.subarray(start, end))}"`) as string;
  } catch {
    return undefined;
  }
}

/** What the character after a backslash stands for (`u` starts `\uHHHH`); -1 where JSON has no such escape. */
export const ESCAPED_UNIT = new Int32Array(256).fill(-1);
for (const [letter, unit] of [
  ['"', 0x22],
  ['\\', 0x5c],
  ['/', 0x2f],
  ['b', 0x08],
  ['f', 0x0c],
  ['n', 0x0a],
  ['r', 0x0d],
  ['t', 0x09],
] as const) {
  ESCAPED_UNIT[letter.charCodeAt(0)] = unit;
}

/** Order of strings by UTF-16 code units, the order `HeldStrings.sorted` keeps. */
export function compareUnits(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
