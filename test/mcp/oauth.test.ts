/**
 * OAuth 2.1 for the MCP server (docs/mcp.md, "OAuth"), against a real authorization server (oidc-provider on
 * 127.0.0.1, test/mcp/oauth-authorization-server.ts): the protected resource metadata, 401 for a missing, expired,
 * foreign or badly signed token, the scopes mapped to tools (a read-only token neither sees nor calls a write tool: 403
 * naming the scope), the identity (never the token) reaching the context factory, the policy and the session record,
 * sessions bound to the identity that started them, and the MCP SDK client's own OAuth flow (dynamic client
 * registration, PKCE, resource indicator) listing and calling tools.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { createMcpAuthGate } from '../../src/mcp/auth/mcp-auth-gate.js';
import { createMcpServer, currentMcpCall, serveHttp, type McpCallInfo, type McpHttpHandle } from '../../src/mcp/index.js';
import { argumentRule, createPolicy } from '../../src/policy/index.js';
import { ToolRegistry, silentLogger } from '../../src/tools/index.js';
import { PRE_REGISTERED_CLIENT, PRE_REGISTERED_REDIRECT, startAuthorizationServer, type AuthorizationServer } from './oauth-authorization-server.js';
import { invoiceTools } from './invoice-tools.js';
import { post } from './raw-http-session.js';

const refunds: string[] = [];
const contexts: unknown[] = [];
const callAuths: unknown[] = [];
const { lookup, refund } = invoiceTools(refunds, (context) => {
  contexts.push(context.context);
  callAuths.push(currentMcpCall(context)?.auth);
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'oauth-test', version: '1' } },
});

let authServer: AuthorizationServer;
let mcp: McpHttpHandle;
const recordDir = mkdtempSync(join(tmpdir(), 'tw-oauth-'));
const callInfos: McpCallInfo[] = [];
const policyContexts: unknown[] = [];

beforeAll(async () => {
  authServer = await startAuthorizationServer(() => mcp.url);
  mcp = await serveHttp([lookup, refund], {
    port: 0,
    logger: silentLogger,
    auth: { issuer: authServer.issuer },
    recordDir,
    context: (info) => (callInfos.push(info), { user: info.auth?.subject }),
    policy: createPolicy({
      rules: [
        argumentRule({
          id: 'see-context',
          tool: 'lookup',
          description: 'records what the policy sees',
          check: (_args, input) => void policyContexts.push(input?.context),
        }),
      ],
    }),
  });
});

afterAll(async () => {
  await mcp.close();
  await authServer.close();
  rmSync(recordDir, { recursive: true, force: true });
});

function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** `resource_metadata` and the other parameters of a `WWW-Authenticate: Bearer …` challenge. */
function challenge(header: string | string[] | undefined): Record<string, string> {
  expect(typeof header).toBe('string');
  expect(header).toMatch(/^Bearer /);
  return Object.fromEntries([...(header as string).matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1]!, match[2]!]));
}

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'oauth-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: bearer(token) } }));
  return client;
}

describe('the protected resource metadata and a missing token', () => {
  it('answers a request without a token with 401 and a challenge naming the metadata, which names the authorization server', async () => {
    const response = await post(mcp.url, INITIALIZE);
    expect(response.status).toBe(401);
    const params = challenge(response.headers['www-authenticate']);
    expect(params.resource_metadata).toBe(new URL('/.well-known/oauth-protected-resource/mcp', mcp.url).href);
    expect(params.scope).toBe('tools:read tools:write');
    expect(JSON.parse(response.body).error.message).toContain(params.resource_metadata);

    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const metadata = await fetch(new URL(path, mcp.url));
      expect(metadata.status).toBe(200);
      expect(await metadata.json()).toEqual({
        resource: mcp.url,
        authorization_servers: [authServer.issuer],
        scopes_supported: ['tools:read', 'tools:write'],
        bearer_methods_supported: ['header'],
      });
    }
  });
});

describe('tokens the server refuses', () => {
  it.each([
    ['another audience', () => authServer.mint({ aud: 'http://127.0.0.1:1/mcp', scope: 'tools:read' }), 'not issued for this server'],
    ['an expired token', () => authServer.mint({ scope: 'tools:read' }, { expiresIn: -120 }), 'expired'],
    ['another issuer', () => authServer.mint({ iss: 'http://127.0.0.1:1', scope: 'tools:read' }), 'not issued by'],
    ['a token without an expiry', () => authServer.mint({ scope: 'tools:read', exp: undefined }), 'no expiry'],
    ['a tampered signature', async () => (await authServer.mint({ scope: 'tools:read' })).slice(0, -4) + 'AAAA', 'signature'],
    ['not a JWT', async () => 'opaque-token-value', 'not a valid signed JWT'],
  ])('answers %s with 401 invalid_token', async (_case, token, reason) => {
    const response = await post(mcp.url, INITIALIZE, bearer(await token()));
    expect(response.status).toBe(401);
    const params = challenge(response.headers['www-authenticate']);
    expect(params.error).toBe('invalid_token');
    expect(params.error_description).toContain(reason);
    expect(params.resource_metadata).toBe(new URL('/.well-known/oauth-protected-resource/mcp', mcp.url).href);
    expect(mcp.sessionCount).toBe(0);
  });
});

describe('scopes mapped to tools', () => {
  it('lists only the read tool to a read-only token, and answers its call of the write tool with 403 naming tools:write; the write does not run', async () => {
    const token = await authServer.mint({ scope: 'tools:read', sub: 'reader' });
    const client = await connect(token);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['lookup']);

    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const call = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'refund', arguments: { invoice: 'inv_1' } } });
    const response = await post(mcp.url, call, { ...bearer(token), 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': '2025-11-25' });
    expect(response.status).toBe(403);
    const params = challenge(response.headers['www-authenticate']);
    expect(params).toMatchObject({ error: 'insufficient_scope', scope: 'tools:read tools:write' });
    // A quoted-string cannot hold a double quote: the header's description quotes with single ones.
    expect(params.error_description).toBe("calling 'refund' needs the scope 'tools:write'");
    expect(JSON.parse(response.body).error.message).toContain('needs the scope "tools:write"');
    expect(refunds).toEqual([]);

    // The read tool runs, with the identity (never the token) in its context, the policy's and the factory's.
    const result = await client.callTool({ name: 'lookup', arguments: { invoice: 'inv_1' } });
    expect(result.content).toEqual([{ type: 'text', text: 'invoice inv_1 for reader' }]);
    const info = callInfos.at(-1)!;
    expect(info.auth).toEqual({
      subject: 'reader',
      clientId: 'minted-client',
      scopes: ['tools:read'],
      issuer: authServer.issuer,
      expiresAt: expect.any(Number),
    });
    expect(JSON.stringify(info)).not.toContain(token);
    expect(policyContexts.at(-1)).toEqual({ user: 'reader' });
    expect(contexts.at(-1)).toEqual({ user: 'reader' });
    expect(callAuths.at(-1)).toEqual(info.auth);
    await client.close();
  });

  it('refuses a batch whole when one of its calls needs a scope the token lacks', async () => {
    const token = await authServer.mint({ scope: 'tools:read' });
    const client = await connect(token);
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const before = contexts.length;
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'lookup', arguments: { invoice: 'inv_b' } } },
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'refund', arguments: { invoice: 'inv_b' } } },
    ]);
    const response = await post(mcp.url, batch, { ...bearer(token), 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': '2025-11-25' });
    expect(response.status).toBe(403);
    expect(contexts.length).toBe(before);
    expect(refunds).toEqual([]);
    await client.close();
  });

  it('runs the write tool for a token with tools:write', async () => {
    const client = await connect(await authServer.mint({ scope: 'tools:read tools:write' }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['lookup', 'refund']);
    expect((await client.callTool({ name: 'refund', arguments: { invoice: 'inv_2' } })).content).toEqual([{ type: 'text', text: 'refunded inv_2' }]);
    expect(refunds).toEqual(['inv_2']);
    await client.close();
  });
});

describe('sessions and records', () => {
  it("does not let another identity's token use a session", async () => {
    const client = await connect(await authServer.mint({ scope: 'tools:read', sub: 'alice' }));
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const list = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    const mallory = await authServer.mint({ scope: 'tools:read tools:write', sub: 'mallory' });
    const response = await post(mcp.url, list, { ...bearer(mallory), 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': '2025-11-25' });
    expect(response.status).toBe(404);
    expect((await client.listTools()).tools).toHaveLength(1);
    await client.close();
  });

  it("records who the session's token speaks for, and never the token", async () => {
    const token = await authServer.mint({ scope: 'tools:read', sub: 'recorded-user' });
    const client = await connect(token);
    await client.callTool({ name: 'lookup', arguments: { invoice: 'inv_3' } });
    await client.close();
    await expect
      .poll(() =>
        readdirSync(recordDir)
          .map((file) => readFileSync(join(recordDir, file), 'utf8'))
          .find((text) => text.includes('recorded-user')),
      )
      .toBeDefined();
    const text = readdirSync(recordDir)
      .map((file) => readFileSync(join(recordDir, file), 'utf8'))
      .find((content) => content.includes('recorded-user'))!;
    const started = JSON.parse(text.split('\n')[0]!);
    expect(started).toMatchObject({
      type: 'run_started',
      context: { identity: { subject: 'recorded-user', clientId: 'minted-client', scopes: ['tools:read'], issuer: authServer.issuer } },
    });
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.split('.')[2]!);
  });
});

describe("the MCP SDK client's own OAuth flow", () => {
  it('registers, authorizes with PKCE for this resource, and then lists and calls tools', async () => {
    const provider = new MemoryOAuthClient('http://127.0.0.1:9/callback');
    const transport = new StreamableHTTPClientTransport(new URL(mcp.url), { authProvider: provider });
    await expect(new Client({ name: 'oauth-flow', version: '1' }).connect(transport)).rejects.toThrow(UnauthorizedError);

    // What the SDK sent the user to: PKCE (S256), the resource indicator naming this server, the scopes from the 401.
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(mcp.url);
    expect(authorizationUrl.searchParams.get('scope')).toBe('tools:read tools:write');
    await transport.finishAuth(await authServer.browse(authorizationUrl, provider.redirectUrl));
    const accessToken = provider.tokens()!.access_token;
    expect(accessToken.split('.')).toHaveLength(3);

    const client = new Client({ name: 'oauth-flow', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { authProvider: provider }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['lookup', 'refund']);
    expect((await client.callTool({ name: 'lookup', arguments: { invoice: 'inv_4' } })).content).toEqual([{ type: 'text', text: 'invoice inv_4 for alice' }]);
    expect(callInfos.at(-1)!.auth).toMatchObject({
      subject: 'alice',
      clientId: provider.clientInformation()!.client_id,
      scopes: ['tools:read', 'tools:write'],
    });
    await client.close();
  });
});

describe('the gate alone, over a web Request (as a handler of web Requests would drive it)', () => {
  const registry = new ToolRegistry([lookup, refund]);
  const audience = 'https://mcp.example.com/mcp';
  const errors: unknown[] = [];
  const logger = { ...silentLogger, error: (_message: string, details?: unknown) => void errors.push(details) };

  it("accepts a token read from a Request's headers, with the JWKS named explicitly, and refuses a call its scopes do not cover", async () => {
    const gate = createMcpAuthGate(registry, { issuer: authServer.issuer, audience, jwksUrl: `${authServer.issuer}/jwks` }, mcp.url, '/mcp', logger);
    const token = await authServer.mint({ aud: audience, scope: 'tools:read' });
    const request = new Request(audience, { method: 'POST', headers: bearer(token) });
    const result = await gate.authenticate(request.headers);
    expect(result.allowed).toBe(true);
    if (!result.allowed) return;
    expect(JSON.stringify(result.authInfo)).not.toContain(token);
    const call = { jsonrpc: '2.0' as const, id: 1, method: 'tools/call', params: { name: 'refund', arguments: { invoice: 'x' } } };
    expect(gate.authorize(result.authInfo, [call])).toMatchObject({ status: 403 });
    expect(gate.authorize(result.authInfo, [{ ...call, params: { name: 'lookup', arguments: { invoice: 'x' } } }])).toBeUndefined();
    expect(gate.metadataFor('/.well-known/oauth-protected-resource/mcp')).toMatchObject({ resource: audience });
    expect(gate.resourceMetadataUrl).toBe('https://mcp.example.com/.well-known/oauth-protected-resource/mcp');
  });

  it('names the resource in the metadata when given, and allows 5 s of clock difference on the expiry', async () => {
    const gate = createMcpAuthGate(registry, { issuer: authServer.issuer, audience, resourceName: 'Invoices' }, mcp.url, '/mcp', logger);
    expect(gate.metadataFor('/.well-known/oauth-protected-resource')).toMatchObject({ resource: audience, resource_name: 'Invoices' });
    expect(gate.metadataFor('/.well-known/other')).toBeUndefined();
    const justExpired = await authServer.mint({ aud: audience, scope: 'tools:read' }, { expiresIn: -2 });
    expect(await gate.authenticate(new Headers(bearer(justExpired)))).toMatchObject({ allowed: true });
  });

  it('refuses a token signed with an algorithm outside `algorithms`', async () => {
    const gate = createMcpAuthGate(registry, { issuer: authServer.issuer, audience, algorithms: ['RS256'] }, mcp.url, '/mcp', logger);
    const result = await gate.authenticate(new Headers(bearer(await authServer.mint({ aud: audience, scope: 'tools:read' }))));
    expect(result).toMatchObject({ allowed: false, status: 401 });
    expect(!result.allowed && result.message).toContain('algorithm this server does not accept');
  });

  it("answers 503 when the issuer's keys cannot be read, and logs why", async () => {
    const gate = createMcpAuthGate(registry, { issuer: 'http://127.0.0.1:9', audience }, mcp.url, '/mcp', logger);
    const result = await gate.authenticate(new Headers(bearer(await authServer.mint({ aud: audience, scope: 'tools:read' }))));
    expect(result).toMatchObject({ allowed: false, status: 503, headers: { 'Retry-After': '5' } });
    expect(errors).toHaveLength(1);
    // The metadata is read, but the key set it names answers 404.
    const noKeys = createMcpAuthGate(registry, { issuer: authServer.issuer, audience, jwksUrl: `${authServer.issuer}/no-keys-here` }, mcp.url, '/mcp', logger);
    expect(await noKeys.authenticate(new Headers(bearer(await authServer.mint({ aud: audience, scope: 'tools:read' }))))).toMatchObject({ status: 503 });
    expect(errors).toHaveLength(2);
  });

  it("tries the issuer's discovery again on the next request after it failed", async () => {
    let up = false;
    const flaky = createServer((_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      if (!up) res.writeHead(503).end('{}');
      else res.end(JSON.stringify({ issuer: flakyIssuer, jwks_uri: `${authServer.issuer}/jwks` }));
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    const flakyIssuer = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`;
    try {
      const gate = createMcpAuthGate(registry, { issuer: flakyIssuer, audience }, mcp.url, '/mcp', logger);
      const headers = new Headers(bearer(await authServer.mint({ iss: flakyIssuer, aud: audience, scope: 'tools:read' })));
      expect(await gate.authenticate(headers)).toMatchObject({ allowed: false, status: 503 });
      up = true;
      expect(await gate.authenticate(headers)).toMatchObject({ allowed: true, identity: { issuer: flakyIssuer, subject: 'alice' } });
    } finally {
      flaky.close();
    }
  });

  it('refuses HMAC and "none" in `algorithms`, and a scope override for a tool that is not served', () => {
    expect(() => createMcpAuthGate(registry, { issuer: authServer.issuer, algorithms: ['HS256'] }, mcp.url, '/mcp', logger)).toThrow('HMAC');
    expect(() => createMcpAuthGate(registry, { issuer: authServer.issuer, scopes: { refnud: 'billing' } }, mcp.url, '/mcp', logger)).toThrow(
      'auth.scopes names "refnud", which is not a served tool',
    );
  });
});

describe('scopes inside the server, whatever the transport', () => {
  /** A client whose every request reaches the server with `authInfo`, as an authenticating transport would hand it on. */
  async function clientWith(authInfo: AuthInfo | undefined, scopes?: Record<string, string | string[]>): Promise<Client> {
    const server = createMcpServer([lookup, refund], { logger: silentLogger, auth: { issuer: 'https://auth.example.com', scopes } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) => send(message, { ...options, ...(authInfo ? { authInfo } : {}) });
    await server.connect(serverSide);
    const client = new Client({ name: 'in-memory', version: '1' });
    await client.connect(clientSide);
    return client;
  }
  const readOnly = {
    clientId: 'c',
    scopes: ['tools:read'],
    expiresAt: 2e9,
    extra: { subject: 's', issuer: 'https://auth.example.com' },
  } as unknown as AuthInfo;

  it('lists no tool and runs none when no verified token reaches it', async () => {
    const client = await clientWith(undefined);
    expect((await client.listTools()).tools).toEqual([]);
    await expect(client.callTool({ name: 'lookup', arguments: { invoice: 'x' } })).rejects.toThrow('needs the scope "tools:read"');
  });

  it('refuses a write to a read-only token with a JSON-RPC error naming the scope; the write does not run', async () => {
    const before = refunds.length;
    const client = await clientWith(readOnly);
    await expect(client.callTool({ name: 'refund', arguments: { invoice: 'x' } })).rejects.toMatchObject({
      code: -32600,
      message: expect.stringContaining('needs the scope "tools:write"'),
    });
    expect(refunds).toHaveLength(before);
  });

  it('follows a per-tool override of the scopes', async () => {
    const client = await clientWith(readOnly, { lookup: ['tools:read', 'invoices:read'], refund: 'tools:read' });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['refund']);
  });
});

describe("the MCP SDK client's OAuth flow with a pre-registered client", () => {
  it('authorizes with PKCE as the pre-registered client, without registering, and calls a tool', async () => {
    const provider = new MemoryOAuthClient(PRE_REGISTERED_REDIRECT, { client_id: PRE_REGISTERED_CLIENT });
    const transport = new StreamableHTTPClientTransport(new URL(mcp.url), { authProvider: provider });
    await expect(new Client({ name: 'oauth-pre', version: '1' }).connect(transport)).rejects.toThrow(UnauthorizedError);
    expect(provider.authorizationUrl!.searchParams.get('client_id')).toBe(PRE_REGISTERED_CLIENT);
    expect(provider.authorizationUrl!.searchParams.get('code_challenge_method')).toBe('S256');
    await transport.finishAuth(await authServer.browse(provider.authorizationUrl!, PRE_REGISTERED_REDIRECT));

    const client = new Client({ name: 'oauth-pre', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { authProvider: provider }));
    expect((await client.callTool({ name: 'lookup', arguments: { invoice: 'inv_5' } })).content).toEqual([{ type: 'text', text: 'invoice inv_5 for alice' }]);
    expect(callInfos.at(-1)!.auth).toMatchObject({ subject: 'alice', clientId: PRE_REGISTERED_CLIENT });
    await client.close();
  });
});

/** An OAuth client that keeps everything in memory and, instead of opening a browser, remembers where it would have gone. */
class MemoryOAuthClient implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier = '';

  /** With `preRegistered`, the client the authorization server already knows: the SDK does not register. */
  constructor(
    readonly redirectUrl: string,
    preRegistered?: OAuthClientInformationMixed,
  ) {
    this.#client = preRegistered;
  }

  get clientMetadata() {
    return {
      client_name: 'toolwright OAuth test',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.#client;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.#client = information;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.#tokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
}
