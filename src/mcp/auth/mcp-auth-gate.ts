/**
 * The MCP server as an OAuth 2.1 resource server (MCP specification 2025-11-25, "Authorization"): the protected resource
 * metadata (RFC 9728) at its well-known paths, a 401 with `WWW-Authenticate: Bearer resource_metadata="…"` for a missing
 * or invalid token, and a 403 `insufficient_scope` naming the scope for a `tools/call` the token's scopes do not cover.
 *
 * It reads only a path, headers and the parsed JSON-RPC messages, and answers with a status, headers and a message, so
 * any HTTP layer can drive it: `serveHttp` over `node:http`, or a handler over web `Request`s.
 * @module
 */
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import type { ToolLogger, ToolRegistry } from '../../tools/index.js';
import type { McpAuthIdentity, McpAuthOptions } from './mcp-auth-options.js';
import { toolScopes, type ToolScopes } from './tool-scopes.js';
import { DEFAULT_ALGORITHMS, createAccessTokenVerifier } from './verify-access-token.js';

/** A request's headers: Node's `IncomingHttpHeaders`, or a web `Headers`. */
export type HeaderSource = Readonly<Record<string, string | string[] | undefined>> | { get(name: string): string | null };

/** A refused request: answer with this status, these headers and a JSON-RPC error carrying `message`. */
export interface AuthRefusal {
  allowed: false;
  status: 401 | 403 | 503;
  message: string;
  headers: Record<string, string>;
}

export type AuthenticationResult = { allowed: true; authInfo: AuthInfo; identity: McpAuthIdentity } | AuthRefusal;

export interface McpAuthGate {
  /** The resource identifier tokens must be issued for. */
  readonly audience: string;
  /** Where the protected resource metadata is, as the 401's `resource_metadata` names it. */
  readonly resourceMetadataUrl: string;
  /** The protected resource metadata document when `pathname` is one of its well-known paths; `undefined` otherwise. */
  metadataFor(pathname: string): OAuthProtectedResourceMetadata | undefined;
  /** Checks the bearer token: the auth info to hand to the MCP transport (never the token), or the refusal. */
  authenticate(headers: HeaderSource): Promise<AuthenticationResult>;
  /** Refuses (403) when a `tools/call` among `messages` names a tool whose scopes `authInfo` does not carry. */
  authorize(authInfo: AuthInfo, messages: readonly JSONRPCMessage[]): AuthRefusal | undefined;
  /** The scopes of each served tool (shared with `tools/list`). */
  readonly scopes: ToolScopes;
}

const METADATA_PATH = '/.well-known/oauth-protected-resource';
const DEFAULT_CLOCK_TOLERANCE_SECONDS = 5;

/**
 * Builds the gate for `registry`'s tools. `serverUrl` is the server's own endpoint URL (the default audience); `endpointPath`
 * its path on this server (`/mcp`), for the path-aware metadata location.
 */
export function createMcpAuthGate(registry: ToolRegistry, options: McpAuthOptions, serverUrl: string, endpointPath: string, logger: ToolLogger): McpAuthGate {
  const issuer = checkedUrl(options.issuer, 'auth.issuer');
  const audience = options.audience === undefined ? serverUrl : checkedUrl(options.audience, 'auth.audience');
  if (options.jwksUrl !== undefined) checkedUrl(options.jwksUrl, 'auth.jwksUrl');
  const algorithms = options.algorithms ?? DEFAULT_ALGORITHMS;
  if (algorithms.length === 0 || algorithms.some((alg) => alg === 'none' || alg.startsWith('HS'))) {
    throw new InvalidArgumentError('auth.algorithms must name asymmetric JWS algorithms (such as RS256, ES256); "none" and HMAC (HS…) are refused.');
  }
  const scopes = toolScopes(registry, options);
  const verify = createAccessTokenVerifier({
    issuer,
    audience,
    jwksUrl: options.jwksUrl,
    algorithms,
    clockToleranceSeconds: options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS,
  });
  const audiencePath = new URL(audience).pathname.replace(/\/$/, '');
  const resourceMetadataUrl = new URL(`${METADATA_PATH}${audiencePath}`, audience).href;
  const metadataPaths = new Set([METADATA_PATH, `${METADATA_PATH}${audiencePath}`, `${METADATA_PATH}${endpointPath.replace(/\/$/, '')}`]);
  const metadata: OAuthProtectedResourceMetadata = {
    resource: audience,
    authorization_servers: [issuer],
    scopes_supported: [...scopes.supported],
    bearer_methods_supported: ['header'],
    ...(options.resourceName === undefined ? {} : { resource_name: options.resourceName }),
  };
  const challenge = (params: Record<string, string>) =>
    'Bearer ' +
    Object.entries({ ...params, resource_metadata: resourceMetadataUrl })
      .map(([key, value]) => `${key}="${quotable(value)}"`)
      .join(', ');

  return {
    audience,
    resourceMetadataUrl,
    scopes,
    metadataFor: (pathname) => (metadataPaths.has(pathname) ? structuredClone(metadata) : undefined),

    async authenticate(headers): Promise<AuthenticationResult> {
      const authorization = headerValue(headers, 'authorization');
      if (authorization === undefined || authorization === '') {
        return {
          allowed: false,
          status: 401,
          message: `Unauthorized: send an OAuth access token from ${issuer} as "Authorization: Bearer <token>". How to get one is in the protected resource metadata at ${resourceMetadataUrl}.`,
          headers: { 'WWW-Authenticate': challenge({ scope: scopes.supported.join(' ') }) },
        };
      }
      const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization);
      const verdict = match
        ? await verify(match[1]!)
        : { valid: false as const, rejection: { kind: 'invalid_token' as const, description: 'the Authorization header is not "Bearer <token>"' } };
      if (verdict.valid) {
        const { identity } = verdict;
        // The token itself stays here: the tools, the policy and the record get who it speaks for, never what would let them act as them.
        const authInfo = {
          clientId: identity.clientId ?? '',
          scopes: [...identity.scopes],
          expiresAt: identity.expiresAt,
          resource: new URL(audience),
          extra: { subject: identity.subject, issuer: identity.issuer },
        } as Omit<AuthInfo, 'token'> as AuthInfo;
        return { allowed: true, authInfo, identity };
      }
      const { rejection } = verdict;
      if (rejection.kind === 'unavailable') {
        logger.error(`cannot check access tokens: ${rejection.description}`, { error: rejection.cause });
        return {
          allowed: false,
          status: 503,
          message: `Service unavailable: the server could not read ${issuer}'s signing keys to check the access token. Try again later; the details are in the server's log.`,
          headers: { 'Retry-After': '5' },
        };
      }
      return {
        allowed: false,
        status: 401,
        message: `Unauthorized: ${rejection.description}. Get a new access token from ${issuer} for the resource ${audience} and send it as "Authorization: Bearer <token>".`,
        headers: { 'WWW-Authenticate': challenge({ error: 'invalid_token', error_description: rejection.description }) },
      };
    },

    authorize(authInfo, messages) {
      const granted = Array.isArray(authInfo.scopes) ? authInfo.scopes : [];
      const refused: string[] = [];
      const missing = new Set<string>();
      for (const message of messages) {
        if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) continue;
        const name = (message.params as { name?: unknown } | undefined)?.name;
        // An unknown tool is the server's to answer (-32602, with the names it has).
        if (typeof name !== 'string' || scopes.covers(name, granted)) continue;
        const needed = scopes.required(name);
        if (needed === undefined) continue;
        refused.push(name);
        for (const scope of needed) if (!granted.includes(scope)) missing.add(scope);
      }
      if (refused.length === 0) return undefined;
      const missingList = [...missing];
      const named = missingList.map((scope) => `"${scope}"`).join(' and ');
      const description = `calling ${refused.map((name) => `"${name}"`).join(', ')} needs the scope ${named}`;
      return {
        allowed: false,
        status: 403,
        message: `Forbidden: ${description}, which this access token does not carry. Get a token from ${issuer} with the scope ${named} and call again.`,
        headers: {
          // The scopes the token has and the ones it lacks, as the specification recommends, so that a client's step-up keeps what it had.
          'WWW-Authenticate': challenge({
            error: 'insufficient_scope',
            scope: [...new Set([...granted, ...missingList])].join(' '),
            error_description: description,
          }),
        },
      };
    },
  };
}

/** Who `authInfo` (as the gate made it) speaks for; `undefined` for auth info that another layer made. */
export function authIdentityOf(authInfo: AuthInfo | undefined): McpAuthIdentity | undefined {
  const extra = authInfo?.extra as { subject?: unknown; issuer?: unknown } | undefined;
  if (authInfo === undefined || typeof extra?.issuer !== 'string') return undefined;
  return {
    subject: typeof extra.subject === 'string' ? extra.subject : undefined,
    clientId: authInfo.clientId === '' ? undefined : authInfo.clientId,
    scopes: [...authInfo.scopes],
    issuer: extra.issuer,
    expiresAt: authInfo.expiresAt ?? 0,
  };
}

/** Whose session a request may use: the issuer, subject and client of the token that started it; `undefined` without `auth`. */
export function sessionOwnerOf(authInfo: AuthInfo | undefined): string | undefined {
  const identity = authIdentityOf(authInfo);
  return identity && JSON.stringify([identity.issuer, identity.subject ?? null, identity.clientId ?? null]);
}

function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const value = (headers as Readonly<Record<string, string | string[] | undefined>>)[name];
  return Array.isArray(value) ? value[0] : value;
}

function checkedUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`${name} must be an absolute URL, such as https://auth.example.com (got ${JSON.stringify(value)}).`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new InvalidArgumentError(`${name} must be an http(s) URL (got ${JSON.stringify(value)}).`);
  if (url.hash !== '') throw new InvalidArgumentError(`${name} must not have a fragment (got ${JSON.stringify(value)}).`);
  return value;
}

/** A value fit for a quoted-string in a header: printable ASCII without `"` or `\`. */
function quotable(value: string): string {
  return value.replace(/[^\x20-\x7E]|["\\]/g, "'");
}
