/**
 * MCP `tools/call` params → a neutral tool call. MCP names no call id in the
 * params; the JSON-RPC request id (or any id the caller chooses) fills it.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { CallToolRequestParams } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallRequest } from '../../tools/types.js';

export interface ParseMcpToolCallOptions {
  /** The id to give the call, usually the JSON-RPC request id. Default: a random UUID. */
  id?: string | number;
}

export function parseMcpToolCall(params: Pick<CallToolRequestParams, 'name' | 'arguments'>, options: ParseMcpToolCallOptions = {}): ToolCallRequest {
  const id = options.id === undefined ? randomUUID() : String(options.id);
  // Absent arguments mean "no arguments"; anything else goes to the registry as sent, for validation.
  return { id, name: params.name, arguments: params.arguments ?? {} };
}
