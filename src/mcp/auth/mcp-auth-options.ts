/**
 * The `auth` option of the MCP server: OAuth 2.1 as a resource server (the MCP specification's authorization, 2025-11-25),
 * and the identity a verified token gives each call (docs/mcp.md, "OAuth").
 * @module
 */

export interface McpAuthOptions {
  /** The authorization server's issuer URL, exactly as its tokens' `iss` claim writes it (`https://auth.example.com`). */
  issuer: string;
  /**
   * This server's resource identifier (RFC 8707), which every token's `aud` must contain: its public URL, such as
   * `https://mcp.example.com/mcp`. Default: the server's own URL (`serveHttp`'s handle `url`), right only when clients
   * reach it at that address.
   */
  audience?: string;
  /**
   * Where the issuer's signing keys are (a JWKS). Default: `jwks_uri` from the issuer's metadata, read on the first
   * request (`/.well-known/oauth-authorization-server`, then `/.well-known/openid-configuration`).
   */
  jwksUrl?: string;
  /** The JWS algorithms a token may be signed with. Default `RS256`, `PS256`, `ES256` and `EdDSA`; `none` and HMAC are never accepted. */
  algorithms?: readonly string[];
  /**
   * The scopes a tool needs, by tool name, instead of the mapping by effect (`readScope` for `effect: 'read'`, `writeScope`
   * for a write). A list needs every scope in it.
   */
  scopes?: Readonly<Record<string, string | readonly string[]>>;
  /** The scope a read tool needs. Default `tools:read`. */
  readScope?: string;
  /** The scope a write tool needs (destructive or not). Default `tools:write`. */
  writeScope?: string;
  /** Seconds of clock difference allowed when checking `exp` and `nbf`. Default 5. */
  clockToleranceSeconds?: number;
  /** `resource_name` in the protected resource metadata, for the consent screen. Default: none. */
  resourceName?: string;
}

/**
 * Who a verified token speaks for, as a call's `context` factory, its policy and the session's record see it: never the
 * token itself.
 */
export interface McpAuthIdentity {
  /** The token's `sub`: the user, or the client itself for a client-credentials token. */
  subject: string | undefined;
  /** The token's `client_id` (or `azp`). */
  clientId: string | undefined;
  /** The token's scopes (`scope`, or an `scp` list). */
  scopes: readonly string[];
  /** The token's issuer. */
  issuer: string;
  /** When the token expires, in seconds since the epoch. */
  expiresAt: number;
}
