/**
 * Sets of Unicode code points as sorted, disjoint, inclusive ranges `[lo0, hi0, lo1, hi1, …]`.
 * Surrogates never appear: a JSON string in UTF-8 cannot hold a lone one.
 * @module
 */

export type CodePointSet = readonly number[];

export const MAX_CODE_POINT = 0x10ffff;
const SURROGATES: CodePointSet = [0xd800, 0xdfff];

/** How many code points of `lo..hi` are not surrogates: those UTF-8 text, and so a JSON string, can hold. */
export function nonSurrogateCount(lo: number, hi: number): number {
  const surrogates = Math.max(0, Math.min(hi, SURROGATES[1]!) - Math.max(lo, SURROGATES[0]!) + 1);
  return hi - lo + 1 - surrogates;
}

export function normalizeSet(ranges: readonly number[]): number[] {
  const pairs: [number, number][] = [];
  for (let index = 0; index < ranges.length; index += 2) {
    const lo = ranges[index]!;
    const hi = ranges[index + 1]!;
    if (lo <= hi) pairs.push([lo, hi]);
  }
  pairs.sort((left, right) => left[0] - right[0]);
  const merged: number[] = [];
  for (const [lo, hi] of pairs) {
    const last = merged.length - 1;
    if (last > 0 && lo <= merged[last]! + 1) merged[last] = Math.max(merged[last]!, hi);
    else merged.push(lo, hi);
  }
  return merged;
}

export function unionSets(...sets: CodePointSet[]): number[] {
  return normalizeSet(sets.flat());
}

/** The complement within UTF-8 text (no surrogates), or within JavaScript strings (lone surrogates included) when `keepSurrogates`. */
export function complementSet(set: CodePointSet, keepSurrogates = false): number[] {
  const result: number[] = [];
  let next = 0;
  for (let index = 0; index < set.length; index += 2) {
    if (set[index]! > next) result.push(next, set[index]! - 1);
    next = set[index + 1]! + 1;
  }
  if (next <= MAX_CODE_POINT) result.push(next, MAX_CODE_POINT);
  return keepSurrogates ? result : subtractSets(result, SURROGATES);
}

export function intersectSets(left: CodePointSet, right: CodePointSet): number[] {
  const result: number[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    const lo = Math.max(left[i]!, right[j]!);
    const hi = Math.min(left[i + 1]!, right[j + 1]!);
    if (lo <= hi) result.push(lo, hi);
    if (left[i + 1]! < right[j + 1]!) i += 2;
    else j += 2;
  }
  return result;
}

export function subtractSets(left: CodePointSet, right: CodePointSet): number[] {
  const result: number[] = [];
  let j = 0;
  for (let i = 0; i < left.length; i += 2) {
    let lo = left[i]!;
    const hi = left[i + 1]!;
    while (j < right.length && right[j + 1]! < lo) j += 2;
    let k = j;
    while (k < right.length && right[k]! <= hi) {
      if (right[k]! > lo) result.push(lo, right[k]! - 1);
      lo = Math.max(lo, right[k + 1]! + 1);
      k += 2;
    }
    if (lo <= hi) result.push(lo, hi);
  }
  return result;
}

export function setHas(set: CodePointSet, codePoint: number): boolean {
  let low = 0;
  let high = set.length / 2 - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (codePoint < set[middle * 2]!) high = middle - 1;
    else if (codePoint > set[middle * 2 + 1]!) low = middle + 1;
    else return true;
  }
  return false;
}

/** Every code point a JSON string can hold. */
export const ANY_CHAR: CodePointSet = complementSet([]);
/** `\d` (ECMAScript, also with the `u` flag). */
export const DIGIT: CodePointSet = [0x30, 0x39];
/** `\w` without the `i` flag. */
export const WORD: CodePointSet = normalizeSet([0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a]);
/** `\s`: ECMAScript WhiteSpace and LineTerminator. */
export const SPACE: CodePointSet = normalizeSet([
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff,
]);
/** Every code point a JavaScript string can hold: a lone surrogate is one too. */
export const ANY_UTF16_CHAR: CodePointSet = [0, MAX_CODE_POINT];
const LINE_TERMINATORS: CodePointSet = normalizeSet([0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029]);
/** `.` without the `s` flag: anything but a line terminator. */
export const DOT: CodePointSet = subtractSets(ANY_CHAR, LINE_TERMINATORS);
/** `.` over JavaScript strings. */
export const UTF16_DOT: CodePointSet = subtractSets(ANY_UTF16_CHAR, LINE_TERMINATORS);

/** Adds the other ASCII case of every ASCII letter in the set (the formats' `i` flag; non-ASCII folding is never needed there). */
export function foldAsciiCase(set: CodePointSet): number[] {
  const extra: number[] = [];
  const upper = intersectSets(set, [0x41, 0x5a]);
  const lower = intersectSets(set, [0x61, 0x7a]);
  for (let index = 0; index < upper.length; index += 2) extra.push(upper[index]! + 32, upper[index + 1]! + 32);
  for (let index = 0; index < lower.length; index += 2) extra.push(lower[index]! - 32, lower[index + 1]! - 32);
  return unionSets(set, extra);
}
