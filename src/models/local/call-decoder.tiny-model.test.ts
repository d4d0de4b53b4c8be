/**
 * The call decoder on the tiny GGUF model's real vocabulary, tokenizer and chat
 * template, with tokens picked at random among those its masks allow (no
 * inference): every call it completes names an offered tool and validates.
 */
import { toolCallsOf } from '../../protocol/model-exchange.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools as conjugateTools } from '../../../examples/conjugate/index.js';
import { createSubscriptionTools, createSubscriptionsStore } from '../../../examples/subscriptions/index.js';
import { compileJsonSchema } from '../../decoding/compile-json-schema.js';
import type { AnyTool } from '../../tools/define-tool.js';
import { ToolRegistry, silentLogger } from '../../tools/index.js';
import { mulberry32 } from '../../shared/seeded-random.js';
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

const grammars = new Map<AnyTool, CompiledToolGrammar>();
function grammarFor(tool: AnyTool): CompiledToolGrammar {
  let compiled = grammars.get(tool);
  if (!compiled) {
    const { vocabulary } = runtime.decoderSetup;
    let grammar;
    try {
      grammar = compileJsonSchema(tool.inputSchema, vocabulary);
    } catch {
      grammar = compileJsonSchema(tool.inputSchema, vocabulary, { lenient: true });
    }
    grammars.set(tool, (compiled = { grammar, warnings: [] }));
  }
  return compiled;
}

/** Decodes one required call, each token drawn uniformly from the current mask. */
function decodeCall(tools: readonly AnyTool[], seed: number) {
  const random = mulberry32(seed);
  const stats: LocalModelStats = { sampledTokens: 0, forcedTokens: 0, jumpForwardTokens: 0, maskedSteps: 0, maskMs: 0 };
  let allowed: number[] = [];
  const decoder = new CallDecoder(runtime.decoderSetup, {
    tools,
    mustCall: true,
    constrained: true,
    jumpForward: true,
    maxOutputTokens: 512,
    callTokenBudget: 16,
    maxCallTokens: 400,
    grammarFor,
    applyMask: (mask) => {
      allowed = [];
      if (mask) for (let id = 0; id < runtime.decoderSetup.vocabulary.size; id++) if ((mask[id >>> 5]! >>> (id & 31)) & 1) allowed.push(id);
    },
    stats,
  });
  const opening = decoder.begin();
  let step = opening;
  while (!step.stop) {
    expect(allowed.length).toBeGreaterThan(0);
    step = decoder.accept(allowed[Math.floor(random() * allowed.length)]!);
  }
  decoder.end();
  return { opening, stats, response: toModelResponse(decoder, { inputTokens: 0, modelId: 'local:tiny', warnings: [] }) };
}

describe('CallDecoder on the tiny model', () => {
  const packs: [string, AnyTool[]][] = [
    ['conjugate', conjugateTools],
    ['subscriptions', createSubscriptionTools(createSubscriptionsStore())],
  ];
  for (const [pack, tools] of packs) {
    it(`makes only valid ${pack} calls, framed as the chat template frames them`, () => {
      const registry = new ToolRegistry(tools, { logger: silentLogger });
      const callPrefix = runtime.model.detokenize(runtime.decoderSetup.callFormat.prefixTokens as never, true);
      let jumpForward = 0;
      for (let seed = 1; seed <= 25; seed++) {
        const { opening, stats, response } = decodeCall(tools, seed);
        expect(runtime.model.detokenize(opening.forced as never, true).startsWith(callPrefix)).toBe(true);
        expect(toolCallsOf(response)).toHaveLength(1);
        const call = toolCallsOf(response)[0]!;
        const prepared = registry.prepare(call);
        if (!prepared.success) throw new Error(`seed ${seed}: ${call.name} ${call.argumentsText}\n${prepared.failure.message}`);
        expect(response.stopReason).toBe('tool_calls');
        jumpForward += stats.jumpForwardTokens;
      }
      expect(jumpForward).toBeGreaterThan(0);
    }, 60_000);
  }
});
