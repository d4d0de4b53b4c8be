/**
 * The code points of a Unicode property escape (`\p{L}`, `\p{Script=Greek}`, `\p{Alphabetic}`…), read from this
 * JavaScript engine itself, so that the sets are those of `new RegExp(source, 'u')` on this runtime (its Unicode
 * version, its property names and aliases) by construction rather than by a table that could drift from it.
 * @module
 */
import { normalizeSet, type CodePointSet } from './code-point-set.js';

/**
 * A window of the code space and the string of its code points in order. Lone surrogates have windows of their own, so
 * that no high one is followed by a low one and pairs up with it into an astral character.
 */
interface CodePointWindow {
  readonly first: number;
  readonly last: number;
  /** UTF-16 units per code point: 1 in the BMP, 2 above it. */
  readonly units: number;
  readonly text: string;
}

/**
 * Each window is scanned with its own `[\p{…}&&[first-last]]`, which the engine intersects when it compiles it: the
 * class it then tests holds only the set's ranges in that window. One `\p{L}` over every astral character costs V8
 * about 30 ns a character (a choice among all the lead surrogates of the set); within a plane it is a few nanoseconds.
 * The planes Unicode assigns little of (4–13, 15–16) are one window each: where to cut changes the speed, never the set.
 */
const WINDOW_BOUNDS = [
  [0, 0xd7ff],
  [0xd800, 0xdbff],
  [0xdc00, 0xdfff],
  [0xe000, 0xffff],
  [0x10000, 0x1ffff],
  [0x20000, 0x2ffff],
  [0x30000, 0x3ffff],
  [0x40000, 0xdffff],
  [0xe0000, 0xeffff],
  [0xf0000, 0x10ffff],
] as const;

/** The body of `\p{…}`: a name, or `name=value`; V8 decides which names and values exist. */
const PROPERTY_BODY = /^[A-Za-z0-9_]+(?:=[A-Za-z0-9_]+)?$/;

/** Whether this engine has the `v` flag's class set operations (ES2024: Node 20, Chrome 112, Safari 17, Firefox 116). */
const CLASS_SET_OPERATIONS = (() => {
  try {
    return new RegExp('[a&&a]', 'v').test('a');
  } catch {
    return false;
  }
})();

const propertySets = new Map<string, CodePointSet>();
/**
 * The strings of every code point (4.4 MB), built on the first property escape of the process and kept: building them
 * costs more than reading a property from them, so a set read later, for another schema, would otherwise pay it again.
 */
let codePointWindows: readonly CodePointWindow[] | undefined;

/**
 * The code points `\p{body}` matches under the `u` flag, lone surrogates included (`\p{Cs}`, `\p{Any}`). Computed
 * once per distinct `body` per process, then cached (`npm run bench:patterns -- --property-escapes` times both).
 * Undefined when `new RegExp('\\p{body}', 'u')` is a SyntaxError: an unknown name or value, or a property of strings
 * (`v` flag only).
 */
export function unicodePropertySet(body: string): CodePointSet | undefined {
  const cached = propertySets.get(body);
  if (cached !== undefined) return cached;
  const set = readPropertySet(body, CLASS_SET_OPERATIONS);
  if (set !== undefined) propertySets.set(body, set);
  return set;
}

/**
 * `unicodePropertySet` without the cache. Without `classSetOperations` each window is scanned with `\p{body}` and
 * `\P{body}` under the `u` flag, the same sets on a string holding only that window's code points, tens of milliseconds an escape.
 */
export function readPropertySet(body: string, classSetOperations: boolean): CodePointSet | undefined {
  if (!PROPERTY_BODY.test(body)) return undefined;
  try {
    // The source is written here from a body of letters, digits, "_" and one "=" (checked above): a single character
    // class, which no input can make backtrack, so running V8's RegExp on it is no ReDoS vector. Under the `u` flag,
    // as the registry compiles patterns: the `v` flag would also take the properties of strings (`\p{RGI_Emoji}`).
    new RegExp(`\\p{${body}}`, 'u');
  } catch {
    return undefined;
  }
  const ranges: number[] = [];
  for (const window of allCodePoints()) {
    const span = `[\\u{${window.first.toString(16)}}-\\u{${window.last.toString(16)}}]`;
    // Each finds one code point (of the set, or not of it) from lastIndex on and leaves lastIndex just after it.
    const inside = classSetOperations ? new RegExp(`[\\p{${body}}&&${span}]`, 'gv') : new RegExp(`\\p{${body}}`, 'gu');
    const outside = classSetOperations ? new RegExp(`[${span}--\\p{${body}}]`, 'gv') : new RegExp(`\\P{${body}}`, 'gu');
    const { text, units } = window;
    inside.lastIndex = 0;
    while (inside.test(text)) {
      const start = inside.lastIndex - units;
      outside.lastIndex = inside.lastIndex;
      const end = outside.test(text) ? outside.lastIndex - units : text.length;
      ranges.push(window.first + start / units, window.first + end / units - 1);
      inside.lastIndex = end;
    }
  }
  return normalizeSet(ranges);
}

function allCodePoints(): readonly CodePointWindow[] {
  codePointWindows ??= WINDOW_BOUNDS.map(([first, last]) => ({
    first,
    last,
    units: first > 0xffff ? 2 : 1,
    text: first > 0xffff ? astralString(first, last) : stringOf(bmpUnits(first, last)),
  }));
  return codePointWindows;
}

function bmpUnits(first: number, last: number): Uint16Array {
  const codeUnits = new Uint16Array(last - first + 1);
  for (let at = 0; at < codeUnits.length; at++) codeUnits[at] = first + at;
  return codeUnits;
}

/**
 * The astral code points from `first` to `last` (whole blocks of 1024 that share a high surrogate) as surrogate
 * pairs: the low surrogates of a block are written once, and only the high ones are rewritten from block to block.
 */
function astralString(first: number, last: number): string {
  const block = new Uint16Array(2 * 1024);
  for (let low = 0; low < 1024; low++) block[2 * low + 1] = 0xdc00 + low;
  const blocks: string[] = [];
  for (let start = first; start <= last; start += 1024) {
    const high = 0xd800 + ((start - 0x10000) >> 10);
    for (let at = 0; at < block.length; at += 2) block[at] = high;
    blocks.push(stringOf(block));
  }
  return blocks.join('');
}

/** The units as a string, lone surrogates kept (a TextDecoder would replace them with U+FFFD). */
function stringOf(codeUnits: Uint16Array): string {
  const chunks: string[] = [];
  for (let at = 0; at < codeUnits.length; at += CHUNK_UNITS)
    chunks.push(String.fromCharCode.apply(null, codeUnits.subarray(at, at + CHUNK_UNITS) as unknown as number[]));
  return chunks.join('');
}

/** Units per `String.fromCharCode` call: well under the engine's limit on arguments. */
const CHUNK_UNITS = 8192;
