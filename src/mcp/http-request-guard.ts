/**
 * The checks every HTTP request passes before it reaches MCP: `Host` and
 * `Origin` against DNS rebinding (a web page on evil.example resolving its
 * name to 127.0.0.1 still sends `Host: evil.example`), then the optional
 * bearer token.
 * @module
 */
import { constantTimeEqual } from '../shared/bytes.js';
import { sha256Digest } from '../shared/sha256.js';
import type { IncomingHttpHeaders } from 'node:http';

export type GuardResult = { allowed: true } | { allowed: false; status: 401 | 403; message: string; headers?: Record<string, string> };

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** Whether `host` (as given to `listen`) only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** `host:port` for a URL: IPv6 literals get brackets. */
export function formatHostPort(host: string, port: number): string {
  return `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

export interface RequestGuardOptions {
  /** The address the server listens on. */
  host: string;
  port: number;
  /** More `Host` values to accept (`name:port`), for a reverse proxy. */
  allowedHosts?: readonly string[];
  /** More `Origin` values to accept (`https://app.example`), for browser clients. */
  allowedOrigins?: readonly string[];
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  authToken?: string;
  /** How a refusal tells the operator to accept a host or an origin. Default: the CLI's flags (`--allowed-host`, `--allowed-origin`). */
  allowAdvice?: { host: string; origin: string };
}

export interface RequestGuard {
  check(headers: IncomingHttpHeaders): GuardResult;
  readonly allowedHosts: ReadonlySet<string>;
  readonly allowedOrigins: ReadonlySet<string>;
}

export function createRequestGuard(options: RequestGuardOptions): RequestGuard {
  const names = new Set(LOOPBACK_NAMES);
  if (!isLoopbackHost(options.host) && options.host !== '0.0.0.0' && options.host !== '::')
    names.add(formatHostPort(options.host, options.port).replace(/:\d+$/, ''));
  const allowedHosts = new Set<string>();
  for (const name of names) {
    allowedHosts.add(`${name}:${options.port}`.toLowerCase());
    if (options.port === 80) allowedHosts.add(name.toLowerCase());
  }
  for (const host of options.allowedHosts ?? []) allowedHosts.add(host.toLowerCase());
  const allowedOrigins = new Set<string>([...allowedHosts].map((host) => `http://${host}`));
  for (const origin of options.allowedOrigins ?? []) allowedOrigins.add(origin.toLowerCase().replace(/\/$/, ''));
  const tokenDigest = options.authToken === undefined ? undefined : digest(options.authToken);
  const advice = options.allowAdvice ?? { host: 'use --allowed-host to add one', origin: 'Use --allowed-origin to let a browser page at that origin connect' };

  return {
    allowedHosts,
    allowedOrigins,
    check(headers) {
      const host = headers.host;
      if (typeof host !== 'string' || !allowedHosts.has(host.toLowerCase())) {
        return {
          allowed: false,
          status: 403,
          message: `Forbidden: Host header ${describe(host)} is not allowed. This server accepts ${[...allowedHosts].join(', ')}; ${advice.host}.`,
        };
      }
      const origin = headers.origin;
      if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase())) {
        return {
          allowed: false,
          status: 403,
          message: `Forbidden: Origin ${describe(origin)} is not allowed. ${advice.origin}.`,
        };
      }
      if (tokenDigest !== undefined) {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
        if (!match || !constantTimeEqual(digest(match[1]!), tokenDigest)) {
          return {
            allowed: false,
            status: 401,
            message: 'Unauthorized: send the server\'s token as "Authorization: Bearer <token>".',
            headers: { 'WWW-Authenticate': 'Bearer realm="toolwright"' },
          };
        }
      }
      return { allowed: true };
    },
  };
}

function digest(value: string): string {
  // Comparing fixed-length digests keeps the comparison constant-time whatever the token's length.
  return sha256Digest(value, 'base64url');
}

function describe(value: string | undefined): string {
  if (value === undefined) return '(missing)';
  return JSON.stringify(value.length > 100 ? value.slice(0, 99) + '…' : value);
}
