import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { InvalidStateError } from '../shared/errors.js';
import { StdioLineTransport } from './stdio-line-transport.js';

/** A stream that keeps each write apart, so a test sees how many writes (system calls, on a pipe) were made. */
function recordingOutput(options: { highWaterMark?: number; hold?: boolean } = {}) {
  const writes: string[] = [];
  const held: (() => void)[] = [];
  const output = new Writable({
    highWaterMark: options.highWaterMark ?? 16 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      writes.push(chunk.toString('utf8'));
      if (options.hold) held.push(() => callback());
      else callback();
    },
  });
  return { output, writes, releaseAll: () => held.splice(0).forEach((release) => release()) };
}

const response = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { n: id } });

describe('StdioLineTransport', () => {
  it('refuses a second start with a coded error that says who starts it', async () => {
    const transport = new StdioLineTransport(new PassThrough(), new PassThrough());
    await transport.start();
    const second = await transport.start().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(InvalidStateError.isInstance(second) && second.code).toBe('TW_INVALID_STATE');
    expect((second as Error).message).toContain('Server.connect() starts it');
    await transport.close();
  });

  it('writes the lines sent in one tick with one write, each still its own line', async () => {
    const { output, writes } = recordingOutput();
    const transport = new StdioLineTransport(new PassThrough(), output);
    await transport.start();
    await Promise.all([transport.send(response(1)), transport.send(response(2)), transport.send(response(3))]);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split('\n')).toEqual([JSON.stringify(response(1)), JSON.stringify(response(2)), JSON.stringify(response(3)), '']);
    // A later tick starts a new write.
    await transport.send(response(4));
    expect(writes).toEqual([writes[0], JSON.stringify(response(4)) + '\n']);
    await transport.close();
  });

  it('the lines a reader receives in one chunk arrive as separate messages', async () => {
    const input = new PassThrough();
    const transport = new StdioLineTransport(input, new PassThrough());
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    input.write(JSON.stringify(response(1)) + '\n' + JSON.stringify(response(2)) + '\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([response(1), response(2)]);
    await transport.close();
  });

  it('reads lines split across chunks (a character split between them too) beside whole ones, with CRLF endings', async () => {
    const input = new PassThrough();
    const transport = new StdioLineTransport(input, new PassThrough());
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    const split = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 2, result: { text: 'é€' } }) + '\r\n', 'utf8');
    const cut = split.indexOf(Buffer.from('€', 'utf8')) + 1;
    input.write(Buffer.concat([Buffer.from(JSON.stringify(response(1)) + '\r\n'), split.subarray(0, cut)]));
    input.write(Buffer.concat([split.subarray(cut), Buffer.from('\n' + JSON.stringify(response(3)) + '\n')]));
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([response(1), { jsonrpc: '2.0', id: 2, result: { text: 'é€' } }, response(3)]);
    await transport.close();
  });

  it('keeps back-pressure: a send resolves only once a full stream drains', async () => {
    const { output, releaseAll } = recordingOutput({ highWaterMark: 1, hold: true });
    const transport = new StdioLineTransport(new PassThrough(), output);
    await transport.start();
    let accepted = false;
    const sent = transport.send(response(1)).then(() => (accepted = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(accepted).toBe(false);
    releaseAll();
    await sent;
    expect(accepted).toBe(true);
    await transport.close();
  });

  it('writes what was sent before close in the same tick', async () => {
    const { output, writes } = recordingOutput();
    const transport = new StdioLineTransport(new PassThrough(), output);
    await transport.start();
    void transport.send(response(1));
    await transport.close();
    expect(writes).toEqual([JSON.stringify(response(1)) + '\n']);
    await transport.send(response(2));
    expect(writes).toHaveLength(1);
  });

  it('reports, and never leaves unhandled, a broken pipe on the write that close flushed', async () => {
    const output = new Writable({
      write(_chunk, _encoding, callback) {
        const broken = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
        setImmediate(() => callback(broken));
      },
    });
    const transport = new StdioLineTransport(new PassThrough(), output);
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    await transport.start();
    void transport.send(response(1));
    await transport.close();
    // An 'error' with no listener would throw, failing the test as an uncaught exception. The listener goes in a
    // setImmediate after the write's callback, so wait for it rather than for a fixed time (a loaded loop runs a 20 ms
    // timer before that immediate).
    await expect.poll(() => output.listenerCount('error')).toBe(0);
    expect(errors.map((error) => error.message)).toEqual(['write EPIPE']);
  });

  it('still refuses a line over the limit, and reads the next one', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new StdioLineTransport(input, output, { maxLineBytes: 64 });
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    input.write(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"pad":"${'a'.repeat(100)}"}}\n` + JSON.stringify(response(2)) + '\n');
    await new Promise((resolve) => setImmediate(resolve));
    const replies = String(output.read()).trim().split('\n');
    expect(replies).toHaveLength(1);
    expect(JSON.parse(replies[0]!)).toMatchObject({ error: { code: -32600, message: expect.stringContaining('longer than 64 bytes') } });
    expect(received).toEqual([response(2)]);
    await transport.close();
  });
});
