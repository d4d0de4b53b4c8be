import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../shared/errors.js';
import { StdioChildTransport } from './stdio-child-transport.js';

/**
 * A stand-in server: answers each request line with its method and, in `chunks`, how many separate reads the lines
 * arrived in so far; `env` answers with an environment variable; `garbage` writes a line that is not JSON first.
 * With `stubborn` it ignores the end of stdin and SIGTERM, so only SIGKILL ends it.
 */
const SERVER = `
let reads = 0, buffered = '';
if (process.argv.includes('stubborn')) { process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); }
process.stdin.on('data', (chunk) => {
  reads++;
  buffered += chunk;
  let newline;
  while ((newline = buffered.indexOf('\\n')) !== -1) {
    const request = JSON.parse(buffered.slice(0, newline));
    buffered = buffered.slice(newline + 1);
    if (request.method === 'garbage') process.stdout.write('not json\\n');
    if (request.method === 'stderr') process.stderr.write('to stderr\\n');
    const result = request.method === 'env' ? { value: process.env.TW_CHILD_TEST ?? null, secret: process.env.TW_PARENT_SECRET ?? null } : { method: request.method, reads };
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: request.id, result }) + '\\n');
  }
});
`;

function serverTransport(extra: { args?: string[]; env?: Record<string, string>; stderr?: 'pipe' | 'ignore' } = {}) {
  return new StdioChildTransport({
    command: process.execPath,
    args: ['-e', SERVER, '--', ...(extra.args ?? [])],
    stderr: extra.stderr ?? 'ignore',
    ...(extra.env ? { env: extra.env } : {}),
  });
}

function collect(transport: StdioChildTransport) {
  const messages: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  let waiting: { count: number; resolve: () => void } | undefined;
  transport.onmessage = (message) => {
    messages.push(message);
    if (waiting && messages.length >= waiting.count) waiting.resolve();
  };
  transport.onerror = (error) => errors.push(error);
  return {
    messages,
    errors,
    until: (count: number) => (messages.length >= count ? Promise.resolve() : new Promise<void>((resolve) => (waiting = { count, resolve }))),
  };
}

const request = (id: number, method: string): JSONRPCMessage => ({ jsonrpc: '2.0', id, method });
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('StdioChildTransport', () => {
  it('sends the requests of one tick together and reads each answer as its own message', async () => {
    const transport = serverTransport();
    const received = collect(transport);
    await transport.start();
    await Promise.all([transport.send(request(1, 'a')), transport.send(request(2, 'b')), transport.send(request(3, 'c'))]);
    await received.until(3);
    // One read on the server's side for three requests. The pipe may coalesce separate writes as well, so this does not
    // tell one write from three: the line transport's own test does (stdio-line-transport.test.ts).
    expect(received.messages).toEqual([
      { jsonrpc: '2.0', id: 1, result: { method: 'a', reads: 1 } },
      { jsonrpc: '2.0', id: 2, result: { method: 'b', reads: 1 } },
      { jsonrpc: '2.0', id: 3, result: { method: 'c', reads: 1 } },
    ]);
    await transport.close();
  });

  it("gives the server the SDK's default environment plus its own, not the parent's secrets", async () => {
    process.env.TW_PARENT_SECRET = 'parent-only';
    try {
      const transport = serverTransport({ env: { TW_CHILD_TEST: 'given' } });
      const received = collect(transport);
      await transport.start();
      await transport.send(request(1, 'env'));
      await received.until(1);
      expect(received.messages[0]).toEqual({ jsonrpc: '2.0', id: 1, result: { value: 'given', secret: null } });
      await transport.close();
    } finally {
      delete process.env.TW_PARENT_SECRET;
    }
  });

  it('reports a line that is not JSON-RPC to onerror, sends the server nothing back, and reads on', async () => {
    const transport = serverTransport();
    const received = collect(transport);
    await transport.start();
    await transport.send(request(1, 'garbage'));
    await received.until(1);
    expect(received.messages).toEqual([{ jsonrpc: '2.0', id: 1, result: { method: 'garbage', reads: 1 } }]);
    expect(received.errors).toHaveLength(1);
    expect(InvalidArgumentError.isInstance(received.errors[0])).toBe(true);
    expect(received.errors[0]!.message).toContain('Parse error');
    await transport.close();
  });

  it('pipes stderr when asked', async () => {
    const transport = serverTransport({ stderr: 'pipe' });
    let stderr = '';
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const received = collect(transport);
    await transport.start();
    await transport.send(request(1, 'stderr'));
    await received.until(1);
    await transport.close();
    expect(stderr).toBe('to stderr\n');
  });

  it('ends the server on close and then calls onclose', async () => {
    const transport = serverTransport();
    let closed = 0;
    transport.onclose = () => closed++;
    await transport.start();
    const pid = transport.pid!;
    expect(alive(pid)).toBe(true);
    await transport.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(alive(pid)).toBe(false);
    expect(closed).toBe(1);
    await expect(transport.send(request(1, 'late'))).rejects.toThrow('not running');
  });

  it('kills a server that ignores the end of stdin and SIGTERM', async () => {
    const transport = serverTransport({ args: ['stubborn'] });
    const received = collect(transport);
    await transport.start();
    // Answered once its SIGTERM handler is installed.
    await transport.send(request(1, 'ready'));
    await received.until(1);
    const pid = transport.pid!;
    await transport.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alive(pid)).toBe(false);
  }, 15_000);

  it('rejects start, and reports, when the command does not exist', async () => {
    const transport = new StdioChildTransport({ command: '/nonexistent/toolwright-test-server', stderr: 'ignore' });
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    await expect(transport.start()).rejects.toThrow('ENOENT');
    expect(errors).toHaveLength(1);
  });
});
