/**
 * Fuzz: thousands of malformed and randomized JSON-RPC messages against
 * `toolwright serve` over stdio and over HTTP. Every message gets the answer
 * the specification gives it (-32700, -32600, -32601, -32602, -32002, a
 * result, or nothing), the server process stays up, and it reports no
 * unhandled rejection. Seeded, bounded in count; no timing assertions.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAnswer, generateFuzzMessages } from './fuzz-messages.js';
import type { FuzzMessage } from './fuzz-messages.js';
import { CONFORMANCE_PACK, ROOT, cliCommand, startHttpServe } from './serve-cli.js';
import type { ServingCli } from './serve-cli.js';

const MESSAGES_PER_TRANSPORT = 2000;
const ANSWER_TIMEOUT_MS = 10_000;
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
};
const UNHANDLED = /unhandled|UnhandledPromiseRejection|triggerUncaughtException/i;

type Answer = Record<string, unknown>;

/** A line-oriented JSON-RPC peer over a child's stdin/stdout. */
class StdioPeer {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #received: Answer[] = [];
  #wake: (() => void) | undefined;
  #buffer = '';
  readonly nonJsonLines: string[] = [];

  constructor(child: ChildProcessWithoutNullStreams) {
    this.#child = child;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      this.#buffer += chunk;
      let newline: number;
      while ((newline = this.#buffer.indexOf('\n')) !== -1) {
        const line = this.#buffer.slice(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        try {
          this.#received.push(JSON.parse(line) as Answer);
        } catch {
          this.nonJsonLines.push(line);
        }
        this.#wake?.();
      }
    });
  }

  send(text: string): void {
    this.#child.stdin.write(text + '\n');
  }

  /** Waits until `done(received)` holds, then returns and clears everything received. */
  async collect(done: (received: readonly Answer[]) => boolean): Promise<Answer[]> {
    const deadline = Date.now() + ANSWER_TIMEOUT_MS;
    while (!done(this.#received)) {
      if (Date.now() > deadline) break;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        setTimeout(resolve, 50);
      });
    }
    return this.#received.splice(0);
  }
}

describe('fuzz over stdio', () => {
  let child: ChildProcessWithoutNullStreams;
  let stderr = '';
  let peer: StdioPeer;
  beforeAll(async () => {
    const [command, args] = cliCommand('serve', '--tools', CONFORMANCE_PACK);
    child = spawn(command, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    peer = new StdioPeer(child);
    peer.send(JSON.stringify(INITIALIZE));
    const [initialized] = await peer.collect((received) => received.length > 0);
    expect(initialized).toMatchObject({ id: 'init', result: { serverInfo: { name: 'toolwright' } } });
    peer.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  }, 60_000);
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGTERM');
  });

  it(`answers ${MESSAGES_PER_TRANSPORT} fuzzed messages correctly and stays up`, async () => {
    const problems: string[] = [];
    const messages = generateFuzzMessages(20240601, MESSAGES_PER_TRANSPORT);
    for (const [index, message] of messages.entries()) {
      const barrier = `barrier-${index}`;
      peer.send(message.text);
      // A ping after each message: every answer to the message itself is written before the ping's (or carries the message's own id).
      peer.send(JSON.stringify({ jsonrpc: '2.0', id: barrier, method: 'ping' }));
      const expectedId = 'id' in message.expect ? message.expect.id : undefined;
      const received = await peer.collect(
        (all) =>
          all.some((answer) => answer.id === barrier) && (expectedId === undefined || expectedId === null || all.some((answer) => answer.id === expectedId)),
      );
      if (!received.some((answer) => answer.id === barrier)) problems.push(`no answer to the ping after: ${message.text.slice(0, 200)}`);
      const problem = checkAnswer(
        message,
        received.filter((answer) => answer.id !== barrier),
      );
      if (problem) problems.push(problem);
      if (problems.length >= 10) break;
    }
    expect(problems).toEqual([]);
    expect(peer.nonJsonLines).toEqual([]);

    // Still serving normally.
    peer.send(JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'tools/call', params: { name: 'test_simple_text' } }));
    const [after] = await peer.collect((all) => all.length > 0);
    expect(after).toEqual({
      jsonrpc: '2.0',
      id: 'after',
      result: { content: [{ type: 'text', text: 'This is a simple text response for testing.' }], isError: false },
    });
    expect(child.exitCode).toBeNull();
    expect(stderr).not.toMatch(UNHANDLED);
  }, 180_000);

  it('exits cleanly when the client closes stdin', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdin.end();
    expect(await exited).toBe(0);
  }, 30_000);
});

interface HttpAnswer {
  status: number;
  contentType: string;
  body: string;
  sessionId?: string;
}

function post(url: string, body: string, headers: Record<string, string>, method = 'POST'): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      const sessionId = res.headers['mcp-session-id'];
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          body: text,
          ...(typeof sessionId === 'string' ? { sessionId } : {}),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

function answersOf(response: HttpAnswer): Answer[] {
  if (response.status === 202 || response.body === '') return [];
  if (response.contentType.startsWith('application/json')) return [JSON.parse(response.body) as Answer];
  return response.body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Answer);
}

describe('fuzz over Streamable HTTP', () => {
  let server: ServingCli;
  let headers: Record<string, string>;
  beforeAll(async () => {
    server = await startHttpServe();
    const base = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const init = await post(server.url, JSON.stringify(INITIALIZE), base);
    expect(init.status).toBe(200);
    const sessionId = init.sessionId!;
    headers = { ...base, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    await post(server.url, '{"jsonrpc":"2.0","method":"notifications/initialized"}', headers);
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });

  it(`answers ${MESSAGES_PER_TRANSPORT} fuzzed messages correctly and stays up`, async () => {
    const problems: string[] = [];
    const messages = generateFuzzMessages(19700101, MESSAGES_PER_TRANSPORT);
    const check = async (message: FuzzMessage) => {
      const response = await post(server.url, message.text, headers);
      const expectedStatus =
        message.expect.kind === 'none' ? 202 : message.expect.kind === 'error' && [-32700, -32600].includes(message.expect.code) ? 400 : 200;
      if (response.status !== expectedStatus)
        problems.push(
          `HTTP ${response.status} (expected ${expectedStatus}) for ${message.category} ${message.text.slice(0, 200)}: ${response.body.slice(0, 200)}`,
        );
      const problem = checkAnswer(message, answersOf(response));
      if (problem) problems.push(problem);
    };
    // Four at a time, as a client with parallel calls would send them.
    for (let start = 0; start < messages.length && problems.length < 10; start += 4) await Promise.all(messages.slice(start, start + 4).map(check));
    expect(problems).toEqual([]);
    expect(server.child.exitCode).toBeNull();
    expect(server.stderr()).not.toMatch(UNHANDLED);
  }, 180_000);

  it('answers malformed HTTP requests with 4xx and a JSON-RPC error body, never a stack trace', async () => {
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    const cases: [string, Record<string, string>, string, number][] = [
      ['POST', { ...headers, Accept: 'text/html' }, ping, 406],
      ['POST', { ...headers, 'Content-Type': 'text/plain' }, ping, 415],
      ['POST', { ...headers, 'mcp-protocol-version': '1999-01-01' }, ping, 400],
      ['POST', { ...headers, 'mcp-session-id': 'not-a-session' }, ping, 404],
      ['POST', { ...headers, Host: 'attacker.example:80' }, ping, 403],
      ['POST', { ...headers, Origin: 'null' }, ping, 403],
      ['POST', { ...headers, 'Content-Length': '99999999' }, ping, 413],
      ['GET', { Accept: 'text/event-stream' }, '', 400],
      ['DELETE', { 'mcp-session-id': 'not-a-session' }, '', 404],
      ['PATCH', headers, ping, 405],
      ['POST', headers, JSON.stringify({ ...INITIALIZE, id: 'again' }), 400],
      ['POST', headers, '', 400],
    ];
    for (const [method, requestHeaders, body, status] of cases) {
      const response = await post(server.url, body, requestHeaders, method).catch((error: Error) => ({ status: -1, contentType: '', body: error.message }));
      expect({ method, status: response.status }).toEqual({ method, status });
      const parsed = JSON.parse(response.body) as { error?: { code?: unknown; message?: unknown } };
      expect(typeof parsed.error?.code).toBe('number');
      expect(String(parsed.error?.message)).not.toMatch(/\n\s+at /);
    }
    // The session still works.
    const after = answersOf(await post(server.url, ping, headers));
    expect(after).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  }, 60_000);
});
