/**
 * OAuth on `createMcpHandler` (docs/mcp.md, "OAuth"), the web-standard handler served through the Node bridge as
 * Bun.serve or Deno.serve would serve it, against the real authorization server of test/mcp/oauth-authorization-server.ts:
 * the metadata and 401 without a token, a token for another audience refused, a read-only token that neither sees nor
 * calls the write tool (403 naming the scope), the identity reaching the tool's context, and sessions bound to it.
 * The gate itself is tested in detail over `serveHttp` (test/mcp/oauth.test.ts); this proves the handler drives it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpHandler, type McpHandler } from '../../src/mcp/index.js';
import { silentLogger } from '../../src/tools/index.js';
import { invoiceTools } from './invoice-tools.js';
import { startAuthorizationServer, type AuthorizationServer } from './oauth-authorization-server.js';
import { post } from './raw-http-session.js';
import { serveOnNode, type BridgedHandler } from './web-handler-bridge.js';

const refunds: string[] = [];
const { lookup, refund } = invoiceTools(refunds);
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'oauth-handler-test', version: '1' } },
});

let authServer: AuthorizationServer;
let handler: McpHandler;
let bridged: BridgedHandler;

beforeAll(async () => {
  // The bridge listens first: its URL is the audience the handler is made with.
  bridged = await serveOnNode((request) => handler(request));
  authServer = await startAuthorizationServer(() => bridged.url);
  handler = createMcpHandler([lookup, refund], {
    logger: silentLogger,
    auth: { issuer: authServer.issuer, audience: bridged.url },
    context: (info) => ({ user: info.auth?.subject }),
  });
});

afterAll(async () => {
  await handler.close(0);
  await bridged.close();
  await authServer.close();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'oauth-handler-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(bridged.url), { requestInit: { headers: bearer(token) } }));
  return client;
}

describe('createMcpHandler with auth', () => {
  it('needs the audience, since a handler does not know its public URL', () => {
    expect(() => createMcpHandler([lookup], { auth: { issuer: 'https://auth.example.com' } })).toThrow(/`auth` needs `audience`/);
  });

  it('serves the metadata and answers a request without a token, or for another audience, with 401', async () => {
    const response = await post(bridged.url, INITIALIZE);
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toContain(`resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', bridged.url).href}"`);
    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', bridged.url));
    expect(await metadata.json()).toMatchObject({ resource: bridged.url, authorization_servers: [authServer.issuer] });

    const foreign = await authServer.mint({ aud: 'https://other.example.com/mcp', scope: 'tools:read' });
    const refused = await post(bridged.url, INITIALIZE, bearer(foreign));
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('lists and runs only what the scopes cover, with the identity in the context; the write gets 403 and does not run', async () => {
    const token = await authServer.mint({ scope: 'tools:read', sub: 'reader' });
    const client = await connect(token);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['lookup']);
    expect((await client.callTool({ name: 'lookup', arguments: { invoice: 'inv_1' } })).content).toEqual([{ type: 'text', text: 'invoice inv_1 for reader' }]);

    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const call = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'refund', arguments: { invoice: 'inv_1' } } });
    const response = await post(bridged.url, call, { ...bearer(token), 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': '2025-11-25' });
    expect(response.status).toBe(403);
    expect(response.headers['www-authenticate']).toContain('error="insufficient_scope"');
    expect(refunds).toEqual([]);

    // Another identity's token does not find the session.
    const other = await authServer.mint({ scope: 'tools:read tools:write', sub: 'mallory' });
    const list = JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/list' });
    expect((await post(bridged.url, list, { ...bearer(other), 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': '2025-11-25' })).status).toBe(404);
    await client.close();
  });

  it('runs the write tool for a token with tools:write', async () => {
    const client = await connect(await authServer.mint({ scope: 'tools:read tools:write' }));
    expect((await client.callTool({ name: 'refund', arguments: { invoice: 'inv_2' } })).content).toEqual([{ type: 'text', text: 'refunded inv_2' }]);
    expect(refunds).toEqual(['inv_2']);
    await client.close();
  });
});
