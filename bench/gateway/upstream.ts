/**
 * The upstream server of `bench/gateway/run.ts`: the bare official SDK (`McpServer`) with one `echo` tool, annotated
 * read-only so that the gateway's default rule (confirm every write) asks no one, as a third-party server would be.
 *   stdio   over stdin/stdout (the gateway, or the bench's client, spawns it)
 *   http    Streamable HTTP on 127.0.0.1, stateful, as the SDK's README shows; prints the endpoint URL on stdout
 * Serves until killed or its stdin closes.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

function echoServer(): McpServer {
  const server = new McpServer({ name: 'bench-upstream', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes a message.', inputSchema: { message: z.string() }, annotations: { readOnlyHint: true } },
    ({ message }) => ({ content: [{ type: 'text', text: message }] }),
  );
  return server;
}

const kind = process.argv[2];
process.once('SIGTERM', () => process.exit(0));
if (kind === 'stdio') {
  await echoServer().connect(new StdioServerTransport());
} else if (kind === 'http') {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : undefined;
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (!transport && isInitializeRequest(body)) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (newId) => void sessions.set(newId, transport!),
        });
        await echoServer().connect(transport);
      }
      if (!transport) {
        res.writeHead(400).end();
        return;
      }
      await transport.handleRequest(req, res, body);
    });
  });
  http.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`));
} else {
  process.stderr.write('usage: upstream.ts stdio|http\n');
  process.exit(2);
}
