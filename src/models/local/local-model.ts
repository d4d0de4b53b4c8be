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
 * The parts: `load-runtime.ts` loads the engine (lazily, so the root entry stays
 * light), `chat-history.ts` renders the prompt and reuses the context's prefix,
 * `call-decoder.ts` decides every token's phase, mask and events.
 * @module
 */
import { programmaticCallWarnings } from '../../formats/programmatic-call-warnings.js';
import type { Token, TokenBias } from 'node-llama-cpp';
import { compileJsonSchema } from '../../decoding/compile-json-schema.js';
import type { CompiledGrammar } from '../../decoding/compiled-grammar.js';
import type { Vocabulary } from '../../decoding/vocabulary.js';
import type { FormatWarning } from '../../protocol/format-warning.js';
import { grammarFallbackWarnings } from '../../formats/grammar-tools.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import type { AnyTool } from '../../tools/define-tool.js';
import { estimateInputTokens } from '../estimate-tokens.js';
import type { Model } from '../types.js';
import type { ModelOutputFormat, ModelRequest, ModelResponse, ModelStreamEvent } from '../../protocol/model-exchange.js';
import type { Message } from '../../protocol/messages.js';
import type { JsonSchemaObject } from '../../tools/types.js';
import { withOutputValue } from '../../formats/output-format.js';
import { CallDecoder, toModelResponse } from './call-decoder.js';
import { keepReusablePrefix, renderPrompt } from './chat-history.js';
import { DEFAULT_LOOK_AHEAD_PER_TOKEN, lookAheadWhilePending } from './idle-look-ahead.js';
import { loadRuntime, type Runtime } from './load-runtime.js';
import type { LocalModelOptions, LocalModelStats } from './local-model-options.js';

export class LocalModel implements Model {
  readonly id: string;
  readonly provider = 'local';
  readonly path: string;
  readonly stats: LocalModelStats = { sampledTokens: 0, forcedTokens: 0, jumpForwardTokens: 0, maskedSteps: 0, maskMs: 0 };
  readonly #options: LocalModelOptions;
  #runtime: Promise<Runtime> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #grammars = new WeakMap<AnyTool, { grammar: CompiledGrammar; warnings: FormatWarning[] }>();
  /** Output schemas' grammars, by schema object (`defineOutput` keeps one per definition). */
  readonly #answerGrammars = new WeakMap<JsonSchemaObject, { grammar: CompiledGrammar; warnings: FormatWarning[] }>();

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
      entry = compileGrammar(tool.inputSchema, tool.name, vocabulary, 'the registry still validates the arguments', this.#options.propertyOrder);
      if (tool.grammar?.syntax === 'lark') entry.warnings.push(...grammarFallbackWarnings([tool], 'local' as never, 'the token mask does not read Lark'));
      this.#grammars.set(tool, entry);
    }
    return entry;
  }

  #answerGrammarFor(format: ModelOutputFormat, vocabulary: Vocabulary): { grammar: CompiledGrammar; warnings: FormatWarning[] } {
    let entry = this.#answerGrammars.get(format.schema);
    if (!entry) {
      entry = compileGrammar(format.schema, format.name, vocabulary, 'the agent still validates the answer', this.#options.propertyOrder);
      this.#answerGrammars.set(format.schema, entry);
    }
    return entry;
  }

  async *#generate(request: ModelRequest, runtime: Runtime): AsyncGenerator<ModelStreamEvent> {
    const options = this.#options;
    const toolChoice = request.toolChoice ?? 'auto';
    const allowed = request.allowedTools && new Set(request.allowedTools);
    const offered =
      toolChoice === 'none'
        ? []
        : (request.tools ?? []).filter((tool) => (typeof toolChoice !== 'object' || tool.name === toolChoice.tool) && (!allowed || allowed.has(tool.name)));
    if (typeof toolChoice === 'object' && offered.length === 0) {
      throw new InvalidArgumentError(`toolChoice names "${toolChoice.tool}", which is not among the request's tools; pass that tool in \`tools\`.`);
    }
    const warnings: FormatWarning[] = programmaticCallWarnings(offered, 'local' as never, 'A local model');
    const messages = request.output ? withOutputInstruction(request.messages, request.output) : request.messages;
    const promptTokens = renderPrompt(runtime.chatWrapper, runtime.model, messages, offered, warnings);
    const { vocabulary } = runtime.decoderSetup;
    let currentBias: TokenBias = runtime.emptyBias;
    const decoder = new CallDecoder(runtime.decoderSetup, {
      tools: offered,
      mustCall: offered.length > 0 && toolChoice !== 'auto',
      constrained: options.constrained ?? true,
      jumpForward: options.jumpForward ?? true,
      maxOutputTokens: request.maxOutputTokens ?? options.maxOutputTokens ?? 512,
      callTokenBudget: options.callTokenBudget ?? 256,
      maxCallTokens: options.maxCallTokens ?? 2048,
      grammarFor: (tool) => this.#grammarFor(tool, vocabulary),
      ...(request.output ? { answerGrammar: this.#answerGrammarFor(request.output, vocabulary) } : {}),
      applyMask: (mask) => (currentBias = mask ? runtime.biases.biasFor(mask) : runtime.emptyBias),
      stats: this.stats,
    });
    const opening = decoder.begin();
    yield* opening.events;
    const seed = request.seed ?? options.seed;
    const iterator = runtime.sequence.evaluate(await keepReusablePrefix(runtime.sequence, [...promptTokens, ...(opening.forced as Token[])]), {
      temperature: request.temperature ?? options.temperature ?? 0.7,
      topK: options.topK ?? 40,
      ...(options.topP !== undefined ? { topP: options.topP } : {}),
      ...(seed !== undefined ? { seed } : {}),
      tokenBias: () => currentBias,
      yieldEogToken: true,
    });
    try {
      const lookAheadPerToken = options.lookAheadPerToken ?? DEFAULT_LOOK_AHEAD_PER_TOKEN;
      // while llama.cpp computes the next token, the mask computes the masks the arguments can reach next
      const nextToken = async (pending: ReturnType<typeof iterator.next>): Promise<Awaited<typeof pending>> => {
        if (lookAheadPerToken > 0) await lookAheadWhilePending(pending, (units) => decoder.lookAhead(units), lookAheadPerToken);
        return pending;
      };
      let step = opening.stop ? ({ done: true, value: undefined } as const) : await nextToken(iterator.next());
      while (!step.done) {
        if (request.signal?.aborted) throw request.signal.reason ?? new Error('aborted');
        const token = step.value;
        const decoded = decoder.accept(token);
        yield* decoded.events;
        if (decoded.stop) break;
        step = await nextToken(iterator.next(decoded.forced.length > 0 ? [token, ...(decoded.forced as Token[])] : undefined));
      }
    } finally {
      await iterator.return(undefined as never);
    }
    yield* decoder.end();
    const facts = { inputTokens: promptTokens.length, modelId: this.id, warnings: [...warnings, ...decoder.grammarWarnings] };
    yield { type: 'end', response: withOutputValue(toModelResponse(decoder, facts), request.output, false) };
  }
}

/** Compiles a schema for the mask; a keyword the mask cannot enforce exactly relaxes the grammar, said in a warning (`checked` names who still validates). */
function compileGrammar(
  schema: JsonSchemaObject,
  owner: string,
  vocabulary: Vocabulary,
  checked: string,
  propertyOrder: 'schema' | 'any' = 'schema',
): { grammar: CompiledGrammar; warnings: FormatWarning[] } {
  const warnings: FormatWarning[] = [];
  let grammar: CompiledGrammar;
  try {
    grammar = compileJsonSchema(schema, vocabulary, { propertyOrder });
  } catch (error) {
    grammar = compileJsonSchema(schema, vocabulary, { lenient: true, propertyOrder });
    warnings.push({
      type: 'unsupported',
      provider: 'local' as never,
      feature: 'token-mask',
      path: '',
      tool: owner,
      details: `the mask relaxes part of "${owner}"'s schema (${(error as Error).message}); ${checked}`,
    } as FormatWarning);
  }
  return { grammar, warnings };
}

/** The model learns the answer's schema from the prompt; the mask then holds it to it. Added to the first system message, or as one. */
function withOutputInstruction(messages: readonly Message[], format: ModelOutputFormat): Message[] {
  const instruction =
    `When you give your final answer instead of calling a tool, answer with only a JSON value that follows this JSON Schema` +
    `${format.description ? ` (${format.description})` : ''}: ${JSON.stringify(format.schema)}`;
  const [first, ...rest] = messages;
  if (first?.role === 'system') return [{ role: 'system', content: `${first.content}\n\n${instruction}` }, ...rest];
  return [{ role: 'system', content: instruction }, ...messages];
}
