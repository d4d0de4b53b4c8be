import type { Tool } from 'openai/resources/responses/responses';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineTool, type AnyTool } from '../../tools/define-tool.js';
import { withOpenAIResponsesNamespaces } from './openai-responses-namespaces.js';
import { toOpenAIResponsesTools } from './to-openai-responses-tools.js';

const schema = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false };
const tool = (name: string, category?: string): AnyTool =>
  defineTool({ name, description: `${name}.`, effect: 'read', inputSchema: schema, ...(category !== undefined ? { category } : {}), execute: () => 'ok' });
const namespaced = (tools: AnyTool[]) => withOpenAIResponsesNamespaces(toOpenAIResponsesTools(tools).tools, tools);
const shape = (tools: readonly Tool[]) =>
  tools.map((entry) => (entry.type === 'namespace' ? [entry.name, entry.tools.map((member) => member.name)] : entry.type));

describe('withOpenAIResponsesNamespaces', () => {
  it('leaves a declaration without categories as it is, and types its result as the SDK does', () => {
    const tools = [tool('a'), tool('b')];
    const { tools: declared, warnings } = namespaced(tools);
    expect(declared).toEqual(toOpenAIResponsesTools(tools).tools);
    expect(warnings).toEqual([]);
    expectTypeOf(declared).toExtend<Tool[]>();
  });

  it('puts each namespace where its first tool was, members in their order', () => {
    const { tools } = namespaced([tool('a', 'x'), tool('b'), tool('c', 'y'), tool('d', 'x')]);
    expect(shape(tools)).toEqual([['x', ['a', 'd']], 'function', ['y', ['c']]]);
  });

  it('keeps a grammar tool top-level: only function tools go into a namespace', () => {
    const grammar = defineTool({
      name: 'set_date',
      description: 'Sets a date.',
      effect: 'write',
      category: 'x',
      input: { grammar: { syntax: 'regex', definition: '\\d{4}' } },
      execute: () => 'ok',
    });
    const { tools } = namespaced([tool('a', 'x'), grammar]);
    expect(shape(tools)).toEqual([['x', ['a']], 'custom']);
  });

  it('cuts a long category to 64 characters, and keeps a suffixed name within them', () => {
    const long = 'c'.repeat(70);
    const { tools, warnings } = namespaced([tool('a', long), tool('c'.repeat(64)), tool('b', `${long}!`)]);
    const names = tools.map((entry) => (entry.type === 'namespace' || entry.type === 'function' ? entry.name : ''));
    expect(names).toEqual([`${'c'.repeat(62)}_2`, 'c'.repeat(64), `${'c'.repeat(62)}_3`]);
    expect(warnings).toHaveLength(2);
  });
});
