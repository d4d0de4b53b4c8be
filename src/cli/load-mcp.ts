/**
 * The CLI's MCP commands load `toolwright/mcp` on first use: the MCP SDK is an
 * optional peer, and `toolwright lint` or `toolwright run` without `--mcp` must
 * work in an app that never installed it.
 * @module
 */
import type * as McpEntry from '../mcp/index.js';
import { loadPeer } from '../shared/load-peer.js';

export type McpModule = typeof McpEntry;

export function loadMcpModule(feature: string): Promise<McpModule> {
  return loadPeer('@modelcontextprotocol/sdk', feature, () => import('../mcp/index.js'));
}
