/**
 * The upstream server of `bench/gateway/run.ts`: the bare official SDK (`McpServer`) with one `echo` tool, annotated
 * read-only so that the gateway's default rule (confirm every write) asks no one, as a third-party server would be.
 *   stdio   over stdin/stdout (the gateway, the relay or the bench's client spawns it)
 *   http    Streamable HTTP on 127.0.0.1 (sdk-http.ts); prints the endpoint URL on stdout
 * Serves until killed or its stdin closes.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { serveSdkHttp } from './sdk-http.js';

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
  serveSdkHttp(echoServer);
} else {
  process.stderr.write('usage: upstream.ts stdio|http\n');
  process.exit(2);
}
