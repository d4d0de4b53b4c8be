/**
 * The call decoder with an answer grammar, on the tiny GGUF model's real vocabulary and chat template, each token drawn
 * at random from the mask (no inference): with a tool offered, the first token either opens the call or starts the
 * answer, and both come out valid; without tools the answer starts at once, its fixed opening forced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../decoding/compile-json-schema.js';
import { toolCallsOf } from '../../protocol/model-exchange.js';
import { mulberry32 } from '../../shared/seeded-random.js';
import { defineOutput } from '../../tools/define-output.js';
import { defineTool, type AnyTool } from '../../tools/define-tool.js';
import { ToolRegistry, silentLogger } from '../../tools/tool-registry.js';
import { CallDecoder, toModelResponse, type CompiledToolGrammar } from './call-decoder.js';
import { loadRuntime, type Runtime } from './load-runtime.js';
import type { LocalModelStats } from './local-model-options.js';
import { ensureTinyModel } from './tiny-model.js';

let runtime: Runtime;
beforeAll(async () => {
  runtime = await loadRuntime(await ensureTinyModel(), { threads: 1, contextSize: 256 });
}, 120_000);
afterAll(async () => {
  await runtime?.context.dispose();
  await runtime?.model.dispose();
});

const answer = defineOutput({
  type: 'object',
  properties: { verdict: { enum: ['yes', 'no'] }, reason: { type: 'string', maxLength: 10 }, score: { type: 'integer', minimum: 0, maximum: 9 } },
  required: ['verdict', 'score'],
  additionalProperties: false,
});

const lookup = defineTool<{ id: string }>({
  name: 'lookup',
  description: 'Looks something up.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { id: { type: 'string', maxLength: 6 } }, required: ['id'], additionalProperties: false },
  execute: () => 'found',
});

function compiled(schema: object): CompiledToolGrammar {
  return { grammar: compileJsonSchema(schema, runtime.decoderSetup.vocabulary), warnings: [] };
}

function decode(tools: readonly AnyTool[], seed: number) {
  const random = mulberry32(Math.imul(seed, 2654435761));
  const stats: LocalModelStats = { sampledTokens: 0, forcedTokens: 0, jumpForwardTokens: 0, maskedSteps: 0, maskMs: 0 };
  let allowed: number[] = [];
  const toolGrammar = compiled(lookup.inputSchema);
  const decoder = new CallDecoder(runtime.decoderSetup, {
    tools,
    mustCall: false,
    constrained: true,
    jumpForward: true,
    maxOutputTokens: 512,
    callTokenBudget: 16,
    maxCallTokens: 400,
    grammarFor: () => toolGrammar,
    answerGrammar: compiled(answer.schema),
    applyMask: (mask) => {
      allowed = [];
      if (mask) for (let id = 0; id < runtime.decoderSetup.vocabulary.size; id++) if ((mask[id >>> 5]! >>> (id & 31)) & 1) allowed.push(id);
    },
    stats,
  });
  const opening = decoder.begin();
  const events = [...opening.events];
  let step = opening;
  while (!step.stop) {
    expect(allowed.length).toBeGreaterThan(0);
    // The call's start is one token among hundreds the answer may begin with: drawn a third of the time where allowed, so both paths run.
    const start = runtime.decoderSetup.callFormat.startToken;
    const token = allowed.includes(start) && random() < 1 / 3 ? start : allowed[Math.floor(random() * allowed.length)]!;
    step = decoder.accept(token);
    events.push(...step.events);
  }
  events.push(...decoder.end());
  return { opening, events, response: toModelResponse(decoder, { inputTokens: 0, modelId: 'local:tiny', warnings: [] }) };
}

describe('CallDecoder with an answer grammar, on the tiny model', () => {
  it('with a tool offered: valid calls and valid answers, each answer streamed as text', () => {
    const registry = new ToolRegistry([lookup], { logger: silentLogger });
    const kinds = { call: 0, answer: 0 };
    for (let seed = 1; seed <= 30; seed++) {
      const { events, response } = decode([lookup], seed);
      const calls = toolCallsOf(response);
      if (calls.length > 0) {
        kinds.call++;
        expect(registry.prepare(calls[0]!).success).toBe(true);
        continue;
      }
      kinds.answer++;
      expect(response.stopReason).toBe('end_turn');
      const text = (response.content[0] as { text: string }).text;
      const checked = answer.validate(JSON.parse(text));
      if (!checked.success) throw new Error(`seed ${seed}: ${text}\n${JSON.stringify(checked.issues)}`);
      expect(events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('')).toBe(text);
    }
    expect(kinds.answer).toBeGreaterThan(0);
    expect(kinds.call).toBeGreaterThan(0);
  }, 60_000);

  it('without tools: the answer starts at once, what the grammar fixes forced', () => {
    for (let seed = 1; seed <= 15; seed++) {
      const { opening, response } = decode([], seed);
      expect(runtime.model.detokenize(opening.forced as never, true)).toBe('{"verdict":"');
      const text = (response.content[0] as { text: string }).text;
      expect(answer.validate(JSON.parse(text)).success, `seed ${seed}: ${text}`).toBe(true);
    }
  }, 60_000);
});
