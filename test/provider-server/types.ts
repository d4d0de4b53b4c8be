/**
 * What a test queues on the provider server: a neutral description of one
 * answer (rendered in whichever wire format the request's endpoint speaks,
 * plain JSON or SSE as the request asked), an HTTP error in that provider's
 * documented error shape, or raw bytes.
 * @module
 */

/** A tool call the fake model makes. */
export interface FakeToolCall {
  /** Defaults to `call_<n>` (OpenAI Chat), `fc_<n>`/`call_<n>` (Responses) or `toolu_<n>` (Anthropic). */
  id?: string;
  name: string;
  /** An object (sent as JSON text to OpenAI, as `input` to Anthropic), or a raw string sent verbatim (to script broken JSON). */
  arguments: unknown;
  /**
   * An OpenAI custom (grammar) tool call: `arguments`, a string, is the raw `input` of a Responses `custom_tool_call`
   * item (streamed as `response.custom_tool_call_input.delta`s) or a Chat `type: "custom"` tool call. Other wires ignore it.
   */
  custom?: boolean;
  /** Made by the turn's `program` (programmatic tool calling): the call carries a `caller` naming it. */
  fromProgram?: boolean;
  /** OpenAI Responses: the `namespace` of a `function_call` to a tool declared inside a namespace tool. Other wires ignore it. */
  namespace?: string;
}

/**
 * Code the provider runs for the model before its calls (programmatic tool calling): an Anthropic `server_tool_use`
 * block (`code_execution`, input `{ code }`) and a `container`, or an OpenAI Responses `program` item.
 */
export interface FakeProgram {
  /** The server tool use id (Anthropic) or the program's `call_id` (Responses). */
  id: string;
  code: string;
  /** The program's output, sent after the calls: an Anthropic `code_execution_tool_result` block, a Responses `program_output` item. */
  result?: string;
}

/** Neutral stop reasons, mapped to each wire's own value unless `wireStopReason` overrides it. */
export type FakeStopReason = 'end_turn' | 'tool_calls' | 'max_tokens' | 'content_filter';

/** A successful answer. */
export interface FakeTurn {
  kind?: 'turn';
  /** Answer text; emitted before the tool calls. */
  text?: string;
  /**
   * Reasoning before the text: an Anthropic `thinking` block (streamed as `thinking_delta`s, then a `signature_delta`),
   * or an OpenAI Responses `reasoning` item with a summary (streamed as `response.reasoning_summary_text.delta`s).
   */
  reasoning?: string;
  /**
   * Encrypted reasoning: an Anthropic `redacted_thinking` block with this `data` (after any thinking block), or the
   * `encrypted_content` of the OpenAI Responses `reasoning` item, sent only when the request's `include` asks for
   * `reasoning.encrypted_content`, as the API does.
   */
  encryptedReasoning?: string;
  /**
   * A structured final answer, put where the request's response format asks for it: as the message text (JSON) for
   * OpenAI Chat (`response_format: json_schema`) and Responses (`text.format: json_schema`), as a call of the final tool
   * for Anthropic (the tool `tool_choice` names, else the last tool declared). A string is sent verbatim (to script broken
   * JSON). The server answers 400 when the request declared no such format.
   */
  output?: unknown;
  toolCalls?: FakeToolCall[];
  /** Code the provider ran before the calls; calls with `fromProgram` name it as their caller. */
  program?: FakeProgram;
  /** Defaults to `tool_calls` when there are tool calls, else `end_turn`. */
  stopReason?: FakeStopReason;
  /** The exact wire value (`finish_reason`, `stop_reason`, or a Responses `incomplete_details.reason`), for reasons without a neutral name. */
  wireStopReason?: string;
  /**
   * Defaults to `{ inputTokens: 11, outputTokens: 7 }`. `inputTokens` counts every prompt token; `cachedInputTokens` of them were read
   * from the cache, `cacheWriteTokens` written to it (Anthropic `cache_creation_input_tokens` only; OpenAI bills no writes);
   * `reasoningTokens` of `outputTokens` were reasoning.
   */
  usage?: { inputTokens: number; outputTokens: number; cachedInputTokens?: number; cacheWriteTokens?: number; reasoningTokens?: number };
  /** The model id echoed back; defaults to the request's `model`. */
  model?: string;
  /** Streamed text and argument text is cut into pieces of this many characters. Defaults to 5. */
  chunkSize?: number;
  /** Wait this long before sending headers (for timeout tests). */
  delayMs?: number;
  /** Streaming only: send this many SSE events, then hold the connection open without sending more (for abort tests). */
  stallAfterEvents?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /**
   * A server-side tool search before the tool calls: Anthropic `server_tool_use` (named after the search tool the request
   * declared) and `tool_search_tool_result` with a `tool_reference` per found tool; OpenAI Responses `tool_search_call`
   * and `tool_search_output` with the found tools' definitions as the request declared them.
   */
  toolSearch?: {
    query: string;
    found: string[];
    /** Defaults to one numbered by the server's reply count. */
    id?: string;
    /** `client` (OpenAI Responses only): a `tool_search_call` with `execution: 'client'` and no output; the client runs the search. */
    execution?: 'server' | 'client';
  };
}

/** An HTTP error in the endpoint's documented error body. */
export interface FakeError {
  kind: 'error';
  status: number;
  /** The error message in the body. */
  message?: string;
  /** The provider's error type (`rate_limit_error`, `invalid_request_error`…); defaulted from the status. */
  type?: string;
  /** Headers such as `retry-after` or `retry-after-ms`. */
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
}

/** Bytes sent as they are. */
export interface FakeRaw {
  kind: 'raw';
  status?: number;
  /** Defaults to `application/json`. */
  contentType?: string;
  body: string;
  headers?: Record<string, string>;
}

export type FakeReply = FakeTurn | FakeError | FakeRaw;

/** One request the server received. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (`undefined` when there was none or it did not parse). */
  body: any;
  /** `Date.now()` when the request arrived, for asserting retry waits. */
  receivedAt: number;
}
