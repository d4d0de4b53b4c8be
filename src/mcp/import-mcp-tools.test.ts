import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRegistry, defineTool, silentLogger } from '../tools/index.js';
import { importMcpTools } from './import-mcp-tools.js';
import type { ImportedMcpTools } from './import-mcp-tools.js';
import { serveHttp } from './serve-http.js';
import type { McpHttpHandle } from './serve-http.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = resolve(root, 'test/mcp/fixtures/sdk-stdio-server.ts');

describe('importMcpTools over stdio, from a server built on the SDK alone', () => {
  let imported: ImportedMcpTools;
  let registry: ToolRegistry;
  beforeAll(async () => {
    imported = await importMcpTools({ server: { command: process.execPath, args: ['--import', 'tsx', fixture], cwd: root, stderr: 'ignore' }, prefix: 'wx_' });
    registry = new ToolRegistry(imported.tools, { logger: silentLogger });
  });
  afterAll(async () => {
    await imported.close();
  });

  it('imports every tool with a provider-safe name, and says what it rewrote', () => {
    expect(imported.serverInfo).toEqual({ name: 'weather-co', version: '2.1.0' });
    expect(imported.tools.map((tool) => tool.name)).toEqual(['wx_get_weather', 'wx_delete_item', 'wx_fail', 'wx_call_count']);
    expect(imported.warnings).toContainEqual({
      type: 'rewritten',
      tool: 'delete.item',
      feature: 'name',
      details: '"wx_delete.item" is not a name every model provider accepts; it is imported as "wx_delete_item".',
    });
  });

  it('derives effect, confirmation and hints from the annotations', () => {
    const weather = registry.require('wx_get_weather');
    expect({ effect: weather.effect, confirm: weather.confirm, hints: weather.hints, title: weather.title, category: weather.category }).toEqual({
      effect: 'read',
      confirm: false,
      hints: { openWorld: true },
      title: 'Weather',
      category: 'weather-co',
    });
    const remove = registry.require('wx_delete_item');
    expect({ effect: remove.effect, confirm: remove.confirm, hints: remove.hints }).toEqual({ effect: 'write', confirm: true, hints: { idempotent: true } });
    expect(registry.require('wx_fail').confirm).toBe(true);
  });

  it('forwards a valid call and keeps its structured content', async () => {
    const execution = await registry.call({ id: 'c1', name: 'wx_get_weather', arguments: { city: 'Lyon' } });
    expect(execution.result).toEqual({
      content: [{ type: 'text', text: '{"city":"Lyon","celsius":21}' }],
      structuredContent: { city: 'Lyon', celsius: 21 },
      isError: false,
    });
  });

  it('validates arguments locally: an invalid call never reaches the server', async () => {
    const before = await registry.call({ id: 'c2', name: 'wx_call_count', arguments: {} });
    const execution = await registry.call({ id: 'c3', name: 'wx_get_weather', arguments: { city: 7 } });
    expect(execution.failure?.code).toBe('invalid_arguments');
    const after = await registry.call({ id: 'c4', name: 'wx_call_count', arguments: {} });
    expect(after.result.content).toEqual(before.result.content);
  });

  it('turns a remote isError result into a tool error with the server text', async () => {
    const execution = await registry.call({ id: 'c5', name: 'wx_fail', arguments: {} });
    expect(execution.result).toEqual({
      content: [
        {
          type: 'text',
          text: 'Tool "wx_fail" failed: The backend is down for maintenance. Retrying the same call with the same arguments will fail the same way.',
        },
      ],
      isError: true,
    });
  });
});

describe('importMcpTools over Streamable HTTP', () => {
  let server: McpHttpHandle;
  beforeAll(async () => {
    const shout = defineTool<{ text: string }>({
      name: 'shout',
      description: 'Upper-cases text.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: ({ text }) => text.toUpperCase(),
    });
    server = await serveHttp([shout], { port: 0, logger: silentLogger, authToken: 'tok' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('connects with a bearer token and forwards calls', async () => {
    const imported = await importMcpTools({ server: { url: server.url, authToken: 'tok' } });
    try {
      const registry = new ToolRegistry(imported.tools, { logger: silentLogger });
      const execution = await registry.call({ id: '1', name: 'shout', argumentsText: '{"text":"hi"}' });
      expect(execution.result).toEqual({ content: [{ type: 'text', text: 'HI' }], isError: false });
    } finally {
      await imported.close();
    }
  });

  it('fails to connect with a message naming the server', async () => {
    await expect(importMcpTools({ server: server.url })).rejects.toThrow(`Cannot connect to the MCP server at ${server.url}:`);
  });
});

describe('importMcpTools over Streamable HTTP, from a server that drops the answer', () => {
  it('fails the call as soon as the server closes its SSE answer mid-event, not when requestTimeoutMs runs out', async () => {
    // A server just complete enough to be imported: JSON answers to initialize and tools/list, then a cut stream for the call.
    const http = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        if (req.method !== 'POST') return void res.writeHead(405).end();
        const message = JSON.parse(body) as { id?: number; method: string };
        const json = (result: unknown) =>
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
        if (message.method === 'initialize')
          return json({ protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'dropper', version: '1' } });
        if (message.method === 'tools/list')
          return json({ tools: [{ name: 'echo', description: 'Echoes.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] });
        if (message.method !== 'tools/call') return void res.writeHead(202).end();
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`event: message\ndata: {"jsonrpc":"2.0","id":${message.id},"result":{"cont`);
        setTimeout(() => res.socket!.destroy(), 10);
      });
    });
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
    const imported = await importMcpTools({ server: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, requestTimeoutMs: 30_000 });
    try {
      const registry = new ToolRegistry(imported.tools, { logger: silentLogger });
      const started = Date.now();
      const execution = await registry.call({ id: '1', name: 'echo', arguments: {} });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(execution.result.isError).toBe(true);
      expect(execution.result.content).toEqual([
        { type: 'text', text: expect.stringContaining('Tool "echo" failed: the MCP server "dropper" could not be reached') },
      ]);
    } finally {
      await imported.close();
      http.closeAllConnections();
      http.close();
    }
  }, 40_000);
});
