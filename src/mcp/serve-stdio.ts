/**
 * Serves tools over stdio: the server reads JSON-RPC lines on stdin and
 * writes them on stdout. Nothing else may write to stdout; logs go to stderr.
 * @module
 */
import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createMcpServer, resourceSubscriptions } from './create-mcp-server.js';
import type { McpServerOptions, McpToolSource } from './create-mcp-server.js';
import { StdioLineTransport } from './stdio-line-transport.js';

export interface McpStdioOptions extends McpServerOptions {
  /** Default `process.stdin`. */
  input?: Readable;
  /** Default `process.stdout`. */
  output?: Writable;
  /** Longest accepted line, in bytes. Default 4 MiB. */
  maxLineBytes?: number;
}

export interface McpStdioHandle {
  server: Server;
  /** Resolves when the client closes stdin or {@link close} runs. */
  closed: Promise<void>;
  /** Tells the client that a resource it subscribed to changed (`notifications/resources/updated`). */
  notifyResourceUpdated(uri: string): Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(tools: McpToolSource, options: McpStdioOptions = {}): Promise<McpStdioHandle> {
  const server = createMcpServer(tools, options);
  const transport = new StdioLineTransport(
    options.input ?? process.stdin,
    options.output ?? process.stdout,
    options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes },
  );
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  // Transport errors (a broken pipe) are the client going away, not a server fault; the close that follows ends the session.
  server.onerror = () => {};
  await server.connect(transport);
  return {
    server,
    closed,
    async notifyResourceUpdated(uri) {
      if (resourceSubscriptions.get(server)?.has(uri)) await server.sendResourceUpdated({ uri });
    },
    close: () => server.close(),
  };
}
