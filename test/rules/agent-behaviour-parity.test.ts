/**
 * Every case of the behaviour table through `runAgent` and through
 * `streamAgent`: the same result (ids, timings and tokens aside), the same
 * record, and what the case expects. The stream also carries every record event
 * but the model request and response, in the record's order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createMemoryRunStore,
  readRunRecord,
  runAgent,
  type AgentResult,
  type RunAgentOptions,
  type RunRecordLine,
  type RunStore,
} from '../../src/agent/index.js';
import { streamAgent, type AgentStreamEvent } from '../../src/agent/streaming/stream-agent.js';
import { silentLogger } from '../../src/tools/index.js';
import { BEHAVIOUR_CASES, scriptedModel, type BehaviourCase } from './agent-behaviour-table.js';

const folder = mkdtempSync(join(tmpdir(), 'tw-parity-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const DELTAS = new Set([
  'step_started',
  'text_delta',
  'reasoning_delta',
  'tool_call_start',
  'tool_call_delta',
  'tool_call_end',
  'tool_progress',
  'step_finished',
]);
/** Values that differ between two runs of one script: ids, tokens, times. */
const VARYING = new Set([
  'runId',
  'recordPath',
  'time',
  'durationMs',
  'wallTimeMs',
  'approvalId',
  'token',
  'expiresAt',
  'createdAt',
  'updatedAt',
  'idempotencyKey',
  'toolwrightSealed',
]);

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, VARYING.has(key) ? '<varies>' : normalize(item)]));
}

function optionsFor(behaviour: BehaviourCase, path: string): RunAgentOptions & { store: RunStore } {
  return {
    model: scriptedModel(behaviour),
    tools: behaviour.tools(),
    prompt: 'Handle the ticket.',
    recordDir: join(folder, path),
    store: createMemoryRunStore(),
    logger: silentLogger,
    ...behaviour.options,
    ...behaviour.fresh?.(),
  };
}

describe.each(BEHAVIOUR_CASES)('$name', (behaviour) => {
  it('ends alike through runAgent and streamAgent', async () => {
    const plainOptions = optionsFor(behaviour, 'plain');
    const streamOptions = optionsFor(behaviour, 'stream');
    const plain = await runAgent(plainOptions);
    const run = streamAgent(streamOptions);
    const events: AgentStreamEvent[] = [];
    for await (const event of run) events.push(event);
    const streamed: AgentResult = await run.result;

    for (const result of [plain, streamed]) {
      expect(result.status).toBe(behaviour.expect.status);
      expect(result.usage.toolCalls).toBe(behaviour.expect.toolCalls);
      if (behaviour.expect.stopKind !== undefined) expect(result.status === 'stopped' && result.stopReason.kind).toBe(behaviour.expect.stopKind);
    }
    expect(normalize(streamed)).toEqual(normalize(plain));

    const plainRecord = readRunRecord(plain.recordPath!);
    const streamRecord = readRunRecord(streamed.recordPath!);
    expect(normalize(streamRecord)).toEqual(normalize(plainRecord));
    // What the store holds of the run (a paused run, its confirmations): the same.
    expect(normalize(await streamOptions.store.loadRun(streamed.runId))).toEqual(normalize(await plainOptions.store.loadRun(plain.runId)));

    // The stream is the record, less the model's request and response, plus its own pieces.
    const recordTypes = (record: RunRecordLine[]) => record.map((line) => line.type).filter((type) => type !== 'model_request' && type !== 'model_response');
    expect(events.map((event) => event.type).filter((type) => !DELTAS.has(type))).toEqual(recordTypes(streamRecord));
    expect(events.at(-1)?.type).toBe('stop');
    expect(events.filter((event) => event.type === 'step_started')).toHaveLength(streamRecord.filter((line) => line.type === 'model_request').length);
    expect(events.filter((event) => event.type === 'step_finished')).toHaveLength(streamed.steps.length);
  });
});
