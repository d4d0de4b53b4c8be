import { describe, expect, it } from 'vitest';
import { createRequestGuard, formatHostPort, isLoopbackHost } from './http-request-guard.js';

describe('createRequestGuard', () => {
  it('accepts the loopback names on the bound port, and nothing else', () => {
    const guard = createRequestGuard({ host: '127.0.0.1', port: 3000 });
    expect([...guard.allowedHosts]).toEqual(['127.0.0.1:3000', 'localhost:3000', '[::1]:3000']);
    expect(guard.check({ host: 'LOCALHOST:3000' })).toEqual({ allowed: true });
    expect(guard.check({ host: 'localhost:3001' }).allowed).toBe(false);
    expect(guard.check({ host: 'localhost:3000', origin: 'http://localhost:3000' })).toEqual({ allowed: true });
    expect(guard.check({ host: 'localhost:3000', origin: 'https://localhost:3000' }).allowed).toBe(false);
    expect(guard.check({})).toMatchObject({ allowed: false, status: 403, message: expect.stringContaining('Host header (missing)') });
  });

  it('adds the bind address, configured hosts and origins', () => {
    const guard = createRequestGuard({ host: '192.168.1.5', port: 80, allowedHosts: ['mcp.internal:8443'], allowedOrigins: ['https://App.example/'] });
    expect(guard.check({ host: '192.168.1.5' })).toEqual({ allowed: true });
    expect(guard.check({ host: 'mcp.internal:8443', origin: 'https://app.example' })).toEqual({ allowed: true });
  });

  it('checks the bearer token after the host', () => {
    const guard = createRequestGuard({ host: '127.0.0.1', port: 3000, authToken: 'secret' });
    expect(guard.check({ host: '127.0.0.1:3000', authorization: 'Bearer secret' })).toEqual({ allowed: true });
    expect(guard.check({ host: '127.0.0.1:3000', authorization: 'bearer  secret ' })).toEqual({ allowed: true });
    expect(guard.check({ host: '127.0.0.1:3000', authorization: 'Bearer secre' })).toMatchObject({
      allowed: false,
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer realm="toolwright"' },
    });
    expect(guard.check({ host: '127.0.0.1:3000', authorization: 'Basic c2VjcmV0' })).toMatchObject({ allowed: false, status: 401 });
  });
});

describe('host helpers', () => {
  it('recognizes loopback addresses and brackets IPv6', () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'].map(isLoopbackHost)).toEqual([true, true, true, true, true]);
    expect(['0.0.0.0', '10.0.0.1', 'example.com'].map(isLoopbackHost)).toEqual([false, false, false]);
    expect(formatHostPort('::1', 8080)).toBe('[::1]:8080');
    expect(formatHostPort('localhost', 8080)).toBe('localhost:8080');
  });
});
