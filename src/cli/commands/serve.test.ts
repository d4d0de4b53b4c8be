import { Command, CommanderError } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { holdOpen, openSession, post, settle } from '../../../test/mcp/raw-http-session.js';
import { CONFORMANCE_PACK, startHttpServe } from '../../../test/mcp/serve-cli.js';
import type { ServingCli } from '../../../test/mcp/serve-cli.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpServeOptions, openTaskStore, parseHostPort, registerServeCommand, sessionLimits, sessionRecord } from './serve.js';
import type { ServeOptions } from './serve.js';

describe('serve --http parsing', () => {
  it('accepts host:port, IPv6 in brackets, :port and a bare port', () => {
    expect(parseHostPort('127.0.0.1:3000')).toEqual({ host: '127.0.0.1', port: 3000 });
    expect(parseHostPort('localhost:0')).toEqual({ host: 'localhost', port: 0 });
    expect(parseHostPort('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseHostPort(':4000')).toEqual({ host: '127.0.0.1', port: 4000 });
    expect(parseHostPort('5000')).toEqual({ host: '127.0.0.1', port: 5000 });
  });

  it('refuses anything else', () => {
    for (const value of ['nope', '127.0.0.1', 'host:99999', 'a:b:1'])
      expect(() => parseHostPort(value)).toThrow('expected host:port, such as 127.0.0.1:3000 (or a bare port).');
  });
});

/** Parses a `serve` command line without serving: the action only records the options it was given. */
async function parseServe(args: string[]): Promise<ServeOptions> {
  const program = new Command().exitOverride();
  registerServeCommand(program);
  const serve = program.commands.find((command) => command.name() === 'serve')!;
  let parsed: ServeOptions | undefined;
  serve.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  serve.action((_module: string | undefined, options: ServeOptions) => {
    parsed = options;
  });
  await program.parseAsync(['serve', '--tools', 'pack.ts', ...args], { from: 'user' });
  return parsed!;
}

describe('serve --http stream caps', () => {
  it('passes --max-sessions, --max-streams and --max-streams-per-session to serveHttp', async () => {
    const options = await parseServe(['--http', ':0', '--max-sessions', '7', '--max-streams', '9', '--max-streams-per-session', '2', '--max-body', '1024']);
    expect(httpServeOptions(options)).toEqual({ host: '127.0.0.1', port: 0, maxSessions: 7, maxStreams: 9, maxStreamsPerSession: 2, maxBodyBytes: 1024 });
  });

  it("leaves the caps to serveHttp's defaults when the flags are absent", async () => {
    expect(httpServeOptions(await parseServe(['--http']))).toEqual({ host: '127.0.0.1', port: 3000 });
  });

  it('refuses a cap that is not a positive whole number, saying what it expected', async () => {
    for (const [flag, value] of [
      ['--max-sessions', '0'],
      ['--max-streams', '-3'],
      ['--max-streams-per-session', '1.5'],
      ['--max-streams', 'many'],
    ] as const) {
      const parsing = parseServe(['--http', ':0', flag, value]);
      await expect(parsing).rejects.toBeInstanceOf(CommanderError);
      await expect(parsing).rejects.toThrow(`expected a positive whole number, got "${value}".`);
    }
  });
});

describe('serve session bounds', () => {
  it('passes --max-pending-calls and --stopped-call-grace-ms to the server of either transport', async () => {
    expect(sessionLimits(await parseServe(['--max-pending-calls', '3', '--stopped-call-grace-ms', '250']))).toEqual({
      maxPendingCalls: 3,
      stoppedCallGraceMs: 250,
    });
    expect(sessionLimits(await parseServe([]))).toEqual({});
    await expect(parseServe(['--max-pending-calls', '0'])).rejects.toThrow('expected a positive whole number, got "0".');
  });

  it("passes --max-tool-calls and the loop breaker's limits as the server's per-session `limits`", async () => {
    expect(sessionLimits(await parseServe(['--max-tool-calls', '16', '--max-identical-calls', '4', '--max-repeated-failures', '2']))).toEqual({
      limits: { maxToolCalls: 16, maxIdenticalCalls: 4, maxRepeatedFailures: 2 },
    });
    expect(sessionLimits(await parseServe(['--max-tool-calls', '3']))).toEqual({ limits: { maxToolCalls: 3 } });
    await expect(parseServe(['--max-tool-calls', '0'])).rejects.toThrow('expected a positive whole number, got "0".');
  });

  it("passes --record-dir as the server's `recordDir`, and none without it", async () => {
    expect(sessionRecord(await parseServe(['--record-dir', 'runs/mcp']))).toEqual({ recordDir: 'runs/mcp' });
    expect(sessionRecord(await parseServe([]))).toEqual({});
  });
});

describe('serve --oauth-*', () => {
  it("passes --oauth-issuer, --oauth-audience and --oauth-jwks-url as serveHttp's `auth`", async () => {
    const options = await parseServe(['--http', ':0', '--oauth-issuer', 'https://auth.example.com', '--oauth-audience', 'https://mcp.example.com/mcp']);
    expect(httpServeOptions(options)).toEqual({
      host: '127.0.0.1',
      port: 0,
      auth: { issuer: 'https://auth.example.com', audience: 'https://mcp.example.com/mcp' },
    });
    const withKeys = await parseServe(['--http', '--oauth-issuer', 'https://auth.example.com', '--oauth-jwks-url', 'https://auth.example.com/keys']);
    expect(httpServeOptions(withKeys).auth).toEqual({ issuer: 'https://auth.example.com', jwksUrl: 'https://auth.example.com/keys' });
  });

  it('refuses --oauth-audience without --oauth-issuer', async () => {
    expect(() => httpServeOptions({ tools: 'pack.ts', http: true, oauthAudience: 'https://mcp.example.com/mcp' })).toThrow(
      '--oauth-audience and --oauth-jwks-url need --oauth-issuer',
    );
  });
});

describe('serve takes its tool module positionally too', () => {
  it('serves `toolwright serve <module> --http` as it serves --tools', async () => {
    const serving = await startHttpServe([], CONFORMANCE_PACK, 'positional');
    try {
      expect(serving.stderr()).toMatch(/serving \d+ tools?.* from \S*mcp-conformance\/tools\.ts at http/);
    } finally {
      await serving.stop();
    }
  });
});

describe('serve --task-store', () => {
  it('opens a SQLite file, or PostgreSQL for a postgres:// URL, naming the server without its password', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-serve-tasks-'));
    try {
      const options = await parseServe(['--task-store', join(dir, 'tasks.db')]);
      const sqlite = await openTaskStore(options.taskStore!);
      expect(sqlite.where).toBe(join(dir, 'tasks.db'));
      expect(await sqlite.store.getTask('none', Date.now())).toBeUndefined();
      await sqlite.store.close();
      // Nothing listens on port 1: the PostgreSQL store's own error, which names the server and never the password.
      const refused = openTaskStore('postgres://tw:s3cret-password@127.0.0.1:1/tasks');
      await expect(refused).rejects.toThrow(/Cannot open the PostgreSQL task store/);
      await expect(refused).rejects.not.toThrow(/s3cret-password/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const CALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'test_simple_text', arguments: {} } });

describe('toolwright serve --http with stream caps (the real CLI)', () => {
  let cli: ServingCli | undefined;
  let get: ReturnType<typeof holdOpen> | undefined;
  afterEach(async () => {
    get?.request.destroy();
    await cli?.stop();
    cli = undefined;
  });

  it('evicts by --max-streams-per-session and --max-sessions', async () => {
    cli = await startHttpServe(['--max-sessions', '1', '--max-streams-per-session', '1']);
    const first = await openSession(cli.url);
    const stream = holdOpen(cli.url, 'GET', first);
    get = stream;
    expect(await stream.opened).toBe(200);

    // A second stream of the same session: the held GET stream makes way, and the call is answered.
    const answered = await post(cli.url, CALL, first);
    expect(answered.status).toBe(200);
    expect(answered.body).toContain('"result"');
    await settle(() => stream.ended !== undefined);
    expect(stream.ended).toBe('end');

    // A second session: the first one is closed to make room.
    await openSession(cli.url);
    const evicted = await post(cli.url, CALL, first);
    expect(evicted.status).toBe(404);
    expect(evicted.body).toContain('Session not found');
  }, 60_000);
});
