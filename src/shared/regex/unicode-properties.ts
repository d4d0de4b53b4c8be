/**
 * The code points of a Unicode property escape (`\p{L}`, `\p{Script=Greek}`, `\p{Alphabetic}`…), read from this
 * JavaScript engine itself, so that the sets are those of `new RegExp(source, 'u')` on this runtime (its Unicode
 * version, its property names and aliases) by construction rather than by a table that could drift from it.
 * @module
 */
import { normalizeSet, type CodePointSet } from './code-point-set.js';

/**
 * Every code point as a string, split where a string cannot hold the code points in a row: lone low surrogates come
 * before lone high ones, and each block has its own string, so that no two of them pair up into an astral character.
 */
interface CodePointRun {
  readonly first: number;
  /** UTF-16 units per code point: 1 in the BMP, 2 above it. */
  readonly units: number;
  readonly text: string;
}

const RUN_BOUNDS = [
  [0, 0xd7ff],
  [0xdc00, 0xdfff],
  [0xd800, 0xdbff],
  [0xe000, 0xffff],
  [0x10000, 0x10ffff],
] as const;

/** The body of `\p{…}`: a name, or `name=value`; V8 decides which names and values exist. */
const PROPERTY_BODY = /^[A-Za-z0-9_]+(?:=[A-Za-z0-9_]+)?$/;

const propertySets = new Map<string, CodePointSet>();
/**
 * The strings of every code point (about 4.4 MB) stay alive while one schema's escapes are read, and are left to the
 * garbage collector afterwards: a WeakRef target lives at least to the end of the current job.
 */
let codePointRuns: WeakRef<readonly CodePointRun[]> | undefined;

/**
 * The code points `\p{body}` matches under the `u` flag, lone surrogates included (`\p{Cs}`, `\p{Any}`). Computed
 * once per distinct `body` per process (tens of milliseconds, `npm run bench:patterns -- --property-escapes`), then
 * cached. Undefined when `new RegExp('\\p{body}', 'u')` is a SyntaxError: an unknown name or value, or a property of
 * strings (`v` flag only).
 */
export function unicodePropertySet(body: string): CodePointSet | undefined {
  const cached = propertySets.get(body);
  if (cached !== undefined) return cached;
  if (!PROPERTY_BODY.test(body)) return undefined;
  let matcher: RegExp;
  try {
    // The source is written here from a body of letters, digits, "_" and one "=" (checked above): `\p{…}+` is one
    // character class repeated, which no input can make backtrack, so running V8's RegExp on it is no ReDoS vector.
    matcher = new RegExp(`\\p{${body}}+`, 'gu');
  } catch {
    return undefined;
  }
  const ranges: number[] = [];
  for (const run of allCodePoints()) {
    matcher.lastIndex = 0;
    for (let match = matcher.exec(run.text); match !== null; match = matcher.exec(run.text)) {
      const lo = run.first + match.index / run.units;
      ranges.push(lo, lo + match[0].length / run.units - 1);
    }
  }
  const set = normalizeSet(ranges);
  propertySets.set(body, set);
  return set;
}

function allCodePoints(): readonly CodePointRun[] {
  const kept = codePointRuns?.deref();
  if (kept !== undefined) return kept;
  const runs = RUN_BOUNDS.map(([first, last]) => {
    const units = first > 0xffff ? 2 : 1;
    const codeUnits = new Uint16Array((last - first + 1) * units);
    let at = 0;
    for (let codePoint = first; codePoint <= last; codePoint++) {
      if (units === 1) codeUnits[at++] = codePoint;
      else {
        codeUnits[at++] = 0xd800 + ((codePoint - 0x10000) >> 10);
        codeUnits[at++] = 0xdc00 + ((codePoint - 0x10000) & 0x3ff);
      }
    }
    return { first, units, text: stringOf(codeUnits) };
  });
  codePointRuns = new WeakRef(runs);
  return runs;
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
