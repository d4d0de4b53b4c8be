/**
 * `format: "regex"` as a regular language: ajv-formats accepts a string when `new RegExp(text)` (no flags, so the
 * web-compatibility grammar of ECMA-262 Annex B) compiles and no `\Z` follows a character other than a backslash.
 * Whether a text compiles is not regular (groups nest without bound), so the engine offers a regular subset of what
 * compiles, built so that every text in it compiles (a narrowing, docs/decoding.md "Known limits"):
 *
 * - groups `(…)`, `(?:…)`, `(?=…)` and `(?!…)` nested at most {@link MAX_GROUP_DEPTH} deep, alternation `|` anywhere;
 * - atoms: characters other than `\ ^ $ . * + ? ( ) [ ] { } |`, `.`, the escapes `\d \D \w \W \s \S \n \r \t \f \v`
 *   and a backslash before one of those punctuation characters, `/` or `-`, and classes `[…]`/`[^…]` of characters,
 *   class escapes and ranges within `0-9`, `a-z` or `A-Z` written in ascending order, with one `-` at either end;
 * - each atom or group takes at most one quantifier `* + ? {n} {n,} {n,m}` (n, m without leading zeros, n ≤ 999 alone,
 *   and in `{n,m}` n ≤ m told by the digits: one digit each, fewer digits in n, or a larger first digit in m), lazy or
 *   not; `^`, `$`, `\b` and `\B` take none.
 *
 * Left out (refused although Annex B compiles them): lookbehind, named groups, backreferences, `\x`, `\u`, `\c`, `\k`,
 * `\p` and other identity escapes, `{`, `}` and `]` as literal characters, ranges across other characters, deeper
 * nesting. The `u` flag's stricter grammar is not what ajv-formats checks, so `\a` compiles there and is only left out.
 * @module
 */

/** How deep the offered regexes nest groups: each level adds one copy of the flat language to the automaton. */
export const MAX_GROUP_DEPTH = 3;

const LITERAL = '[^\\\\^$.*+?()[\\]{}|]';
const ESCAPE = '\\\\[dDwWsSnrtfv\\\\/.*+?()[\\]{}|^$-]';
const CLASS_CHARACTER = '[^\\\\\\][-]';
const CLASS_ESCAPE = '\\\\[dDwWsSbnrtfv\\\\/.*+?()[\\]{}|^$-]';

/** `a-c`, `0-9`, `A-Z`: a range inside one run of ASCII digits or letters, ascending. */
function classRanges(): string {
  const runs = ['0123456789', 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
  const out: string[] = [];
  for (const run of runs) for (let from = 0; from < run.length; from++) out.push(`${run[from]}-[${run[from]}-${run[run.length - 1]}]`);
  return `(?:${out.join('|')})`;
}

const CLASS = `\\[\\^?-?(?:${CLASS_CHARACTER}|${CLASS_ESCAPE}|${classRanges()})*-?\\]`;

/** `n,m` with `n ≤ m` told by their digits alone: n of one digit and m of one at least as large, or of more digits (n ≤ 99,
 * m ≤ 999, no leading zeros), or both of two digits with m's first digit the larger. */
function orderedBounds(): string {
  const out = ['\\d,[1-9]\\d{1,2}', '[1-9]\\d,[1-9]\\d\\d'];
  for (let n = 0; n <= 9; n++) out.push(`${n},[${n}-9]`);
  for (let tens = 1; tens < 9; tens++) out.push(`${tens}\\d,[${tens + 1}-9]\\d`);
  return `(?:${out.join('|')})`;
}

const COUNT = '(?:0|[1-9]\\d{0,2})';
const QUANTIFIER = `(?:(?:[*+?]|\\{(?:${COUNT},?|${orderedBounds()})\\})\\??)`;
const ASSERTION = '(?:\\^|\\$|\\\\[bB])';
const ATOM = `(?:${LITERAL}|${ESCAPE}|\\.|${CLASS})`;

/** The texts of one alternation with groups nested at most `depth` deep. */
function alternation(depth: number): string {
  const group = depth > 0 ? `|\\((?:\\?[:=!])?${alternation(depth - 1)}\\)${QUANTIFIER}?` : '';
  return `(?:${ATOM}${QUANTIFIER}?|${ASSERTION}|\\|${group})*`;
}

/** The regex (for the engine's own parser) of the texts the engine offers for `format: "regex"`. */
export const REGEX_FORMAT_PATTERN = `^${alternation(MAX_GROUP_DEPTH)}$`;
