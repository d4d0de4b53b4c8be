/**
 * The cost breaker's estimate with prompt caching on, against the cost of the usage a provider reports. The scripted
 * model plays a provider with a prompt cache: it compares each request with the one before, block by block (the tools,
 * then each message), reports the tokens of the common prefix as cache reads and the rest as cache writes (Anthropic, whose
 * breakpoint on the last message caches the whole prompt) or as uncached input (OpenAI, which bills no writes). The
 * breaker never sees that comparison: it expects the previous call's estimate to be read back.
 */
import { describe, expect, it } from 'vitest';
import { estimateInputTokens } from '../models/estimate-tokens.js';
import { createScriptedModel, textTurn, toolCallTurn, type ScriptedTurn } from '../models/scripted/scripted-model.js';
import type { ModelRequest } from '../protocol/model-exchange.js';
import { defineTool } from '../tools/define-tool.js';
import { silentLogger } from '../tools/tool-registry.js';
import { createMemoryRunStore } from './memory-run-store.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { costOf, DEFAULT_PRICES, type ModelPrice } from './price-table.js';

const STEPS = 20;
const SYSTEM = `You are the operations assistant of a logistics company. ${'Follow the runbook: check the shipment, the warehouse and the carrier before answering; quote identifiers exactly. '.repeat(60)}`;
/** A lookup tool; with `confirm`, one that asks a person before it runs. */
const lookup = (name: string, what: string, confirm = false) =>
  defineTool<{ id: string; detail?: 'summary' | 'full' }>({
    name,
    description: `Looks up a ${what} by its identifier and returns its status, history and the people responsible. ${'Use it before any change. '.repeat(10)}`,
    effect: 'read',
    confirm,
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string', pattern: '^[A-Z]{2}-[0-9]{6}$', description: `The ${what} identifier.` }, detail: { enum: ['summary', 'full'] } },
      required: ['id'],
      additionalProperties: false,
    },
    execute: ({ id }) => `${what} ${id}: in transit, last scan at the Lyon hub, 2 parcels, signed by J. Martin. ${'Event log line. '.repeat(30)}`,
  });
const TOOLS = [lookup('get_shipment', 'shipment'), lookup('get_warehouse', 'warehouse'), lookup('get_carrier', 'carrier')];

/** The request as a provider's cache sees it: the tools, then each message, in order. */
function blocks(request: ModelRequest): string[] {
  const tools = (request.tools ?? []).map((tool) => JSON.stringify([tool.name, tool.description, tool.inputSchema]));
  return [...tools, ...request.messages.map((message) => JSON.stringify(message))];
}

/** A provider with a prompt cache: the prefix shared with the previous request is read; the rest written (or, without writes, plain input). */
function cachingProvider(billsWrites: boolean): ScriptedTurn[] {
  let previous: string[] = [];
  const usage = (request: ModelRequest) => {
    const current = blocks(request);
    let shared = 0;
    while (shared < previous.length && shared < current.length && previous[shared] === current[shared]) shared++;
    const length = (list: string[]) => list.reduce((sum, block) => sum + block.length, 0);
    const inputTokens = estimateInputTokens(request);
    const cacheReadTokens = Math.round((inputTokens * length(current.slice(0, shared))) / length(current));
    previous = current;
    return { inputTokens, outputTokens: 20, cacheReadTokens, ...(billsWrites ? { cacheWriteTokens: inputTokens - cacheReadTokens } : {}) };
  };
  const turns: ScriptedTurn[] = [];
  for (let step = 0; step < STEPS - 1; step++) {
    const tool = TOOLS[step % TOOLS.length]!;
    turns.push((request) => toolCallTurn([{ name: tool.name, arguments: { id: `SH-${String(100000 + step)}` } }], { usage: usage(request) }));
  }
  turns.push((request) => textTurn('All three are in transit.', { usage: usage(request) }));
  return turns;
}

describe("the breaker's estimate with cache: 'auto'", () => {
  it.each([
    ['Anthropic (reads 0.1×, writes 1.25×)', DEFAULT_PRICES['anthropic:claude-sonnet-4']!, true],
    ['OpenAI (reads 0.25×, no writes)', DEFAULT_PRICES['openai:gpt-4.1']!, false],
  ])('%s: within 5 percent of the cost of the reported usage on every step of a 20-step run', async (_name, price: ModelPrice, billsWrites) => {
    const model = createScriptedModel(cachingProvider(billsWrites));
    const result = await runAgent({
      model,
      tools: TOOLS,
      system: SYSTEM,
      prompt: 'Where are shipments SH-100000 to SH-100018?',
      cache: 'auto',
      prices: { 'scripted:model': price },
      limits: { maxIterations: STEPS + 1, maxCostUsd: 10, maxIdenticalCalls: STEPS },
      recordDir: false,
      logger: silentLogger,
    });
    expect(result.status).toBe('completed');
    expect(result.steps).toHaveLength(STEPS);
    // From step 2 on, most of the prompt is billed as cached: the provider really did read it back.
    for (const step of result.steps.slice(1)) expect(step.usage.cacheReadTokens! / step.usage.inputTokens).toBeGreaterThan(0.9);
    for (const step of result.steps) {
      const reported = costOf({ ...step.usage, outputTokens: 0 }, price);
      expect(Math.abs(step.estimatedInputCostUsd! - reported) / reported, `step ${step.index}`).toBeLessThan(0.05);
    }
  });

  it('without cache, the estimate prices every input token at the input rate (what the provider then bills)', async () => {
    const price = DEFAULT_PRICES['anthropic:claude-sonnet-4']!;
    const model = createScriptedModel([toolCallTurn([{ name: 'get_shipment', arguments: { id: 'SH-100000' } }]), textTurn('In transit.')]);
    const result = await runAgent({
      model,
      tools: TOOLS,
      system: SYSTEM,
      prompt: 'Where is SH-100000?',
      prices: { 'scripted:model': price },
      recordDir: false,
      logger: silentLogger,
    });
    for (const step of result.steps) expect(step.estimatedInputCostUsd).toBeCloseTo((step.estimatedInputTokens * price.inputPerMillion) / 1_000_000, 12);
    expect(model.requests.every((request) => request.cache === undefined && request.cacheKey === undefined)).toBe(true);
  });

  it("asks the model for caching with the run id as key, or the caller's cacheKey", async () => {
    const model = createScriptedModel([textTurn('a'), textTurn('b')]);
    await runAgent({ model, tools: TOOLS, prompt: 'hi', runId: 'run_cache_key', cache: 'auto', recordDir: false });
    await runAgent({ model, tools: TOOLS, prompt: 'hi', cache: 'auto', cacheKey: 'ops-assistant', recordDir: false });
    expect(model.requests.map((request) => [request.cache, request.cacheKey])).toEqual([
      ['auto', 'run_cache_key'],
      ['auto', 'ops-assistant'],
    ]);
  });

  it('keeps cache and cacheKey with the run: a resumed run asks for caching with the same key', async () => {
    const audit = lookup('get_audit_log', 'audit log', true);
    const store = createMemoryRunStore();
    const first = createScriptedModel([toolCallTurn([{ name: 'get_audit_log', arguments: { id: 'AU-000001' } }])]);
    const paused = await runAgent({ model: first, tools: [audit], prompt: 'Audit AU-000001.', cache: 'auto', cacheKey: 'billing', store, recordDir: false });
    expect(paused.status).toBe('awaiting_confirmation');
    if (paused.status !== 'awaiting_confirmation') return;
    const second = createScriptedModel([textTurn('Read.')]);
    await resumeAgent(paused.runId, [{ token: paused.pending[0]!.token, decision: 'approve' }], { model: second, tools: [audit], store, recordDir: false });
    expect(second.requests.map((request) => [request.cache, request.cacheKey])).toEqual([['auto', 'billing']]);
  });
});
