/**
 * Serves an SDK server over Streamable HTTP on 127.0.0.1 the way the SDK's README shows (stateful, one server per
 * session), for bench:gateway's upstream and relay and bench:mcp's bare SDK server; prints the endpoint URL on stdout.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

export function serveSdkHttp(sessionServer: () => Server | McpServer): void {
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
        await sessionServer().connect(transport);
      }
      if (!transport) {
        res.writeHead(400).end();
        return;
      }
      await transport.handleRequest(req, res, body);
    });
  });
  http.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`));
}
