/**
 * Which tools a request declares strict: a tool's own `defineTool({ strict })` wins, otherwise the model's
 * `strictTools`. Declaration and parsing both ask here, so a strict tool's nulls are restored exactly when its
 * schema was rewritten to invite them.
 * @module
 */
import type { AnyTool } from '../tools/define-tool.js';

export function isStrictTool(tool: AnyTool, strictTools: boolean): boolean {
  return tool.strict ?? strictTools;
}
