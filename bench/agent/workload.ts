/**
 * The bench's workload, written once for each loop: the same two read tools (Zod schemas, small JSON results), and the
 * same scripted model behaviour — every step answers with `reads` calls (arguments differ per step, so no guard fires),
 * then a final text answer. The model side costs nothing on either loop: the answers are built before the timed run and
 * carry their usage, so what is timed is each loop's own work per step.
 * @module
 */
import { generateText, stepCountIs, tool as aiTool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { z } from 'zod';
import { runAgent } from '../../src/agent/index.js';
import { createScriptedModel, type ScriptedResponse } from '../../src/models/index.js';
import { defineTool, type AnyTool } from '../../src/tools/index.js';

export const weatherInput = z.object({ city: z.string().min(1), unit: z.enum(['c', 'f']).optional() });
export const stockInput = z.object({ symbol: z.string().regex(/^[A-Z0-9]{1,8}$/), day: z.number().int().min(0) });

const weatherOf = (city: string) => ({ city, temperature: 21, condition: 'clear' });
const stockOf = (symbol: string, day: number) => ({ symbol, day, price: 100 + (day % 7) });

/** The toolwright tools: defined once per process, as an app would. */
export function toolwrightTools(sleepMs?: (name: string, args: unknown) => number): AnyTool[] {
  return [
    defineTool({
      name: 'get_weather',
      description: 'Current weather in a city.',
      inputSchema: weatherInput,
      effect: 'read',
      execute: async ({ city }) => {
        if (sleepMs) await sleep(sleepMs('get_weather', { city }));
        return weatherOf(city);
      },
    }),
    defineTool({
      name: 'get_stock',
      description: 'Closing price of a stock on a day.',
      inputSchema: stockInput,
      effect: 'read',
      execute: async ({ symbol, day }) => {
        if (sleepMs) await sleep(sleepMs('get_stock', { symbol, day }));
        return stockOf(symbol, day);
      },
    }),
  ];
}

/** The AI SDK tools: the same schemas and results. */
export function aiSdkTools() {
  return {
    get_weather: aiTool({ description: 'Current weather in a city.', inputSchema: weatherInput, execute: async ({ city }) => weatherOf(city) }),
    get_stock: aiTool({
      description: 'Closing price of a stock on a day.',
      inputSchema: stockInput,
      execute: async ({ symbol, day }) => stockOf(symbol, day),
    }),
  };
}

/** The arguments of the calls of one step (zero-based): `reads` calls alternating between the two tools. */
export function stepCalls(step: number, reads: number): { name: string; args: Record<string, unknown> }[] {
  return Array.from({ length: reads }, (_, index) =>
    index % 2 === 0 ? { name: 'get_weather', args: { city: `city-${step}-${index}` } } : { name: 'get_stock', args: { symbol: `S${index}`, day: step } },
  );
}

const USAGE = { inputTokens: 100, outputTokens: 20 };
const FINAL_TEXT = 'Done: every city and stock was looked up.';

export function toolwrightScript(steps: number, reads: number): ScriptedResponse[] {
  const turns: ScriptedResponse[] = [];
  for (let step = 0; step < steps; step++) {
    turns.push({
      toolCalls: stepCalls(step, reads).map((call, index) => ({ id: `c${step}_${index}`, name: call.name, argumentsText: JSON.stringify(call.args) })),
      usage: USAGE,
    });
  }
  turns.push({ text: FINAL_TEXT, usage: USAGE });
  return turns;
}

export function aiSdkScript(steps: number, reads: number): LanguageModelV4GenerateResult[] {
  const usage = {
    inputTokens: { total: USAGE.inputTokens, noCache: USAGE.inputTokens, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: USAGE.outputTokens, text: USAGE.outputTokens, reasoning: undefined },
  };
  const results: LanguageModelV4GenerateResult[] = [];
  for (let step = 0; step < steps; step++) {
    results.push({
      content: stepCalls(step, reads).map((call, index) => ({
        type: 'tool-call',
        toolCallId: `c${step}_${index}`,
        toolName: call.name,
        input: JSON.stringify(call.args),
      })),
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      warnings: [],
    });
  }
  results.push({ content: [{ type: 'text', text: FINAL_TEXT }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] });
  return results;
}

/** One toolwright run of `steps` tool steps; resolves with its wall time in ms. */
export async function runToolwright(tools: readonly AnyTool[], steps: number, reads: number): Promise<number> {
  const model = createScriptedModel(toolwrightScript(steps, reads));
  const started = performance.now();
  const result = await runAgent({ model, tools, prompt: 'Look up every city and stock.', limits: { maxIterations: steps + 1 } });
  const elapsed = performance.now() - started;
  if (result.status !== 'completed' || result.steps.length !== steps + 1)
    throw new Error(`toolwright run ended ${result.status} after ${result.steps.length} steps`);
  return elapsed;
}

/** One AI SDK `generateText` run of `steps` tool steps; resolves with its wall time in ms. */
export async function runAiSdk(tools: ReturnType<typeof aiSdkTools>, steps: number, reads: number): Promise<number> {
  const script = aiSdkScript(steps, reads);
  let next = 0;
  const model = new MockLanguageModelV4({ doGenerate: async () => script[next++]! });
  const started = performance.now();
  const result = await generateText({ model, tools, prompt: 'Look up every city and stock.', stopWhen: stepCountIs(steps + 1) });
  const elapsed = performance.now() - started;
  if (result.steps.length !== steps + 1 || result.text !== FINAL_TEXT) throw new Error(`AI SDK run ended after ${result.steps.length} steps`);
  return elapsed;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
