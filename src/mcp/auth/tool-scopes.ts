/**
 * Which OAuth scopes each served tool needs: `tools:read` for `effect: 'read'`, `tools:write` for a write, or what the
 * `auth.scopes` option names for that tool. One table per server, read by `tools/list` (a tool the token's scopes do not
 * cover is not listed) and by the HTTP layer (calling it is refused with 403 `insufficient_scope`).
 * @module
 */
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import type { ToolRegistry } from '../../tools/index.js';
import type { McpAuthOptions } from './mcp-auth-options.js';

export interface ToolScopes {
  /** The scopes `toolName` needs; `undefined` for a tool this server does not serve. */
  required(toolName: string): readonly string[] | undefined;
  /** Whether `scopes` include every scope `toolName` needs (false for an unknown tool). */
  covers(toolName: string, scopes: readonly string[] | undefined): boolean;
  /** Every scope some tool needs, the defaults first: the metadata's `scopes_supported`. */
  readonly supported: readonly string[];
}

export function toolScopes(registry: ToolRegistry, options: Pick<McpAuthOptions, 'scopes' | 'readScope' | 'writeScope'>): ToolScopes {
  const readScope = options.readScope ?? 'tools:read';
  const writeScope = options.writeScope ?? 'tools:write';
  const overrides = options.scopes ?? {};
  for (const name of Object.keys(overrides)) {
    if (!registry.has(name)) throw new InvalidArgumentError(`auth.scopes names "${name}", which is not a served tool. Remove it, or check the tool's name.`);
  }
  const byTool = new Map<string, readonly string[]>();
  for (const tool of registry.list()) {
    const override = Object.hasOwn(overrides, tool.name) ? overrides[tool.name] : undefined;
    const scopes = override === undefined ? [tool.effect === 'read' ? readScope : writeScope] : typeof override === 'string' ? [override] : [...override];
    if (scopes.length === 0 || scopes.some((scope) => typeof scope !== 'string' || !/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(scope))) {
      throw new InvalidArgumentError(
        `auth.scopes for "${tool.name}" must be one or more scope names (printable ASCII, no space, quote or backslash, RFC 6749 §3.3).`,
      );
    }
    byTool.set(tool.name, scopes);
  }
  const supported = new Set<string>();
  for (const scope of [readScope, writeScope]) if ([...byTool.values()].some((scopes) => scopes.includes(scope))) supported.add(scope);
  for (const scopes of byTool.values()) for (const scope of scopes) supported.add(scope);
  return {
    required: (toolName) => byTool.get(toolName),
    covers(toolName, scopes) {
      const needed = byTool.get(toolName);
      return needed !== undefined && scopes !== undefined && needed.every((scope) => scopes.includes(scope));
    },
    supported: [...supported],
  };
}

/** The scopes a request's auth info carries (what the HTTP layer verified); `undefined` when it carries none. */
export function grantedScopes(authInfo: AuthInfo | undefined): readonly string[] | undefined {
  return Array.isArray(authInfo?.scopes) ? authInfo.scopes : undefined;
}
