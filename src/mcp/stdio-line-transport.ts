/**
 * MCP's stdio transport (newline-delimited JSON-RPC) that answers bad input
 * instead of dropping it: a line that is not JSON gets -32700, JSON that is
 * not a JSON-RPC message gets -32600, an over-long line gets -32600 and is
 * skipped to its end. The SDK's own stdio transport reports these only to
 * its `onerror` and the client waits forever.
 * @module
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCErrorResponse, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { InvalidArgumentError, InvalidStateError } from '../shared/errors.js';
import { parseJsonRpcPayload } from './parse-jsonrpc-payload.js';

/** Longest line accepted, in bytes (4 MiB, the same bound as the HTTP body limit). */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

export interface StdioLineTransportOptions {
  /** Lines longer than this many bytes are refused. Default {@link DEFAULT_MAX_LINE_BYTES}. */
  maxLineBytes?: number;
  /**
   * What a bad line gets: `answer` (default, a server's side) sends the peer the JSON-RPC error; `report` (a client's
   * side, reading a server) hands it to `onerror` only, as a server is never sent an error response it cannot match.
   */
  invalidInput?: 'answer' | 'report';
}

export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #input: Readable;
  readonly #output: Writable;
  readonly #maxLineBytes: number;
  readonly #invalidInput: 'answer' | 'report';
  #chunks: Buffer[] = [];
  #buffered = 0;
  /** True while skipping the rest of an over-long line. */
  #discarding = false;
  #started = false;
  #closed = false;
  /** The lines sent this tick, written together by {@link StdioLineTransport.#flush}; `accepted` settles once the stream takes them. */
  #batch: { lines: string[]; accepted: Promise<void>; resolve: () => void } | undefined;

  constructor(input: Readable, output: Writable, options: StdioLineTransportOptions = {}) {
    this.#input = input;
    this.#output = output;
    this.#maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.#invalidInput = options.invalidInput ?? 'answer';
  }

  async start(): Promise<void> {
    if (this.#started) throw new InvalidStateError('StdioLineTransport is already started: Server.connect() starts it, so do not call start() yourself.');
    this.#started = true;
    this.#input.on('data', this.#onData);
    this.#input.on('error', this.#onInputError);
    this.#input.on('end', this.#onEnd);
    this.#output.on('error', this.#onOutputError);
  }

  /**
   * Lines sent in the same tick go out in one write: a pipe write is a system call that wakes the reader, and with
   * many calls in flight it was the largest part of a relay's CPU per message. Each send still resolves only once
   * its line is accepted (back-pressure: after 'drain' when the stream's buffer is full).
   */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const line = JSON.stringify(message) + '\n';
    let batch = this.#batch;
    if (batch === undefined) {
      let resolve!: () => void;
      const accepted = new Promise<void>((settle) => (resolve = settle));
      batch = this.#batch = { lines: [], accepted, resolve };
      // nextTick runs once this turn's microtasks have drained, so the responses that one upstream chunk settles share a write.
      process.nextTick(this.#flush);
    }
    batch.lines.push(line);
    return batch.accepted;
  }

  readonly #flush = (afterWrite?: () => void) => {
    const batch = this.#batch;
    if (batch === undefined) return;
    this.#batch = undefined;
    // A stream that ended or broke takes nothing more; writing would only raise a second error after close removed the listener.
    if (this.#output.writableEnded || this.#output.destroyed) {
      batch.resolve();
      return;
    }
    if (this.#output.write(batch.lines.length === 1 ? batch.lines[0]! : batch.lines.join(''), afterWrite)) {
      batch.resolve();
      return;
    }
    const done = () => {
      this.#output.off('drain', done);
      this.#output.off('close', done);
      batch.resolve();
    };
    this.#output.once('drain', done);
    this.#output.once('close', done);
  };

  async close(): Promise<void> {
    if (this.#closed) return;
    // What was sent before close still goes out, as it did when every send wrote at once.
    const flushing = this.#batch !== undefined && !this.#output.writableEnded && !this.#output.destroyed;
    this.#flush(
      flushing
        ? // That write may still fail (a broken pipe) after close: the listener stays until the stream has emitted its
          // error, which follows the write's callback, so the failure is reported and never an unhandled 'error'.
          () => setImmediate(() => this.#output.off('error', this.#onOutputError))
        : undefined,
    );
    this.#closed = true;
    this.#input.off('data', this.#onData);
    this.#input.off('error', this.#onInputError);
    this.#input.off('end', this.#onEnd);
    if (!flushing) this.#output.off('error', this.#onOutputError);
    if (this.#input.listenerCount('data') === 0) this.#input.pause();
    this.#chunks = [];
    this.#buffered = 0;
    this.onclose?.();
  }

  readonly #onInputError = (error: Error) => this.onerror?.(error);
  readonly #onEnd = () => void this.close();
  /** EPIPE and the like: the client went away; end the session instead of crashing on an unhandled 'error' event. */
  readonly #onOutputError = (error: Error) => {
    this.onerror?.(error);
    void this.close();
  };

  readonly #onData = (chunk: Buffer | string) => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    while (start < data.length && !this.#closed) {
      const newline = data.indexOf(0x0a, start);
      if (newline === -1) {
        this.#append(data.subarray(start));
        return;
      }
      if (this.#buffered === 0 && !this.#discarding && newline - start <= this.#maxLineBytes) {
        // A whole line inside one chunk, the usual case: decoded in place, without gathering it into a new buffer.
        this.#handleLine(data.toString('utf8', start, newline));
      } else {
        this.#append(data.subarray(start, newline));
        this.#endLine();
      }
      start = newline + 1;
    }
  };

  #append(part: Buffer): void {
    if (this.#discarding || part.length === 0) return;
    if (this.#buffered + part.length > this.#maxLineBytes) {
      this.#chunks = [];
      this.#buffered = 0;
      this.#discarding = true;
      this.#reply({
        jsonrpc: '2.0',
        id: null as unknown as string,
        error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: the message is longer than ${this.#maxLineBytes} bytes and was skipped.` },
      });
      return;
    }
    this.#chunks.push(part);
    this.#buffered += part.length;
  }

  #endLine(): void {
    if (this.#discarding) {
      this.#discarding = false;
      return;
    }
    const line = Buffer.concat(this.#chunks, this.#buffered).toString('utf8');
    this.#chunks = [];
    this.#buffered = 0;
    this.#handleLine(line);
  }

  #handleLine(text: string): void {
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (line.trim() === '') return;
    const payload = parseJsonRpcPayload(line, { allowBatch: false });
    if (!payload.success) {
      this.#reply(payload.response);
      return;
    }
    for (const message of payload.messages) this.onmessage?.(message);
  }

  #reply(response: JSONRPCErrorResponse): void {
    if (this.#invalidInput === 'report') {
      this.onerror?.(new InvalidArgumentError(`The peer sent a line that was skipped: ${response.error.message}`));
      return;
    }
    this.send(response).catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }
}
