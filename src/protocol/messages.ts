/**
 * The provider-neutral conversation: messages and their parts, as the agent
 * loop keeps them and every wire adapter in `formats/` reads and writes them.
 *
 * Why an area of its own (`protocol/`, below `formats/` and `decoding/`, above
 * `tools/`): these types are the vocabulary both sides of a wire adapter speak.
 * `formats/` converts them to and from each provider's wire shape, `models/`
 * sends them, the agent, MCP and eval layers read them. Kept in `models/`, they
 * made every pure converter depend upward on the model layer; kept in `tools/`,
 * they would mix the conversation into the tool contract. They need only the
 * tool contract below them (results, tools) and the JSON parse failure of `shared/`.
 * @module
 */
import type { JsonParseFailure } from '../shared/safe-json.js';
import type { ProgrammaticCaller, ToolResult } from '../tools/types.js';

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

/**
 * One tool call, the only shape a call has after the adapter read it from the
 * wire: its argument text is parsed there, once. The part is also a
 * `ToolCallRequest`, so `ToolRegistry.call`/`prepare` take it as it is, using
 * `arguments` (or `argumentsError`) instead of parsing `argumentsText` again.
 */
export interface ToolCallPart {
  type: 'tool-call';
  /** The provider's call id, echoed by the matching tool result. */
  id: string;
  name: string;
  /** The parsed arguments (strict-mode nulls already restored to "absent"); `undefined` when the model's JSON did not parse. */
  arguments: unknown;
  /** The raw argument text, when the wire carried a string (OpenAI, local models); replayed verbatim in the history. */
  argumentsText?: string;
  /** Why `argumentsText` did not parse; set only then, so that the registry can tell the model without parsing it again. */
  argumentsError?: JsonParseFailure;
  /** A grammar tool's free text as the model wrote it (an OpenAI custom tool call; `arguments` is then `{ input }`), replayed as such. */
  freeformInput?: string;
  /** Set when the provider's code runner made the call (programmatic tool calling); kept in the record's `tool_call` event. */
  caller?: ProgrammaticCaller;
  /** OpenAI Responses: the `namespace` the call arrived under (`name` is still the tool's own name), sent back with the call as received. */
  namespace?: string;
}

/**
 * What a provider ran on its side during a turn (code it executed for programmatic tool calls, their results): opaque
 * items replayed to the same provider exactly as received, at the place they held among the turn's parts.
 */
export interface ProviderTurnItems {
  provider: 'anthropic' | 'openai-responses' | 'ai-sdk';
  /** Each item as the provider sent it, with the index of the content part it came before (`content.length`: after all). */
  items: { before: number; item: unknown }[];
  /** Anthropic: the code-execution container the next request must name (`container`). */
  container?: string;
}

export interface SystemMessage {
  role: 'system';
  content: string;
}

export interface UserMessage {
  role: 'user';
  content: string | (TextPart | ImagePart)[];
}

/**
 * The model's reasoning as its provider sent it, kept so that it can be sent back: Anthropic needs a turn's `thinking` and
 * `redacted_thinking` blocks again with that turn's tool results, OpenAI reasoning models their `reasoning` items. It is
 * opaque: `item` is the provider's block or item exactly as received (signatures and encrypted content included), replayed
 * unchanged to the same wire format only, and never shown as the answer's text. See docs/providers.md, "Reasoning replay".
 */
export interface ReasoningPart {
  type: 'reasoning';
  /** The wire format that produced it; another format does not replay it (the request's warnings say so). */
  format: 'anthropic' | 'openai-responses' | 'ai-sdk';
  /** The block or item as received; never edited, since the provider checks it (a changed thinking block is a 400). */
  item: Readonly<Record<string, unknown>>;
}

export interface AssistantMessage {
  role: 'assistant';
  content: (TextPart | ToolCallPart | ReasoningPart)[];
  /** What the provider ran on its side in this turn (programmatic tool calling), replayed to it exactly as received. */
  providerItems?: ProviderTurnItems;
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
