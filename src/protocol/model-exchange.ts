/**
 * One model call in neutral terms: the request, the response and its streamed
 * events. Calls live once in a response, as the tool-call parts of its
 * `content` (see {@link toolCallsOf}). Why these sit in `protocol/`: see `messages.ts`.
 * @module
 */
import type { AnyTool } from '../tools/define-tool.js';
import type { JsonSchemaObject } from '../tools/types.js';
import type { FormatWarning } from './format-warning.js';
import type { Message, ProviderTurnItems, ReasoningPart, TextPart, ToolCallPart } from './messages.js';

/**
 * The schema a final answer must follow, as providers receive it: OpenAI Chat `response_format` and Responses `text.format`
 * (`json_schema`), Anthropic a final tool the model calls to answer, a local model the token mask. The root is an object.
 */
export interface ModelOutputFormat {
  /** `[a-zA-Z0-9_-]{1,64}`; not the name of any tool of the request. */
  name: string;
  description?: string;
  schema: JsonSchemaObject;
}

/** `auto`: the model decides; `required`: it must call some tool; `none`: no tool; `{ tool }`: exactly that tool. */
export type ToolChoice = 'auto' | 'required' | 'none' | { tool: string };

export interface ModelRequest {
  messages: Message[];
  /** Tools the model may call (their name, description and input schema are sent). */
  tools?: readonly AnyTool[];
  toolChoice?: ToolChoice;
  /** Upper bound on generated tokens for this call. */
  maxOutputTokens?: number;
  temperature?: number;
  /** Provider-specific seed, where the provider supports one. */
  seed?: number;
  /** When the model answers without a tool call, its answer is a JSON value of this schema (see {@link ModelOutputFormat}). */
  output?: ModelOutputFormat;
  signal?: AbortSignal;
  /** `false`: one tool call per response (OpenAI `parallel_tool_calls`, Anthropic `disable_parallel_tool_use`); unset or `true`: the provider's default. */
  parallelToolCalls?: boolean;
  /** `'auto'`: mark the stable prefix cacheable (Anthropic `cache_control` breakpoints, OpenAI `prompt_cache_key`); default `false`. */
  cache?: 'auto' | false;
  /** With `cache: 'auto'`: the key requests sharing a prefix send (OpenAI `prompt_cache_key`); the agent sends the run's `cacheKey` or id. */
  cacheKey?: string;
  /** The provider's own tool search (see {@link ModelToolSearch}); a provider without one declares every tool and warns. */
  toolSearch?: ModelToolSearch;
  /** The only tools of `tools` the model may call now: sent as the provider's allowed-tools choice, else only these are declared. */
  allowedTools?: readonly string[];
}

/**
 * Native tool search: the tools named in `deferred` are declared with `defer_loading`, so the provider shows the model
 * only what its search tool finds (Anthropic `tool_search_tool_regex` / `tool_search_tool_bm25`, OpenAI Responses
 * `tool_search` run by the server). Tools of the request not listed stay loaded.
 */
export interface ModelToolSearch {
  deferred: readonly string[];
  /** Anthropic's search: BM25 over natural-language queries (default) or Python regular expressions. */
  anthropicSearch?: 'bm25' | 'regex';
  /**
   * The name of a tool of `tools` that runs the search on the client: declared as the provider's client-executed search
   * (OpenAI Responses `tool_search` with `execution: 'client'`), its calls and results sent as that search's items.
   */
  clientSearchTool?: string;
  /** OpenAI Responses, server-run search: `false` keeps every tool top-level instead of one `namespace` tool per category. Default: namespaces. */
  namespaces?: boolean;
}

export interface TokenUsage {
  /** Every token the prompt cost: uncached input, cache reads and cache writes together (Anthropic's three counts summed). */
  inputTokens: number;
  /** Every generated token, reasoning included (OpenAI and Anthropic both count reasoning inside their output tokens). */
  outputTokens: number;
  /** Of `inputTokens`, those read from the provider's prompt cache, where the provider reports them. */
  cacheReadTokens?: number;
  /** Of `inputTokens`, those written to the provider's prompt cache, where the provider reports them (Anthropic; AI SDK `cacheWrite`). */
  cacheWriteTokens?: number;
  /** The part of `outputTokens` the model spent reasoning, where the provider reports it (for the record; never added again). */
  reasoningTokens?: number;
}

/**
 * Why the model stopped: it answered, it wants tools run, it hit its token
 * limit (or its context window), the provider's content filter cut it, the
 * model declined to answer (`refusal`), or something else (the provider's own
 * value is then in {@link ModelResponse.providerStopReason}).
 */
export type StopReason = 'end_turn' | 'tool_calls' | 'max_tokens' | 'content_filter' | 'refusal' | 'other';

export interface ModelResponse {
  /** Text, tool calls and reasoning, in the order the model produced them; each call appears here and nowhere else. */
  content: (TextPart | ToolCallPart | ReasoningPart)[];
  stopReason: StopReason;
  /** The provider's own stop value as it sent it (`length`, `pause_turn`, `incomplete: max_output_tokens`…), when it sent one. */
  providerStopReason?: string;
  usage: TokenUsage;
  /** The model id the provider reports having used. */
  modelId: string;
  /** The provider's raw response body, for the run record. */
  raw?: unknown;
  /** What the request's conversion to the provider's wire format lost or rewrote (tool schemas, result parts, replayed calls). */
  warnings?: FormatWarning[];
  /**
   * With `request.output`: the answer's value as the adapter read it off the wire (OpenAI strict-mode nulls restored to
   * "absent"; Anthropic: the final tool's input). Absent when the adapter read none: the agent then parses the answer's text.
   * The answer is also in `content`, as its JSON text.
   */
  output?: { value: unknown };
  /** What the provider ran on its side (programmatic tool calling); the agent keeps it on the turn's assistant message. */
  providerItems?: ProviderTurnItems;
}

/** Streamed pieces of one response; they fold into the `end` event's response, whose content holds the same call parts. */
export type ModelStreamEvent =
  | { type: 'text-delta'; text: string }
  /** The model's reasoning (thinking) text, where a provider streams it; it is not part of the response's content. */
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; argumentsDelta: string; partialArguments: unknown }
  | { type: 'tool-call-end'; index: number; call: ToolCallPart }
  | { type: 'end'; response: ModelResponse };

/** The response's tool calls in the model's order: its tool-call parts, the same objects. */
export function toolCallsOf(response: Pick<ModelResponse, 'content'>): ToolCallPart[] {
  return response.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
}
