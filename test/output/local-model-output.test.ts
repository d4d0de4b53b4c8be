/**
 * A run's output schema on the tiny GGUF model (random weights: the worst case for a constrained decoder): under the
 * token mask every final answer is a JSON value its schema accepts, where unconstrained sampling gives none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/run-agent.js';
import { toolCallsOf, type ModelOutputFormat } from '../../src/protocol/model-exchange.js';
import { defineOutput } from '../../src/tools/define-output.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { ToolRegistry, silentLogger } from '../../src/tools/tool-registry.js';
import { LocalModel } from '../../src/models/local/local-model.js';
import { ensureTinyModel } from '../../src/models/local/tiny-model.js';

const ticket = defineOutput<{ title: string; priority: 'low' | 'high'; estimate: number; tags: string[]; done?: boolean }>(
  {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 1, maxLength: 12 },
      priority: { enum: ['low', 'high'] },
      estimate: { type: 'integer', minimum: 1, maximum: 40 },
      tags: { type: 'array', items: { type: 'string', maxLength: 6 }, maxItems: 3 },
      done: { type: 'boolean' },
    },
    required: ['title', 'priority', 'estimate', 'tags'],
    additionalProperties: false,
  },
  { name: 'ticket' },
);
const format: ModelOutputFormat = { name: ticket.name, schema: ticket.schema };

const lookup = defineTool<{ id: string }>({
  name: 'lookup_ticket',
  description: 'Looks up a ticket.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { id: { type: 'string', maxLength: 8 } }, required: ['id'], additionalProperties: false },
  execute: ({ id }) => `ticket ${id}: open`,
});

const RUNS = 20;
let constrained: LocalModel;
let free: LocalModel;

beforeAll(async () => {
  const path = await ensureTinyModel();
  constrained = new LocalModel(path, { threads: 1, callTokenBudget: 16, maxCallTokens: 400 });
  free = new LocalModel(path, { threads: 1, constrained: false, maxOutputTokens: 48 });
}, 120_000);

afterAll(async () => {
  await constrained?.close();
  await free?.close();
});

describe('local model with an output schema', () => {
  it(`gives ${RUNS} schema-valid answers at temperature 1, where unconstrained sampling gives none`, async () => {
    let valid = 0;
    for (let seed = 1; seed <= RUNS; seed++) {
      const response = await constrained.generate({ messages: [{ role: 'user', content: 'File a ticket.' }], output: format, temperature: 1, seed });
      expect(response.stopReason, `seed ${seed}`).toBe('end_turn');
      expect(response.content).toHaveLength(1);
      const checked = ticket.validate(response.output?.value);
      if (!checked.success) throw new Error(`seed ${seed}: ${JSON.stringify(response.content)}\n${JSON.stringify(checked.issues)}`);
      valid++;
    }
    expect(valid).toBe(RUNS);
    let freeValid = 0;
    for (let seed = 1; seed <= 5; seed++) {
      const response = await free.generate({ messages: [{ role: 'user', content: 'File a ticket.' }], output: format, temperature: 1, seed });
      if (response.output && ticket.validate(response.output.value).success) freeValid++;
    }
    expect(freeValid).toBe(0);
  }, 600_000);

  // This model opens the call at nearly every seed; src/models/local/call-decoder-output.tiny-model.test.ts draws tokens uniformly from the mask and gets both.
  it('with a tool offered, each response is a valid call or a valid answer whose text deltas spell it', async () => {
    const registry = new ToolRegistry([lookup], { logger: silentLogger });
    const kinds = { call: 0, answer: 0 };
    for (let seed = 1; seed <= 10; seed++) {
      let streamed = '';
      let response;
      for await (const event of constrained.stream({
        messages: [{ role: 'user', content: 'File a ticket.' }],
        tools: [lookup],
        toolChoice: 'auto',
        output: format,
        temperature: 1,
        seed,
      })) {
        if (event.type === 'text-delta') streamed += event.text;
        if (event.type === 'end') response = event.response;
      }
      const calls = toolCallsOf(response!);
      if (calls.length > 0) {
        kinds.call++;
        expect(registry.prepare(calls[0]!).success, `seed ${seed}`).toBe(true);
      } else {
        kinds.answer++;
        expect(ticket.validate(response!.output?.value).success, `seed ${seed}: ${streamed}`).toBe(true);
        expect(streamed).toBe((response!.content[0] as { text: string }).text);
      }
    }
    expect(kinds.call + kinds.answer).toBe(10);
  }, 600_000);

  it('completes runAgent with a typed, validated output', async () => {
    for (let seed = 1; seed <= 3; seed++) {
      const result = await runAgent({ model: constrained, tools: [], prompt: 'File a ticket.', output: ticket, seed, temperature: 1, logger: silentLogger });
      expect(result.status, `seed ${seed}`).toBe('completed');
      if (result.status === 'completed') expect(['low', 'high']).toContain(result.output.priority);
    }
  }, 600_000);
});
