/**
 * Verifies an OAuth 2.1 bearer token as the MCP server's resource-server side needs: a JWT signed by a key from the
 * issuer's JWKS with an allowed algorithm, issued by the configured issuer, for this server's audience (RFC 8707), not
 * expired. `jose` does the cryptography and the claim checks; it loads on the first token, so `toolwright/mcp` does
 * not need it unless `auth` is used.
 * @module
 */
import type * as JoseModule from 'jose';
import { MissingPeerError } from '../../shared/errors.js';
import { loadPeer } from '../../shared/load-peer.js';
import type { McpAuthIdentity } from './mcp-auth-options.js';

const KEY_SET_FAILURES = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID', 'ERR_JOSE_GENERIC']);

export const DEFAULT_ALGORITHMS: readonly string[] = ['RS256', 'PS256', 'ES256', 'EdDSA'];

export interface AccessTokenVerifierOptions {
  issuer: string;
  audience: string;
  jwksUrl: string | undefined;
  algorithms: readonly string[];
  clockToleranceSeconds: number;
}

/** Why a token was refused: `invalid_token` (401, the client should get another token) or `unavailable` (the keys could not be read). */
export type TokenRejection = { kind: 'invalid_token'; description: string } | { kind: 'unavailable'; description: string; cause: unknown };

export type TokenVerdict = { valid: true; identity: McpAuthIdentity } | { valid: false; rejection: TokenRejection };

export type AccessTokenVerifier = (token: string) => Promise<TokenVerdict>;

type Jose = typeof JoseModule;

export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  let keys: Promise<{ jose: Jose; jwks: ReturnType<Jose['createRemoteJWKSet']> }> | undefined;
  const loadKeys = async () => {
    const jose = await loadPeer('jose', 'The MCP server option `auth`', () => import('jose'));
    const jwksUrl = options.jwksUrl ?? (await discoverJwksUrl(options.issuer));
    return { jose, jwks: jose.createRemoteJWKSet(new URL(jwksUrl)) };
  };

  return async (token) => {
    let loaded;
    try {
      loaded = await (keys ??= loadKeys());
    } catch (cause) {
      // Not kept: the next request tries the discovery again (the authorization server may have been down).
      keys = undefined;
      // Without jose installed, the log says which package to install.
      const description = cause instanceof MissingPeerError ? cause.message : "the authorization server's keys could not be read";
      return { valid: false, rejection: { kind: 'unavailable', description, cause } };
    }
    try {
      const { payload } = await loaded.jose.jwtVerify(token, loaded.jwks, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: [...options.algorithms],
        clockTolerance: options.clockToleranceSeconds,
        requiredClaims: ['exp'],
      });
      return { valid: true, identity: identityOf(payload, options.issuer) };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      // A key set that could not be fetched or read (a network failure, a non-200 answer, a timeout) says nothing about the token.
      if (KEY_SET_FAILURES.has(String(code)) || (typeof code !== 'string' && !(error instanceof loaded.jose.errors.JOSEError))) {
        return { valid: false, rejection: { kind: 'unavailable', description: "the authorization server's keys could not be read", cause: error } };
      }
      return { valid: false, rejection: { kind: 'invalid_token', description: describeRejection(error, options) } };
    }
  };
}

/** Reads `jwks_uri` from the issuer's metadata: RFC 8414's well-known path first, then OpenID Connect Discovery's. */
async function discoverJwksUrl(issuer: string): Promise<string> {
  const base = new URL(issuer);
  const path = base.pathname === '/' ? '' : base.pathname.replace(/\/$/, '');
  const candidates = [
    new URL(`/.well-known/oauth-authorization-server${path}`, base),
    new URL(`${path}/.well-known/openid-configuration`, base),
    new URL(`/.well-known/openid-configuration${path}`, base),
  ];
  for (const url of candidates) {
    const response = await fetch(url, { headers: { Accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(10_000) });
    if (!response.ok) {
      await response.body?.cancel();
      continue;
    }
    const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    // RFC 8414 §3.3: metadata that names another issuer must not be used.
    if (metadata.issuer !== issuer) throw new Error(`the metadata at ${url.href} names the issuer ${String(metadata.issuer)}, not ${issuer}`);
    if (typeof metadata.jwks_uri !== 'string') throw new Error(`the metadata at ${url.href} has no jwks_uri`);
    return metadata.jwks_uri;
  }
  throw new Error(`no authorization server metadata found for ${issuer}`);
}

function identityOf(payload: Record<string, unknown>, issuer: string): McpAuthIdentity {
  const scope = payload.scope;
  const scp = payload.scp;
  const scopes = typeof scope === 'string' ? scope.split(' ').filter(Boolean) : Array.isArray(scp) ? scp.filter((s) => typeof s === 'string') : [];
  const clientId = typeof payload.client_id === 'string' ? payload.client_id : typeof payload.azp === 'string' ? payload.azp : undefined;
  return {
    subject: typeof payload.sub === 'string' ? payload.sub : undefined,
    clientId,
    scopes,
    issuer,
    expiresAt: payload.exp as number,
  };
}

function describeRejection(error: unknown, options: AccessTokenVerifierOptions): string {
  const { code, claim } = error as { code?: string; claim?: string };
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'the token has expired';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (claim === 'aud') return `the token was not issued for this server (its audience is not ${options.audience})`;
      if (claim === 'iss') return `the token was not issued by ${options.issuer}`;
      if (claim === 'exp') return 'the token has no expiry';
      return `the token's "${claim ?? 'unknown'}" claim is not valid`;
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return `the token is signed with an algorithm this server does not accept (it accepts ${options.algorithms.join(', ')})`;
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return "the token's signature does not match the authorization server's keys";
    default:
      return 'the token is not a valid signed JWT';
  }
}
