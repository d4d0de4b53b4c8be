/**
 * The tool declarations of a wire body that the model reads: a declaration marked `defer_loading` stays outside the
 * prompt until a search loads it (Anthropic and OpenAI Responses native tool search), also inside a namespace.
 * @module
 */

interface Declaration {
  name?: unknown;
  defer_loading?: unknown;
  tools?: unknown;
}

/** `tools` without the deferred declarations not in `loaded` (a namespace keeps its shown members); the others unchanged. */
export function shownToolDeclarations(tools: readonly unknown[] | undefined, loaded: ReadonlySet<string> = new Set()): unknown[] | undefined {
  if (tools === undefined) return undefined;
  const shown: unknown[] = [];
  for (const tool of tools as Declaration[]) {
    if (tool.defer_loading === true && !(typeof tool.name === 'string' && loaded.has(tool.name))) continue;
    if (Array.isArray(tool.tools)) {
      const members = shownToolDeclarations(tool.tools, loaded)!;
      // The namespace's own name and description stay in the prompt: a search reads them.
      shown.push({ ...tool, tools: members });
      continue;
    }
    shown.push(tool);
  }
  return shown;
}
