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
import type { ToolResult } from '../tools/types.js';

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
  /** The provider's own blocks of the turn (its tool search call and result), replayed as received to that provider only. */
  providerBlocks?: ProviderBlock[];
}

/**
 * An opaque block of one provider's turn that toolwright does not interpret but must send back unchanged for the
 * conversation to stay valid (a server-side tool search and the tool references it returned).
 */
export interface ProviderBlock {
  /** The wire format it came from; other formats leave it out. */
  format: 'anthropic' | 'openai-responses';
  /** The position in the message's `content` it came before (`content.length`: after everything). */
  before: number;
  /** The block as the provider sent it. */
  block: unknown;
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
