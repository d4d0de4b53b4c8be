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
import { InvalidStateError } from '../shared/errors.js';
import { parseJsonRpcPayload } from './parse-jsonrpc-payload.js';

/** Longest line accepted, in bytes (4 MiB, the same bound as the HTTP body limit). */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

export interface StdioLineTransportOptions {
  /** Lines longer than this many bytes are refused. Default {@link DEFAULT_MAX_LINE_BYTES}. */
  maxLineBytes?: number;
}

export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #input: Readable;
  readonly #output: Writable;
  readonly #maxLineBytes: number;
  #chunks: Buffer[] = [];
  #buffered = 0;
  /** True while skipping the rest of an over-long line. */
  #discarding = false;
  #started = false;
  #closed = false;

  constructor(input: Readable, output: Writable, options: StdioLineTransportOptions = {}) {
    this.#input = input;
    this.#output = output;
    this.#maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  async start(): Promise<void> {
    if (this.#started) throw new InvalidStateError('StdioLineTransport is already started: Server.connect() starts it, so do not call start() yourself.');
    this.#started = true;
    this.#input.on('data', this.#onData);
    this.#input.on('error', this.#onInputError);
    this.#input.on('end', this.#onEnd);
    this.#output.on('error', this.#onOutputError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return;
    const line = JSON.stringify(message) + '\n';
    if (this.#output.write(line)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.#output.off('drain', done);
        this.#output.off('close', done);
        resolve();
      };
      this.#output.once('drain', done);
      this.#output.once('close', done);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.off('data', this.#onData);
    this.#input.off('error', this.#onInputError);
    this.#input.off('end', this.#onEnd);
    this.#output.off('error', this.#onOutputError);
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
    let data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    while (data.length > 0 && !this.#closed) {
      const newline = data.indexOf(0x0a);
      if (newline === -1) {
        this.#append(data);
        return;
      }
      this.#append(data.subarray(0, newline));
      data = data.subarray(newline + 1);
      this.#endLine();
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
    const line = Buffer.concat(this.#chunks, this.#buffered).toString('utf8').replace(/\r$/, '');
    this.#chunks = [];
    this.#buffered = 0;
    if (line.trim() === '') return;
    const payload = parseJsonRpcPayload(line, { allowBatch: false });
    if (!payload.success) {
      this.#reply(payload.response);
      return;
    }
    for (const message of payload.messages) this.onmessage?.(message);
  }

  #reply(response: JSONRPCErrorResponse): void {
    this.send(response).catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }
}
