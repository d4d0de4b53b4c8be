/**
 * The time formats' automata and `regex`'s (its nested groups), prebuilt for Node. Their regexes and leap-second
 * products take 100–1,300 ms to build on first use, and serialized they weigh 800 KB (220 KB gzipped): too much for a page's bundle, so they ship as
 * a file beside this module (`prebuilt-time-automata.bin.gz`, written by scripts/generate-format-automata.ts) that a
 * process with a file system reads on the first lookup of one of these formats' regexes. Where there is none (a
 * browser, a Worker), or the file cannot be read, the grammar cache builds the automata from the regexes: the language
 * is the same either way (test/decoding/prebuilt-format-automata.test.ts compares them state by state).
 * @module
 */
import { nodeBuiltin } from '../shared/node-builtin.js';
import type { CodePointDfa } from '../shared/regex/code-point-dfa.js';
import { deserializeDfaBytes } from './serialized-dfa.js';
import { formatLanguage } from './string-formats.js';

/**
 * The formats whose automata the file holds: each pattern of each alternative, and the product of an alternative's
 * patterns. Not `date`: its one 29-state automaton builds in less time than reading the file takes.
 */
export const FILE_PREBUILT_FORMATS = ['time', 'date-time', 'iso-time', 'iso-date-time', 'regex'] as const;

export const PREBUILT_TIME_AUTOMATA_FILE = 'prebuilt-time-automata.bin.gz';

/** How `GrammarCache.pattern` keys a regex (`ignoreCase`: ajv-formats' `i` flag), and so how the prebuilt tables key it. */
export function patternKey(source: string, ignoreCase: boolean): string {
  return `${ignoreCase ? 'i' : '-'}${source}`;
}

/** The file's key of the product of regexes keyed (as `GrammarCache.pattern` keys them) `patternKeys`, in this order. */
export function productKey(patternKeys: readonly string[]): string {
  return `&${JSON.stringify(patternKeys)}`;
}

/** Keys of the regexes of the formats above, as `GrammarCache.pattern` keys them: only these send a lookup to the file. */
let familyPatternKeys: ReadonlySet<string> | undefined;
/** The file's automata by key, serialized (empty where it could not be read), once read. */
let table: ReadonlyMap<string, Uint8Array> | undefined;

function isFamilyPattern(key: string): boolean {
  familyPatternKeys ??= new Set(
    FILE_PREBUILT_FORMATS.flatMap((name) => {
      const language = formatLanguage(name);
      if (language?.kind !== 'string') return [];
      return language.alternatives.flatMap((alternative) => alternative.patterns.map((source) => patternKey(source, language.ignoreCase)));
    }),
  );
  return familyPatternKeys.has(key);
}

/**
 * The entries of the file's bytes once gunzipped, as views of `packed`. Its layout (written by packTimeAutomata in
 * scripts/generate-format-automata.ts; binary, so nothing but a small index is decoded as text): the index's byte length
 * (4 bytes, little-endian), the index (JSON: `[key, byteLength]` per automaton), then each automaton's
 * `serializeDfaBytes` bytes in the index's order.
 */
export function unpackTimeAutomata(packed: Uint8Array): Map<string, Uint8Array> {
  const indexLength = new DataView(packed.buffer, packed.byteOffset, packed.byteLength).getUint32(0, true);
  const index = JSON.parse(new TextDecoder().decode(packed.subarray(4, 4 + indexLength))) as [string, number][];
  const entries = new Map<string, Uint8Array>();
  let at = 4 + indexLength;
  for (const [key, length] of index) {
    entries.set(key, packed.subarray(at, at + length));
    at += length;
  }
  return entries;
}

function readTable(): ReadonlyMap<string, Uint8Array> {
  const fs = nodeBuiltin('node:fs');
  const zlib = nodeBuiltin('node:zlib');
  if (fs === undefined || zlib === undefined) return new Map();
  try {
    return unpackTimeAutomata(zlib.gunzipSync(fs.readFileSync(new URL(`./${PREBUILT_TIME_AUTOMATA_FILE}`, import.meta.url))));
  } catch {
    // a bundle that left the file behind, or a module URL that is no file: building from the regexes gives the same automata
    return new Map();
  }
}

/**
 * The automaton of a time-family regex (`patternKeys` of one) or of the product of an alternative's regexes (its
 * pattern keys in order), or undefined when the file does not hold it or cannot be read.
 */
export function filePrebuiltDfa(patternKeys: readonly string[]): CodePointDfa | undefined {
  if (patternKeys.length === 0 || !patternKeys.every(isFamilyPattern)) return undefined;
  table ??= readTable();
  const bytes = table.get(patternKeys.length === 1 ? patternKeys[0]! : productKey(patternKeys));
  return bytes === undefined ? undefined : deserializeDfaBytes(bytes);
}
