/**
 * Hardening: the redacted stream (`run.redacted()`, behind `toEventStreamResponse`, the CLI's `run` and `resume` output
 * and the console's resume) costs time in proportion to the text, whatever its shape. It used to look for a line end over
 * the whole open text on every delta, and over every line of an open PEM block: one 200,000-character line blocked the
 * event loop for seconds, an open block for minutes. The line scan now looks at each delta once; these tests check that it
 * sends exactly what the old scan sent (seeded random texts and cuts), and that an interval timer keeps firing while the
 * largest texts go through.
 */
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/agent/redact.js';
import type { AgentStreamEvent } from '../../src/agent/streaming/stream-event.js';
import { streamAgent } from '../../src/agent/streaming/stream-agent.js';
import { redactAgentStream } from '../../src/agent/streaming/stream-redaction.js';
import { toEventStreamResponse } from '../../src/agent/streaming/stream-response.js';
import type { Model } from '../../src/models/types.js';
import type { ModelStreamEvent } from '../../src/protocol/model-exchange.js';
import { mulberry32 } from '../../src/shared/seeded-random.js';
import { silentLogger } from '../../src/tools/tool-registry.js';
import { redactAgentStreamQuadratic } from '../fixtures/quadratic-stream-redaction.js';
import { STALL_MS, longestLoopHold } from '../fixtures/event-loop-stall.js';

const KEY = 'sk-proj-' + 'a1B2c3D4e5F6g7H8i9J0kLmN';

/** Pieces that exercise every rule of the line scan: line breaks, PEM markers (whole, cut, doubled dashes), secrets, JSON starts. */
const PIECES = [
  'word ',
  'another ',
  'x',
  ' ',
  '  ',
  '\n',
  '\n\n',
  '\r\n',
  '\t',
  '-----BEGIN RSA PRIVATE KEY-----',
  '-----BEGIN CERTIFICATE-----',
  '-----END RSA PRIVATE KEY-----',
  '-----END CERTIFICATE-----',
  '------BEGIN ',
  '-----BEGIN ',
  '-----END ',
  '-----BEG',
  'IN ',
  '-----EN',
  'D ',
  '-----',
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
  KEY,
  ' password: hunter2-hunter2 ',
  'Authorization: Bearer abcdefghijklmnop',
  'correct horse battery staple',
  '{',
  '[',
  '"a": 1}',
  'ünïcödé ',
  '😀',
  'long'.repeat(150),
];

function randomText(random: () => number): string {
  const count = 1 + Math.floor(random() * 120);
  let text = '';
  for (let index = 0; index < count; index++) text += PIECES[Math.floor(random() * PIECES.length)];
  return text;
}

/** Two steps of text and reasoning deltas cut at random, with calls and step ends between them, as a run streams them. */
function randomRun(random: () => number): AgentStreamEvent[] {
  const events: AgentStreamEvent[] = [];
  for (let step = 0; step < 2; step++) {
    const texts = { text_delta: randomText(random), reasoning_delta: random() < 0.4 ? randomText(random) : '' };
    const offsets = { text_delta: 0, reasoning_delta: 0 };
    while (offsets.text_delta < texts.text_delta.length || offsets.reasoning_delta < texts.reasoning_delta.length) {
      const kind = offsets.reasoning_delta < texts.reasoning_delta.length && random() < 0.5 ? 'reasoning_delta' : 'text_delta';
      const size = random() < 0.05 ? 0 : 1 + Math.floor(random() * (random() < 0.2 ? 200 : 12));
      const text = texts[kind].slice(offsets[kind], offsets[kind] + size);
      offsets[kind] += size;
      if (text !== '' || size === 0) events.push({ type: kind, step, text, runId: 'run-1' });
      if (random() < 0.005) events.push({ type: 'tool_call_start', step, index: 0, callId: 'call-1', toolName: 'lookup', runId: 'run-1' });
    }
    if (random() < 0.7)
      events.push({
        type: 'step_finished',
        step,
        kind: 'model',
        finishReason: 'end_turn',
        text: texts.text_delta,
        toolCalls: 0,
        usage: usage(),
        costUsd: 0,
        runId: 'run-1',
      });
  }
  if (random() < 0.8) events.push({ type: 'stop', status: 'completed', usage: usage(), costUsd: 0, runId: 'run-1' });
  return events;
}

async function* from(events: readonly AgentStreamEvent[]): AsyncGenerator<AgentStreamEvent> {
  yield* events;
}

async function collect(events: AsyncIterable<AgentStreamEvent>): Promise<AgentStreamEvent[]> {
  const out: AgentStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('the redacted stream scans each delta once', () => {
  const redactor = createRedactor({ patterns: ['correct horse battery staple'] });

  it.each([0, 1, 7, 64, 300])('sends exactly what the whole-line scan sent, on 150 seeded random runs (hold-back %i)', async (holdBackChars) => {
    const random = mulberry32(0x5eed + holdBackChars);
    for (let run = 0; run < 150; run++) {
      const events = randomRun(random);
      const expected = await collect(redactAgentStreamQuadratic(from(events), redactor, { holdBackChars }));
      const actual = await collect(redactAgentStream(from(events), redactor, { holdBackChars }));
      expect(actual, `run ${run}`).toEqual(expected);
    }
  });
});

/**
 * A million characters is about 250,000 tokens, more than any provider writes in one answer; the old scan needed minutes
 * on it (seconds at a fifth of it), the incremental one a fraction of a second in all. A burst of deltas is handed over
 * without yielding, as a network read of many chunks is; between bursts the timer gets its turn.
 */
const TEXT_CHARS = 1_000_000;
const DELTAS_PER_BURST = 4096;
const yieldToTimers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `text` in deltas of `size` characters, yielding to timers after each burst, until `stalled`. */
async function* bursts(text: string, size: number, stalled: () => boolean): AsyncGenerator<string> {
  for (let start = 0, sent = 0; start < text.length && !stalled(); start += size) {
    yield text.slice(start, start + size);
    if (++sent % DELTAS_PER_BURST === 0) await yieldToTimers();
  }
}

const HOSTILE_TEXTS: { name: string; text: string; deltaChars: number }[] = [
  { name: 'one line without whitespace, in 1-character deltas', text: 'a'.repeat(TEXT_CHARS), deltaChars: 1 },
  { name: 'one line of words, in 3-character deltas', text: 'word '.repeat(TEXT_CHARS / 5), deltaChars: 3 },
  {
    name: 'a PEM block that never ends, line by line',
    text: `-----BEGIN CERTIFICATE-----\n${'MIIEowIBAAKCAQEAu1SU1\n'.repeat(TEXT_CHARS / 22)}`,
    deltaChars: 22,
  },
  {
    name: 'a PEM private key that never ends, in 4-character deltas',
    text: `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEAu1SU1\n'.repeat(TEXT_CHARS / 22)}`,
    deltaChars: 4,
  },
];

describe('the redacted stream keeps the event loop free on the largest texts', () => {
  const redactor = createRedactor();

  it.each(HOSTILE_TEXTS)('$name ($text.length characters)', async ({ text, deltaChars }) => {
    let sent = '';
    let deltas = 0;
    const { longestCpuMs, longestWallMs } = await longestLoopHold(async (stalled) => {
      const events = async function* (): AsyncGenerator<AgentStreamEvent> {
        for await (const piece of bursts(text, deltaChars, stalled)) {
          deltas++;
          yield { type: 'text_delta', step: 0, text: piece, runId: 'r' };
        }
      };
      for await (const event of redactAgentStream(events(), redactor)) if (event.type === 'text_delta') sent += event.text;
    });
    expect(longestCpuMs, `CPU time of the longest hold (${Math.round(longestWallMs)} ms of wall time)`).toBeLessThan(STALL_MS);
    expect(deltas).toBe(Math.ceil(text.length / deltaChars));
    expect(sent).toBe(redactor.text(text));
  });

  it('through streamAgent and toEventStreamResponse, a million-character line in 4-character deltas', async () => {
    const text = 'a'.repeat(TEXT_CHARS);
    let body = '';
    const { longestCpuMs, longestWallMs } = await longestLoopHold(async (stalled) => {
      const line: Model = {
        id: 'scripted:long-line',
        provider: 'scripted',
        generate: () => Promise.reject(new Error('unused')),
        async *stream(): AsyncGenerator<ModelStreamEvent> {
          for await (const piece of bursts(text, 4, stalled)) yield { type: 'text-delta', text: piece };
          yield {
            type: 'end',
            response: { content: [{ type: 'text', text }], stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 }, modelId: 'long-line' },
          };
        },
        estimateInputTokens: () => 1,
      };
      const response = toEventStreamResponse(streamAgent({ model: line, tools: [], prompt: 'Write.', recordDir: false, logger: silentLogger }));
      const decoder = new TextDecoder();
      for await (const chunk of response.body!) body += decoder.decode(chunk, { stream: true });
    });
    expect(longestCpuMs, `CPU time of the longest hold (${Math.round(longestWallMs)} ms of wall time)`).toBeLessThan(STALL_MS);
    const texts = body
      .split('\n\n')
      .filter((block) => block.startsWith('event: text_delta\n'))
      .map((block) => (JSON.parse(block.slice(block.indexOf('data: ') + 6)) as { text: string }).text);
    expect(texts.join('')).toBe(text);
    expect(body).toContain('event: stop');
  }, 60_000);
});

function usage() {
  return { inputTokens: 0, outputTokens: 0, modelCalls: 0, toolCalls: 0, wallTimeMs: 0 };
}
