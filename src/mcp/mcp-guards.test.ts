/**
 * The MCP server's per-session guards (`policy`, `guardToolCall`, `limits`), over stdio and over Streamable HTTP with the
 * SDK's client: a policy block, a guard block, a guard confirm asked through elicitation, the call budget counted per
 * session, and the loop breaker off unless asked for.
 */
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolCallCheck, ToolCallGuard } from '../agent/calls/call-policy.js';
import { argumentRule, createPolicy } from '../policy/index.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { defineTool, silentLogger } from '../tools/index.js';
import { createMcpServer, type McpServerOptions } from './create-mcp-server.js';
import { serveHttp } from './serve-http.js';
import { serveStdio } from './serve-stdio.js';
import { StdioLineTransport } from './stdio-line-transport.js';

const BLOCKED = 'Refunds over 100 need a manager.';

function tools() {
  const ran: string[] = [];
  const lookup = defineTool<{ id: string }>({
    name: 'lookup',
    description: 'Looks a record up.',
    effect: 'read',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
    execute: ({ id }) => (ran.push(`lookup ${id}`), `record ${id}`),
  });
  const refund = defineTool<{ invoice: string; amount: number }>({
    name: 'refund',
    description: 'Refunds an invoice.',
    effect: 'write',
    summarize: ({ invoice, amount }) => `Refund ${amount} on ${invoice}`,
    inputSchema: {
      type: 'object',
      properties: { invoice: { type: 'string' }, amount: { type: 'number' } },
      required: ['invoice', 'amount'],
      additionalProperties: false,
    },
    execute: ({ invoice, amount }) => (ran.push(`refund ${invoice} ${amount}`), 'refunded'),
  });
  return { list: [lookup, refund], ran };
}

interface Served {
  /** A new client, in a session of its own. */
  connect(options?: { elicit?: (message: string) => boolean }): Promise<Client>;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function serve(transport: 'stdio' | 'http', list: ReturnType<typeof tools>['list'], options: McpServerOptions): Promise<Served> {
  const base = { logger: silentLogger, ...options };
  let url: URL | undefined;
  if (transport === 'http') {
    const handle = await serveHttp(list, { ...base, port: 0 });
    closers.push(() => handle.close());
    url = new URL(handle.url);
  }
  return {
    async connect({ elicit } = {}) {
      const client = new Client({ name: 'guards-test', version: '1.0.0' }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
      if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => ({ action: 'accept', content: { approve: elicit(request.params.message) } }));
      if (url) {
        await client.connect(new StreamableHTTPClientTransport(url));
      } else {
        // On stdio a session is a server process: one serveStdio per client.
        const toServer = new PassThrough();
        const fromServer = new PassThrough();
        const handle = await serveStdio(list, { ...base, input: toServer, output: fromServer });
        closers.push(() => handle.close());
        await client.connect(new StdioLineTransport(fromServer, toServer));
      }
      closers.push(() => client.close());
      return client;
    },
  };
}

interface Answer {
  isError: boolean;
  text: string;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { type: string; text?: string }[] };
  return { isError: result.isError === true, text: result.content.map((part) => part.text ?? '').join('\n') };
}

const refundCap = () =>
  createPolicy({
    rules: [
      argumentRule({
        id: 'refund-cap',
        tool: 'refund',
        description: BLOCKED,
        check: (args) => ((args as { amount: number }).amount > 100 ? BLOCKED : undefined),
      }),
    ],
  });

describe.each(['stdio', 'http'] as const)('over %s', (transport) => {
  it('answers a call its policy blocks with an isError result carrying the rule’s message, and runs nothing', async () => {
    const { list, ran } = tools();
    const client = await (await serve(transport, list, { policy: refundCap() })).connect();
    const blocked = await call(client, 'refund', { invoice: 'inv_1', amount: 500 });
    expect(blocked.isError).toBe(true);
    expect(blocked.text).toContain(BLOCKED);
    expect(await call(client, 'refund', { invoice: 'inv_1', amount: 5 })).toEqual({ isError: false, text: 'refunded' });
    expect(ran).toEqual(['refund inv_1 5']);
  });

  it("gives the policy's rules the call's context", async () => {
    const { list, ran } = tools();
    const seen: unknown[] = [];
    const policy = createPolicy({
      rules: [
        argumentRule({
          id: 'managers-only',
          tool: 'refund',
          description: BLOCKED,
          check: (_args, input) => (seen.push(input?.context), (input?.context as { role?: string } | undefined)?.role === 'manager' ? undefined : BLOCKED),
        }),
      ],
    });
    let role = 'clerk';
    const client = await (await serve(transport, list, { policy, context: () => ({ role }) })).connect();
    expect(await call(client, 'refund', { invoice: 'inv_1', amount: 5 })).toMatchObject({ isError: true });
    role = 'manager';
    expect(await call(client, 'refund', { invoice: 'inv_2', amount: 5 })).toEqual({ isError: false, text: 'refunded' });
    expect(seen).toEqual([{ role: 'clerk' }, { role: 'manager' }]);
    expect(ran).toEqual(['refund inv_2 5']);
  });

  it('answers a call its guard blocks with the guard’s message; the guard sees the call’s context', async () => {
    const { list, ran } = tools();
    const seen: ToolCallCheck[] = [];
    const guardToolCall: ToolCallGuard<{ user: string }> = (check) => {
      seen.push(check);
      return check.toolName === 'refund' ? { action: 'block', message: BLOCKED } : { action: 'allow' };
    };
    const served = await serve(transport, list, { guardToolCall, context: () => ({ user: 'ada' }) });
    const client = await served.connect();
    expect(await call(client, 'refund', { invoice: 'inv_1', amount: 5 })).toEqual({ isError: true, text: BLOCKED });
    expect(await call(client, 'lookup', { id: 'a' })).toEqual({ isError: false, text: 'record a' });
    expect(ran).toEqual(['lookup a']);
    expect(seen.map((check) => [check.toolName, check.arguments, check.context])).toEqual([
      ['refund', { invoice: 'inv_1', amount: 5 }, { user: 'ada' }],
      ['lookup', { id: 'a' }, { user: 'ada' }],
    ]);
    // The guard is shown the tool as the server holds it, its own confirm rule included.
    expect(seen[0]!.tool).toBe(list[1]);
  });

  it('asks the person through elicitation when the guard says confirm, and runs the call only when approved', async () => {
    const { list, ran } = tools();
    const asked: string[] = [];
    let approve = true;
    const served = await serve(transport, list, {
      guardToolCall: ({ toolName }) => (toolName === 'refund' ? { action: 'confirm', reason: 'refunds need a person' } : { action: 'allow' }),
    });
    const client = await served.connect({ elicit: (message) => (asked.push(message), approve) });
    expect(await call(client, 'refund', { invoice: 'inv_1', amount: 5 })).toEqual({ isError: false, text: 'refunded' });
    approve = false;
    const denied = await call(client, 'refund', { invoice: 'inv_2', amount: 7 });
    expect(denied.isError).toBe(true);
    expect(await call(client, 'lookup', { id: 'a' })).toEqual({ isError: false, text: 'record a' });
    expect(ran).toEqual(['refund inv_1 5', 'lookup a']);
    expect(asked).toHaveLength(2);
    expect(asked[0]).toContain('Refund 5 on inv_1');
    expect(asked[0]).toContain('refunds need a person');
  });

  it('refuses a guard-confirmed call unasked when the client cannot elicit, without suggesting --approve (it would not lift the guard)', async () => {
    const { list, ran } = tools();
    const served = await serve(transport, list, { guardToolCall: () => ({ action: 'confirm' }), preapproved: ['refund'] });
    const answer = await call(await served.connect(), 'refund', { invoice: 'inv_1', amount: 5 });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('cannot ask for it');
    expect(answer.text).not.toContain('--approve');
    expect(ran).toEqual([]);
  });

  it("refuses a session's 17th call with maxToolCalls: 16, while another session keeps its own count", async () => {
    const { list, ran } = tools();
    const served = await serve(transport, list, { limits: { maxToolCalls: 16 } });
    const first = await served.connect();
    const second = await served.connect();
    for (let index = 1; index <= 16; index++) expect((await call(first, 'lookup', { id: `r${index}` })).isError).toBe(false);
    const seventeenth = await call(first, 'lookup', { id: 'r17' });
    expect(seventeenth.isError).toBe(true);
    // The budget is the session's, and the model is told so.
    expect(seventeenth.text).toContain("the session's budget of 16 tool calls is used up");
    // The session's tool use is over: later calls are refused too.
    expect((await call(first, 'lookup', { id: 'r1' })).isError).toBe(true);
    expect(await call(second, 'lookup', { id: 'other' })).toEqual({ isError: false, text: 'record other' });
    expect(ran).toHaveLength(17);
    expect(ran.at(-1)).toBe('lookup other');
    expect(ran).not.toContain('lookup r17');
  });

  it('holds the budget when a session sends its calls at once', async () => {
    const { list, ran } = tools();
    const client = await (await serve(transport, list, { limits: { maxToolCalls: 16 } })).connect();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => call(client, 'lookup', { id: `c${index}` })));
    expect(answers.filter((answer) => !answer.isError)).toHaveLength(16);
    expect(ran).toHaveLength(16);
  });

  it('keeps the loop breaker off unless one of its limits is given', async () => {
    const { list, ran } = tools();
    const off = await (await serve(transport, list, { guardToolCall: () => ({ action: 'allow' }) })).connect();
    for (let index = 0; index < 7; index++) expect((await call(off, 'lookup', { id: 'same' })).isError).toBe(false);
    expect(ran).toHaveLength(7);

    const on = await (await serve(transport, list, { limits: { maxIdenticalCalls: 3 } })).connect();
    for (let index = 0; index < 3; index++) expect((await call(on, 'lookup', { id: 'same' })).isError).toBe(false);
    const fourth = await call(on, 'lookup', { id: 'same' });
    expect(fourth.isError).toBe(true);
    expect(fourth.text).toContain('called 3 times with the same arguments (limit 3); the session was stopped as a loop');
    expect(ran).toHaveLength(10);

    // `false` turns a check off explicitly, beside a budget that turns the guards on.
    const explicit = await (await serve(transport, list, { limits: { maxToolCalls: 50, maxIdenticalCalls: false, maxRepeatedFailures: false } })).connect();
    for (let index = 0; index < 7; index++) expect((await call(explicit, 'lookup', { id: 'same' })).isError).toBe(false);
    expect(ran).toHaveLength(17);
  });

  it("hands the tool the person's approval (context.approval) when only the tool's own confirm rule asked, with the session's guards on", async () => {
    const approvals: unknown[] = [];
    const wire = defineTool<{ to: string }>({
      name: 'wire',
      description: 'Wires money.',
      effect: 'write',
      confirm: true,
      summarize: ({ to }) => `Wire to ${to}`,
      inputSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'], additionalProperties: false },
      execute: (_args, context) => (approvals.push(context.approval), 'wired'),
    });
    for (const options of [{}, { limits: { maxToolCalls: 16 } }, { guardToolCall: () => ({ action: 'allow' as const }) }]) {
      const client = await (await serve(transport, [wire] as never, options)).connect({ elicit: () => true });
      expect(await call(client, 'wire', { to: 'bob' })).toEqual({ isError: false, text: 'wired' });
    }
    // Without guards, with a budget, with a guard that allows: the same approval each time.
    expect(approvals).toEqual([0, 1, 2].map(() => ({ approvedBy: 'person', summary: 'Wire to bob' })));
  });

  it('counts invalid calls for the loop breaker, as runAgent does', async () => {
    const { list, ran } = tools();
    const client = await (await serve(transport, list, { limits: { maxRepeatedFailures: 2 } })).connect();
    const invalid = await call(client, 'lookup', { id: 7 });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toContain('id');
    const second = await call(client, 'lookup', { id: 7 });
    expect(second.text).toContain('failed 2 times with the same arguments');
    const after = await call(client, 'lookup', { id: 'a' });
    expect(after.isError).toBe(true);
    expect(after.text).toContain('Tool use for this task was stopped');
    expect(ran).toEqual([]);
  });

  it('stops a tool that sets no timeout after limits.toolTimeoutMs', async () => {
    const stuck = defineTool<{ id: string }>({
      name: 'stuck',
      description: 'Never answers.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      execute: (_args, { signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error))),
    });
    const client = await (await serve(transport, [stuck] as never, { limits: { toolTimeoutMs: 20 } })).connect();
    const answer = await call(client, 'stuck', { id: 'a' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/timed out|time limit|did not finish/i);
  });
});

describe('the tool’s own confirm rule beside the guards', () => {
  it('still sees the call’s context, and `preapproved` still skips it (but not a guard’s confirm)', async () => {
    const ran: string[] = [];
    const refund = defineTool<{ invoice: string }, string, { strict: boolean }>({
      name: 'refund',
      description: 'Refunds an invoice.',
      effect: 'write',
      confirm: (_args, call) => call?.context?.strict === true,
      inputSchema: { type: 'object', properties: { invoice: { type: 'string' } }, required: ['invoice'], additionalProperties: false },
      execute: ({ invoice }) => (ran.push(invoice), 'refunded'),
    });
    const asked: string[] = [];
    const options = (extra: McpServerOptions) =>
      ({
        logger: silentLogger,
        limits: { maxToolCalls: 10 },
        // The first call of each session is made strict, the others not: the rule must read the context of its own call.
        context: () => ({ strict: ++made === 1 }),
        ...extra,
      }) as McpServerOptions;
    let made = 0;
    const connect = async (extra: McpServerOptions) => {
      made = 0;
      const client = new Client({ name: 'rules-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
      client.setRequestHandler(ElicitRequestSchema, (request) => (asked.push(request.params.message), { action: 'accept', content: { approve: true } }));
      const toServer = new PassThrough();
      const fromServer = new PassThrough();
      const handle = await serveStdio([refund], { ...options(extra), input: toServer, output: fromServer });
      closers.push(() => handle.close());
      await client.connect(new StdioLineTransport(fromServer, toServer));
      closers.push(() => client.close());
      return client;
    };
    const client = await connect({});
    await call(client, 'refund', { invoice: 'a' });
    await call(client, 'refund', { invoice: 'b' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('"a"');

    asked.length = 0;
    const preapproved = await connect({ preapproved: ['refund'] });
    await call(preapproved, 'refund', { invoice: 'c' });
    expect(asked).toHaveLength(0);
    const guarded = await connect({ preapproved: ['refund'], guardToolCall: () => ({ action: 'confirm' }) });
    await call(guarded, 'refund', { invoice: 'd' });
    expect(asked).toHaveLength(1);
    expect(ran).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('createMcpServer limits', () => {
  it('refuses bad or unknown limits when the server is made, not on a call', () => {
    const { list } = tools();
    expect(() => createMcpServer(list, { limits: { maxToolCalls: -1 } })).toThrow(InvalidArgumentError);
    expect(() => createMcpServer(list, { limits: { maxInputTokens: 10 } as never })).toThrow(/remove maxInputTokens/);
  });
});
