/**
 * The MCP server's per-call context factory: its value reaches the served tool's `confirm`, `summarize` and
 * `execute` as `context`, as `runAgent({ context })` does; a factory that fails fails that call alone.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { defineTool, type ToolContext, type ToolLogger } from '../tools/index.js';
import { createMcpServer, type McpCallInfo, type McpServerOptions } from './create-mcp-server.js';
import { serveHttp } from './serve-http.js';

interface Caller {
  user: string;
  requestId: string;
}

const ran: Caller[] = [];
const whoami = defineTool({
  name: 'whoami',
  description: 'Says who is calling.',
  effect: 'write',
  inputSchema: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'], additionalProperties: false },
  confirm: (_args: { note: string }, { context }: { context: Caller }) => context.user !== 'admin',
  summarize: ({ note }: { note: string }, { context }: { context: Caller }) => `${context.user} notes ${note}`,
  execute: ({ note }: { note: string }, { context }: ToolContext<Caller>) => {
    ran.push(context);
    return `${context.user} (${context.requestId}): ${note}`;
  },
});

async function call(options: McpServerOptions<Caller>, note = 'hi') {
  const server = createMcpServer([whoami], options);
  const client = new Client({ name: 'test', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const result = await client.callTool({ name: 'whoami', arguments: { note } }, CallToolResultSchema);
    const { content, isError } = result as { content: { type: string; text?: string }[]; isError?: boolean };
    return { isError: isError === true, text: content[0]?.text ?? '' };
  } finally {
    await client.close();
  }
}

describe('createMcpServer({ context })', () => {
  it("gives each call the factory's context in confirm, summarize and execute", async () => {
    ran.length = 0;
    const infos: McpCallInfo[] = [];
    const summaries: string[] = [];
    const options: McpServerOptions<Caller> = {
      context: async (info) => {
        infos.push(info);
        return { user: 'ana', requestId: info.requestId };
      },
      confirmation: async (request) => {
        summaries.push(request.summary);
        return { approved: true };
      },
    };
    const result = await call(options);
    expect(result).toEqual({ isError: false, text: `ana (${infos[0]!.requestId}): hi` });
    expect(infos).toEqual([{ toolName: 'whoami', requestId: expect.any(String), sessionId: undefined, authInfo: undefined, headers: undefined }]);
    // confirm asked (ana is no admin) and summarize read the same context.
    expect(summaries).toEqual(['ana notes hi']);
    expect(ran).toHaveLength(1);

    // An admin's call needs no confirmation: the rule saw this call's context.
    summaries.length = 0;
    const admin = await call({ ...options, context: (info) => ({ user: 'admin', requestId: info.requestId }) });
    expect(admin.isError).toBe(false);
    expect(admin.text.startsWith('admin (')).toBe(true);
    expect(summaries).toEqual([]);
  });

  it('without a factory the context is undefined; a failing factory fails that call with a neutral error and the logger gets the cause', async () => {
    ran.length = 0;
    const logged: string[] = [];
    const logger: ToolLogger = { error: (message, details) => logged.push(`${message}: ${String(details.error)}`) };
    const failed = await call({
      logger,
      context: () => {
        throw new Error('session token expired');
      },
    });
    expect(failed.isError).toBe(true);
    expect(failed.text).toBe(
      'The server could not set up the call to "whoami" (its context could not be made), so it did not run. Try again later, or tell the user.',
    );
    expect(failed.text).not.toContain('expired');
    expect(logged).toEqual(['the context factory failed for "whoami": Error: session token expired']);
    expect(ran).toEqual([]);

    const plain = defineTool({
      name: 'plain',
      description: 'Reports whether it got a context.',
      effect: 'read',
      inputSchema: { type: 'object', properties: {} },
      execute: (_args, { context }) => (context === undefined ? 'no context' : 'context'),
    });
    const server = createMcpServer([plain]);
    const client = new Client({ name: 'test', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    const result = await client.callTool({ name: 'plain', arguments: {} }, CallToolResultSchema);
    await client.close();
    expect(result.content).toEqual([{ type: 'text', text: 'no context' }]);
  });

  it("over Streamable HTTP, the factory reads the call's session id and request headers", async () => {
    ran.length = 0;
    const infos: McpCallInfo[] = [];
    const handle = await serveHttp([whoami], {
      port: 0,
      context: (info) => {
        infos.push(info);
        return { user: String(info.headers?.['x-user']), requestId: info.requestId };
      },
      preapproved: ['whoami'],
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(handle.url), { requestInit: { headers: { 'x-user': 'ana' } } });
    try {
      await client.connect(transport);
      const result = (await client.callTool({ name: 'whoami', arguments: { note: 'hi' } })) as { content: { text?: string }[] };
      expect(result.content[0]?.text).toBe(`ana (${infos[0]!.requestId}): hi`);
      expect(infos[0]!.sessionId).toBe(transport.sessionId);
      expect(infos[0]!.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(ran).toEqual([{ user: 'ana', requestId: infos[0]!.requestId }]);
    } finally {
      await client.close();
      await handle.close();
    }
  });
});
