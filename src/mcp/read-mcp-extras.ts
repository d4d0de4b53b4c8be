/**
 * Reads the MCP-only exports of a tool pack (`resources`, `resourceTemplates`,
 * `prompts`) from its module namespace, checking their shape up front so a
 * mistake fails at startup with the fix, not on a client's first request.
 * @module
 */
import { ModuleLoadError } from '../shared/errors.js';
import { getOwn, isPlainObject } from '../shared/own.js';
import type { McpPrompt } from './mcp-prompt.js';
import type { McpResource, McpResourceTemplate } from './mcp-resource.js';

export interface McpExtras {
  resources: McpResource[];
  resourceTemplates: McpResourceTemplate[];
  prompts: McpPrompt[];
}

export function readMcpExtras(namespace: Record<string, unknown>, source: string): McpExtras {
  const fallback = getOwn(namespace, 'default');
  const pick = (key: string): unknown => getOwn(namespace, key) ?? (isPlainObject(fallback) ? getOwn(fallback, key) : undefined);
  return {
    resources: list(pick('resources'), 'resources', source, (item, at) => {
      need(typeof item.uri === 'string' && item.uri !== '', source, `${at}.uri must be a non-empty string such as "file:///notes/today.md"`);
      need(typeof item.name === 'string', source, `${at}.name must be a string`);
      need(typeof item.read === 'function', source, `${at}.read must be a function (uri) => contents`);
    }) as unknown as McpResource[],
    resourceTemplates: list(pick('resourceTemplates'), 'resourceTemplates', source, (item, at) => {
      need(
        typeof item.uriTemplate === 'string' && item.uriTemplate.includes('{'),
        source,
        `${at}.uriTemplate must be a URI template with at least one {variable}`,
      );
      need(typeof item.name === 'string', source, `${at}.name must be a string`);
      need(typeof item.read === 'function', source, `${at}.read must be a function (uri, variables) => contents`);
      need(item.complete === undefined || isPlainObject(item.complete), source, `${at}.complete must map variable names to functions`);
    }) as unknown as McpResourceTemplate[],
    prompts: list(pick('prompts'), 'prompts', source, (item, at) => {
      need(typeof item.name === 'string' && item.name !== '', source, `${at}.name must be a non-empty string`);
      need(typeof item.description === 'string', source, `${at}.description must be a string (clients show it)`);
      need(typeof item.get === 'function', source, `${at}.get must be a function (args) => messages`);
      need(item.arguments === undefined || Array.isArray(item.arguments), source, `${at}.arguments must be a list of { name, required? }`);
    }) as unknown as McpPrompt[],
  };
}

function list(value: unknown, key: string, source: string, check: (item: Record<string, unknown>, at: string) => void): Record<string, unknown>[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ModuleLoadError(source, `the export \`${key}\` must be an array.`);
  return value.map((item, index) => {
    const at = `${key}[${index}]`;
    if (!isPlainObject(item)) throw new ModuleLoadError(source, `${at} must be an object.`);
    check(item, at);
    return item;
  });
}

function need(condition: boolean, source: string, message: string): void {
  if (!condition) throw new ModuleLoadError(source, `${message}.`);
}
