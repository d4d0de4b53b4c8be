/**
 * `npm run bench:detectors`: how the provenance detectors' cost grows on hostile text.
 *
 * Every tool output the provenance index holds (up to 200,000 characters) is scanned by the value detectors, and every
 * argument a model writes is searched for in it. A pattern that rescans a run from each of its positions is quadratic, and
 * a hostile page then blocks the event loop for seconds. This bench indexes the texts of
 * `test/fixtures/hostile-detector-texts.ts` at doubling sizes and reports, per text, the cost per character and the growth
 * per doubling of the size: 2 is linear, 4 quadratic.
 *
 * Controls in the same run, interleaved round by round: the patterns the detectors used before they were made linear
 * (e-mail without its start guard, bare hosts and number groups unbounded), the bare host with no path (issue #25) as it
 * would read without its start guard and label bound, and the `indexOf` search from each occurrence that `sourcesOfText`
 * used, on the texts each was quadratic on, at smaller sizes (they take seconds at the cap). A control that does not show
 * about 4 means the bench no longer exercises what it claims to.
 *
 *   npm run bench:detectors
 *   npm run bench:detectors -- --rounds 7 --max 200000
 */
import { parseArgs } from 'node:util';
import { MAX_INDEXED_CHARS, ProvenanceIndex } from '../../src/policy/provenance/provenance-index.js';
import { HOSTILE_TEXTS } from '../../test/fixtures/hostile-detector-texts.js';
import { doublingSizes, median } from '../growth.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    max: { type: 'string', default: String(MAX_INDEXED_CHARS) },
    'control-max': { type: 'string', default: '20000' },
  },
});
const ROUNDS = Number(values.rounds);
const MAX = Number(values.max);
const CONTROL_MAX = Number(values['control-max']);
const DOUBLINGS = 3;

const sizes = (max: number): number[] => doublingSizes(max, DOUBLINGS);

interface Case {
  name: string;
  kind: 'toolwright' | 'control';
  sizes: number[];
  /** Prepares the input of one size; the returned function is what is timed. */
  prepare(size: number): () => unknown;
}

const indexing = (build: (size: number) => string) => (size: number) => {
  const text = build(size);
  return () => new ProvenanceIndex().add({ origin: 'untrusted', toolName: 'read', callId: 'c1' }, text);
};

// The patterns before commit b96c974 (value-detectors.ts), kept here as controls only.
const OLD_EMAIL = /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/gi;
const OLD_BARE_HOST = /\b(?:[a-z0-9-]+\.)+[a-z]{2,}\/[^\s<>"'`)\]}\\]*/gi;
// The bare host with no path (the detector added for issue #25) as it would read without its start guard and label bound.
const UNGUARDED_BARE_HOST = /\b(?:[a-z0-9-]+\.)+[a-z]{2,}(?![\w.])/gi;
const OLD_NUMBER = String.raw`\d{1,3}(?:[,.' ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?`;
const CURRENCY = String.raw`(?:EUR|USD|GBP|CHF|JPY|CAD|AUD|euros?|dollars?|pounds?|[€$£¥])`;
const OLD_AMOUNT = new RegExp(String.raw`${CURRENCY}\s?(?:${OLD_NUMBER})\b|\b(?:${OLD_NUMBER})\s?${CURRENCY}(?![a-z])`, 'gi');
const scanning = (pattern: RegExp, build: (size: number) => string) => (size: number) => {
  const text = build(size);
  return () => [...text.matchAll(pattern)].length;
};
/** `containsOnBoundaries` before it was Knuth-Morris-Pratt: `indexOf` again from each occurrence. */
function oldContainsOnBoundaries(haystack: string, needle: string): boolean {
  const word = /[\p{L}\p{N}]/u;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const gluedBefore = word.test(needle[0]!) && word.test(at === 0 ? '' : haystack[at - 1]!);
    const gluedAfter = word.test(needle[needle.length - 1]!) && word.test(haystack[at + needle.length] ?? '');
    if (!gluedBefore && !gluedAfter) return true;
  }
  return false;
}

const hostile = (name: string) => HOSTILE_TEXTS.find((text) => text.name === name)!.build;
// A needle of a quarter of the haystack, every occurrence glued: the old search compares ~size²/5 characters.
const sameLetter = (size: number) => ({ haystack: 'a'.repeat(size), needle: 'a'.repeat(size >> 2) });

const cases: Case[] = [
  ...HOSTILE_TEXTS.map((text): Case => ({ name: `index: ${text.name}`, kind: 'toolwright', sizes: sizes(MAX), prepare: indexing(text.build) })),
  {
    name: 'sourcesOfText: a quarter-size needle, same letter',
    kind: 'toolwright',
    sizes: sizes(MAX),
    prepare: (size) => {
      const { haystack, needle } = sameLetter(size);
      const index = new ProvenanceIndex();
      index.add({ origin: 'untrusted', toolName: 'read', callId: 'c1' }, haystack);
      return () => index.sourcesOfText(needle);
    },
  },
  {
    name: 'sourcesOfPhrases and sourcesOfTokens: index a text of distinct words and dotted names, then ask for it whole',
    kind: 'toolwright',
    sizes: sizes(MAX),
    prepare: (size) => {
      // Every other word a value-like token (a dotted name), so both the phrase and the token maps grow with the size.
      const words = Array.from({ length: Math.ceil(size / 8) }, (_, index) => (index % 2 === 0 ? `w${index.toString(36)}` : `x.y${index.toString(36)}`))
        .join(' ')
        .slice(0, size);
      return () => {
        const index = new ProvenanceIndex();
        index.add({ origin: 'untrusted', toolName: 'read', callId: 'c1' }, words);
        return index.sourcesOfPhrases(words).length + index.sourcesOfTokens(words).length;
      };
    },
  },
  // A tool's JSON output, indexed field by field (output-fields.ts): the per-field cost, capped by MAX_OUTPUT_FIELDS.
  ...[
    { name: 'addToolOutput: a JSON array of one-character strings', build: (size: number) => JSON.stringify(Array.from({ length: size >> 2 }, () => 'a')) },
    {
      name: 'addToolOutput: a JSON array of records with a multi-line text field',
      build: (size: number) =>
        JSON.stringify(Array.from({ length: size >> 6 }, (_, index) => ({ id: index, text: 'Pay to:\nACME GmbH\nDE89370400440532013000' }))),
    },
  ].map((item): Case => ({
    name: item.name,
    kind: 'toolwright',
    sizes: sizes(MAX),
    prepare: (size) => {
      // Whole JSON of about `size` characters (cut, it would not parse and be indexed as plain text).
      const text = item.build(size);
      return () => new ProvenanceIndex().addToolOutput({ origin: 'untrusted', toolName: 'read', callId: 'c1' }, text);
    },
  })),
  {
    name: 'bare host with no path, unguarded: labels that never end in a suffix',
    kind: 'control',
    sizes: sizes(CONTROL_MAX),
    prepare: scanning(UNGUARDED_BARE_HOST, hostile('bare host labels, a word at the end')),
  },
  {
    name: 'old e-mail pattern: local-part run, no @',
    kind: 'control',
    sizes: sizes(CONTROL_MAX),
    prepare: scanning(OLD_EMAIL, hostile('local-part run, no @')),
  },
  {
    name: 'old bare-host pattern: host labels',
    kind: 'control',
    sizes: sizes(CONTROL_MAX),
    prepare: scanning(OLD_BARE_HOST, hostile('host labels, no slash')),
  },
  {
    name: 'old amount pattern: grouped numbers',
    kind: 'control',
    sizes: sizes(CONTROL_MAX),
    prepare: scanning(OLD_AMOUNT, hostile('grouped numbers, no currency')),
  },
  {
    name: 'old indexOf search: a quarter-size needle',
    kind: 'control',
    sizes: sizes(CONTROL_MAX * 2),
    prepare: (size) => {
      const { haystack, needle } = sameLetter(size);
      return () => oldContainsOnBoundaries(haystack, needle);
    },
  },
];

// samples[case][size] = milliseconds per round
const samples = cases.map((item) => item.sizes.map(() => [] as number[]));
const prepared = cases.map((item) => item.sizes.map((size) => item.prepare(size)));
for (const run of prepared.flat()) run(); // warm-up: compile the patterns, settle the JIT
for (let round = 0; round < ROUNDS; round++) {
  // alternate the order each round so neither toolwright nor the controls always run on a cooler machine
  const order = cases.map((_, index) => index);
  if (round % 2 === 1) order.reverse();
  for (const caseIndex of order) {
    prepared[caseIndex]!.forEach((run, sizeIndex) => {
      const started = performance.now();
      run();
      samples[caseIndex]![sizeIndex]!.push(performance.now() - started);
    });
  }
}

console.log(`## bench:detectors (${ROUNDS} rounds, medians; growth per doubling of the size: 2 is linear, 4 quadratic)\n`);
console.log('| case | sizes (characters) | ms at each size | ns per character at the largest | growth per doubling |');
console.log('| --- | --- | --- | ---: | ---: |');
for (const [caseIndex, item] of cases.entries()) {
  const medians = samples[caseIndex]!.map(median);
  const largest = item.sizes[item.sizes.length - 1]!;
  const growth = (Math.max(medians[medians.length - 1]!, 1e-3) / Math.max(medians[0]!, 1e-3)) ** (1 / DOUBLINGS);
  console.log(
    `| ${item.kind === 'control' ? `control: ${item.name}` : item.name} | ${item.sizes.map((size) => size.toLocaleString('en')).join(' / ')} | ${medians.map((ms) => ms.toFixed(2)).join(' / ')} | ${((medians[medians.length - 1]! * 1e6) / largest).toFixed(0)} | ${growth.toFixed(2)} |`,
  );
}
