/**
 * The written-strings rows of `npm run bench:mask`: the mask inside what the matcher
 * remembers (`src/decoding/written-strings.ts`: the items of `uniqueItems` arrays of strings,
 * of objects, of integers and of numbers, the undeclared keys of objects with `minProperties` above 1, endless or
 * counted where they can run out). Each case is a long text of many held items or keys
 * sharing prefixes, written by the tokenizer's own tokens, then EOS; the
 * same text runs under the same schema without the keyword (no memory), interleaved token
 * by token, alternating which goes first, so the two columns see the same load. Rounds after
 * the first are "warm". Also: heap growth and GC events over 10,000 masks at four positions
 * inside the last held items (the masks should allocate nothing), and one
 * accept + `rollback(1)` at the end of the text.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { CompiledGrammar } from '../../src/decoding/index.js';
import { distribution, type Distribution } from './distribution.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const now = (): number => performance.now();
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

export interface WrittenStringsCase {
  readonly name: string;
  /** The schema whose matcher remembers the items or keys written. */
  readonly tracked: unknown;
  /** The same schema without `uniqueItems` or `minProperties`: no memory. */
  readonly untracked: unknown;
  /** Valid under both, in the flexible layout (its escapes are not the compact layout's). */
  readonly text: string;
  /** `text` with its first item or key written again at the end: only the schema without the memory takes it. */
  readonly repeated: string;
}

/** About 140 characters; the first 30 shared by every seventh item, with escapes and a character outside the BMP on the way. */
function longItem(index: number): string {
  return `item number ${index % 7} of the list: caf\u00e9 \\"quoted\\" \\u0061 \ud83d\ude00 the quick brown fox jumps over the lazy dog ${'x'.repeat(40)} ${index}`;
}

/** An object as a list of records holds it: a few keys, escapes in its name, nested arrays in every third; all but its numbers shared. */
function recordItem(index: number): string {
  const matrix = index % 3 === 0 ? `,"matrix":[[${index % 4},1.5],[],["x",null,true]]` : '';
  return `{"id":${index},"name":"item \\"${index % 7}\\" caf\\u00e9 ${index}","tags":["alpha","group-${index % 5}"]${matrix}}`;
}

/** A record of money amounts (`multipleOf: 0.01`) as an invoice holds it: two decimals, each amount one Ajv accepts. */
function amountItem(index: number): string {
  const cents = (index * 7919) % 1_000_000;
  // Ajv's quotient test rejects some exact cents (0.07): step to the next one it accepts
  let amount = cents / 100;
  while (!Number.isInteger(amount / 0.01)) amount = (Math.round(amount * 100) + 1) / 100;
  return `{"amount":${amount.toFixed(2)},"tax":0.10}`;
}

/** A path as an ignore list holds it: short, most of it shared with the others. */
function pathItem(index: number): string {
  return `packages/core/src/module-${index % 13}/file-${index}.ts`;
}

function githubCreateIssue(): Record<string, unknown> {
  const fixture = JSON.parse(readFileSync(resolve(root, 'test/fixtures/third-party/mcp-tools.json'), 'utf8')) as {
    servers: { server: string; tools: { name: string; inputSchema: Record<string, unknown> }[] }[];
  };
  const tool = fixture.servers.find((server) => server.server === 'github')?.tools.find((entry) => entry.name === 'create_issue');
  if (tool === undefined) throw new Error('test/fixtures/third-party/mcp-tools.json has no github/create_issue tool');
  return tool.inputSchema;
}

export function writtenStringsCases(): WrittenStringsCase[] {
  const uniqueStrings = { type: 'array', items: { type: 'string' }, uniqueItems: true };
  const anyStrings = { type: 'array', items: { type: 'string' } };
  const array = (items: string[]): string => `[${items.map((item) => `"${item}"`).join(',')}]`;
  const settingName = (index: number): string => `settings.editor.group-${index % 9}.option-${index}`;
  const members = (names: readonly string[]): string[] => names.map((name, index) => `"${name}":"value ${index}"`);
  const settings = members(Array.from({ length: 100 }, (_, index) => settingName(index)));
  const longItems = Array.from({ length: 50 }, (_, index) => longItem(index));
  const paths = Array.from({ length: 200 }, (_, index) => pathItem(index));
  const issue = (assignees: string[]): string => JSON.stringify({ repo: { owner: 'octo', name: 'hello' }, title: 'a bug', assignees });
  const users = Array.from({ length: 40 }, (_, index) => `user${index}`);
  const records = Array.from({ length: 40 }, (_, index) => recordItem(index));
  // distinct: 7,919 apart, from -400,000 to 1,176,000, so the held values share their leading digits
  const integers = Array.from({ length: 200 }, (_, index) => String(index * 7919 - 400_000));
  // decimals of 1 to 3 fraction digits, some negative, some repeating an integer's value in another spelling
  const decimals = Array.from({ length: 200 }, (_, index) => ((index * 7919 - 400_000) / 10 ** (1 + (index % 3))).toString());
  const settingNames = Array.from({ length: 60 }, (_, index) => settingName(index));
  const enumMembers = members(settingNames.slice(0, 50));
  const boundedKeys = { type: 'object', propertyNames: { maxLength: 48 }, additionalProperties: { type: 'string' } };
  const enumKeys = { type: 'object', propertyNames: { enum: settingNames }, additionalProperties: { type: 'string' } };
  const createIssue = githubCreateIssue();
  const { assignees, ...otherProperties } = createIssue.properties as Record<string, Record<string, unknown>>;
  const { uniqueItems: _unique, ...assigneesWithRepeats } = assignees!;
  // the records' keys declared (their `matrix` left undeclared): the memory compares them as it compares any object
  const declaredRecord = {
    type: 'object',
    properties: { id: { type: 'integer' }, name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
    required: ['id', 'name'],
  };
  const amounts = Array.from({ length: 40 }, (_, index) => amountItem(index));
  // ESLint's no-restricted-syntax items: closed, every value an endless string (only the last value's close is checked)
  const restriction = {
    type: 'object',
    properties: { selector: { type: 'string' }, message: { type: 'string' } },
    required: ['selector'],
    additionalProperties: false,
  };
  const restrictions = Array.from({ length: 40 }, (_, index) =>
    JSON.stringify({ selector: `CallExpression[callee.name='helper${index}']`, message: `Do not call helper${index}; use the shared one.` }),
  );
  const invoice = (multipleOf: Record<string, unknown>): unknown => {
    const amount = { type: 'number', minimum: 0, ...multipleOf };
    return { type: 'array', items: { type: 'object', properties: { amount, tax: amount }, required: ['amount', 'tax'], additionalProperties: false } };
  };
  return [
    {
      name: '50 unique strings of ~140 characters',
      tracked: uniqueStrings,
      untracked: anyStrings,
      text: array(longItems),
      repeated: array([...longItems, longItems[0]!]),
    },
    {
      name: '200 unique paths of ~40 characters',
      tracked: uniqueStrings,
      untracked: anyStrings,
      text: array(paths),
      repeated: array([...paths, paths[0]!]),
    },
    {
      name: '100 undeclared keys, minProperties 2',
      tracked: { type: 'object', properties: { id: { type: 'integer' } }, minProperties: 2, additionalProperties: { type: 'string' } },
      untracked: { type: 'object', properties: { id: { type: 'integer' } }, additionalProperties: { type: 'string' } },
      text: `{"id":7,${settings.join(',')}}`,
      repeated: `{"id":7,${[...settings, settings[0]!].join(',')}}`,
    },
    {
      name: '40 unique objects, nested arrays in some',
      tracked: { type: 'array', items: { type: 'object' }, uniqueItems: true },
      untracked: { type: 'array', items: { type: 'object' } },
      text: `[${records.join(',')}]`,
      repeated: `[${[...records, records[0]!].join(',')}]`,
    },
    {
      name: '40 unique objects with declared properties',
      tracked: { type: 'array', items: declaredRecord, uniqueItems: true },
      untracked: { type: 'array', items: declaredRecord },
      text: `[${records.join(',')}]`,
      repeated: `[${[...records, records[0]!].join(',')}]`,
    },
    {
      name: '40 unique closed objects',
      tracked: { type: 'array', items: restriction, uniqueItems: true },
      untracked: { type: 'array', items: restriction },
      text: `[${restrictions.join(',')}]`,
      repeated: `[${[...restrictions, restrictions[0]!].join(',')}]`,
    },
    {
      name: '50 keys of a propertyNames enum of 60, minProperties 2',
      tracked: { ...enumKeys, minProperties: 2 },
      untracked: enumKeys,
      text: `{${enumMembers.join(',')}}`,
      repeated: `{${[...enumMembers, enumMembers[0]!].join(',')}}`,
    },
    {
      name: '100 keys of at most 48 characters, minProperties 2',
      tracked: { ...boundedKeys, minProperties: 2 },
      untracked: boundedKeys,
      text: `{${settings.join(',')}}`,
      repeated: `{${[...settings, settings[0]!].join(',')}}`,
    },
    {
      name: '40 records of two money amounts, multipleOf 0.01',
      tracked: invoice({ multipleOf: 0.01 }),
      untracked: invoice({}),
      text: `[${amounts.join(',')}]`,
      // not a repeat here: 0.07 is the amount Ajv's quotient test rejects (7.000000000000001)
      repeated: `[${[...amounts, '{"amount":0.07,"tax":0.10}'].join(',')}]`,
    },
    {
      name: '200 unique integers of 4 to 7 digits, some negative',
      tracked: { type: 'array', items: { type: 'integer' }, uniqueItems: true },
      untracked: { type: 'array', items: { type: 'integer' } },
      text: `[${integers.join(',')}]`,
      repeated: `[${[...integers, integers[0]!].join(',')}]`,
    },
    {
      name: '200 unique numbers of 4 to 7 digits, fractions, some negative',
      tracked: { type: 'array', items: { type: 'number' }, uniqueItems: true },
      untracked: { type: 'array', items: { type: 'number' } },
      text: `[${decimals.join(',')}]`,
      // a repeat in another spelling: 1.0 for 1
      repeated: `[${[...decimals, `${decimals[1]!}0`].join(',')}]`,
    },
    {
      name: '200 unique numbers in a range, fractions, some negative',
      tracked: { type: 'array', items: { type: 'number', minimum: -1e6, maximum: 1e6 }, uniqueItems: true },
      untracked: { type: 'array', items: { type: 'number', minimum: -1e6, maximum: 1e6 } },
      text: `[${decimals.join(',')}]`,
      repeated: `[${[...decimals, `${decimals[1]!}0`].join(',')}]`,
    },
    {
      name: "GitHub's create_issue, 40 assignees",
      tracked: createIssue,
      untracked: { ...createIssue, properties: { ...otherProperties, assignees: assigneesWithRepeats } },
      text: issue(users),
      repeated: issue([...users, users[0]!]),
    },
  ];
}

export interface WrittenStringsResult {
  name: string;
  tokens: number;
  /** With the memory: first round, later rounds, and accept over all rounds. */
  tracked: { firstRound: Distribution; warm: Distribution; accept: Distribution };
  /** The same tokens without the memory, later rounds. */
  untracked: { warm: Distribution; accept: Distribution };
  /** 10,000 masks at four positions inside the last held strings, with the memory. */
  masksInsideLastStrings: { masks: number; heapGrowthBytes: number; gcEvents: number };
  /** Mean of 1,000 accept + rollback(1) of the text's last token before EOS. */
  acceptRollbackUs: number;
}

/** Runs every case; `compile` compiles a schema in the flexible layout with the bench's options. */
export async function benchWrittenStrings(
  compile: (schema: unknown) => CompiledGrammar,
  encode: (text: string) => number[],
  eos: number,
  mask: Uint32Array,
  rounds: number,
): Promise<WrittenStringsResult[]> {
  const results: WrittenStringsResult[] = [];
  for (const entry of writtenStringsCases()) {
    const grammars = { tracked: compile(entry.tracked), untracked: compile(entry.untracked) };
    const sequence = [...encode(entry.text), eos];
    const samples = {
      trackedFirst: [] as number[],
      trackedWarm: [] as number[],
      untrackedWarm: [] as number[],
      trackedAccept: [] as number[],
      untrackedAccept: [] as number[],
    };
    for (let round = 0; round < rounds; round++) {
      const tracked = grammars.tracked.matcher();
      const untracked = grammars.untracked.matcher();
      for (let position = 0; position < sequence.length; position++) {
        const token = sequence[position]!;
        const step = (matcher: typeof tracked, which: 'tracked' | 'untracked'): void => {
          let start = now();
          matcher.fillMask(mask);
          const maskTime = now() - start;
          if ((mask[token >>> 5]! & (1 << (token & 31))) === 0) throw new Error(`${entry.name} (${which}): the mask refuses token ${token} at ${position}`);
          start = now();
          const accepted = matcher.accept(token);
          const acceptTime = now() - start;
          if (!accepted) throw new Error(`${entry.name} (${which}): accept refuses token ${token} at ${position}`);
          if (which === 'tracked') {
            (round === 0 ? samples.trackedFirst : samples.trackedWarm).push(maskTime);
            samples.trackedAccept.push(acceptTime);
          } else {
            if (round > 0) samples.untrackedWarm.push(maskTime);
            samples.untrackedAccept.push(acceptTime);
          }
        };
        // alternate which grammar goes first, so cache and scheduler effects even out
        if (((round + position) & 1) === 0) {
          step(tracked, 'tracked');
          step(untracked, 'untracked');
        } else {
          step(untracked, 'untracked');
          step(tracked, 'tracked');
        }
      }
    }
    results.push({
      name: entry.name,
      tokens: sequence.length,
      tracked: { firstRound: distribution(samples.trackedFirst), warm: distribution(samples.trackedWarm), accept: distribution(samples.trackedAccept) },
      untracked: { warm: distribution(samples.untrackedWarm), accept: distribution(samples.untrackedAccept) },
      masksInsideLastStrings: await masksInsideLastStrings(grammars.tracked, sequence, mask),
      acceptRollbackUs: acceptRollback(grammars.tracked, sequence),
    });
  }
  return results;
}

/** Heap growth and GC events over 2,500 masks at each of four positions near the end of the text (its last held strings). */
async function masksInsideLastStrings(
  grammar: CompiledGrammar,
  sequence: readonly number[],
  mask: Uint32Array,
): Promise<WrittenStringsResult['masksInsideLastStrings']> {
  const matcher = grammar.matcher();
  const stops = new Set([sequence.length - 31, sequence.length - 21, sequence.length - 11, sequence.length - 4]);
  let heapGrowthBytes = 0;
  let gcEvents = 0;
  let masks = 0;
  let eventsSeen = 0;
  const observer = new PerformanceObserver((list) => {
    eventsSeen += list.getEntries().length;
  });
  observer.observe({ entryTypes: ['gc'] });
  const settle = (): Promise<void> => new Promise((done) => setTimeout(done, 20));
  try {
    for (let position = 0; position < sequence.length - 1; position++) {
      if (stops.has(position)) {
        // warm first: the JIT's own allocations (feedback, optimized code) are not the mask's
        for (let repeat = 0; repeat < 2500; repeat++) matcher.fillMask(mask);
        gc();
        await settle();
        const eventsBefore = eventsSeen;
        const heapBefore = process.memoryUsage().heapUsed;
        for (let repeat = 0; repeat < 2500; repeat++) matcher.fillMask(mask);
        heapGrowthBytes += process.memoryUsage().heapUsed - heapBefore;
        masks += 2500;
        await settle();
        gcEvents += eventsSeen - eventsBefore;
      }
      matcher.accept(sequence[position]!);
    }
  } finally {
    observer.disconnect();
  }
  return { masks, heapGrowthBytes, gcEvents };
}

function acceptRollback(grammar: CompiledGrammar, sequence: readonly number[]): number {
  const matcher = grammar.matcher();
  for (let position = 0; position < sequence.length - 2; position++) matcher.accept(sequence[position]!);
  const last = sequence[sequence.length - 2]!;
  const repeats = 1000;
  const start = now();
  for (let repeat = 0; repeat < repeats; repeat++) {
    matcher.accept(last);
    matcher.rollback(1);
  }
  return ((now() - start) * 1000) / repeats;
}
