/**
 * Turns a provider's argument string into a `ToolCallRequest`, undoing the
 * strict-mode nullable rewrite when the tool was declared strict.
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import { safeParseJson } from '../shared/safe-json.js';
import type { ToolCallRequest } from '../tools/types.js';
import { nullRestorePlan } from './provider-schema/index.js';
import { isStrictTool } from './strict-tools.js';
import { toolLookup, type ToolSource } from './tool-source.js';

/** Options shared by the OpenAI parsers (Chat Completions and Responses). */
export interface ParseToolCallOptions {
  /** The tools the request declared; needed to map strict-mode nulls back to "absent". */
  tools?: ToolSource;
  /** Whether the tools were declared with `strict: true` (see `toOpenAIStrictSchema`); a tool's own `strict` wins. Default `false`. */
  strict?: boolean;
}

/** Builds the lookup once per response rather than once per call; each tool's restore plan is built once per schema and cached. */
export function argumentsReader(options: ParseToolCallOptions): (id: string, name: string, text: string) => ToolCallRequest {
  const lookup = options.tools ? toolLookup(options.tools) : undefined;
  const strict = options.strict ?? false;
  return (id, name, text) => {
    const tool = lookup?.(name);
    if (tool && isStrictTool(tool, strict)) {
      const parsed = safeParseJson(text);
      // Only a parsed object is restored; anything else goes on as text, so the
      // registry writes the model-facing error from the original characters.
      if (parsed.success && isPlainObject(parsed.value)) return { id, name, arguments: nullRestorePlan(tool.inputSchema).restore(parsed.value) };
    }
    return { id, name, argumentsText: text };
  };
}
