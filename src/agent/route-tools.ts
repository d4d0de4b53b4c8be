/**
 * Two-stage routing: when a run has many tools, a first model call with one
 * forced tool, `select_tool_category` (an enum of the categories), picks the
 * category; the loop then offers that category's tools plus those marked
 * `alwaysAvailable`. Provider-neutral: it is an ordinary forced tool call.
 * A category's tools are those whose `category` names it, plus those a
 * declared map lists for it (the seed's `TOOL_CATEGORIES` shape).
 * @module
 */
import { InvalidArgumentError } from '../shared/errors.js';
import { defineTool, type AnyTool } from '../tools/define-tool.js';
import { ToolRegistry, silentLogger } from '../tools/tool-registry.js';
import { toolCallsOf, type ModelResponse } from '../protocol/model-exchange.js';

export const SELECT_CATEGORY_TOOL = 'select_tool_category';

/** One declared category: a description for the model (its tools join by their own `category`), its tools by name, or both. */
export type RoutingCategory = string | readonly string[] | { description?: string; tools?: readonly string[] };

export interface RoutingOptions {
  /** Route when a run has more tools than this. Default: 20. */
  threshold?: number;
  /**
   * The categories: a list of names, or a map from each name to a description, to the names of its tools
   * (`{ billing: ['get_invoice', 'refund'] }`, as the seed's `TOOL_CATEGORIES`), or to `{ description, tools }`.
   * A category's tools are those listed for it plus those whose `category` names it; every category needs at
   * least one, and every listed name must be a tool of the run (else `runAgent` throws `TW_INVALID_ARGUMENT`).
   * Declaring categories turns routing on whatever the tool count. Default: the tools' own categories, undescribed.
   */
  categories?: readonly string[] | Readonly<Record<string, RoutingCategory>>;
  /**
   * How the chosen category narrows the tools. `list` (default): only its tools are declared. `allowed_tools`: every tool
   * is declared, in the same order at every step, and only the category's may be called (OpenAI `tool_choice:
   * { type: 'allowed_tools' }`; providers without that field declare only the allowed tools, with a warning), so a
   * cached prompt prefix survives routing. A call to another tool is refused either way.
   */
  narrow?: 'list' | 'allowed_tools';
}

export const DEFAULT_ROUTING_THRESHOLD = 20;

/** What routing chooses between: the names, their descriptions, and the tools each declared category lists by name. */
export interface RoutingCategories {
  names: string[];
  descriptions: Readonly<Record<string, string>>;
  members: Readonly<Record<string, readonly string[]>>;
}

/** The categories to route between, or `undefined` when routing does not apply. */
export function routingCategories(tools: readonly AnyTool[], options: RoutingOptions | false | undefined): RoutingCategories | undefined {
  if (options === false) return undefined;
  const declared = options?.categories;
  const fromTools = [...new Set(tools.map((tool) => tool.category).filter((category): category is string => category !== undefined))];
  const threshold = options?.threshold ?? DEFAULT_ROUTING_THRESHOLD;
  if (declared === undefined) {
    if (fromTools.length < 2 || tools.length <= threshold) return undefined;
    return { names: fromTools, descriptions: {}, members: {} };
  }
  const { names, descriptions, members } = readDeclared(declared);
  return names.length < 2 ? undefined : { names, descriptions, members };
}

/**
 * Checks declared categories against the run's tools, so that a mistake shows at run start instead of as a
 * routed model with no tools: every listed tool exists, and every category has at least one tool.
 */
export function checkRouting(tools: readonly AnyTool[], options: RoutingOptions | false | undefined): void {
  if (options === false || options === undefined) return;
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError(`routing must be an object such as { categories: { billing: ['get_invoice'] } }, or false (got ${describe(options)}).`);
  if (options.narrow !== undefined && options.narrow !== 'list' && options.narrow !== 'allowed_tools')
    throw new InvalidArgumentError(`routing.narrow must be 'list' or 'allowed_tools' (got ${describe(options.narrow)}).`);
  const declared = options.categories;
  if (declared === undefined) return;
  const { names, members } = readDeclared(declared);
  const known = new Set(tools.map((tool) => tool.name));
  for (const name of names) {
    const listed = Object.prototype.hasOwnProperty.call(members, name) ? members[name]! : [];
    const unknown = listed.find((toolName) => !known.has(toolName));
    if (unknown !== undefined) {
      throw new InvalidArgumentError(
        `routing.categories.${name} names "${unknown}", which is not one of the run's tools (${[...known].slice(0, 20).join(', ') || 'none'}${known.size > 20 ? ', …' : ''}). Fix the name, or add the tool to \`tools\`.`,
      );
    }
    if (listed.length === 0 && !tools.some((tool) => tool.category === name)) {
      throw new InvalidArgumentError(
        `routing.categories.${name} has no tools: the model could pick it and then be offered nothing. List its tools (categories: { ${name}: ['tool_name', …] }), set category: '${name}' on its tools, or remove it.`,
      );
    }
  }
}

function readDeclared(declared: NonNullable<RoutingOptions['categories']>): RoutingCategories {
  if (Array.isArray(declared)) {
    const names = declared as readonly unknown[];
    const bad = names.find((name) => typeof name !== 'string' || name === '');
    if (bad !== undefined) throw new InvalidArgumentError(`routing.categories lists ${describe(bad)}; each category must be a non-empty string.`);
    return { names: [...new Set(names as string[])], descriptions: {}, members: {} };
  }
  if (typeof declared !== 'object' || declared === null)
    throw new InvalidArgumentError(`routing.categories must be a list of names or a map from category to tool names (got ${describe(declared)}).`);
  const names: string[] = [];
  const descriptions: Record<string, string> = Object.create(null) as Record<string, string>;
  const members: Record<string, readonly string[]> = Object.create(null) as Record<string, readonly string[]>;
  for (const [name, value] of Object.entries(declared as Record<string, unknown>)) {
    names.push(name);
    if (typeof value === 'string') {
      descriptions[name] = value;
      continue;
    }
    const spec: { description?: unknown; tools?: unknown } = Array.isArray(value)
      ? { tools: value }
      : typeof value === 'object' && value !== null
        ? (value as { description?: unknown; tools?: unknown })
        : {};
    if (
      (!Array.isArray(value) && (typeof value !== 'object' || value === null)) ||
      (spec.description !== undefined && typeof spec.description !== 'string') ||
      (spec.tools !== undefined && !(Array.isArray(spec.tools) && spec.tools.every((item) => typeof item === 'string')))
    ) {
      throw new InvalidArgumentError(
        `routing.categories.${name} is ${describe(value)}; it must be a description, a list of tool names, or { description?, tools? }.`,
      );
    }
    if (typeof spec.description === 'string') descriptions[name] = spec.description;
    if (Array.isArray(spec.tools)) members[name] = [...(spec.tools as string[])];
  }
  return { names, descriptions, members };
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
}

/** The forced tool the routing call offers. */
export function selectCategoryTool(categories: readonly string[], descriptions: Readonly<Record<string, string>>): AnyTool {
  const described = categories.map((name) => (Object.prototype.hasOwnProperty.call(descriptions, name) ? `${name}: ${descriptions[name]}` : name));
  return defineTool({
    name: SELECT_CATEGORY_TOOL,
    description: `Choose the one category of tools needed to carry out the user's request. Categories: ${described.join('; ')}.`,
    effect: 'read',
    inputSchema: {
      type: 'object',
      properties: { category: { type: 'string', enum: [...categories], description: 'The category whose tools the task needs.' } },
      required: ['category'],
      additionalProperties: false,
    },
    execute: () => '',
  });
}

/** Reads the chosen category from the routing response, or `undefined` (the run then keeps every tool). */
export function readChosenCategory(response: ModelResponse, tool: AnyTool): string | undefined {
  const call = toolCallsOf(response).find((candidate) => candidate.name === SELECT_CATEGORY_TOOL);
  if (!call) return undefined;
  const prepared = new ToolRegistry([tool], { logger: silentLogger }).prepare(call);
  if (!prepared.success) return undefined;
  const category = (prepared.arguments as { category?: unknown }).category;
  return typeof category === 'string' ? category : undefined;
}

/** The tools offered once a category is chosen: its own (by `category` or listed for it), plus every `alwaysAvailable` tool, in the run's order. */
export function toolsForCategory(tools: readonly AnyTool[], category: string, members: Readonly<Record<string, readonly string[]>> = {}): string[] {
  const listed = new Set(Object.prototype.hasOwnProperty.call(members, category) ? members[category] : []);
  return tools.filter((tool) => tool.category === category || listed.has(tool.name) || tool.alwaysAvailable).map((tool) => tool.name);
}
