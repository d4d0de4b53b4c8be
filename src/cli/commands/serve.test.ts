import { request } from 'node:http';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { Command, CommanderError } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServe } from '../../../test/mcp/serve-cli.js';
import type { ServingCli } from '../../../test/mcp/serve-cli.js';
import { httpServeOptions, parseHostPort, registerServeCommand } from './serve.js';
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
    for (const value of ['nope', '127.0.0.1', 'host:99999', 'a:b:1']) expect(() => parseHostPort(value)).toThrow('expected host:port, such as 127.0.0.1:3000 (or a bare port).');
  });
});

/** Parses a `serve` command line without serving: the action only records the options it was given. */
async function parseServe(args: string[]): Promise<ServeOptions> {
  const program = new Command().exitOverride();
  registerServeCommand(program);
  const serve = program.commands.find((command) => command.name() === 'serve')!;
  let parsed: ServeOptions | undefined;
  serve.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  serve.action((options: ServeOptions) => {
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

  it('leaves the caps to serveHttp\'s defaults when the flags are absent', async () => {
    expect(httpServeOptions(await parseServe(['--http']))).toEqual({ host: '127.0.0.1', port: 3000 });
  });

  it('refuses a cap that is not a positive whole number, saying what it expected', async () => {
    for (const [flag, value] of [['--max-sessions', '0'], ['--max-streams', '-3'], ['--max-streams-per-session', '1.5'], ['--max-streams', 'many']] as const) {
      const parsing = parseServe(['--http', ':0', flag, value]);
      await expect(parsing).rejects.toBeInstanceOf(CommanderError);
      await expect(parsing).rejects.toThrow(`expected a positive whole number, got "${value}".`);
    }
  });
});

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'caps', version: '1' } } });

function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...MCP_HEADERS, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function openSession(url: string): Promise<Record<string, string>> {
  const init = await post(url, INITIALIZE);
  expect(init.status).toBe(200);
  const headers = { 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-11-25' };
  await post(url, '{"jsonrpc":"2.0","method":"notifications/initialized"}', headers);
  return headers;
}

/** A session's GET (notification) stream, held open; `ended` turns true when the server ends it cleanly. */
function holdGetStream(url: string, headers: Record<string, string>): { request: ClientRequest; opened: Promise<number>; ended: () => boolean } {
  let ended = false;
  let markOpened: (status: number) => void = () => {};
  const opened = new Promise<number>((resolve) => (markOpened = resolve));
  const req = request(url, { method: 'GET', headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
    markOpened(res.statusCode ?? 0);
    res.resume();
    res.on('end', () => (ended = true));
  });
  req.on('error', () => markOpened(0));
  req.end();
  return { request: req, opened, ended: () => ended };
}

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 500 && !condition(); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
}

const CALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'test_simple_text', arguments: {} } });

describe('toolwright serve --http with stream caps (the real CLI)', () => {
  let cli: ServingCli | undefined;
  let get: ClientRequest | undefined;
  afterEach(async () => {
    get?.destroy();
    await cli?.stop();
    cli = undefined;
  });

  it('evicts by --max-streams-per-session and --max-sessions', async () => {
    cli = await startHttpServe(['--max-sessions', '1', '--max-streams-per-session', '1']);
    const first = await openSession(cli.url);
    const stream = holdGetStream(cli.url, first);
    get = stream.request;
    expect(await stream.opened).toBe(200);

    // A second stream of the same session: the held GET stream makes way, and the call is answered.
    const answered = await post(cli.url, CALL, first);
    expect(answered.status).toBe(200);
    expect(answered.body).toContain('"result"');
    await until(stream.ended);
    expect(stream.ended()).toBe(true);

    // A second session: the first one is closed to make room.
    await openSession(cli.url);
    const evicted = await post(cli.url, CALL, first);
    expect(evicted.status).toBe(404);
    expect(evicted.body).toContain('Session not found');
  }, 60_000);
});
