/**
 * Tool search for runs with many tools (`runAgent({ toolSearch })`): instead of declaring every tool at every step,
 * the model searches for the tools it needs and only those are loaded.
 *
 * - On a model with native search (Anthropic Messages, OpenAI Responses: `Model.nativeToolSearch`), every tool the
 *   run's policy lets through is declared with `defer_loading` beside the provider's search tool; the provider searches
 *   and loads. The tool list stays the same at every step, so a cached prompt prefix survives.
 * - Elsewhere, or with `engine: 'toolwright'`, toolwright's own search: a read tool, {@link TOOL_SEARCH_TOOL}, ranks
 *   the run's tools with BM25 (MiniSearch) over their names, descriptions, parameter names and categories; what it
 *   finds is declared from the next step on.
 *
 * Either way a tool the run's policy denies (`denyTools`, or missing from `allowTools`) is never declared nor returned
 * by a search, and a call to it is refused as before; the calls of found tools go through the one call pipeline.
 * @module
 */
import type MiniSearch from 'minisearch';
import type { Model } from '../models/types.js';
import type { ModelToolSearch } from '../protocol/model-exchange.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { defineTool, type AnyTool } from '../tools/define-tool.js';
import { toolResult } from '../tools/tool-output.js';

/** The name of toolwright's own search tool. */
export const TOOL_SEARCH_TOOL = 'search_tools';

export const DEFAULT_TOOL_SEARCH_RESULTS = 5;

export interface ToolSearchOptions {
  /**
   * `provider` (default): the provider's own search where the model has one (Anthropic Messages, OpenAI Responses),
   * toolwright's elsewhere. `toolwright`: always toolwright's.
   */
  engine?: 'provider' | 'toolwright';
  /** Anthropic's search tool: `bm25` (natural-language queries, default) or `regex` (the model writes regular expressions). */
  anthropicSearch?: 'bm25' | 'regex';
  /** Tools declared from the first step, never deferred (every `alwaysAvailable` tool is too). */
  alwaysLoaded?: readonly string[];
  /** The most tools one toolwright search returns and loads. Default: 5. */
  maxResults?: number;
  /**
   * OpenAI Responses: who runs the provider's search. `server` (default): OpenAI. `client`: toolwright's search, declared
   * as `tool_search` with `execution: 'client'`, over the same deferred tools. Other providers ignore it.
   */
  openAIExecution?: 'server' | 'client';
  /** OpenAI Responses, server search: the tools of each `category` declared inside one `namespace` tool. Default: `true`. */
  namespaces?: boolean;
}

/** How a run searches, once its model and tools are known. */
export type ResolvedToolSearch =
  /** `searchTool`: toolwright runs the provider's search (OpenAI Responses `execution: 'client'`). */
  | { engine: 'provider'; alwaysLoaded: ReadonlySet<string>; anthropicSearch: 'bm25' | 'regex'; searchTool?: AnyTool; namespaces?: false }
  | { engine: 'toolwright'; alwaysLoaded: ReadonlySet<string>; searchTool: AnyTool };

/** What the loop hands the searcher: the run's tools, which of them the policy lets through, and where found tools are loaded. */
export interface ToolSearchHost {
  tools: () => readonly AnyTool[];
  mayLoad: (name: string) => boolean;
  load: (names: readonly string[]) => void;
}

/** Checks the option and picks the engine; `undefined` when the run does not search. */
export function resolveToolSearch(
  options: ToolSearchOptions | false | undefined,
  model: Model,
  tools: readonly AnyTool[],
  host: ToolSearchHost,
): ResolvedToolSearch | undefined {
  if (options === undefined || options === false) return undefined;
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError(`toolSearch must be an object such as { engine: 'provider' } or false (got ${typeof options}).`);
  const { engine = 'provider', anthropicSearch = 'bm25', alwaysLoaded = [], maxResults = DEFAULT_TOOL_SEARCH_RESULTS, openAIExecution = 'server' } = options;
  if (options.namespaces !== undefined && typeof options.namespaces !== 'boolean')
    throw new InvalidArgumentError(`toolSearch.namespaces must be true or false (got ${String(options.namespaces)}).`);
  if (openAIExecution !== 'server' && openAIExecution !== 'client')
    throw new InvalidArgumentError(`toolSearch.openAIExecution must be 'server' or 'client' (got ${String(openAIExecution)}).`);
  if (engine !== 'provider' && engine !== 'toolwright')
    throw new InvalidArgumentError(`toolSearch.engine must be 'provider' or 'toolwright' (got ${String(engine)}).`);
  if (anthropicSearch !== 'bm25' && anthropicSearch !== 'regex')
    throw new InvalidArgumentError(`toolSearch.anthropicSearch must be 'bm25' or 'regex' (got ${String(anthropicSearch)}).`);
  if (!Number.isInteger(maxResults) || maxResults < 1)
    throw new InvalidArgumentError(`toolSearch.maxResults must be a whole number of at least 1 (got ${String(maxResults)}).`);
  const known = new Set(tools.map((tool) => tool.name));
  const unknown = alwaysLoaded.find((name) => !known.has(name));
  if (unknown !== undefined)
    throw new InvalidArgumentError(
      `toolSearch.alwaysLoaded names "${unknown}", which is not one of the run's tools. Fix the name, or add the tool to \`tools\`.`,
    );
  const loaded = new Set([...alwaysLoaded, ...tools.filter((tool) => tool.alwaysAvailable).map((tool) => tool.name)]);
  const clientRun = model.clientToolSearch === true && openAIExecution === 'client';
  if (engine === 'provider' && model.nativeToolSearch === true && !clientRun)
    return { engine, alwaysLoaded: loaded, anthropicSearch, ...(options.namespaces === false ? { namespaces: false as const } : {}) };
  if (known.has(TOOL_SEARCH_TOOL))
    throw new InvalidArgumentError(`A tool is named "${TOOL_SEARCH_TOOL}", the name of toolwright's tool search. Rename the tool, or run without toolSearch.`);
  const tool = searchTool(new ToolSearcher(host, maxResults));
  if (engine === 'provider' && model.nativeToolSearch === true) return { engine, alwaysLoaded: loaded, anthropicSearch, searchTool: tool };
  return { engine: 'toolwright', alwaysLoaded: loaded, searchTool: tool };
}

/** What one step declares under search: the tools, and the provider's deferral when the provider searches. */
export interface SearchStep {
  tools: AnyTool[];
  toolSearch?: ModelToolSearch;
}

/**
 * The declaration of one step: with the provider's search, every tool the policy lets through (those not always
 * loaded deferred); with toolwright's, its search tool first, then the always-loaded and found tools, in the run's order.
 */
export function searchStep(search: ResolvedToolSearch, tools: readonly AnyTool[], loaded: readonly string[], mayLoad: (name: string) => boolean): SearchStep {
  const permitted = tools.filter((tool) => tool.name !== TOOL_SEARCH_TOOL && mayLoad(tool.name));
  if (search.engine === 'provider') {
    const deferred = permitted.filter((tool) => !search.alwaysLoaded.has(tool.name)).map((tool) => tool.name);
    const toolSearch = { deferred, anthropicSearch: search.anthropicSearch, ...(search.namespaces === false ? { namespaces: false } : {}) };
    if (!search.searchTool) return { tools: permitted, toolSearch };
    return { tools: [search.searchTool, ...permitted], toolSearch: { ...toolSearch, clientSearchTool: TOOL_SEARCH_TOOL } };
  }
  const found = new Set(loaded);
  return { tools: [search.searchTool, ...permitted.filter((tool) => search.alwaysLoaded.has(tool.name) || found.has(tool.name))] };
}

interface IndexedTool {
  id: string;
  name: string;
  description: string;
  parameters: string;
  category: string;
}

type SearchIndex = MiniSearch<IndexedTool>;

/** toolwright's own search: BM25 (MiniSearch) over the run's tools, built on the first search, filtered by the policy on every search. */
export class ToolSearcher {
  readonly #host: ToolSearchHost;
  readonly #maxResults: number;
  #index: Promise<SearchIndex> | undefined;

  constructor(host: ToolSearchHost, maxResults: number) {
    this.#host = host;
    this.#maxResults = maxResults;
  }

  /** The names of the best matches the policy lets through, best first; they are loaded for the next steps. */
  async search(query: string): Promise<AnyTool[]> {
    const index = await (this.#index ??= this.#build());
    const byName = new Map(this.#host.tools().map((tool) => [tool.name, tool]));
    const hits = index.search(query, { prefix: true, fuzzy: 0.2, boost: { name: 3, parameters: 1.5 }, combineWith: 'OR' });
    const found = hits
      .map((hit) => byName.get(String(hit.id)))
      .filter((tool): tool is AnyTool => tool !== undefined && tool.name !== TOOL_SEARCH_TOOL && this.#host.mayLoad(tool.name))
      .slice(0, this.#maxResults);
    this.#host.load(found.map((tool) => tool.name));
    return found;
  }

  async #build(): Promise<SearchIndex> {
    // Loaded on first search, so that runs without it (and the root entry) never load the library.
    const { default: MiniSearchClass } = await import('minisearch');
    const index = new MiniSearchClass<IndexedTool>({ fields: ['name', 'description', 'parameters', 'category'], idField: 'id' });
    const documents = this.#host
      .tools()
      .filter((tool) => tool.name !== TOOL_SEARCH_TOOL)
      .map((tool) => ({
        id: tool.name,
        name: words(tool.name),
        description: tool.description ?? '',
        parameters: parameterNames(tool).map(words).join(' '),
        category: tool.category ?? '',
      }));
    await index.addAllAsync(documents, { chunkSize: 100 });
    return index;
  }
}

/** `getWeather_v2` → `get Weather v2 getWeather_v2`: the name's words and the name itself, so either finds it. */
function words(name: string): string {
  return `${name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ')} ${name}`;
}

function parameterNames(tool: AnyTool): string[] {
  const properties = (tool.inputSchema as { properties?: unknown }).properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

function searchTool(searcher: ToolSearcher): AnyTool {
  return defineTool({
    name: TOOL_SEARCH_TOOL,
    description:
      'Find the tools you need. Most tools are not shown until you search for them: describe the action in a few keywords (for example "refund an invoice"). The tools found can be called from your next turn.',
    effect: 'read',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', minLength: 1, maxLength: 500, description: 'Keywords for the action or the data the tool should handle.' } },
      required: ['query'],
      additionalProperties: false,
    },
    execute: async ({ query }: { query: string }) => {
      const found = await searcher.search(query);
      if (found.length === 0)
        return toolResult({
          content: [{ type: 'text', text: `No tool matched "${query}". Search again with other words.` }],
          structuredContent: { tools: [] },
        });
      const lines = found.map((tool) => `- ${tool.name}: ${(tool.description ?? '').slice(0, 200)}`);
      return toolResult({
        content: [{ type: 'text', text: `Loaded ${found.length} tool(s); call them from your next turn:\n${lines.join('\n')}` }],
        structuredContent: { tools: found.map((tool) => tool.name) },
      });
    },
  });
}
