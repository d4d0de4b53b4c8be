/**
 * OpenAI Responses `namespace` tools from toolwright's tool categories, under the server-run tool search: the function
 * tools of each category are declared inside one `{ type: 'namespace', name, description, tools }`, which OpenAI's
 * tool-search guide recommends over loose deferred functions (its models were trained to search namespaces, and the
 * model sees only a namespace's name and description until the search loads its functions). Tools without a category,
 * and grammar (`custom`) tools, stay top-level.
 *
 * A call to a namespaced function arrives as a `function_call` whose `name` is the function's own name and whose
 * `namespace` names the namespace, so the tool toolwright runs is the one named, and the `namespace` is kept on the call
 * part only to be sent back with the call exactly as received.
 * @module
 */
import type { FunctionTool, Tool } from 'openai/resources/responses/responses';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { ToolCallPart } from '../../protocol/messages.js';
import { toolLookup, type ToolSource } from '../tool-source.js';

/** OpenAI's rule for a function name, applied to namespace names too ("The namespace name used in tool calls"). */
const NAME_LIMIT = 64;
const NAME_CHARACTERS = /[^a-zA-Z0-9_-]/g;
/** How many member names a generated namespace description lists before it counts the rest. */
const NAMES_IN_DESCRIPTION = 12;

export interface OpenAIResponsesNamespaces {
  tools: Tool[];
  warnings: FormatWarning[];
}

/**
 * The declarations with the function tools of each category (the request tool's `category`) grouped into one namespace
 * per category, placed where its first member was, members in their order; everything else stays as it is.
 */
export function withOpenAIResponsesNamespaces(declared: readonly Tool[], source: ToolSource): OpenAIResponsesNamespaces {
  const lookup = toolLookup(source);
  const categoryOf = (tool: Tool) => (tool.type === 'function' ? lookup(tool.name)?.category : undefined);
  const members = new Map<string, FunctionTool[]>();
  for (const tool of declared) {
    const category = categoryOf(tool);
    if (category !== undefined) members.set(category, [...(members.get(category) ?? []), tool as FunctionTool]);
  }
  if (members.size === 0) return { tools: [...declared], warnings: [] };
  const warnings: FormatWarning[] = [];
  // A namespace named like a tool would make a call ambiguous: OpenAI sends a deferred top-level function's calls under a namespace of its own name.
  const taken = new Set(declared.flatMap((tool) => ('name' in tool && typeof tool.name === 'string' ? [tool.name] : [])));
  const names = new Map<string, string>();
  for (const category of members.keys()) {
    const name = uniqueName(category, taken);
    taken.add(name);
    names.set(category, name);
    if (name !== category)
      warnings.push({
        type: 'rewritten',
        provider: 'openai',
        feature: 'namespace-name',
        path: '/category',
        details: `the category "${category}" is declared as the namespace "${name}": a namespace name takes letters, digits, _ and - (at most ${NAME_LIMIT}) and must not be the name of a tool or another namespace. The calls still reach the tools by their own names.`,
      });
  }
  const tools: Tool[] = [];
  for (const tool of declared) {
    const category = categoryOf(tool);
    if (category === undefined) tools.push(tool);
    else if (members.get(category)![0] === tool) tools.push(namespaceTool(names.get(category)!, category, members.get(category)!));
  }
  return { tools, warnings };
}

function namespaceTool(name: string, category: string, functions: readonly FunctionTool[]): Tool {
  const listed = functions.slice(0, NAMES_IN_DESCRIPTION).map((tool) => tool.name);
  const more = functions.length - listed.length;
  const description = `Tools of the category "${category}": ${listed.join(', ')}${more > 0 ? ` and ${more} more` : ''}.`;
  return { type: 'namespace', name, description, tools: [...functions] };
}

/** The category as a namespace name: other characters as `_`, cut to the limit, then `_2`, `_3`… while the name is taken. */
function uniqueName(category: string, taken: ReadonlySet<string>): string {
  const base = (category.replace(NAME_CHARACTERS, '_') || 'tools').slice(0, NAME_LIMIT);
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix++) {
    const tail = `_${suffix}`;
    const candidate = `${base.slice(0, NAME_LIMIT - tail.length)}${tail}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The call part with the `namespace` its `function_call` item arrived under, when it had one. */
export function withCallNamespace(part: ToolCallPart, item: { namespace?: string | null }): ToolCallPart {
  return typeof item.namespace === 'string' && item.namespace !== '' ? { ...part, namespace: item.namespace } : part;
}

/** The `namespace` to send back with a replayed `function_call`, as the provider sent it. */
export function responsesNamespaceParam(part: Pick<ToolCallPart, 'namespace'>): { namespace?: string } {
  return part.namespace === undefined ? {} : { namespace: part.namespace };
}
