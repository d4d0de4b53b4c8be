/**
 * A model that replays a script, for tests of anything that talks to a
 * {@link Model}: the agent loop, the CLI, users' own tools. Each turn is either
 * a response written out, or a function of the request so that a test can react
 * to the tool results it sees. Every request is recorded for assertions.
 * @module
 */
import { parsePartialJson } from '../../formats/partial-json.js';
import { toolCallPartFromText } from '../../formats/tool-call-part.js';
import { ToolwrightError } from '../../shared/errors.js';
import { estimateInputTokens, estimateTextTokens } from '../estimate-tokens.js';
import type { Model } from '../types.js';
import { toolCallsOf, type ModelRequest, type ModelResponse, type ModelStreamEvent, type StopReason, type TokenUsage } from '../../protocol/model-exchange.js';
import type { ReasoningPart, TextPart, ToolCallPart } from '../../protocol/messages.js';

/** A tool call as a script writes it; `id` defaults to `call_<turn>_<n>`. */
export interface ScriptedToolCall {
  /** The call id; defaults to `call_<turn number>_<call number>`, both one-based. */
  id?: string;
  name: string;
  /** The arguments as a value (as Anthropic sends them). */
  arguments?: unknown;
  /** The arguments as raw JSON text (as OpenAI sends them); use it to script broken JSON. Wins over `arguments`. */
  argumentsText?: string;
}

/**
 * One scripted answer. A {@link ModelResponse} is also a valid turn. When
 * `content` is given it fixes the order of text and calls; otherwise the text
 * comes first, then `toolCalls`.
 */
export interface ScriptedResponse {
  /** The answer's text. Ignored when `content` is given. */
  text?: string;
  /** Tool calls to make. Ignored when `content` is given. */
  toolCalls?: readonly ScriptedToolCall[];
  /** Text and tool-call parts in the order the model "produced" them. */
  content?: readonly (TextPart | ToolCallPart | ReasoningPart)[];
  /** Defaults to `tool_calls` when the turn calls tools, else `end_turn`. */
  stopReason?: StopReason;
  /** Defaults to the request's {@link estimateInputTokens} and the output's length / 4. */
  usage?: Partial<TokenUsage>;
  /** Defaults to the model's id without its `scripted:` prefix. */
  modelId?: string;
  /** Reported as the response's `raw`. */
  raw?: unknown;
  /** The answer's value as an adapter would have read it (`ModelResponse.output`); passed through as it is. */
  output?: { value: unknown };
  /** Throw this instead of answering, to script a provider failure. */
  error?: unknown;
}

/** What a turn function is told besides the request. */
export interface ScriptedTurnContext {
  /** One-based number of this turn. */
  turn: number;
}

/** A turn: a response, or a function computing one from the request the model received. */
export type ScriptedTurn = ScriptedResponse | ((request: ModelRequest, context: ScriptedTurnContext) => ScriptedResponse | Promise<ScriptedResponse>);

export interface ScriptedModelOptions {
  /** The model id; defaults to `scripted:model`. Its provider is the part before the first `:`. */
  id?: string;
  /** Streamed text is cut into pieces of this many characters, to exercise delta handling. Defaults to 8. */
  streamChunkSize?: number;
}

/** Thrown when a scripted model is asked for more turns than its script holds. */
export class ScriptExhaustedError extends ToolwrightError {
  /** The one-based turn that was asked for. */
  readonly turn: number;
  constructor(turn: number, scriptLength: number) {
    super(
      'TW_SCRIPT_EXHAUSTED',
      `The scripted model has no turn ${turn}; add one (its script holds ${scriptLength} turn${scriptLength === 1 ? '' : 's'}, and turn ${turn} was requested).`,
    );
    this.turn = turn;
  }
}

const DEFAULT_CHUNK_SIZE = 8;

/** A {@link Model} that replays its script; see {@link createScriptedModel}. */
export class ScriptedModel implements Model {
  readonly id: string;
  readonly provider: string;
  /** Every request received, in order (the messages array is copied, so later pushes by the caller do not show up). */
  readonly requests: ModelRequest[] = [];
  readonly #turns: ScriptedTurn[];
  readonly #chunkSize: number;

  constructor(turns: readonly ScriptedTurn[], options: ScriptedModelOptions = {}) {
    this.id = options.id ?? 'scripted:model';
    const colon = this.id.indexOf(':');
    this.provider = colon === -1 ? 'scripted' : this.id.slice(0, colon);
    this.#turns = [...turns];
    this.#chunkSize = Math.max(1, options.streamChunkSize ?? DEFAULT_CHUNK_SIZE);
  }

  /** How many turns have not been played yet. */
  get remainingTurns(): number {
    return Math.max(0, this.#turns.length - this.requests.length);
  }

  /** Appends turns to the end of the script. */
  push(...turns: ScriptedTurn[]): void {
    this.#turns.push(...turns);
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    return this.#next(request);
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const response = await this.#next(request);
    let callIndex = 0;
    for (const part of response.content) {
      request.signal?.throwIfAborted();
      if (part.type === 'text') {
        for (let start = 0; start < part.text.length; start += this.#chunkSize) {
          yield { type: 'text-delta', text: part.text.slice(start, start + this.#chunkSize) };
          request.signal?.throwIfAborted();
        }
        continue;
      }
      // Reasoning is replayed to the provider, not streamed as an event of its own.
      if (part.type === 'reasoning') continue;
      const index = callIndex++;
      yield { type: 'tool-call-start', index, id: part.id, name: part.name };
      const text = part.argumentsText ?? JSON.stringify(part.arguments ?? {});
      for (let start = 0; start < text.length; start += this.#chunkSize) {
        const end = start + this.#chunkSize;
        yield { type: 'tool-call-delta', index, argumentsDelta: text.slice(start, end), partialArguments: parsePartialJson(text.slice(0, end)).value };
        request.signal?.throwIfAborted();
      }
      yield { type: 'tool-call-end', index, call: part };
    }
    yield { type: 'end', response };
  }

  estimateInputTokens(request: ModelRequest): number {
    return estimateInputTokens(request);
  }

  async #next(request: ModelRequest): Promise<ModelResponse> {
    request.signal?.throwIfAborted();
    const turnIndex = this.requests.length;
    this.requests.push({ ...request, messages: [...request.messages] });
    const turn = this.#turns[turnIndex];
    if (turn === undefined) throw new ScriptExhaustedError(turnIndex + 1, this.#turns.length);
    const scripted = typeof turn === 'function' ? await turn(request, { turn: turnIndex + 1 }) : turn;
    request.signal?.throwIfAborted();
    if (scripted.error !== undefined) throw scripted.error;
    return buildResponse(scripted, turnIndex + 1, request, this.id.replace(/^scripted:/, ''));
  }
}

/** Creates a model that answers each request with the next turn of `turns`. */
export function createScriptedModel(turns: readonly ScriptedTurn[], options: ScriptedModelOptions = {}): ScriptedModel {
  return new ScriptedModel(turns, options);
}

/** A turn that answers with text only. */
export function textTurn(text: string, extra: Omit<ScriptedResponse, 'text' | 'toolCalls' | 'content'> = {}): ScriptedResponse {
  return { ...extra, text };
}

/** A turn that calls tools, optionally after some text. */
export function toolCallTurn(calls: readonly ScriptedToolCall[], extra: Omit<ScriptedResponse, 'toolCalls' | 'content'> = {}): ScriptedResponse {
  return { ...extra, toolCalls: calls };
}

/** A turn that throws `error`, as a failing provider would. */
export function errorTurn(error: unknown): ScriptedResponse {
  return { error };
}

function buildResponse(scripted: ScriptedResponse, turn: number, request: ModelRequest, defaultModelId: string): ModelResponse {
  const content: (TextPart | ToolCallPart | ReasoningPart)[] = [];
  if (scripted.content !== undefined) {
    content.push(...scripted.content.map((part) => (part.type === 'tool-call' ? scriptedPart(part) : { ...part })));
  } else {
    if (scripted.text !== undefined && scripted.text !== '') content.push({ type: 'text', text: scripted.text });
    (scripted.toolCalls ?? []).forEach((call, index) => content.push(toCallPart(call, turn, index)));
  }
  const calls = toolCallsOf({ content });
  const outputText = content
    .map((part) =>
      part.type === 'text'
        ? part.text
        : part.type === 'tool-call'
          ? part.name + (part.argumentsText ?? JSON.stringify(part.arguments ?? {}))
          : JSON.stringify(part.item),
    )
    .join('');
  const response: ModelResponse = {
    content,
    stopReason: scripted.stopReason ?? (calls.length > 0 ? 'tool_calls' : 'end_turn'),
    usage: {
      inputTokens: scripted.usage?.inputTokens ?? estimateInputTokens(request),
      outputTokens: scripted.usage?.outputTokens ?? estimateTextTokens(outputText),
      ...(scripted.usage?.cacheReadTokens !== undefined ? { cacheReadTokens: scripted.usage.cacheReadTokens } : {}),
      ...(scripted.usage?.cacheWriteTokens !== undefined ? { cacheWriteTokens: scripted.usage.cacheWriteTokens } : {}),
    },
    modelId: scripted.modelId ?? defaultModelId,
  };
  if (scripted.raw !== undefined) response.raw = scripted.raw;
  if (scripted.output !== undefined) response.output = scripted.output;
  return response;
}

function toCallPart(call: ScriptedToolCall, turn: number, index: number): ToolCallPart {
  const id = call.id ?? `call_${turn}_${index + 1}`;
  if (call.argumentsText !== undefined) return toolCallPartFromText(id, call.name, call.argumentsText);
  return { type: 'tool-call', id, name: call.name, arguments: call.arguments ?? {} };
}

/** A scripted part with text is parsed here, as a provider's adapter would, so that its text wins over any `arguments` it also gives. */
function scriptedPart(part: ToolCallPart): ToolCallPart {
  return part.argumentsText !== undefined ? toolCallPartFromText(part.id, part.name, part.argumentsText) : { ...part };
}
