/**
 * One of the two servers `bench/mcp/run.ts` compares, in its own process so
 * that the load generator does not share its event loop:
 *   toolwright  `serveHttp` with one `echo` tool and every guard on (a bearer
 *               token from BENCH_MCP_TOKEN, Host/Origin checks, body limit)
 *   sdk         the official SDK alone: `McpServer.registerTool` + the SDK's
 *               Streamable HTTP transport, stateful, as its README shows
 * Prints the endpoint URL on stdout, then serves until killed. Answers the
 * message 'cpu' on the IPC channel with its CPU time so far.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { defineTool } from '../../src/index.js';
import { serveHttp } from '../../src/mcp/index.js';

const kind = process.argv[2];
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});

if (kind === 'toolwright') {
  const echo = defineTool<{ message: string }>({
    name: 'echo',
    description: 'Echoes a message.',
    effect: 'read',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], additionalProperties: false },
    execute: ({ message }) => message,
  });
  const handle = await serveHttp([echo], { port: 0, authToken: process.env.BENCH_MCP_TOKEN ?? 'bench-token-not-a-secret' });
  process.stdout.write(`${handle.url}\n`);
  // SIGTERM must end the process through exit, so that --cpu-prof writes its profile.
  process.once('SIGTERM', () => void handle.close().then(() => process.exit(0)));
} else if (kind === 'sdk') {
  process.once('SIGTERM', () => process.exit(0));
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
        const server = new McpServer({ name: 'sdk-bare', version: '1.0.0' });
        server.registerTool('echo', { description: 'Echoes a message.', inputSchema: { message: z.string() } }, ({ message }) => ({
          content: [{ type: 'text', text: message }],
        }));
        await server.connect(transport);
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
  process.stderr.write('usage: server.ts toolwright|sdk\n');
  process.exit(2);
}
