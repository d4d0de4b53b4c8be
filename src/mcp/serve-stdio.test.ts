import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { defineTool, silentLogger } from '../tools/index.js';
import { serveStdio } from './serve-stdio.js';

const echo = defineTool<{ message: string }>({
  name: 'echo',
  description: 'Echoes a message.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  execute: ({ message }) => message,
});

async function startStdio(maxLineBytes?: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: unknown[] = [];
  let buffer = '';
  const waiters: (() => void)[] = [];
  output.setEncoding('utf8');
  output.on('data', (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      lines.push(JSON.parse(buffer.slice(0, newline)));
      buffer = buffer.slice(newline + 1);
      waiters.splice(0).forEach((wake) => wake());
    }
  });
  const handle = await serveStdio([echo], { input, output, logger: silentLogger, ...(maxLineBytes === undefined ? {} : { maxLineBytes }) });
  const next = async (count: number) => {
    while (lines.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return lines.splice(0, count);
  };
  return { input, handle, next };
}

describe('serveStdio', () => {
  it('answers requests line by line', async () => {
    const { input, next, handle } = await startStdio();
    input.write(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n',
    );
    const [initialized] = await next(1);
    expect(initialized).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25', serverInfo: { name: 'toolwright' } } });
    input.write(
      '{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}\r\n',
    );
    expect(await next(1)).toEqual([{ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'hi' }], isError: false } }]);
    await handle.close();
  });

  it('answers broken lines instead of dropping them', async () => {
    const { input, next, handle } = await startStdio();
    input.write('not json\n[1,2]\n{"jsonrpc":"2.0","id":9,"method":"no/such"}\n{"jsonrpc":"2.0","id":"q","method":"ping","params":[]}\n');
    const [parse, batch, unknown, badParams] = await next(4);
    expect(parse).toMatchObject({ id: null, error: { code: -32700 } });
    expect(batch).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: batches are not supported here; send one JSON-RPC message per line.' },
    });
    expect(badParams).toMatchObject({ id: 'q', error: { code: -32600 } });
    expect(unknown).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32601, message: 'Method not found' } });
    await handle.close();
  });

  it('skips an over-long line and keeps serving', async () => {
    const { input, next, handle } = await startStdio(64);
    input.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(40)}`);
    input.write(`${'y'.repeat(40)}"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n`);
    expect(await next(2)).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: the message is longer than 64 bytes and was skipped.' } },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    await handle.close();
  });

  it('cancels request id 0 (the SDK alone ignores a falsy id)', async () => {
    let started = false;
    let aborted = false;
    const wait = defineTool<Record<string, never>>({
      name: 'wait',
      description: 'Waits until cancelled.',
      effect: 'read',
      inputSchema: { type: 'object', properties: {} },
      execute: (_args, context) => {
        started = true;
        return new Promise((resolve) => context.signal.addEventListener('abort', () => resolve((aborted = true))));
      },
    });
    const input = new PassThrough();
    const output = new PassThrough();
    const handle = await serveStdio([wait], { input, output, logger: silentLogger });
    input.write('{"jsonrpc":"2.0","id":0,"method":"tools/call","params":{"name":"wait","arguments":{}}}\n');
    for (let attempt = 0; attempt < 200 && !started; attempt++) await new Promise((resolve) => setTimeout(resolve, 5));
    input.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0,"reason":"changed my mind"}}\n');
    for (let attempt = 0; attempt < 200 && !aborted; attempt++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(aborted).toBe(true);
    await handle.close();
  });

  it('resolves closed when stdin ends', async () => {
    const { input, handle } = await startStdio();
    input.end();
    await handle.closed;
  });
});
