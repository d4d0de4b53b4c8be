/**
 * Redaction for run records, the run store and what the CLI prints. The
 * implementation lives in `src/shared/redaction` so that tools, MCP and the
 * CLI share it; this module keeps the agent's public names.
 * @module
 */
import { createRedactor, type Redactor } from '../shared/redaction/index.js';
import type { AnyTool } from '../tools/define-tool.js';
import { ToolRegistry } from '../tools/tool-registry.js';

export { DEFAULT_REDACTION_PATTERNS, REDACTED, createRedactor, restoreRedacted } from '../shared/redaction/index.js';
export type { RedactedOriginal, Redactor, RedactorOptions } from '../shared/redaction/index.js';

/** The redactor of a run: the caller's extra patterns and the schemas of its tools (a registry or a list; anything else adds no schema). */
export function runRedactor(options: { redact?: readonly (RegExp | string)[] | undefined; tools?: ToolRegistry | readonly AnyTool[] | undefined }): Redactor {
  const tools = options.tools instanceof ToolRegistry ? options.tools.list() : Array.isArray(options.tools) ? options.tools : [];
  return createRedactor({ ...(options.redact ? { patterns: options.redact } : {}), tools });
}
