/**
 * The first gate for wire input, shared by the stdio and HTTP transports:
 * text → JSON (never bare `JSON.parse`) → JSON-RPC 2.0 message(s). Anything
 * that fails gets the JSON-RPC error the spec names for it, ready to send,
 * so no transport has to improvise one.
 * @module
 */
import { ErrorCode, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCErrorResponse, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { jsonTextDepth, safeParseJson } from '../shared/safe-json.js';

/** The most messages one JSON-RPC batch may hold (as the SDK's HTTP transport allows). */
export const MAX_BATCH_MESSAGES = 100;

/** Deepest array/object nesting accepted. Real MCP messages stay far below it; deeper input would make recursive code downstream overflow the stack. */
export const MAX_NESTING_DEPTH = 128;

export type JsonRpcPayload =
  | {
      success: true;
      /** The parsed value as it arrived: one message, or an array of them (a batch). */
      value: unknown;
      messages: JSONRPCMessage[];
    }
  | {
      success: false;
      /** The response to send: -32700 for text that is not JSON, -32600 for JSON that is not a JSON-RPC message. */
      response: JSONRPCErrorResponse;
    };

/** Parses one transport frame (an HTTP body, a stdio line). Batches are accepted only when `allowBatch` is set. */
export function parseJsonRpcPayload(text: string, options: { allowBatch: boolean }): JsonRpcPayload {
  if (jsonTextDepth(text, MAX_NESTING_DEPTH) > MAX_NESTING_DEPTH) {
    return failure(null, ErrorCode.InvalidRequest, `Invalid Request: the message nests arrays and objects more than ${MAX_NESTING_DEPTH} levels deep.`);
  }
  let parsed: ReturnType<typeof safeParseJson>;
  try {
    parsed = safeParseJson(text);
  } catch {
    // safeParseJson should not throw; if some input still makes it, that input is refused, never fatal.
    return failure(null, ErrorCode.ParseError, 'Parse error: the message could not be read as JSON.');
  }
  if (!parsed.success) {
    const where = parsed.error.line !== undefined ? ` at line ${parsed.error.line}, column ${parsed.error.column}` : '';
    return failure(null, ErrorCode.ParseError, `Parse error: ${parsed.error.message}${where}. Send one JSON-RPC 2.0 message as JSON.`);
  }
  const value = parsed.value;
  if (Array.isArray(value)) {
    if (!options.allowBatch)
      return failure(null, ErrorCode.InvalidRequest, 'Invalid Request: batches are not supported here; send one JSON-RPC message per line.');
    if (value.length === 0) return failure(null, ErrorCode.InvalidRequest, 'Invalid Request: an empty batch holds no message.');
    if (value.length > MAX_BATCH_MESSAGES)
      return failure(null, ErrorCode.InvalidRequest, `Invalid Request: a batch may hold at most ${MAX_BATCH_MESSAGES} messages.`);
    const messages: JSONRPCMessage[] = [];
    for (let index = 0; index < value.length; index++) {
      const problem = checkMessage(value[index]);
      if (!problem.success) return failure(idOf(value[index]), ErrorCode.InvalidRequest, `Invalid Request: batch item ${index}: ${problem.reason}`);
      messages.push(problem.message);
    }
    return { success: true, value, messages };
  }
  const checked = checkMessage(value);
  if (!checked.success) return failure(idOf(value), ErrorCode.InvalidRequest, `Invalid Request: ${checked.reason}`);
  return { success: true, value, messages: [checked.message] };
}

function checkMessage(value: unknown): { success: true; message: JSONRPCMessage } | { success: false; reason: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { success: false, reason: `expected a JSON-RPC message object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}.` };
  }
  const record = value as Record<string, unknown>;
  if (record.jsonrpc !== '2.0') return { success: false, reason: 'the "jsonrpc" member must be exactly "2.0".' };
  if ('method' in record && typeof record.method !== 'string') return { success: false, reason: 'the "method" member must be a string.' };
  if ('id' in record && !isValidId(record.id)) return { success: false, reason: 'the "id" member must be a string or an integer.' };
  if (isPlainRequest(record) || isPlainResultResponse(record)) return { success: true, message: record as unknown as JSONRPCMessage };
  const result = JSONRPCMessageSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.map(String).join('.')}` : '';
    return { success: false, reason: `not a valid request, notification or response${where}: ${issue?.message ?? 'unexpected shape'}.` };
  }
  return { success: true, message: result.data };
}

/**
 * Whether `record` is certainly a valid JSON-RPC request in its everyday shape (`jsonrpc`, `id`, `method`, object
 * `params` with at most a `_meta.progressToken`), which the SDK's schema would accept as it is. Every request passes
 * here, so this saves a Zod parse of each one; anything else still goes through the schema for an exact verdict.
 */
function isPlainRequest(record: Record<string, unknown>): boolean {
  let keys = 0;
  for (const key in record) {
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return false;
    keys++;
  }
  if (keys < 3 || typeof record.method !== 'string' || !isValidId(record.id)) return false;
  const params = record.params;
  if (params === undefined) return !('params' in record);
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return false;
  const meta = (params as Record<string, unknown>)._meta;
  if (meta === undefined) return !('_meta' in params);
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return false;
  for (const key in meta) {
    if (key !== 'progressToken') return false;
    const token = (meta as Record<string, unknown>).progressToken;
    if (!isValidId(token)) return false;
  }
  return true;
}

/**
 * Whether `record` is certainly a valid JSON-RPC result response without `_meta` (`jsonrpc`, `id`, an object `result`),
 * which the SDK's schema would accept as it is: every answer an upstream server sends the gateway passes here, and the
 * schema's union would try the request and notification shapes before this one.
 */
function isPlainResultResponse(record: Record<string, unknown>): boolean {
  let keys = 0;
  for (const key in record) {
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'result') return false;
    keys++;
  }
  const result = record.result;
  return keys === 3 && isValidId(record.id) && typeof result === 'object' && result !== null && !Array.isArray(result) && !('_meta' in (result as object));
}

function isValidId(id: unknown): id is string | number {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

/** The id to echo in an error: the message's own, when it has a usable one (JSON-RPC 2.0 §5). */
function idOf(value: unknown): string | number | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as Record<string, unknown>).id;
  return isValidId(id) ? id : null;
}

function failure(id: string | number | null, code: number, message: string): JsonRpcPayload {
  // The SDK types `id` as RequestId; JSON-RPC 2.0 requires null when the id could not be read.
  return { success: false, response: { jsonrpc: '2.0', id: id as string | number, error: { code, message } } };
}
