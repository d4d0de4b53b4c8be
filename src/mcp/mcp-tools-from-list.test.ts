import { describe, expect, it } from 'vitest';
import { ToolError } from '../tools/index.js';
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
      ['fs_read_file', 'write', true, { kind: 'mcp', server: 'files', effectAnnotated: false }],
      ['fs_search', 'read', false, { kind: 'mcp', server: 'files', effectAnnotated: true }],
      ['fs_add_label', 'write', false, { kind: 'mcp', server: 'files', effectAnnotated: true }],
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
});
