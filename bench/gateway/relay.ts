/**
 * The reference peer of `bench/gateway/run.ts`: the least any gateway process does, with the official SDK alone. It
 * connects to the upstream as a client and serves its tool list, forwarding each `tools/call` as it is: no validation,
 * policy, guards or record. What the gateway costs beyond this is toolwright's pipeline; up to it, a second hop.
 *   relay.ts stdio <upstream URL | "stdio">   serves over stdin/stdout
 *   relay.ts http <upstream URL | "stdio">    serves Streamable HTTP (sdk-http.ts); prints the endpoint URL on stdout
 * With "stdio" it spawns upstream.ts itself, as the gateway does.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { serveSdkHttp } from './sdk-http.js';

const [serve, upstream] = process.argv.slice(2);
if ((serve !== 'stdio' && serve !== 'http') || upstream === undefined) {
  process.stderr.write('usage: relay.ts stdio|http <upstream URL | "stdio">\n');
  process.exit(2);
}
process.once('SIGTERM', () => process.exit(0));

const client = new Client({ name: 'bench-relay', version: '1' });
await client.connect(
  upstream === 'stdio'
    ? new StdioClientTransport({
        command: process.execPath,
        args: ['--import', import.meta.resolve('tsx'), resolve(dirname(fileURLToPath(import.meta.url)), 'upstream.ts'), 'stdio'],
      })
    : new StreamableHTTPClientTransport(new URL(upstream)),
);
const { tools } = await client.listTools();

function relayServer(): Server {
  const server = new Server({ name: 'bench-relay', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(
    CallToolRequestSchema,
    async (request, extra) => (await client.callTool(request.params, undefined, { signal: extra.signal })) as CallToolResult,
  );
  return server;
}

if (serve === 'stdio') {
  const server = relayServer();
  server.onclose = () => void client.close().finally(() => process.exit(0));
  await server.connect(new StdioServerTransport());
} else {
  serveSdkHttp(relayServer);
}
