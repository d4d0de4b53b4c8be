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
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { defineTool } from '../../src/index.js';
import { serveHttp } from '../../src/mcp/index.js';
import { serveSdkHttp } from '../gateway/sdk-http.js';

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
  serveSdkHttp(() => {
    const server = new McpServer({ name: 'sdk-bare', version: '1.0.0' });
    server.registerTool('echo', { description: 'Echoes a message.', inputSchema: { message: z.string() } }, ({ message }) => ({
      content: [{ type: 'text', text: message }],
    }));
    return server;
  });
} else {
  process.stderr.write('usage: server.ts toolwright|sdk\n');
  process.exit(2);
}
