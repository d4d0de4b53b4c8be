/**
 * The cost breaker's estimate against what the provider bills, through the real SDKs and the fake server's prompt-cache
 * simulation (which counts the bytes of the request the SDK sent, four characters a token). Before the estimate read the
 * wire body and knew the providers' cache rules it was 10–15 % short on tokens, expected cache reads for prompts under the
 * 1,024-token minimum, and left out the tools a native search loaded. Both sides count with the same rule here, so what
 * these tests pin is that the breaker counts the prompt the adapter sends and prices it under the provider's cache rules;
 * they do not measure a tokenizer.
 */
import { describe, expect, it } from 'vitest';
import { costOf, type ModelPrice } from '../../src/agent/price-table.js';
import { runAgent, type RunAgentOptions } from '../../src/agent/run-agent.js';
import { createModel } from '../../src/models/create-model.js';
import { estimateInputTokens } from '../../src/models/estimate-tokens.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/tools/tool-registry.js';
import type { FakeReply, ProviderServer } from './index.js';
import { useProviderServer } from './use-provider-server.js';

let server: ProviderServer;
useProviderServer((started) => (server = started), { promptCache: true });

const PRICE: ModelPrice = { inputPerMillion: 3, outputPerMillion: 15, cacheReadPerMillion: 0.3, cacheWritePerMillion: 3.75 };
const OPENAI_PRICE: ModelPrice = { inputPerMillion: 2, outputPerMillion: 8, cacheReadPerMillion: 0.5 };

const tools = Array.from({ length: 12 }, (_, index) =>
  defineTool({
    name: `read_record_${index}`,
    description: `Reads record set ${index} of the archive by path and returns its lines. ${'Use it before any change to that set. '.repeat(3)}`,
    effect: 'read',
    inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'The record path.' } }, required: ['path'], additionalProperties: false },
    execute: ({ path }: { path: string }) => `lines of ${path}: ${'status ok; '.repeat(12)}`,
  }),
);

function calls(count: number, first?: Partial<FakeReply>): FakeReply[] {
  const replies: FakeReply[] = Array.from({ length: count }, (_, step) => ({
    toolCalls: [{ id: `call_${step}`, name: 'read_record_1', arguments: { path: `/r/${step}` } }],
  }));
  if (first) replies[0] = { ...replies[0]!, ...first } as FakeReply;
  return [...replies, { text: 'Done.' }];
}

async function run(model: string, baseURL: string, price: ModelPrice, options: Partial<RunAgentOptions>) {
  const result = await runAgent({
    model: createModel(model, { apiKey: 'test-key', baseURL }),
    tools,
    prompt: 'Go through the records.',
    system: 'You keep the archive.',
    cache: 'auto',
    recordDir: false,
    logger: silentLogger,
    limits: { maxIterations: 30 },
    prices: { [model]: price },
    ...options,
  });
  expect(result.status).toBe('completed');
  return result.steps.map((step) => ({
    estimated: step.estimatedInputCostUsd!,
    billed: costOf({ ...step.usage, outputTokens: 0 }, price),
    read: step.usage.cacheReadTokens ?? 0,
    tokens: step.usage.inputTokens,
    estimatedTokens: step.estimatedInputTokens,
  }));
}

describe("the breaker's estimate against the simulated provider's billing", () => {
  it('Anthropic with native search: the tools a search loaded are counted, and nothing is read or written under the minimum', async () => {
    server.enqueue(...calls(16, { toolSearch: { query: 'record 1', found: ['read_record_1', 'read_record_2'] } }));
    const steps = await run('anthropic:claude-sonnet-4-test', server.anthropicBaseURL, PRICE, { toolSearch: {} });
    // The prompt starts under 1,024 tokens (no cache entry) and grows past it (reads from then on).
    expect(steps[0]!.tokens).toBeLessThan(1024);
    expect(steps.at(-1)!.read).toBeGreaterThan(1024);
    for (const step of steps) {
      expect(step.estimatedTokens).toBe(step.tokens);
      expect(Math.abs(step.estimated / step.billed - 1)).toBeLessThan(0.005);
    }
  });

  it('OpenAI Chat: no read under 1,024 tokens, hits in 128-token steps, no write charge', async () => {
    server.enqueue(...calls(24));
    const steps = await run('openai:gpt-4.1-test', server.openaiBaseURL, OPENAI_PRICE, { cacheKey: 'archive' });
    expect(steps.some((step) => step.read > 0 && (step.read - 1024) % 128 === 0)).toBe(true);
    for (const step of steps) {
      expect(step.estimatedTokens).toBe(step.tokens);
      expect(Math.abs(step.estimated / step.billed - 1)).toBeLessThan(0.005);
    }
  });

  it('counts the wire form, and falls back to the neutral estimate for a request the adapter cannot convert', () => {
    const model = createModel('openai:gpt-test', { apiKey: 'test-key', baseURL: server.openaiBaseURL });
    const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools, toolChoice: 'auto' as const };
    // The wire form wraps each tool ({"type":"function","function":{…}}): more than the neutral count.
    expect(model.estimateInputTokens(request)).toBeGreaterThan(estimateInputTokens(request));
    // A request the adapter refuses to convert is estimated as before, not thrown.
    const broken = { messages: [{ role: 'tool' as const, results: undefined as never }], tools };
    expect(model.estimateInputTokens(broken)).toBe(estimateInputTokens(broken));
  });
});
