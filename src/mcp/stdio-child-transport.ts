/**
 * The client side of MCP's stdio transport: spawns the server and speaks to it through {@link StdioLineTransport}, so
 * that requests sent in the same tick leave in one pipe write (the gateway forwards many calls at once; the SDK's
 * `StdioClientTransport` writes once per message). The process is handled as the SDK's transport handles it: the
 * SDK's default environment plus the server's own, stderr inherited, ignored or piped, and on close stdin ended,
 * then SIGTERM, then SIGKILL, two seconds apart.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { getDefaultEnvironment, type StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { InvalidStateError } from '../shared/errors.js';
import { StdioLineTransport } from './stdio-line-transport.js';

/** How long close waits for the server to exit after stdin ends, and again after SIGTERM (as the SDK's transport). */
const EXIT_GRACE_MS = 2000;

function ignorePipeError(): void {}

export class StdioChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #parameters: StdioServerParameters;
  readonly #stderr: PassThrough | null;
  #child: ChildProcess | undefined;
  #lines: StdioLineTransport | undefined;

  constructor(parameters: StdioServerParameters) {
    this.#parameters = parameters;
    // Created before start, so that a caller can listen before the first byte arrives.
    this.#stderr = parameters.stderr === 'pipe' || parameters.stderr === 'overlapped' ? new PassThrough() : null;
  }

  /** The server's stderr when `stderr: 'pipe'` was asked for. */
  get stderr(): PassThrough | null {
    return this.#stderr;
  }

  /** The server's process id, once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    if (this.#child) throw new InvalidStateError('StdioChildTransport is already started: Client.connect() starts it, so do not call start() yourself.');
    const parameters = this.#parameters;
    const child = spawn(parameters.command, parameters.args ?? [], {
      env: { ...getDefaultEnvironment(), ...parameters.env },
      stdio: ['pipe', 'pipe', this.#stderr ? 'pipe' : (parameters.stderr ?? 'inherit')],
      shell: false,
      windowsHide: process.platform === 'win32',
      ...(parameters.cwd === undefined ? {} : { cwd: parameters.cwd }),
    });
    this.#child = child;
    const lines = new StdioLineTransport(child.stdout!, child.stdin!, { maxLineBytes: STDIO_DEFAULT_MAX_BUFFER_SIZE, invalidInput: 'report' });
    this.#lines = lines;
    lines.onmessage = (message) => this.onmessage?.(message);
    lines.onerror = (error) => this.onerror?.(error);
    if (this.#stderr && child.stderr) child.stderr.pipe(this.#stderr);
    // The line transport reports the pipes' errors while it is open; ending stdin on close can still meet a server that
    // already exited (EPIPE), which must not become an unhandled 'error' (the SDK's transport keeps such a listener too).
    child.stdin?.on('error', ignorePipeError);
    child.stdout?.on('error', ignorePipeError);
    // The session ends when the process does, not when its stdout ends: as the SDK's transport.
    child.on('close', () => {
      if (this.#child === child) this.#child = undefined;
      void lines.close();
      this.onclose?.();
    });
    return new Promise<void>((resolve, reject) => {
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => {
        void lines.start().then(resolve, reject);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (!this.#child || !this.#lines)
      return Promise.reject(new InvalidStateError('The MCP server process is not running: connect the client (it starts the process) before sending.'));
    return this.#lines.send(message);
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    this.#child = undefined;
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const exitedWithin = () => Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, EXIT_GRACE_MS).unref())]);
    // A line still queued for this tick goes out before stdin ends.
    await this.#lines?.close();
    try {
      child.stdin?.end();
    } catch {
      // The pipe may already be gone; the signals below still end the process.
    }
    await exitedWithin();
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exitedWithin();
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
