/**
 * A tool's `examples` folded into its description, for providers without a field for them (OpenAI Chat Completions and
 * Responses, MCP `tools/list`, local models, AI SDK providers that ignore `inputExamples`). The form is the AI SDK's own
 * `addToolInputExamplesMiddleware` default: the description, a blank line, `Input Examples:`, then one JSON line per
 * example, in order. Deterministic, so the same tool always declares the same bytes (the prefix stays cacheable).
 * @module
 */
import type { AnyTool } from '../tools/define-tool.js';

/** The heading the AI SDK's middleware writes above the examples. */
export const INPUT_EXAMPLES_HEADING = 'Input Examples:';

/** The tool's description, with its examples appended when it has any. */
export function describedWithExamples(tool: AnyTool): string {
  const examples = tool.examples;
  if (examples === undefined || examples.length === 0) return tool.description;
  const section = `${INPUT_EXAMPLES_HEADING}\n${examples.map((example) => JSON.stringify(example)).join('\n')}`;
  return tool.description === '' ? section : `${tool.description}\n\n${section}`;
}
