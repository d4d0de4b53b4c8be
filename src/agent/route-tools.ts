/**
 * Two-stage routing: when a run has many tools, a first model call with one
 * forced tool, `select_tool_category` (an enum of the categories), picks the
 * category; the loop then offers that category's tools plus those marked
 * `alwaysAvailable`. Provider-neutral: it is an ordinary forced tool call.
 * @module
 */
import { defineTool, type AnyTool } from '../tools/define-tool.js';
import { ToolRegistry, silentLogger } from '../tools/tool-registry.js';
import type { ModelResponse } from '../models/types.js';

export const SELECT_CATEGORY_TOOL = 'select_tool_category';

export interface RoutingOptions {
  /** Route when a run has more tools than this. Default: 20. */
  threshold?: number;
  /** The categories (names, or name → description for the model). Declaring them turns routing on whatever the tool count. Default: the tools' own categories, undescribed. */
  categories?: readonly string[] | Readonly<Record<string, string>>;
}

export const DEFAULT_ROUTING_THRESHOLD = 20;

/** The categories to route between, or `undefined` when routing does not apply. */
export function routingCategories(tools: readonly AnyTool[], options: RoutingOptions | false | undefined): { names: string[]; descriptions: Readonly<Record<string, string>> } | undefined {
  if (options === false) return undefined;
  const declared = options?.categories;
  const fromTools = [...new Set(tools.map((tool) => tool.category).filter((category): category is string => category !== undefined))];
  const names = declared === undefined ? fromTools : isNameList(declared) ? [...declared] : Object.keys(declared);
  const threshold = options?.threshold ?? DEFAULT_ROUTING_THRESHOLD;
  if (names.length < 2) return undefined;
  if (declared === undefined && tools.length <= threshold) return undefined;
  return { names, descriptions: declared === undefined || isNameList(declared) ? {} : declared };
}

function isNameList(value: readonly string[] | Readonly<Record<string, string>>): value is readonly string[] {
  return Array.isArray(value);
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
  const call = response.toolCalls.find((candidate) => candidate.name === SELECT_CATEGORY_TOOL);
  if (!call) return undefined;
  const prepared = new ToolRegistry([tool], { logger: silentLogger }).prepare(call);
  if (!prepared.success) return undefined;
  const category = (prepared.arguments as { category?: unknown }).category;
  return typeof category === 'string' ? category : undefined;
}

/** The tools offered once a category is chosen: its own, plus every `alwaysAvailable` tool. */
export function toolsForCategory(tools: readonly AnyTool[], category: string): string[] {
  return tools.filter((tool) => tool.category === category || tool.alwaysAvailable).map((tool) => tool.name);
}
