/**
 * `serveHttp` as `toolwright/mcp` exports it: Node's HTTP server (`node:http` and the SDK's Node transport, which
 * needs `@hono/node-server`) loads when `serveHttp` is called, not with the entry, so that the entry loads on runtimes
 * without them (workerd, Vercel's edge runtime; docs/deploy.md).
 * @module
 */
import type { McpToolSource } from './create-mcp-server.js';
import type { McpHttpHandle, McpHttpOptions } from './serve-http.js';

/** Serves the tools over MCP's Streamable HTTP on a Node HTTP server (docs/mcp.md); resolves once it listens. */
export async function serveHttp(tools: McpToolSource, options: McpHttpOptions = {}): Promise<McpHttpHandle> {
  const nodeServer = await import('./serve-http.js');
  return nodeServer.serveHttp(tools, options);
}
