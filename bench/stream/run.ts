/**
 * `npm run bench:stream`: how the redacted stream's cost grows with the length of a hostile text.
 *
 * `run.redacted()` (behind `toEventStreamResponse`, the CLI's `run` and `resume` output and the console's resume) holds
 * text back and redacts it line by line. It used to look for a line end over the whole open text on every delta, and
 * over every line of an open PEM block, so one long line cost time in its square and an open block in its cube. This
 * bench sends each text of `HOSTILE_STREAMS` through `redactAgentStream` at doubling sizes and reports the cost per
 * character and the growth per doubling of the size: 2 is linear, 4 quadratic, 8 cubic.
 *
 * Controls in the same run, interleaved round by round: the whole-line scan as it was
 * (`test/fixtures/quadratic-stream-redaction.ts`) on the same texts, at smaller sizes (it takes minutes at the largest).
 * Times are the process's CPU time, which other work on a shared machine disturbs less than wall time.
 * A control that does not show about 4 (or 8 for the open blocks) means the bench no longer exercises what it claims to.
 *
 *   npm run bench:stream
 *   npm run bench:stream -- --rounds 5 --max 1000000 --control-max 20000
 */
import { parseArgs } from 'node:util';
import { createRedactor, type Redactor } from '../../src/agent/redact.js';
import type { AgentStreamEvent } from '../../src/agent/streaming/stream-event.js';
import { redactAgentStream } from '../../src/agent/streaming/stream-redaction.js';
import { redactAgentStreamQuadratic } from '../../test/fixtures/quadratic-stream-redaction.js';
import { doublingSizes, median } from '../growth.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    max: { type: 'string', default: '1000000' },
    'control-max': { type: 'string', default: '20000' },
  },
});
const ROUNDS = Number(values.rounds);
const MAX = Number(values.max);
const CONTROL_MAX = Number(values['control-max']);
const DOUBLINGS = 3;

type Redact = (events: AsyncIterable<AgentStreamEvent>, redactor: Redactor) => AsyncIterable<AgentStreamEvent>;

/** Texts the whole-line scan was superlinear on, each cut the way a model's stream would cut it. */
const HOSTILE_STREAMS: { name: string; build: (size: number) => string; deltaChars: number }[] = [
  { name: 'one line without whitespace, 1-character deltas', build: (size) => 'a'.repeat(size), deltaChars: 1 },
  { name: 'one line of words, 3-character deltas', build: (size) => 'word '.repeat(Math.ceil(size / 5)).slice(0, size), deltaChars: 3 },
  {
    name: 'an unterminated certificate, one line per delta',
    build: (size) => `-----BEGIN CERTIFICATE-----\n${'MIIEowIBAAKCAQEAu1SU1\n'.repeat(Math.ceil(size / 22))}`.slice(0, size),
    deltaChars: 22,
  },
  {
    name: 'an unterminated private key, 4-character deltas',
    build: (size) => `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEAu1SU1\n'.repeat(Math.ceil(size / 22))}`.slice(0, size),
    deltaChars: 4,
  },
];

const sizes = (max: number): number[] => doublingSizes(max, DOUBLINGS);

interface Case {
  name: string;
  kind: 'toolwright' | 'control';
  sizes: number[];
  /** Prepares the input of one size; the returned function is what is timed. */
  prepare(size: number): () => Promise<unknown>;
}

const redactor = createRedactor();

const streaming = (redact: Redact, build: (size: number) => string, deltaChars: number) => (size: number) => {
  const text = build(size);
  const events: AgentStreamEvent[] = [];
  for (let start = 0; start < text.length; start += deltaChars)
    events.push({ type: 'text_delta', step: 0, text: text.slice(start, start + deltaChars), runId: 'r' });
  return async () => {
    let sent = 0;
    const source = async function* (): AsyncGenerator<AgentStreamEvent> {
      yield* events;
    };
    for await (const event of redact(source(), redactor)) if (event.type === 'text_delta') sent += event.text.length;
    return sent;
  };
};

const cases: Case[] = [
  ...HOSTILE_STREAMS.map((text): Case => ({
    name: text.name,
    kind: 'toolwright',
    sizes: sizes(MAX),
    prepare: streaming(redactAgentStream, text.build, text.deltaChars),
  })),
  ...HOSTILE_STREAMS.map((text): Case => ({
    name: `whole-line scan: ${text.name}`,
    kind: 'control',
    // the open blocks are cubic under the old scan: a quarter of the size keeps them to seconds
    sizes: sizes(text.name.includes('unterminated') ? CONTROL_MAX / 4 : CONTROL_MAX * 8),
    prepare: streaming(redactAgentStreamQuadratic, text.build, text.deltaChars),
  })),
];

/** CPU milliseconds of the whole process (user and system): on a shared machine, contention disturbs it less than wall time. */
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

// samples[case][size] = CPU milliseconds per round
const samples = cases.map((item) => item.sizes.map(() => [] as number[]));
const prepared = cases.map((item) => item.sizes.map((size) => item.prepare(size)));
for (const run of prepared.flat()) await run(); // warm-up: compile the patterns, settle the JIT
for (let round = 0; round < ROUNDS; round++) {
  // alternate the order each round so neither toolwright nor the controls always run on a cooler machine
  const order = cases.map((_, index) => index);
  if (round % 2 === 1) order.reverse();
  for (const caseIndex of order) {
    for (const [sizeIndex, run] of prepared[caseIndex]!.entries()) {
      const started = cpuMs();
      await run();
      samples[caseIndex]![sizeIndex]!.push(cpuMs() - started);
    }
  }
}

console.log(`## bench:stream (${ROUNDS} rounds, medians of CPU time; growth per doubling of the size: 2 is linear, 4 quadratic, 8 cubic)\n`);
console.log('| case | sizes (characters) | CPU ms at each size | ns per character at the largest | growth per doubling |');
console.log('| --- | --- | --- | ---: | ---: |');
for (const [caseIndex, item] of cases.entries()) {
  const medians = samples[caseIndex]!.map(median);
  const largest = item.sizes[item.sizes.length - 1]!;
  const growth = (Math.max(medians[medians.length - 1]!, 1e-3) / Math.max(medians[0]!, 1e-3)) ** (1 / DOUBLINGS);
  console.log(
    `| ${item.kind === 'control' ? `control: ${item.name}` : item.name} | ${item.sizes.map((size) => size.toLocaleString('en')).join(' / ')} | ${medians.map((ms) => ms.toFixed(2)).join(' / ')} | ${((medians[medians.length - 1]! * 1e6) / largest).toFixed(0)} | ${growth.toFixed(2)} |`,
  );
}
