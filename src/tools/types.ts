/**
 * The neutral types every other layer speaks: a tool's JSON Schema, its result
 * in MCP's shape, and a tool call as it arrives from any model.
 * @module
 */
import type { JsonParseFailure } from '../shared/safe-json.js';

/** A JSON Schema (draft 2020-12) as a plain object, or a boolean schema. */
export type JsonSchema = boolean | JsonSchemaObject;
export interface JsonSchemaObject {
  [keyword: string]: unknown;
}

/** What calling the tool does to the world: `read` calls may run in parallel; `write` calls run one at a time, in order. */
export type ToolEffect = 'read' | 'write';

/** Bounds on a call's arguments, checked before validation or anything else reads them (defaults: `DEFAULT_ARGUMENT_LIMITS`). */
export interface ArgumentLimits {
  /** How many objects and arrays may sit inside one another: `{}` nests 1 deep, `{"a": [1]}` 2. */
  maxDepth: number;
  /** Characters of JSON: the text as the model sent it, or, for arguments sent as an object, its compact JSON text with strings counted without escapes. */
  maxChars: number;
}

export interface TextContent {
  type: 'text';
  text: string;
}
export interface ImageContent {
  type: 'image';
  /** Base64-encoded bytes. */
  data: string;
  mimeType: string;
}
export interface AudioContent {
  type: 'audio';
  /** Base64-encoded bytes. */
  data: string;
  mimeType: string;
}
export interface ResourceLinkContent {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}
export interface EmbeddedResourceContent {
  type: 'resource';
  resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };
}

/** One part of a tool result; the same parts MCP's `CallToolResult.content` allows. */
export type ContentPart = TextContent | ImageContent | AudioContent | ResourceLinkContent | EmbeddedResourceContent;

/** A tool result in MCP's shape: what the model sees, whichever provider it speaks. */
export interface ToolResult {
  content: ContentPart[];
  /** The structured value, present when the tool returned an object (always when it declares an output schema). */
  structuredContent?: Record<string, unknown>;
  /** `true` when the call failed; the text then tells the model how to recover. */
  isError: boolean;
}

/**
 * A tool call as a model asked for it, before validation. Give `argumentsText`
 * when the wire carries the arguments as a JSON string (OpenAI), or `arguments`
 * when it carries a parsed value (Anthropic, MCP). A model response's
 * `ToolCallPart` is one of these with both: the text as sent and `arguments`
 * (or `argumentsError`) parsed from it once, which the registry then uses
 * instead of parsing the text again.
 */
export interface ToolCallRequest {
  /** The provider's call id (`call_…`, `toolu_…`), echoed in the result message. */
  id: string;
  name: string;
  /** The parsed arguments; with `argumentsText`, its parsed value. */
  arguments?: unknown;
  argumentsText?: string;
  /** Why `argumentsText` did not parse, when whoever parsed it already knows (then `arguments` is absent). */
  argumentsError?: JsonParseFailure;
  /** Set when code the provider ran made the call (programmatic tool calling); absent for a call the model made directly. */
  caller?: ProgrammaticCaller;
}

/** Who may call a tool: the model directly, or code the provider runs for the model (`defineTool({ allowedCallers })`). */
export type ToolCallerKind = 'direct' | 'programmatic';

/** The provider's code run that made a call: its id (Anthropic `server_tool_use` id, OpenAI `program` call id) and tool type. */
export interface ProgrammaticCaller {
  type: 'programmatic';
  /** The id of the provider's code run (`srvtoolu_…`, the `program` item's `call_id`), echoed back with the result. */
  id: string;
  /** The provider's name for the code runner (`code_execution_20250825`; `program` for OpenAI), replayed as received. */
  runner: string;
}

/**
 * Passed to `execute`: the call's id, its abort signal (timeout or run abort), a way to report progress, and the
 * caller's typed per-run context (`runAgent({ context })`).
 */
export interface ToolContext<Ctx = unknown> {
  toolCallId: string;
  toolName: string;
  signal: AbortSignal;
  /**
   * A key that stays the same for this call across process restarts (the agent runtime passes `<runId>:<callKey>`):
   * a tool that sets `acceptsIdempotencyKey` passes it to the system it changes, so that a call started again after a
   * crash takes effect once. Absent when the caller gave none (a plain `registry.call`, an MCP request).
   */
  idempotencyKey?: string;
  /** Reports progress (for MCP progress notifications); a no-op when nobody listens. */
  reportProgress: (progress: number, total?: number, message?: string) => void;
  /**
   * Present only when a person approved this very call before it ran (the agent runtime's confirmations, or an MCP
   * client's answer to the server's confirmation request); absent for a call that ran without asking. A tool that
   * forwards the call elsewhere (an imported MCP tool) answers the other side's confirmation request with it.
   */
  approval?: ToolCallApproval;
  /**
   * What the caller passed as the run's context (`runAgent({ context })`, `resumeAgent`, an MCP server's `context`
   * factory): the user, a database handle, a tenant. The same object, never copied, never sent to the model, never
   * recorded or stored. `undefined` when the caller gave none. A tool declares the type it needs by annotating this
   * parameter (`execute(args, ctx: ToolContext<AppContext>)`) or with `defineTool.withContext<AppContext>()`; a run
   * whose context does not fit is then a type error.
   */
  context: Ctx;
}

/** What a tool's `confirm` and `summarize` functions receive beside the arguments. */
export interface ToolCallRuleInput<Ctx = unknown> {
  /** The run's context, as `ToolContext.context`. */
  readonly context: Ctx;
}

/** A person's approval of one call, as the tool sees it. */
export interface ToolCallApproval {
  approvedBy: 'person';
  /** The line the person approved (redacted). */
  summary: string;
}
