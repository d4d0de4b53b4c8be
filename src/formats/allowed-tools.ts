/**
 * The neutral `allowedTools` of a request for providers with no allowed-tools field: only the allowed tools are
 * declared (the tool list then changes from step to step, so a cached prompt prefix ends at the tools), with a warning.
 * @module
 */
import type { FormatWarning } from '../protocol/format-warning.js';
import type { AnyTool } from '../tools/define-tool.js';

export function declareOnlyAllowed(
  tools: readonly AnyTool[],
  allowed: readonly string[] | undefined,
  provider: FormatWarning['provider'],
  warnings: FormatWarning[],
): readonly AnyTool[] {
  if (allowed === undefined) return tools;
  const names = new Set(allowed);
  warnings.push({
    type: 'rewritten',
    provider,
    feature: 'allowed-tools',
    path: '/tools',
    details: 'this provider has no allowed-tools field: only the allowed tools were declared, so the tool list differs between steps',
  });
  return tools.filter((tool) => names.has(tool.name));
}

/** A provider without native tool search: every tool is declared loaded, and the warning says so. */
export function toolSearchUnsupported(provider: FormatWarning['provider'], warnings: FormatWarning[]): void {
  warnings.push({
    type: 'unsupported',
    provider,
    feature: 'tool-search',
    path: '/tools',
    details: "this provider has no native tool search: every tool was declared loaded (runAgent({ toolSearch }) uses toolwright's own search here)",
  });
}
