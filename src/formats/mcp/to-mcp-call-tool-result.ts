/**
 * A tool result → MCP `CallToolResult`. toolwright results already have MCP's
 * shape, so nothing is lost; this only copies the fields MCP defines.
 * @module
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../../tools/types.js';

/** Accepts a result, or a registry execution (`{ result }`). */
export function toMcpCallToolResult(input: ToolResult | { result: ToolResult }): CallToolResult {
  const result = 'result' in input ? input.result : input;
  const wire: CallToolResult = { content: result.content.map((part) => ({ ...part })), isError: result.isError };
  if (result.structuredContent !== undefined) wire.structuredContent = result.structuredContent;
  return wire;
}
