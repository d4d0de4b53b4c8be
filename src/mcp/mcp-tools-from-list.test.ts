import { describe, expect, it } from 'vitest';
import { ToolError, ToolRegistry, silentLogger } from '../tools/index.js';
import { mcpToolsFromList } from './import-mcp-tools.js';

describe('mcpToolsFromList', () => {
  it('converts a saved tools/list result as importMcpTools does, marking where each tool came from and whether its effect was annotated', async () => {
    const { tools, warnings } = mcpToolsFromList(
      {
        tools: [
          { name: 'read_file', description: 'Read a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
          { name: 'search', description: 'Search.', annotations: { readOnlyHint: true }, inputSchema: { type: 'object' } },
          { name: 'add_label', description: 'Add a label.', annotations: { destructiveHint: false }, inputSchema: { type: 'object' } },
        ],
      },
      { server: 'files', prefix: 'fs_' },
    );
    expect(warnings).toEqual([]);
    expect(tools.map((tool) => [tool.name, tool.effect, tool.confirm, tool.origin])).toEqual([
      ['fs_read_file', 'write', true, { kind: 'mcp', server: 'files', effectAnnotated: false, remoteName: 'read_file' }],
      ['fs_search', 'read', false, { kind: 'mcp', server: 'files', effectAnnotated: true, remoteName: 'search' }],
      ['fs_add_label', 'write', false, { kind: 'mcp', server: 'files', effectAnnotated: true, remoteName: 'add_label' }],
    ]);
    // Nothing is connected: a call says so instead of reaching anything.
    await expect(Promise.resolve().then(() => tools[0]!.execute({ path: 'a' }, {} as never))).rejects.toBeInstanceOf(ToolError);
  });

  it('refuses something that is not a tool list, and skips entries that are not descriptors', () => {
    expect(() => mcpToolsFromList({ nope: 1 }, { server: 's' })).toThrow('mcpToolsFromList: expected a tools/list result');
    expect(mcpToolsFromList([{ name: 'x' }, null], { server: 's' }).warnings.map((warning) => [warning.type, warning.tool, warning.feature])).toEqual([
      ['skipped', 'x', 'schema'],
      ['skipped', '#1', 'schema'],
    ]);
  });

  it('rewrites an older-dialect schema into 2020-12 with an accurate warning, instead of dropping its tag', () => {
    const { tools, warnings } = mcpToolsFromList(
      {
        tools: [
          {
            name: 'reserve',
            description: 'Reserve seats.',
            inputSchema: {
              $schema: 'http://json-schema.org/draft-04/schema#',
              type: 'object',
              definitions: { seat: { type: 'string', maxLength: 3 } },
              properties: { count: { type: 'integer', minimum: 0, exclusiveMinimum: true }, seat: { $ref: '#/definitions/seat', minLength: 2 } },
              required: ['count'],
            },
          },
          { name: 'tree', description: 'Old recursion.', inputSchema: { $schema: 'https://json-schema.org/draft/2019-09/schema', $recursiveRef: '#/x' } },
        ],
      },
      { server: 'seats' },
    );
    expect(warnings).toEqual([
      {
        type: 'rewritten',
        tool: 'reserve',
        feature: 'schema-dialect',
        details:
          'its inputSchema declares http://json-schema.org/draft-04/schema#; it was rewritten into JSON Schema 2020-12 with the same meaning (upgradeSchemaDialect). Keywords that draft-04 ignores were removed: /inputSchema/properties/seat/minLength.',
      },
      {
        type: 'skipped',
        tool: 'tree',
        feature: 'schema',
        details: expect.stringContaining('its inputSchema cannot be read as JSON Schema (Schema does not compile: "$recursiveRef" must be "#"') as string,
      },
    ]);
    expect(tools.map((tool) => tool.name)).toEqual(['reserve']);
    const registry = new ToolRegistry(tools, { logger: silentLogger });
    const prepared = (args: unknown) => registry.prepare({ id: 'a', name: 'reserve', arguments: args });
    expect(tools[0]!.inputSchema.properties).toEqual({ count: { type: 'integer', exclusiveMinimum: 0 }, seat: { $ref: '#/definitions/seat' } });
    expect(prepared({ count: 0 }).success).toBe(false);
    expect(prepared({ count: 1, seat: 'a' }).success).toBe(true);
  });
});
