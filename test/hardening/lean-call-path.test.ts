/**
 * Hardening with speed: the registry's call path makes its `AbortController`
 * only when a tool reads `context.signal`, and races a tool only when it
 * returns a promise (bench:mcp: a controller and its listeners per call were a
 * large share of an MCP call's CPU time). Every guard must hold as before: an
 * abort or a timeout reaches the tool's signal however late it reads it, a
 * long synchronous part counts toward the timeout, a caller that aborts while
 * a synchronous tool runs still gets `aborted`, and a return value whose
 * `then` throws is a tool failure, not a crash. On the MCP side, a call is
 * found by its context while it runs, and not after.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpServer, currentMcpCall } from '../../src/mcp/index.js';
import { defineTool, silentLogger, ToolRegistry } from '../../src/tools/index.js';
import type { ToolContext } from '../../src/tools/index.js';

const RealAbortController = globalThis.AbortController;
afterEach(() => {
  globalThis.AbortController = RealAbortController;
});

/** Counts the AbortControllers made from now on. */
function countControllers(): () => number {
  let made = 0;
  globalThis.AbortController = class extends RealAbortController {
    constructor() {
      super();
      made++;
    }
  };
  return () => made;
}

function busyWait(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('the registry call path', () => {
  it('makes an AbortController only for a tool that reads its signal', async () => {
    const quiet = defineTool({
      name: 'quiet',
      description: 'Ignores its signal.',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: async () => 'done',
    });
    const listening = defineTool({
      name: 'listening',
      description: 'Reads its signal.',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: (_args, context) => (context.signal.aborted ? 'aborted' : 'running'),
    });
    const registry = new ToolRegistry([quiet, listening]);
    const caller = new RealAbortController();
    const made = countControllers();
    expect((await registry.call({ id: '1', name: 'quiet', arguments: {} }, { signal: caller.signal, timeoutMs: 10_000 })).result.isError).toBe(false);
    expect((await registry.call({ id: '2', name: 'quiet', arguments: {} })).result.isError).toBe(false);
    expect(made()).toBe(0);
    expect((await registry.call({ id: '3', name: 'listening', arguments: {} })).result.content).toEqual([{ type: 'text', text: 'running' }]);
    expect(made()).toBe(1);
  });

  it("gives a tool that reads its signal after the caller aborted an aborted signal with the caller's reason", async () => {
    let seen: { aborted: boolean; reason: unknown } | undefined;
    let reached!: () => void;
    const started = new Promise<void>((resolve) => (reached = resolve));
    const late = defineTool({
      name: 'late',
      description: 'Reads its signal only after an await.',
      effect: 'read',
      inputSchema: { type: 'object' },
      async execute(_args, context) {
        reached();
        await new Promise((resolve) => setTimeout(resolve, 20));
        seen = { aborted: context.signal.aborted, reason: context.signal.reason };
        return 'finished anyway';
      },
    });
    const caller = new AbortController();
    const pending = new ToolRegistry([late]).call({ id: 'c', name: 'late', arguments: {} }, { signal: caller.signal });
    await started;
    caller.abort('user pressed stop');
    expect((await pending).failure?.code).toBe('aborted');
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(seen).toEqual({ aborted: true, reason: 'user pressed stop' });
  });

  it('keeps the signal in a copy of the context, and aborts it at the timeout', async () => {
    let copied: ToolContext | undefined;
    const slow = defineTool({
      name: 'slow',
      description: 'Copies its context, then waits for its signal.',
      effect: 'read',
      inputSchema: { type: 'object' },
      timeoutMs: 20,
      execute: (_args, context) => {
        copied = { ...context };
        return new Promise((resolve) => copied!.signal.addEventListener('abort', () => resolve('stopped')));
      },
    });
    const execution = await new ToolRegistry([slow]).call({ id: 'c', name: 'slow', arguments: {} });
    expect(execution.failure?.code).toBe('timeout');
    expect(copied?.signal.aborted).toBe(true);
    expect((copied?.signal.reason as Error).message).toBe('timed out after 20 ms');
  });

  it('counts a long synchronous part toward the timeout', async () => {
    const blocking = defineTool({
      name: 'blocking',
      description: 'Blocks, then waits a little.',
      effect: 'read',
      inputSchema: { type: 'object' },
      timeoutMs: 30,
      execute: () => {
        busyWait(60);
        // Counted from after the synchronous part, this would finish within the 30 ms.
        return new Promise((resolve) => setTimeout(() => resolve('late'), 25));
      },
    });
    expect((await new ToolRegistry([blocking]).call({ id: 'c', name: 'blocking', arguments: {} })).failure?.code).toBe('timeout');
  });

  it('reports aborted when the caller aborts while a synchronous tool runs', async () => {
    const caller = new AbortController();
    const stopping = defineTool({
      name: 'stopping',
      description: 'Aborts its caller, then returns.',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: () => {
        caller.abort();
        return 'returned after the abort';
      },
    });
    const execution = await new ToolRegistry([stopping]).call({ id: 'c', name: 'stopping', arguments: {} }, { signal: caller.signal });
    expect(execution.failure?.code).toBe('aborted');
  });

  it('awaits thenables that are not promises, and turns a throwing `then` into a tool failure', async () => {
    const thenable = defineTool({
      name: 'thenable',
      description: 'Returns a thenable.',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: () => ({ then: (resolve: (value: unknown) => void) => resolve('from a thenable') }) as unknown as Promise<string>,
    });
    const trap = defineTool({
      name: 'trap',
      description: 'Returns an object whose then getter throws.',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: () =>
        Object.defineProperty({}, 'then', {
          get() {
            throw new Error('then getter');
          },
        }) as Promise<string>,
    });
    const registry = new ToolRegistry([thenable, trap], { logger: silentLogger });
    expect((await registry.call({ id: '1', name: 'thenable', arguments: {} })).result.content).toEqual([{ type: 'text', text: 'from a thenable' }]);
    const trapped = await registry.call({ id: '2', name: 'trap', arguments: {} });
    expect(trapped.failure?.code).toBe('internal_error');
    expect((trapped.failure?.error as Error).message).toBe('then getter');
  });
});

describe('currentMcpCall(context) on the lean path', () => {
  it('finds the call while it runs, and nothing once it has returned', async () => {
    let kept: ToolContext | undefined;
    let during: unknown;
    const keeper = defineTool({
      name: 'keeper',
      description: 'Keeps its context.',
      effect: 'read',
      inputSchema: { type: 'object' },
      async execute(_args, context) {
        kept = context;
        await new Promise((resolve) => setTimeout(resolve, 1));
        during = currentMcpCall(context);
        return 'ok';
      },
    });
    const server = createMcpServer([keeper], { logger: silentLogger });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    await client.callTool({ name: 'keeper', arguments: {} });
    expect(during).toMatchObject({ signal: expect.any(AbortSignal) });
    expect(currentMcpCall(kept!)).toBeUndefined();
    await client.close();
  });
});
