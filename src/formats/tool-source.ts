/**
 * Adapters accept tools as a list or as a registry; this reads either.
 * @module
 */
import type { AnyTool } from '../tools/define-tool.js';

/** Tools as an adapter accepts them: any iterable of tools, or anything with `list()` (a `ToolRegistry`). */
export type ToolSource = Iterable<AnyTool> | { list(): AnyTool[] };

export function listTools(source: ToolSource): AnyTool[] {
  if ('list' in source && typeof source.list === 'function') return source.list();
  return [...(source as Iterable<AnyTool>)];
}

/** A lookup by exact name that never reaches `Object.prototype` (a model may call a tool named "constructor"). */
export function toolLookup(source: ToolSource | undefined): (name: string) => AnyTool | undefined {
  if (source === undefined) return () => undefined;
  const byName = new Map<string, AnyTool>();
  for (const tool of listTools(source)) byName.set(tool.name, tool);
  return (name) => byName.get(name);
}
