/**
 * The warning for a provider without a code runner (OpenAI Chat Completions, AI SDK models, local models): a tool that
 * allows programmatic calls is declared as a plain tool the model calls directly, and the response says so.
 * @module
 */
import type { FormatWarning } from '../protocol/format-warning.js';
import { toolAllowsCaller, type AnyTool } from '../tools/define-tool.js';

/** One `unsupported` warning per tool that allows programmatic calls, naming the provider's loss. */
export function programmaticCallWarnings(tools: readonly AnyTool[], provider: FormatWarning['provider'], providerName: string): FormatWarning[] {
  return tools
    .filter((tool) => toolAllowsCaller(tool, 'programmatic'))
    .map((tool) => ({
      type: 'unsupported',
      provider,
      feature: 'programmatic-tool-calling',
      path: '/allowedCallers',
      tool: tool.name,
      details: `${providerName} cannot run code that calls tools; "${tool.name}" is declared as a tool the model calls directly`,
    }));
}
