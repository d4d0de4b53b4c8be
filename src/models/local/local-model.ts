/**
 * `local:<path.gguf>`: a GGUF model run in-process by node-llama-cpp, with tool
 * calls decoded under toolwright's JSON-Schema token mask.
 *
 * The model sees the tools through its own chat template (node-llama-cpp's chat
 * wrapper for the file). Free text is sampled unconstrained. When the model
 * opens a tool call (or must, under `toolChoice: 'required'` or a named tool),
 * the call is generated under masks: first the tool name, restricted to the
 * allowed tools, then the arguments under that tool's input schema, with text
 * the grammar already fixes fed in without sampling (jump-forward). Token bytes
 * come from the GGUF vocabulary, never from detokenising.
 *
 * node-llama-cpp loads lazily (dynamic import), so the root entry stays light.
 * @module
 */
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import type {
  ChatHistoryItem,
  ChatModelFunctions,
  ChatWrapper,
  LlamaContext,
  LlamaContextSequence,
  LlamaModel,
  Token,
  TokenBias,
} from 'node-llama-cpp';
import type * as NodeLlama from 'node-llama-cpp';
import { compileJsonSchema } from '../../decoding/compile-json-schema.js';
import type { CompiledGrammar } from '../../decoding/compiled-grammar.js';
import type { GrammarMatcher } from '../../decoding/grammar-matcher.js';
import { Vocabulary } from '../../decoding/vocabulary.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import type { AnyTool } from '../../tools/define-tool.js';
import { toolCallPartFromText } from '../../formats/tool-call-part.js';
import { estimateInputTokens } from '../estimate-tokens.js';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { Model } from '../types.js';
import type { ModelRequest, ModelResponse, ModelStreamEvent, StopReason } from '../../protocol/model-exchange.js';
import type { Message, TextPart, ToolCallPart } from '../../protocol/messages.js';
import { resultText } from '../../formats/content-as-text.js';
import type { LocalModelOptions, LocalModelStats } from './local-model-options.js';
import { ClosingPreference, JsonPrefixTracker } from './closing-preference.js';
import { MaskBiasBuilder, installTypedBiasFastPath } from './mask-token-bias.js';

interface CallFormat {
  /** Token that opens a call when the model writes it in free text (the prefix's first token). */
  startToken: Token;
  prefixTokens: Token[];
  paramsPrefixText: string;
  suffixTokens: Token[];
}

interface Runtime {
  model: LlamaModel;
  context: LlamaContext;
  sequence: LlamaContextSequence;
  chatWrapper: ChatWrapper;
  vocabulary: Vocabulary;
  callFormat: CallFormat;
  biases: MaskBiasBuilder;
  emptyBias: TokenBias;
  isEog: (token: Token) => boolean;
  closing: ClosingPreference;
  /** Text tokens grouped by their first byte, to build name masks without scanning the vocabulary. */
  tokensByFirstByte: Uint32Array[];
  LlamaText: typeof NodeLlama.LlamaText;
}

const DEFAULT_THREADS = Math.max(1, Math.min(8, availableParallelism() - 1));

export class LocalModel implements Model {
  readonly id: string;
  readonly provider = 'local';
  readonly path: string;
  readonly stats: LocalModelStats = { sampledTokens: 0, forcedTokens: 0, jumpForwardTokens: 0, maskedSteps: 0, maskMs: 0 };
  readonly #options: LocalModelOptions;
  #runtime: Promise<Runtime> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #grammars = new WeakMap<AnyTool, { grammar: CompiledGrammar; warnings: FormatWarning[] }>();

  constructor(path: string, options: LocalModelOptions = {}) {
    this.path = path;
    this.id = `local:${path}`;
    this.#options = options;
  }

  estimateInputTokens(request: ModelRequest): number {
    return estimateInputTokens(request);
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    let response: ModelResponse | undefined;
    for await (const event of this.stream(request)) if (event.type === 'end') response = event.response;
    return response!;
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    // One generation at a time per model: the context sequence is shared.
    const previous = this.#queue;
    let release!: () => void;
    this.#queue = new Promise<void>((resolve) => (release = resolve));
    await previous.catch(() => {});
    try {
      yield* this.#generate(request, await this.#load());
    } finally {
      release();
    }
  }

  /** Frees the model and its context. */
  async close(): Promise<void> {
    const runtime = await this.#runtime?.catch(() => undefined);
    this.#runtime = undefined;
    await runtime?.context.dispose();
    await runtime?.model.dispose();
  }

  #load(): Promise<Runtime> {
    this.#runtime ??= loadRuntime(this.path, this.#options);
    return this.#runtime;
  }

  #grammarFor(tool: AnyTool, vocabulary: Vocabulary): { grammar: CompiledGrammar; warnings: FormatWarning[] } {
    let entry = this.#grammars.get(tool);
    if (!entry) {
      const warnings: FormatWarning[] = [];
      let grammar: CompiledGrammar;
      try {
        grammar = compileJsonSchema(tool.inputSchema, vocabulary);
      } catch (error) {
        // A keyword the mask cannot enforce exactly: decode under the relaxed grammar and say so; the registry still validates.
        grammar = compileJsonSchema(tool.inputSchema, vocabulary, { lenient: true });
        warnings.push({ type: 'unsupported', provider: 'local' as never, feature: 'token-mask', path: '', tool: tool.name, details: `the mask relaxes part of "${tool.name}"'s schema (${(error as Error).message}); the registry still validates the arguments` } as FormatWarning);
      }
      entry = { grammar, warnings };
      this.#grammars.set(tool, entry);
    }
    return entry;
  }

  async *#generate(request: ModelRequest, runtime: Runtime): AsyncGenerator<ModelStreamEvent> {
    const { model, sequence, vocabulary, callFormat, biases } = runtime;
    const options = this.#options;
    const constrained = options.constrained ?? true;
    const jumpForward = options.jumpForward ?? true;
    const maxOutput = request.maxOutputTokens ?? options.maxOutputTokens ?? 512;
    const maxCallTokens = options.maxCallTokens ?? 2048;
    const callTokenBudget = options.callTokenBudget ?? 256;
    const tracker = new JsonPrefixTracker();
    const toolChoice = request.toolChoice ?? 'auto';
    const offered = toolChoice === 'none' ? [] : (request.tools ?? []).filter((tool) => typeof toolChoice !== 'object' || tool.name === toolChoice.tool);
    if (typeof toolChoice === 'object' && offered.length === 0) {
      throw new InvalidArgumentError(`toolChoice names "${toolChoice.tool}", which is not among the request's tools; pass that tool in \`tools\`.`);
    }
    const mustCall = offered.length > 0 && toolChoice !== 'auto';
    const warnings: FormatWarning[] = [];

    const chatHistory: ChatHistoryItem[] = [...toChatHistory(request.messages, warnings), { type: 'model', response: [] }];
    const functions = offered.length > 0 ? toChatFunctions(offered) : undefined;
    const state = runtime.chatWrapper.generateContextState({ chatHistory, availableFunctions: functions, documentFunctionParams: true });
    const promptTokens = state.contextText.tokenize(model.tokenizer);
    const inputTokens = promptTokens.length;

    const mask = new Uint32Array(vocabulary.maskWords);
    let currentBias: TokenBias = runtime.emptyBias;
    // Mutated inside the helper closures below, so the declared type must not narrow.
    let phase = 'text' as 'text' | 'name' | 'args' | 'done';
    let stopReason: StopReason = 'end_turn';
    let outputTokens = 0;
    const textTokens: Token[] = [];
    let emittedText = '';
    const content: (TextPart | ToolCallPart)[] = [];
    const toolCalls: ToolCallPart[] = [];
    // Name phase: bytes generated so far, and the candidate `name + paramsPrefix` targets.
    let nameBytes: number[] = [];
    const targets = offered.map((tool) => ({ tool, bytes: utf8(tool.name + callFormat.paramsPrefixText), nameLength: utf8(tool.name).length }));
    let callTool: AnyTool | undefined;
    let matcher: GrammarMatcher | undefined;
    let argumentBytes: number[] = [];
    let callTokens = 0;

    const flushText = function* (final: boolean): Generator<ModelStreamEvent> {
      if (textTokens.length === 0) return;
      const text = model.detokenize(textTokens, false);
      // Hold back a trailing partial UTF-8 sequence until the next token completes it.
      const safe = final ? text : text.endsWith('\uFFFD') ? text.slice(0, text.lastIndexOf('\uFFFD')) : text;
      if (safe.length > emittedText.length) {
        const delta = safe.slice(emittedText.length);
        emittedText = safe;
        yield { type: 'text-delta', text: delta };
      }
    };
    const endText = () => {
      const text = model.detokenize(textTokens, false);
      if (text.trim().length > 0) content.push({ type: 'text', text });
      textTokens.length = 0;
      emittedText = '';
    };
    const setNameMask = () => {
      const started = performance.now();
      mask.fill(0);
      // Only tokens whose first byte is some target's next byte can continue a name.
      const nextBytes = new Set(targets.filter((target) => startsWith(target.bytes, nameBytes)).map((target) => target.bytes[nameBytes.length]!));
      for (const byte of nextBytes) {
        for (const id of runtime.tokensByFirstByte[byte]!) {
          const bytes = vocabulary.tokenBytes(id);
          if (targets.some((target) => continuesName(target, nameBytes, bytes))) mask[id >>> 5]! |= 1 << (id & 31);
        }
      }
      currentBias = biases.biasFor(mask);
      this.stats.maskedSteps++;
      this.stats.maskMs += performance.now() - started;
    };
    let nothingButEnd = false;
    const setArgsMask = () => {
      const started = performance.now();
      matcher!.fillMask(mask);
      for (const id of vocabulary.eosTokenIds) mask[id >>> 5]! &= ~(1 << (id & 31));
      nothingButEnd = mask.every((word) => word === 0);
      if (callTokens >= callTokenBudget) runtime.closing.narrow(mask, tracker);
      currentBias = biases.biasFor(mask);
      this.stats.maskedSteps++;
      this.stats.maskMs += performance.now() - started;
    };
    /** Forced tokens after entering or advancing the arguments; they are accepted by the matcher first. */
    const argsForced = (): Token[] => {
      if (!jumpForward || !matcher) return [];
      const text = matcher.forcedText();
      if (text.length === 0) return [];
      const tokens = model.tokenize(text, false);
      const accepted: Token[] = [];
      for (const token of tokens) {
        if (!matcher.accept(token)) break;
        accepted.push(token);
        argumentBytes.push(...vocabulary.tokenBytes(token));
        tracker.push(vocabulary.tokenBytes(token));
      }
      this.stats.jumpForwardTokens += accepted.length;
      return accepted;
    };
    const enterArgs = (tool: AnyTool, alreadyGenerated: number[]): Token[] => {
      callTool = tool;
      const target = utf8(tool.name + callFormat.paramsPrefixText);
      const rest = new TextDecoder().decode(Uint8Array.from(target.slice(alreadyGenerated.length)));
      const forced = rest.length > 0 ? model.tokenize(rest, false) : [];
      phase = 'args';
      argumentBytes = [];
      callTokens = 0;
      tracker.reset();
      if (constrained) {
        const compiled = this.#grammarFor(tool, vocabulary);
        for (const warning of compiled.warnings) if (!warnings.includes(warning)) warnings.push(warning);
        matcher = compiled.grammar.matcher();
        forced.push(...argsForced());
        setArgsMask();
      } else {
        matcher = undefined;
        currentBias = runtime.emptyBias;
      }
      return forced;
    };
    const enterName = (): Token[] => {
      nameBytes = [];
      if (targets.length === 1) return enterArgs(targets[0]!.tool, []);
      phase = 'name';
      if (constrained) setNameMask();
      else currentBias = runtime.emptyBias;
      return [];
    };
    const finishCall = function* (this: LocalModel): Generator<ModelStreamEvent> {
      const argumentsText = new TextDecoder().decode(Uint8Array.from(argumentBytes));
      const id = `call_local_${toolCalls.length + 1}`;
      const part = toolCallPartFromText(id, callTool!.name, argumentsText);
      toolCalls.push(part);
      content.push(part);
      yield { type: 'tool-call-start', index: toolCalls.length - 1, id, name: callTool!.name };
      yield { type: 'tool-call-delta', index: toolCalls.length - 1, argumentsDelta: argumentsText, partialArguments: part.arguments };
      yield { type: 'tool-call-end', index: toolCalls.length - 1, call: part };
      phase = 'done';
      stopReason = 'tool_calls';
    };

    const isDone = () => phase === 'done';
    /** The arguments are a complete value and the grammar allows nothing more (e.g. `{}` for a tool without parameters). */
    const argumentsComplete = () => phase === 'args' && matcher !== undefined && (matcher.isTerminated() || (matcher.canTerminate() && nothingButEnd));
    const initialForced = mustCall ? [...callFormat.prefixTokens, ...enterName()] : [];
    if (mustCall) this.stats.forcedTokens += initialForced.length;
    if (argumentsComplete()) {
      // Everything was forced: nothing is left to sample.
      outputTokens += initialForced.length;
      yield* finishCall.call(this);
    }
    const temperature = request.temperature ?? options.temperature ?? 0.7;
    const seed = request.seed ?? options.seed;
    // Keep the longest common prefix of what the context already holds (the conversation so far) and evaluate only the rest.
    const wanted = [...promptTokens, ...initialForced];
    const held = sequence.contextTokens;
    let common = 0;
    while (common < held.length && common < wanted.length - 1 && held[common] === wanted[common]) common++;
    if (common < held.length) await sequence.eraseContextTokenRanges([{ start: common, end: sequence.nextTokenIndex }]);
    const iterator = sequence.evaluate(wanted.slice(common), {
      temperature,
      topK: options.topK ?? 40,
      ...(options.topP !== undefined ? { topP: options.topP } : {}),
      ...(seed !== undefined ? { seed } : {}),
      tokenBias: () => currentBias,
      yieldEogToken: true,
    });
    try {
      let step = isDone() ? ({ done: true, value: undefined } as const) : await iterator.next();
      while (!step.done && !isDone()) {
        if (request.signal?.aborted) throw request.signal.reason ?? new Error('aborted');
        const token = step.value;
        outputTokens++;
        this.stats.sampledTokens++;
        let forced: Token[] = [];
        if (phase === 'text') {
          if (runtime.isEog(token)) break;
          if (offered.length > 0 && token === callFormat.startToken) {
            yield* flushText(true);
            endText();
            forced = [...callFormat.prefixTokens.slice(1), ...enterName()];
            if (argumentsComplete()) yield* finishCall.call(this);
          } else {
            textTokens.push(token);
            yield* flushText(false);
          }
        } else if (phase === 'name') {
          const bytes = vocabulary.isTextToken(token) ? vocabulary.tokenBytes(token) : new Uint8Array();
          nameBytes.push(...bytes);
          const done = targets.find((target) => nameBytes.length > target.nameLength && startsWith(target.bytes, nameBytes));
          if (done) {
            forced = enterArgs(done.tool, nameBytes);
            if (argumentsComplete()) yield* finishCall.call(this);
          } else if (!targets.some((target) => startsWith(target.bytes, nameBytes))) {
            // Only reachable unconstrained: the model named no offered tool. Report the call as written, for the registry to answer.
            callTool = { name: new TextDecoder().decode(Uint8Array.from(nameBytes)).replace(/".*$/s, '') } as AnyTool;
            yield* finishCall.call(this);
          } else if (constrained) setNameMask();
        } else if (phase === 'args') {
          callTokens++;
          const bytes = vocabulary.isTextToken(token) ? vocabulary.tokenBytes(token) : new Uint8Array();
          if (matcher) {
            if (!matcher.accept(token)) throw new Error(`the token mask let through token ${token}, which the grammar refuses; please report this`);
            argumentBytes.push(...bytes);
            tracker.push(bytes);
            forced = argsForced();
            if (!matcher.isTerminated()) setArgsMask();
            if (argumentsComplete()) yield* finishCall.call(this);
          } else {
            argumentBytes.push(...bytes);
            // Unconstrained: the call ends where the format's suffix begins, or at the end of generation.
            const text = new TextDecoder().decode(Uint8Array.from(argumentBytes));
            const suffixAt = text.indexOf(new TextDecoder().decode(Uint8Array.from(utf8(suffixText(runtime))))) ;
            if (runtime.isEog(token) || token === callFormat.suffixTokens.at(-1) || suffixAt >= 0) {
              argumentBytes = utf8(cutAtSuffix(text, runtime));
              yield* finishCall.call(this);
            }
          }
          if (phase === 'args' && callTokens >= maxCallTokens) {
            stopReason = 'max_tokens';
            yield* finishCall.call(this);
            stopReason = 'max_tokens';
          }
        }
        if (isDone()) {
          outputTokens += forced.length;
          this.stats.forcedTokens += forced.length;
          break;
        }
        if (outputTokens >= maxOutput) {
          stopReason = 'max_tokens';
          if (phase === 'args') yield* finishCall.call(this);
          stopReason = 'max_tokens';
          break;
        }
        this.stats.forcedTokens += forced.length;
        outputTokens += forced.length;
        step = await iterator.next(forced.length > 0 ? [token, ...forced] : undefined);
      }
    } finally {
      await iterator.return(undefined as never);
    }
    if (phase === 'text' || phase === 'name') {
      yield* flushText(true);
      endText();
    }
    const response: ModelResponse = {
      content,
      stopReason,
      usage: { inputTokens, outputTokens },
      modelId: this.id,
    };
    if (warnings.length > 0) response.warnings = warnings;
    yield { type: 'end', response };
  }
}

function suffixText(runtime: Runtime): string {
  return runtime.model.detokenize(runtime.callFormat.suffixTokens, true);
}

function cutAtSuffix(text: string, runtime: Runtime): string {
  const suffix = suffixText(runtime);
  const at = text.indexOf(suffix);
  let cut = at >= 0 ? text.slice(0, at) : text;
  // Formats whose suffix closes the JSON object ("}\n</tool_call>") leave the arguments' own closing brace in place.
  if (suffix.startsWith('}') && at >= 0) cut = cut.trimEnd();
  return cut;
}

function utf8(text: string): number[] {
  return [...new TextEncoder().encode(text)];
}

function startsWith(whole: readonly number[], prefix: readonly number[]): boolean {
  if (prefix.length > whole.length) return false;
  for (let index = 0; index < prefix.length; index++) if (whole[index] !== prefix[index]) return false;
  return true;
}

/** Whether `token` after `generated` stays within `name + paramsPrefix` and never runs past its end. */
function continuesName(target: { bytes: number[] }, generated: readonly number[], token: Uint8Array): boolean {
  const total = generated.length + token.length;
  if (total > target.bytes.length) return false;
  for (let index = 0; index < generated.length; index++) if (target.bytes[index] !== generated[index]) return false;
  for (let index = 0; index < token.length; index++) if (target.bytes[generated.length + index] !== token[index]) return false;
  return true;
}

function toChatFunctions(tools: readonly AnyTool[]): ChatModelFunctions {
  const functions: Record<string, { description: string; params: unknown }> = {};
  for (const tool of tools) functions[tool.name] = { description: tool.description, params: tool.inputSchema };
  return functions as ChatModelFunctions;
}

/** Neutral messages → node-llama-cpp chat history; each call is paired with its result, as the chat wrappers expect. */
export function toChatHistory(messages: readonly Message[], warnings: FormatWarning[]): ChatHistoryItem[] {
  const results = new Map<string, string>();
  for (const message of messages) if (message.role === 'tool') for (const part of message.results) results.set(part.callId, resultText(part.result.content));
  const history: ChatHistoryItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        history.push({ type: 'system', text: message.content });
        break;
      case 'user': {
        if (typeof message.content === 'string') history.push({ type: 'user', text: message.content });
        else {
          const texts = message.content.map((part) => (part.type === 'text' ? part.text : `[an image (${part.mimeType}) the local model cannot see]`));
          if (message.content.some((part) => part.type === 'image')) {
            warnings.push({ type: 'unsupported', provider: 'local' as never, feature: 'image-input', path: '', details: 'local models receive images as a text placeholder' } as FormatWarning);
          }
          history.push({ type: 'user', text: texts.join('\n') });
        }
        break;
      }
      case 'assistant': {
        const response: (string | { type: 'functionCall'; name: string; params: unknown; result: unknown })[] = [];
        for (const part of message.content) {
          if (part.type === 'text') response.push(part.text);
          else response.push({ type: 'functionCall', name: part.name, params: part.arguments ?? {}, result: results.get(part.id) ?? '(no result)' });
        }
        history.push({ type: 'model', response: response as ChatHistoryItem extends { response: infer R } ? R : never });
        break;
      }
      case 'tool':
        break;
    }
  }
  return history;
}

async function loadRuntime(path: string, options: LocalModelOptions): Promise<Runtime> {
  if (!existsSync(path)) throw new InvalidArgumentError(`No GGUF model file at ${path}. Pass the path of a .gguf file (local:/path/to/model.gguf); \`npm run make:tiny-model\` makes the tiny test model.`);
  let nodeLlama: typeof NodeLlama;
  try {
    nodeLlama = await import('node-llama-cpp');
  } catch (error) {
    throw new InvalidArgumentError('Local models need the optional peer dependency node-llama-cpp: run `npm install node-llama-cpp@3.21.1`.', { cause: error });
  }
  const threads = options.threads ?? DEFAULT_THREADS;
  const llama = await nodeLlama.getLlama({ gpu: false, build: 'never', maxThreads: threads, logLevel: nodeLlama.LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath: path });
  const context = await model.createContext({ contextSize: options.contextSize ?? 4096, threads, sequences: 1 });
  const sequence = context.getSequence();
  installTypedBiasFastPath(sequence);
  const chatWrapper = nodeLlama.resolveChatWrapper(model);
  const vocabulary = Vocabulary.fromGguf(path);
  const eog: number[] = [];
  for (let id = 0; id < vocabulary.size; id++) if (model.isEogToken(id as Token)) eog.push(id);
  const call = chatWrapper.settings.functions.call;
  const prefixTokens = nodeLlama.LlamaText(call.prefix).tokenize(model.tokenizer);
  const suffixTokens = nodeLlama.LlamaText(call.suffix).tokenize(model.tokenizer);
  if (prefixTokens.length === 0) throw new InvalidArgumentError(`The chat template of ${path} has no tool-call syntax toolwright can use.`);
  const callFormat: CallFormat = {
    startToken: prefixTokens[0]!,
    prefixTokens,
    paramsPrefixText: nodeLlama.LlamaText(call.paramsPrefix).toString(),
    suffixTokens,
  };
  const biases = new MaskBiasBuilder(nodeLlama.TokenBias, model, vocabulary.size, eog);
  const groups: number[][] = Array.from({ length: 256 }, () => []);
  for (let id = 0; id < vocabulary.tokenCount; id++) {
    if (!vocabulary.isTextToken(id)) continue;
    const bytes = vocabulary.tokenBytes(id);
    if (bytes.length > 0) groups[bytes[0]!]!.push(id);
  }
  return {
    model,
    context,
    sequence,
    chatWrapper,
    vocabulary,
    callFormat,
    biases,
    emptyBias: new nodeLlama.TokenBias(model.tokenizer),
    isEog: (token) => model.isEogToken(token),
    tokensByFirstByte: groups.map((ids) => Uint32Array.from(ids)),
    closing: new ClosingPreference(vocabulary),
    LlamaText: nodeLlama.LlamaText,
  };
}
