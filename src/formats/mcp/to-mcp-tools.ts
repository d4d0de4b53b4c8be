/**
 * Tools → MCP `Tool` descriptors (`tools/list`), with annotations derived from
 * the definition: `effect: "read"` is `readOnlyHint: true`; a write states
 * `destructiveHint` (from `hints.additive`), `idempotentHint` and `openWorldHint`.
 * @module
 */
import type { Tool as McpTool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool } from '../../tools/define-tool.js';
import { declaredInputSchema } from '../declared-schema.js';
import type { FormatWarning } from '../../protocol/format-warning.js';
import { describedWithExamples } from '../tool-examples-description.js';
import { listTools, type ToolSource } from '../tool-source.js';

export interface McpTools {
  /** The descriptors, ready for a `tools/list` result. */
  tools: McpTool[];
  /** What MCP cannot carry, per tool (`warning.tool`). */
  warnings: FormatWarning[];
}

/** The MCP annotations a tool's `effect` and `hints` imply; every hint is stated, so clients need not know MCP's defaults. */
export function toMcpAnnotations(tool: AnyTool): ToolAnnotations {
  const openWorldHint = tool.hints.openWorld ?? true;
  if (tool.effect === 'read') return { readOnlyHint: true, openWorldHint };
  return { readOnlyHint: false, destructiveHint: !(tool.hints.additive ?? false), idempotentHint: tool.hints.idempotent ?? false, openWorldHint };
}

export function toMcpTool(tool: AnyTool): { tool: McpTool; warnings: FormatWarning[] } {
  const declared = declaredInputSchema(tool, 'mcp');
  const warnings = [...declared.warnings];
  const descriptor: McpTool = {
    name: tool.name,
    description: describedWithExamples(tool),
    inputSchema: declared.schema as McpTool['inputSchema'],
    annotations: toMcpAnnotations(tool),
  };
  if (tool.title !== undefined) descriptor.title = tool.title;
  // MCP 2025-11-25 tasks: the client may call it as a task or inline; tools that say nothing are `forbidden`, MCP's default.
  if (tool.longRunning === true) descriptor.execution = { taskSupport: 'optional' };
  const output = tool.outputSchema;
  if (output !== undefined) {
    if (output.type === 'object' || output.type === undefined) {
      descriptor.outputSchema = { type: 'object', ...output } as McpTool['outputSchema'];
    } else {
      warnings.push({
        type: 'unsupported',
        provider: 'mcp',
        feature: 'outputSchema',
        path: '/type',
        details: `the output schema has type ${JSON.stringify(output.type)}, but MCP structured content is always an object; it is left out, so return an object to declare one`,
        tool: tool.name,
      });
    }
  }
  return { tool: descriptor, warnings };
}

export function toMcpTools(source: ToolSource): McpTools {
  const tools: McpTool[] = [];
  const warnings: FormatWarning[] = [];
  for (const tool of listTools(source)) {
    const converted = toMcpTool(tool);
    tools.push(converted.tool);
    warnings.push(...converted.warnings);
  }
  return { tools, warnings };
}
