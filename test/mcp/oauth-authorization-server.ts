/**
 * A real OAuth 2.1 authorization server for the MCP OAuth tests: oidc-provider on 127.0.0.1 with dynamic client
 * registration, PKCE and resource indicators (RFC 8707), so that its access tokens are JWTs whose audience is the MCP
 * server. Its login and consent are completed by code (user `alice` grants every scope asked for), and `browse` plays
 * the user agent: it follows the authorization redirects with the provider's cookies until the client's redirect URI.
 * `mint` signs tokens with the key the provider's JWKS serves, for the cases the provider would never issue (expired,
 * another audience).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

export interface AuthorizationServer {
  issuer: string;
  /** Follows an authorization URL as a browser would (login and consent done by code); returns the code sent to the redirect URI. */
  browse(authorizationUrl: URL, redirectUri: string): Promise<string>;
  /** A JWT signed by the provider's own key (the one its JWKS serves), with these claims over sensible defaults. */
  mint(claims: Record<string, unknown>, options?: { expiresIn?: number; alg?: string }): Promise<string>;
  close(): Promise<void>;
}

const KID = 'test-key-1';
/** A public client the provider knows from the start (no registration), with this redirect URI. */
export const PRE_REGISTERED_CLIENT = 'toolwright-pre-registered';
export const PRE_REGISTERED_REDIRECT = 'http://127.0.0.1:9/pre-registered-callback';

export async function startAuthorizationServer(resourceServer: () => string, options: { tokenTtlSeconds?: number } = {}): Promise<AuthorizationServer> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: KID, alg: 'ES256', use: 'sig' };
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    clients: [
      {
        client_id: PRE_REGISTERED_CLIENT,
        token_endpoint_auth_method: 'none',
        redirect_uris: [PRE_REGISTERED_REDIRECT],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    scopes: ['openid', 'offline_access', 'tools:read', 'tools:write'],
    // Set, so that the provider does not print a notice for each default it falls back on.
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    cookies: { keys: ['a cookie key for the test only'] },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resourceServer(),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => ({
          scope: 'tools:read tools:write',
          audience: indicator,
          accessTokenFormat: 'jwt',
          accessTokenTTL: options.tokenTtlSeconds ?? 600,
          jwt: { sign: { alg: 'ES256' } },
        }),
      },
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, accountId: string) => ({ accountId, claims: () => ({ sub: accountId }) }),
  });
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      completeInteraction(provider, req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    provider.callback()(req, res);
  });
  // The provider logs through `debug` only; its server errors would otherwise pass unseen.
  provider.on('server_error', (_ctx, error) => console.error('oidc-provider server_error', error));

  return {
    issuer,
    async browse(authorizationUrl, redirectUri) {
      const cookies = new Map<string, string>();
      let url = authorizationUrl.href;
      for (let hop = 0; hop < 10; hop++) {
        if (url.startsWith(redirectUri)) {
          const callback = new URL(url);
          const code = callback.searchParams.get('code');
          if (code === null) throw new Error(`the authorization server refused: ${callback.searchParams.toString()}`);
          return code;
        }
        const response = await fetch(url, { redirect: 'manual', headers: { Cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
        for (const line of response.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const index = pair!.indexOf('=');
          cookies.set(pair!.slice(0, index), pair!.slice(index + 1));
        }
        const location = response.headers.get('location');
        if (location === null) throw new Error(`${url} answered ${response.status} without a redirect: ${await response.text()}`);
        await response.body?.cancel();
        url = new URL(location, url).href;
      }
      throw new Error('too many redirects');
    },
    async mint(claims, { expiresIn = 300, alg = 'ES256' } = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: issuer, aud: resourceServer(), sub: 'alice', client_id: 'minted-client', iat: now, exp: now + expiresIn, ...claims })
        .setProtectedHeader({ alg, kid: KID, typ: 'at+jwt' })
        .sign(privateKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Logs `alice` in, and grants every scope and resource scope the client asked for. */
async function completeInteraction(provider: Provider, req: Parameters<Provider['interactionDetails']>[0], res: Parameters<Provider['interactionDetails']>[1]) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: 'alice' } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant =
    (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
    new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id });
  const { missingOIDCScope, missingResourceScopes } = details.prompt.details;
  if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
  for (const [indicator, scopes] of Object.entries(missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
  await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
}
