/**
 * The provider-neutral model contract. Every provider (OpenAI, Anthropic,
 * OpenAI-compatible servers, local GGUF models, the scripted test model)
 * implements {@link Model}; the agent loop speaks only these types, so a
 * provider difference lives in its adapter and nowhere else.
 * @module
 */
import type { FormatWarning } from '../formats/format-warning.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { ContentPart, ToolCallRequest, ToolResult } from '../tools/types.js';

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ImagePart {
  type: 'image';
  /** Base64-encoded bytes. */
  data: string;
  mimeType: string;
}

/** A tool call inside an assistant message, kept as the model sent it. */
export interface ToolCallPart {
  type: 'tool-call';
  /** The provider's call id, echoed by the matching tool result. */
  id: string;
  name: string;
  /** The parsed arguments; `undefined` when the model's JSON did not parse. */
  arguments: unknown;
  /** The raw argument text, when the wire carried a string (OpenAI); replayed verbatim in the history. */
  argumentsText?: string;
}

export interface SystemMessage {
  role: 'system';
  content: string;
}

export interface UserMessage {
  role: 'user';
  content: string | (TextPart | ImagePart)[];
}

export interface AssistantMessage {
  role: 'assistant';
  content: (TextPart | ToolCallPart)[];
}

/** The result of one tool call, matched to its call by id. */
export interface ToolResultPart {
  callId: string;
  toolName: string;
  result: ToolResult;
}

/** All results for one assistant turn's calls, in the model's call order. */
export interface ToolMessage {
  role: 'tool';
  results: ToolResultPart[];
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

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
  signal?: AbortSignal;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/**
 * Why the model stopped: it answered, it wants tools run, it hit its token
 * limit (or its context window), the provider's content filter cut it, the
 * model declined to answer (`refusal`), or something else (the provider's own
 * value is then in {@link ModelResponse.providerStopReason}).
 */
export type StopReason = 'end_turn' | 'tool_calls' | 'max_tokens' | 'content_filter' | 'refusal' | 'other';

export interface ModelResponse {
  /** Text and tool calls, in the order the model produced them. */
  content: (TextPart | ToolCallPart)[];
  /** The same calls as `content`'s tool-call parts, ready for `ToolRegistry.call`. */
  toolCalls: ToolCallRequest[];
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
}

/** Streamed pieces of one response; they fold into the `end` event's response. */
export type ModelStreamEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; argumentsDelta: string; partialArguments: unknown }
  | { type: 'tool-call-end'; index: number; call: ToolCallRequest }
  | { type: 'end'; response: ModelResponse };

export interface Model {
  /** `provider:model`, e.g. `openai:gpt-4o-mini`; used for pricing and the record. */
  readonly id: string;
  readonly provider: string;
  generate(request: ModelRequest): Promise<ModelResponse>;
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
  /** Estimated input tokens of a request before it is sent, for budgets; providers may count more exactly. */
  estimateInputTokens(request: ModelRequest): number;
}

/** Turns result content into plain text for wire formats that carry only text. */
export function resultText(content: readonly ContentPart[]): string {
  return content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}
