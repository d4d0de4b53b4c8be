/**
 * Speed without losing `currentMcpCall`: the server no longer runs every call
 * under AsyncLocalStorage (on Node 20 it hooks every promise in the process);
 * a tool that passes its context finds its own call at any point, concurrent
 * calls included, and the no-argument form switches the tracking on.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { createMcpServer, currentMcpCall } from '../../src/mcp/index.js';
import type { McpCallContext } from '../../src/mcp/index.js';
import { defineTool, silentLogger } from '../../src/tools/index.js';
import type { AnyTool } from '../../src/tools/index.js';

async function connect(tools: AnyTool[]): Promise<Client> {
  const server = createMcpServer(tools, { logger: silentLogger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  return client;
}

describe('currentMcpCall', () => {
  it('finds each of two concurrent calls by its context, after awaits', async () => {
    const seen = new Map<string, McpCallContext | undefined>();
    let release!: () => void;
    const bothRunning = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    const tagged = defineTool<{ tag: string }>({
      name: 'tagged',
      description: 'Records its MCP call.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
      async execute({ tag }, context) {
        if (++started === 2) release();
        await bothRunning;
        await new Promise((resolve) => setTimeout(resolve, 1));
        seen.set(tag, currentMcpCall(context));
        return tag;
      },
    });
    const client = await connect([tagged]);
    await Promise.all([client.callTool({ name: 'tagged', arguments: { tag: 'a' } }), client.callTool({ name: 'tagged', arguments: { tag: 'b' } })]);
    expect(seen.get('a')).toBeDefined();
    expect(seen.get('b')).toBeDefined();
    expect(seen.get('a')).not.toBe(seen.get('b'));
    // A context from outside any MCP call finds nothing.
    expect(currentMcpCall({ reportProgress: () => {} })).toBeUndefined();
  });

  it('without a context: the first read of a lone call works, and every later call is tracked across awaits', async () => {
    const found: boolean[] = [];
    const ambient = defineTool<Record<string, never>>({
      name: 'ambient',
      description: 'Reads its MCP call without its context.',
      effect: 'read',
      inputSchema: { type: 'object' },
      async execute() {
        found.push(currentMcpCall() !== undefined);
        await new Promise((resolve) => setTimeout(resolve, 1));
        found.push(currentMcpCall() !== undefined);
        return 'ok';
      },
    });
    const client = await connect([ambient]);
    await client.callTool({ name: 'ambient', arguments: {} });
    // The first call ran before the switch: its first read is served (it was the only call running); after its await it is too.
    expect(found.slice(0, 2)).toEqual([true, true]);
    await Promise.all([client.callTool({ name: 'ambient', arguments: {} }), client.callTool({ name: 'ambient', arguments: {} })]);
    expect(found.slice(2)).toEqual([true, true, true, true]);
    expect(currentMcpCall()).toBeUndefined();
  });
});
