/**
 * `npm run bench:local`: tool-call decoding speed on a local GGUF model, three
 * ways in one process on the same prompts and seeds:
 *   free     — the arguments sampled with no constraint (the speed ceiling; almost never valid)
 *   mask     — toolwright's token mask, with jump-forward
 *   grammar  — node-llama-cpp's own JSON-schema grammar (llama.cpp's grammar sampler)
 * It prints tokens per second, the mask's cost relative to free sampling, the
 * grammar's cost relative to the mask, validity, and the tokens jump-forward saved.
 *
 * Usage: npm run bench:local [-- --model path.gguf --calls 12 --tokens 48]
 * The default model is the tiny structural test model (random weights): on it
 * sampling dominates, so relative overheads look larger than on a real model.
 */
import { getLlama, LlamaGrammarEvaluationState, LlamaLogLevel, LlamaText, resolveChatWrapper, type Token } from 'node-llama-cpp';
import { ensureTinyModel } from '../../src/models/local/tiny-model.js';
import { toChatHistory } from '../../src/models/local/chat-history.js';
import { LocalModel } from '../../src/models/local/local-model.js';
import { toolCallsOf } from '../../src/protocol/model-exchange.js';
import { ToolRegistry, defineTool, silentLogger, type AnyTool } from '../../src/tools/index.js';
import { tools as conjugateTools } from '../../examples/conjugate/index.js';
import { createSubscriptionTools, createSubscriptionsStore } from '../../examples/subscriptions/index.js';

function argument(name: string, fallback: number): number;
function argument(name: string, fallback: string): string;
function argument(name: string, fallback: number | string): number | string {
  const index = process.argv.indexOf(`--${name}`);
  const value = index > 0 ? process.argv[index + 1] : undefined;
  if (value === undefined) return fallback;
  return typeof fallback === 'number' ? Number(value) : value;
}

const path = argument('model', '') || (await ensureTinyModel());
const calls = argument('calls', 12);
const maxTokens = argument('tokens', 48);
const threads = argument('threads', 1);

const subscriptionTools = createSubscriptionTools(createSubscriptionsStore());
const benchTools: AnyTool[] = [
  conjugateTools.find((tool) => tool.name === 'conjugate')!,
  ...subscriptionTools.filter((tool) => ['update_subscription', 'search_products', 'create_refund'].includes(tool.name)),
];
const registry = new ToolRegistry([...conjugateTools, ...subscriptionTools], { logger: silentLogger });
const messages = [{ role: 'user' as const, content: 'Please help me with my account.' }];

interface Row {
  tool: string;
  variant: 'free' | 'mask' | 'grammar';
  sampled: number;
  forced: number;
  ms: number;
  valid: number;
  calls: number;
  note?: string;
}
const rows: Row[] = [];

const mask = new LocalModel(path, { threads, callTokenBudget: maxTokens, maxCallTokens: maxTokens * 4, maxOutputTokens: maxTokens * 4 });
const free = new LocalModel(path, { threads, constrained: false, maxCallTokens: maxTokens });
for (const model of [mask, free]) await model.generate({ messages, tools: benchTools, toolChoice: { tool: benchTools[0]!.name }, seed: 0 });

async function runLocal(model: LocalModel, variant: 'free' | 'mask', tool: AnyTool): Promise<Row> {
  const before = { ...model.stats };
  let valid = 0;
  const started = performance.now();
  for (let seed = 1; seed <= calls; seed++) {
    const response = await model.generate({ messages, tools: benchTools, toolChoice: { tool: tool.name }, temperature: 1, seed });
    const call = toolCallsOf(response)[0];
    if (call && registry.prepare(call).success) valid++;
  }
  const ms = performance.now() - started;
  return {
    tool: tool.name,
    variant,
    sampled: model.stats.sampledTokens - before.sampledTokens,
    forced: model.stats.jumpForwardTokens - before.jumpForwardTokens,
    ms,
    valid,
    calls,
  };
}

// The grammar sampler, on the same prompt: the chat wrapper's rendering, the call prefix, the tool name and the params prefix.
const llama = await getLlama({ gpu: false, build: 'never', maxThreads: threads, logLevel: LlamaLogLevel.error });
const model = await llama.loadModel({ modelPath: path });
const context = await model.createContext({ contextSize: 4096, threads, sequences: 1 });
const sequence = context.getSequence();
const wrapper = resolveChatWrapper(model);
const callSyntax = wrapper.settings.functions.call;

async function runGrammar(tool: AnyTool): Promise<Row> {
  let grammar;
  try {
    grammar = await llama.createGrammarForJsonSchema(tool.inputSchema as never);
  } catch (error) {
    return {
      tool: tool.name,
      variant: 'grammar',
      sampled: 0,
      forced: 0,
      ms: 0,
      valid: 0,
      calls: 0,
      note: `not supported: ${(error as Error).message.slice(0, 80)}`,
    };
  }
  const functions = Object.fromEntries(benchTools.map((each) => [each.name, { description: each.description, params: each.inputSchema }]));
  const state = wrapper.generateContextState({
    chatHistory: [...toChatHistory(messages, []), { type: 'model', response: [] }],
    availableFunctions: functions as never,
    documentFunctionParams: true,
  });
  const prompt = [
    ...state.contextText.tokenize(model.tokenizer),
    ...LlamaText(callSyntax.prefix).tokenize(model.tokenizer),
    ...model.tokenize(tool.name + LlamaText(callSyntax.paramsPrefix).toString(), false),
  ];
  let sampled = 0;
  let valid = 0;
  const started = performance.now();
  for (let seed = 1; seed <= calls; seed++) {
    await sequence.clearHistory();
    const tokens: Token[] = [];
    const iterator = sequence.evaluate(prompt, { temperature: 1, topK: 40, seed, grammarEvaluationState: new LlamaGrammarEvaluationState({ model, grammar }) });
    for await (const token of iterator) {
      tokens.push(token);
      if (tokens.length >= maxTokens) break;
    }
    sampled += tokens.length;
    const text = model.detokenize(tokens);
    if (registry.prepare({ id: 'bench', name: tool.name, argumentsText: text.trim() }).success) valid++;
  }
  return { tool: tool.name, variant: 'grammar', sampled, forced: 0, ms: performance.now() - started, valid, calls };
}

for (const tool of benchTools) {
  // Interleaved, so that machine noise hits all three alike.
  rows.push(await runLocal(free, 'free', tool));
  rows.push(await runLocal(mask, 'mask', tool));
  rows.push(await runGrammar(tool));
}

// The per-step cost on equal work: one free-text argument that both variants fill up to the same token budget, so
// neither per-call costs (the call framing, jump-forward decodes between short sampled runs) nor validity changes what
// is divided by what. Interleaved round by round, order alternating; the figure is the median of per-round ratios.
const noteTool = defineTool({
  name: 'note',
  description: 'Writes a note.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  execute: () => 'ok',
});
const longRounds = argument('long-rounds', 12);
const longFree = new LocalModel(path, { threads, constrained: false, maxCallTokens: maxTokens * 2 });
const longMask = new LocalModel(path, { threads, callTokenBudget: maxTokens * 2, maxCallTokens: maxTokens * 2, maxOutputTokens: maxTokens * 4 });
const longRequest = (seed: number) => ({ messages, tools: [noteTool], toolChoice: { tool: noteTool.name }, temperature: 1, seed });
for (const model of [longFree, longMask]) await model.generate(longRequest(0));
const stepRatios: number[] = [];
const long = { free: { ms: 0, steps: 0 }, mask: { ms: 0, steps: 0, maskMs: 0, maskedSteps: 0 } };
for (let round = 1; round <= longRounds; round++) {
  const perStep: Record<'free' | 'mask', number> = { free: NaN, mask: NaN };
  for (const variant of round % 2 === 0 ? (['mask', 'free'] as const) : (['free', 'mask'] as const)) {
    const model = variant === 'free' ? longFree : longMask;
    const before = { ...model.stats };
    const started = performance.now();
    await model.generate(longRequest(round));
    const ms = performance.now() - started;
    const steps = model.stats.sampledTokens - before.sampledTokens;
    long[variant].ms += ms;
    long[variant].steps += steps;
    if (variant === 'mask') {
      long.mask.maskMs += model.stats.maskMs - before.maskMs;
      long.mask.maskedSteps += model.stats.maskedSteps - before.maskedSteps;
    }
    perStep[variant] = ms / steps;
  }
  stepRatios.push(perStep.mask / perStep.free);
}
stepRatios.sort((a, b) => a - b);
const medianStepRatio = stepRatios[Math.floor(stepRatios.length / 2)]!;
const freeStepMs = long.free.ms / long.free.steps;
const maskStepMs = long.mask.ms / long.mask.steps;
const maskFillUs = (long.mask.maskMs / long.mask.maskedSteps) * 1000;
await longFree.close();
await longMask.close();

const perToken = (row: Row) => (row.sampled === 0 ? NaN : row.ms / row.sampled);
console.log(
  `\nbench:local — ${path}\n${calls} calls per tool and variant, at most ${maxTokens} sampled argument tokens per call, temperature 1, ${threads} thread(s)\n`,
);
console.log('tool                 variant  valid   sampled tok/s   output tok/s   ms/sampled token   jump-forward tokens');
for (const row of rows) {
  const tokPerSecond = row.sampled === 0 ? '—' : ((row.sampled / row.ms) * 1000).toFixed(0);
  const outPerSecond = row.sampled === 0 ? '—' : (((row.sampled + row.forced) / row.ms) * 1000).toFixed(0);
  console.log(
    `${row.tool.padEnd(20)} ${row.variant.padEnd(8)} ${`${row.valid}/${row.calls}`.padEnd(7)} ${tokPerSecond.padStart(13)}   ${outPerSecond.padStart(12)}   ${Number.isNaN(perToken(row)) ? '—'.padStart(16) : perToken(row).toFixed(2).padStart(16)}   ${String(row.forced).padStart(19)}${row.note ? `   ${row.note}` : ''}`,
  );
}
const sum = (variant: Row['variant']) => rows.filter((row) => row.variant === variant && row.sampled > 0);
const msPerToken = (list: Row[]) => list.reduce((total, row) => total + row.ms, 0) / list.reduce((total, row) => total + row.sampled, 0);
const freeMs = msPerToken(sum('free'));
const maskMs = msPerToken(sum('mask'));
const grammarRows = sum('grammar');
const grammarMs = grammarRows.length > 0 ? msPerToken(grammarRows) : NaN;
const summary = {
  model: path,
  msPerSampledToken: { free: freeMs, mask: maskMs, grammar: grammarMs },
  maskCostVsFree: maskMs / freeMs - 1,
  grammarVsMask: grammarMs / maskMs,
  valid: Object.fromEntries(
    (['free', 'mask', 'grammar'] as const).map((variant) => [
      variant,
      `${rows.filter((row) => row.variant === variant).reduce((total, row) => total + row.valid, 0)}/${rows.filter((row) => row.variant === variant).reduce((total, row) => total + row.calls, 0)}`,
    ]),
  ),
  jumpForwardTokens: sum('mask').reduce((total, row) => total + row.forced, 0),
  maskSampledTokens: sum('mask').reduce((total, row) => total + row.sampled, 0),
};
console.log(
  `\nper sampled token: free ${freeMs.toFixed(2)} ms, mask ${maskMs.toFixed(2)} ms (${(summary.maskCostVsFree * 100).toFixed(1)}% over free), llama.cpp grammar ${grammarMs.toFixed(2)} ms (${summary.grammarVsMask.toFixed(2)}× the mask's)`,
);
console.log(
  `jump-forward fed ${summary.jumpForwardTokens} tokens without sampling, beside ${summary.maskSampledTokens} sampled (${((summary.jumpForwardTokens / (summary.jumpForwardTokens + summary.maskSampledTokens)) * 100).toFixed(0)}% of the arguments' tokens)`,
);
console.log(
  `\nper sampled step on one long string value (${longRounds} rounds, up to ${maxTokens * 2} tokens each, interleaved): free ${freeStepMs.toFixed(3)} ms, mask ${maskStepMs.toFixed(3)} ms; ` +
    `median per-round ratio ${medianStepRatio.toFixed(3)} (${((medianStepRatio - 1) * 100).toFixed(1)}% over free, ${((maskStepMs - freeStepMs) * 1000).toFixed(0)} µs per step, ` +
    `of which the mask fill and bias lookup in JavaScript ${maskFillUs.toFixed(0)} µs)`,
);
console.log(
  'The per-sampled-token figure above also carries per-call costs that free sampling does not pay the same way: ' +
    'each jump-forward run is one more decode, divided among few sampled tokens.',
);
const longValue = { freeMsPerStep: freeStepMs, maskMsPerStep: maskStepMs, medianRatio: medianStepRatio, maskFillUsPerStep: maskFillUs };
console.log(JSON.stringify({ ...summary, longValue }));
await mask.close();
await free.close();
await context.dispose();
await model.dispose();
