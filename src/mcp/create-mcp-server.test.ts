import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, ElicitRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ClientCapabilities, ElicitResult, LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ToolError, defineTool, silentLogger } from '../tools/index.js';
import type { AnyTool } from '../tools/index.js';
import { createMcpServer } from './create-mcp-server.js';
import type { McpServerOptions } from './create-mcp-server.js';
import { currentMcpCall } from './mcp-call-context.js';

const add = defineTool<{ a: number; b: number }>({
  name: 'add',
  title: 'Add',
  description: 'Adds two numbers.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
  execute: ({ a, b }) => ({ sum: a + b }),
});

const failing = defineTool({
  name: 'lookup',
  description: 'Looks a thing up; always fails.',
  effect: 'read',
  inputSchema: { type: 'object', properties: {} },
  execute: () => {
    throw new ToolError('No invoice INV-9 exists.', { kind: 'not_found', suggestion: 'List invoices first.' });
  },
});

const crashing = defineTool({
  name: 'crash',
  description: 'Throws an internal error.',
  effect: 'read',
  inputSchema: { type: 'object', properties: {} },
  execute: () => {
    throw new Error('secret database password in /etc/db.conf');
  },
});

const deleteFile = defineTool<{ path: string }>({
  name: 'delete_file',
  description: 'Deletes a file.',
  effect: 'write',
  confirm: true,
  summarize: ({ path }) => `delete ${path}`,
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: ({ path }) => `deleted ${path}`,
});

async function connect(tools: readonly AnyTool[], options: McpServerOptions = {}, capabilities: ClientCapabilities = {}) {
  const server = createMcpServer(tools, { logger: silentLogger, ...options });
  const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { server, client };
}

function text(result: unknown): string {
  const first = (result as { content: { type: string; text?: string }[] }).content[0];
  return first?.type === 'text' ? first.text! : '';
}

describe('createMcpServer: tools/list', () => {
  it('lists each tool with its title, description and raw schemas', async () => {
    const { client } = await connect([add]);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({
      name: 'add',
      title: 'Add',
      description: 'Adds two numbers.',
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      annotations: { readOnlyHint: true, openWorldHint: true },
    });
  });

  it('derives write annotations from effect and hints', async () => {
    const { client } = await connect([deleteFile]);
    const { tools } = await client.listTools();
    expect(tools[0]!.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
  });

  it('pages through a large registry with nextCursor', async () => {
    const many = Array.from({ length: 7 }, (_, index) =>
      defineTool({ name: `tool_${index}`, description: `Tool ${index}.`, effect: 'read', inputSchema: { type: 'object' }, execute: () => 'ok' }),
    );
    const { client } = await connect(many, { pageSize: 3 });
    const first = await client.listTools();
    expect(first.tools.map((tool) => tool.name)).toEqual(['tool_0', 'tool_1', 'tool_2']);
    const second = await client.listTools({ cursor: first.nextCursor! });
    expect(second.tools.map((tool) => tool.name)).toEqual(['tool_3', 'tool_4', 'tool_5']);
    const third = await client.listTools({ cursor: second.nextCursor! });
    expect(third.tools.map((tool) => tool.name)).toEqual(['tool_6']);
    expect(third.nextCursor).toBeUndefined();
  });

  it('answers a cursor it did not issue with -32602', async () => {
    const { client } = await connect([add]);
    const error = await client.listTools({ cursor: 'bm9wZQ' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain('Invalid cursor');
  });
});

describe('createMcpServer: tools/call error channels', () => {
  it('returns structuredContent and JSON text for a tool with an output schema', async () => {
    const { client } = await connect([add]);
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(result).toEqual({ content: [{ type: 'text', text: '{"sum":5}' }], structuredContent: { sum: 5 }, isError: false });
  });

  it('reports invalid arguments as a tool error the model can correct (SEP-1303)', async () => {
    const { client } = await connect([add]);
    const result = await client.callTool({ name: 'add', arguments: { a: 'two', b: 3 } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Invalid arguments for tool "add" \(1 problem\):\n1\. \$\.a: must be a number; got the string "two"\.\n/);
  });

  it('treats a call without arguments as {}', async () => {
    const { client } = await connect([add]);
    const result = await client.request({ method: 'tools/call', params: { name: 'add' } }, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Invalid arguments for tool "add" (2 problems)');
  });

  it('reports an unknown tool as a protocol error -32602 with the available names', async () => {
    const { client } = await connect([add]);
    const error = await client.callTool({ name: 'ad' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toBe(
      'MCP error -32602: Unknown tool "ad". Did you mean "add"? Available tools: add. Call one of these by its exact name.',
    );
  });

  it('passes a ToolError message to the client as isError text', async () => {
    const { client } = await connect([failing]);
    const result = await client.callTool({ name: 'lookup', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('No invoice INV-9 exists.');
  });

  it('hides an internal exception from the client', async () => {
    const { client } = await connect([crashing]);
    const result = await client.callTool({ name: 'crash', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).not.toContain('secret');
    expect(JSON.stringify(result)).not.toContain('/etc/db.conf');
  });

  it('answers malformed params of a known method with -32602, not -32603', async () => {
    const { client } = await connect([add], { resources: [{ uri: 'test://a', name: 'a', read: () => 'A' }] });
    const error = await client.request({ method: 'resources/read', params: { uri: 42 } } as never, CallToolResultSchema).catch((caught: unknown) => caught);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toBe(
      'MCP error -32602: Invalid params for resources/read: "uri" must be a string; got a number. Check the request against the MCP schema for resources/read.',
    );
  });
});

describe('createMcpServer: progress, logging and cancellation', () => {
  it('sends progress notifications with the request token before the result', async () => {
    const slow = defineTool({
      name: 'slow',
      description: 'Reports progress.',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: (_args, context) => {
        context.reportProgress(1, 3, 'one');
        context.reportProgress(2, 3);
        context.reportProgress(3, 3);
        return 'done';
      },
    });
    const { client } = await connect([slow]);
    const seen: unknown[] = [];
    const result = await client.callTool({ name: 'slow', arguments: {} }, undefined, { onprogress: (progress) => seen.push(progress) });
    expect(text(result)).toBe('done');
    expect(seen).toEqual([
      { progress: 1, total: 3, message: 'one' },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
  });

  it('filters log notifications by the level the client set', async () => {
    const chatty = defineTool({
      name: 'chatty',
      description: 'Logs at three levels.',
      effect: 'read',
      inputSchema: { type: 'object' },
      async execute() {
        const call = currentMcpCall()!;
        await call.log('debug', 'debug line');
        await call.log('info', 'info line');
        await call.log('error', { detail: 'error line' }, 'db');
        return 'ok';
      },
    });
    const { client } = await connect([chatty]);
    const messages: LoggingMessageNotification['params'][] = [];
    client.setNotificationHandler((await import('@modelcontextprotocol/sdk/types.js')).LoggingMessageNotificationSchema, (notification) => {
      messages.push(notification.params);
    });
    await client.callTool({ name: 'chatty', arguments: {} });
    expect(messages).toEqual([
      { level: 'info', data: 'info line' },
      { level: 'error', data: { detail: 'error line' }, logger: 'db' },
    ]);
    messages.length = 0;
    await client.setLoggingLevel('error');
    await client.callTool({ name: 'chatty', arguments: {} });
    expect(messages).toEqual([{ level: 'error', data: { detail: 'error line' }, logger: 'db' }]);
  });

  it('fails a sampling tool fast, with a tool error, when the client cannot sample', async () => {
    const ask = defineTool({
      name: 'ask',
      description: 'Asks the client model.',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: () => currentMcpCall()!.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }),
    });
    const { client } = await connect([ask]);
    const result = await client.callTool({ name: 'ask', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      'Tool "ask" failed: this MCP client cannot ask its model for a completion: it did not declare the "sampling" capability. Do the task without this tool, or tell the user that their MCP client does not support it. Retrying the same call with the same arguments will fail the same way.',
    );
  });

  it('gives currentMcpCall() undefined outside a call', () => {
    expect(currentMcpCall()).toBeUndefined();
  });

  it('aborts the tool signal when the client cancels the request', async () => {
    let aborted!: () => void;
    const sawAbort = new Promise<void>((resolve) => (aborted = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const wait = defineTool({
      name: 'wait',
      description: 'Waits until cancelled.',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: (_args, context) =>
        new Promise((resolve) => {
          context.signal.addEventListener('abort', () => {
            aborted();
            resolve('stopped');
          });
          started();
        }),
    });
    const { client } = await connect([wait]);
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: {} }, undefined, { signal: controller.signal }).catch((error: unknown) => error);
    await running;
    controller.abort('user pressed stop');
    await sawAbort;
    expect(await call).toBeInstanceOf(Error);
  });
});

describe('createMcpServer: concurrent calls in one session', () => {
  /** Tools that count how many of them run at once; each waits a few event-loop turns so that overlaps would show. */
  function overlapProbe() {
    let running = 0;
    let runningWrites = 0;
    const peak = { all: 0, writes: 0, writeWithOther: false };
    const order: string[] = [];
    const make = (name: string, effect: 'read' | 'write') =>
      defineTool<{ id: string }>({
        name,
        description: `A ${effect} that takes a moment.`,
        effect,
        inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        async execute({ id }) {
          running++;
          if (effect === 'write') runningWrites++;
          peak.all = Math.max(peak.all, running);
          peak.writes = Math.max(peak.writes, runningWrites);
          if (effect === 'write' && running > 1) peak.writeWithOther = true;
          order.push(id);
          await new Promise((resolve) => setTimeout(resolve, 20));
          if (effect === 'write' && running > 1) peak.writeWithOther = true;
          running--;
          if (effect === 'write') runningWrites--;
          return id;
        },
      });
    return { tools: [make('read_row', 'read'), make('write_row', 'write')], peak, order };
  }

  it("runs one session's writes one at a time, in arrival order, and its reads together", async () => {
    const probe = overlapProbe();
    const { client } = await connect(probe.tools);
    const calls = [
      client.callTool({ name: 'read_row', arguments: { id: 'r1' } }),
      client.callTool({ name: 'read_row', arguments: { id: 'r2' } }),
      client.callTool({ name: 'write_row', arguments: { id: 'w1' } }),
      client.callTool({ name: 'write_row', arguments: { id: 'w2' } }),
      client.callTool({ name: 'read_row', arguments: { id: 'r3' } }),
    ];
    const results = await Promise.all(calls);
    expect(results.map(text)).toEqual(['r1', 'r2', 'w1', 'w2', 'r3']);
    expect(probe.peak).toEqual({ all: 2, writes: 1, writeWithOther: false });
    expect(probe.order).toEqual(['r1', 'r2', 'w1', 'w2', 'r3']);
  });

  it("with callScheduling 'concurrent', starts every call at once", async () => {
    const probe = overlapProbe();
    const { client } = await connect(probe.tools, { callScheduling: 'concurrent' });
    await Promise.all(['w1', 'w2', 'w3'].map((id) => client.callTool({ name: 'write_row', arguments: { id } })));
    expect(probe.peak.writes).toBe(3);
  });
});

describe('createMcpServer: confirmation', () => {
  it('runs a confirmed call after the person approves through elicitation', async () => {
    const { client } = await connect([deleteFile], {}, { elicitation: { form: {} } });
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request): ElicitResult => {
      asked.push(request.params);
      return { action: 'accept', content: { approve: true } };
    });
    const result = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/x' } });
    expect(result).toEqual({ content: [{ type: 'text', text: 'deleted /tmp/x' }], isError: false });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      mode: 'form',
      message: 'The assistant wants to run "delete_file", which needs your approval:\ndelete /tmp/x\n  path: "/tmp/x"\nApprove this call?',
    });
  });

  it('returns a tool error when the person declines', async () => {
    const { client } = await connect([deleteFile], {}, { elicitation: { form: {} } });
    client.setRequestHandler(ElicitRequestSchema, (): ElicitResult => ({ action: 'decline' }));
    const result = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/x' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      `The call to "delete_file" did not run: it needs a person's approval and the person declined. Do not call it again unless the person asks you to; tell them what you wanted to do instead.`,
    );
  });

  it('explains how to confirm when the client cannot elicit', async () => {
    const { client } = await connect([deleteFile]);
    const result = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/x' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('this MCP client cannot ask for it (it did not declare the "elicitation" capability)');
    expect(text(result)).toContain('`toolwright serve --approve delete_file`');
  });

  it('runs a preapproved tool without asking', async () => {
    const { client } = await connect([deleteFile], { preapproved: ['delete_file'] });
    const result = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/y' } });
    expect(text(result)).toBe('deleted /tmp/y');
  });

  it('lets a confirmation handler decide instead of elicitation', async () => {
    const seen: string[] = [];
    const { client } = await connect([deleteFile], {
      confirmation: async (request) => {
        seen.push(request.summary);
        return { approved: false, reason: 'the policy forbids deleting files' };
      },
    });
    const result = await client.callTool({ name: 'delete_file', arguments: { path: '/etc/passwd' } });
    expect(seen).toEqual(['delete /etc/passwd']);
    expect(text(result)).toContain("it needs a person's approval and the policy forbids deleting files.");
  });

  it('asks the confirmation fallback when the client cannot elicit, and runs the call it approves', async () => {
    const asked: { summary: string; prompt: string }[] = [];
    const { client } = await connect([deleteFile], {
      confirmationFallback: async ({ summary, prompt }) => {
        asked.push({ summary, prompt });
        return summary === 'delete /tmp/a' ? { approved: true } : { approved: false, reason: 'the operator denied it in the approval queue' };
      },
    });
    const approved = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/a' } });
    const denied = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/b' } });
    expect(approved).toEqual({ content: [{ type: 'text', text: 'deleted /tmp/a' }], isError: false });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toContain("it needs a person's approval and the operator denied it in the approval queue.");
    expect(asked).toEqual([
      { summary: 'delete /tmp/a', prompt: 'delete /tmp/a\n  path: "/tmp/a"' },
      { summary: 'delete /tmp/b', prompt: 'delete /tmp/b\n  path: "/tmp/b"' },
    ]);
  });

  it('never asks the confirmation fallback when the client can elicit: the person answers through elicitation', async () => {
    let fallbackAsked = 0;
    const { client } = await connect(
      [deleteFile],
      {
        confirmationFallback: async () => {
          fallbackAsked++;
          return { approved: true };
        },
      },
      { elicitation: { form: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, (): ElicitResult => ({ action: 'decline' }));
    const result = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/x' } });
    expect(fallbackAsked).toBe(0);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("it needs a person's approval and the person declined.");
  });

  it('logs nothing when a fallback that waits for a person ends because the client cancelled the call', async () => {
    const logged: string[] = [];
    let asked!: () => void;
    const waiting = new Promise<void>((resolve) => (asked = resolve));
    const { client } = await connect([deleteFile], {
      logger: { error: (message) => logged.push(message) },
      confirmationFallback: ({ signal }) =>
        new Promise((_resolve, reject) => {
          asked();
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        }),
    });
    const controller = new AbortController();
    const call = client.callTool({ name: 'delete_file', arguments: { path: '/tmp/x' } }, undefined, { signal: controller.signal });
    await waiting;
    controller.abort(new Error('the host gave up'));
    await expect(call).rejects.toThrow('the host gave up');
    // the server has seen the cancellation once a later request of the session is answered
    await client.listTools();
    expect(logged).toEqual([]);
  });

  it('lets `confirmation` decide over the fallback', async () => {
    const { client } = await connect([deleteFile], {
      confirmation: async () => ({ approved: false, reason: 'the handler said no' }),
      confirmationFallback: async () => ({ approved: true }),
    });
    const result = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/x' } });
    expect(text(result)).toContain("it needs a person's approval and the handler said no.");
  });
});

describe('createMcpServer: the approval a tool sees', () => {
  const seen: unknown[] = [];
  const recordApproval = defineTool<{ path: string }>({
    name: 'delete_file',
    description: 'Deletes a file.',
    effect: 'write',
    confirm: ({ path }) => path.startsWith('/'),
    summarize: ({ path }) => `delete ${path}`,
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    execute: (_args, context) => {
      seen.push(context.approval ?? 'none');
      return 'ok';
    },
  });

  it('is the approved line after a confirmation, and absent when nobody was asked or --approve skipped asking', async () => {
    seen.length = 0;
    const confirmed = await connect([recordApproval], { confirmation: async () => ({ approved: true }) });
    await confirmed.client.callTool({ name: 'delete_file', arguments: { path: '/tmp/a' } });
    await confirmed.client.callTool({ name: 'delete_file', arguments: { path: 'relative' } });
    const preapproved = await connect([recordApproval], { preapproved: ['delete_file'] });
    await preapproved.client.callTool({ name: 'delete_file', arguments: { path: '/tmp/b' } });
    expect(seen).toEqual([{ approvedBy: 'person', summary: 'delete /tmp/a' }, 'none', 'none']);
  });
});

describe('createMcpServer: resources, prompts and completion', () => {
  const options: McpServerOptions = {
    resources: [{ uri: 'note://today', name: 'today', mimeType: 'text/markdown', read: () => '# Today' }],
    resourceTemplates: [
      {
        uriTemplate: 'note://day/{date}',
        name: 'day',
        read: (_uri, variables) => ({ text: `note for ${String(variables.date)}` }),
        complete: { date: (value) => ['2025-01-01', '2025-01-02'].filter((date) => date.startsWith(value)) },
      },
    ],
    prompts: [
      {
        name: 'review',
        description: 'Reviews code.',
        arguments: [{ name: 'language', required: true, complete: (value) => ['typescript', 'python'].filter((name) => name.startsWith(value)) }],
        get: ({ language }) => `Review this ${language} code.`,
      },
    ],
  };

  it('declares the capabilities it serves', async () => {
    const { client } = await connect([add], options);
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: false },
      logging: {},
      resources: { subscribe: true, listChanged: false },
      prompts: { listChanged: false },
      completions: {},
    });
  });

  it('serves only tools and logging when the pack has nothing else, and answers other methods -32601', async () => {
    const { client } = await connect([add]);
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false }, logging: {} });
    const error = await client.request({ method: 'prompts/list' }, CallToolResultSchema).catch((caught: unknown) => caught);
    expect((error as McpError).code).toBe(-32601);
  });

  it('reads fixed resources and template matches, with the declared mime type', async () => {
    const { client } = await connect([add], options);
    expect(await client.readResource({ uri: 'note://today' })).toEqual({ contents: [{ uri: 'note://today', mimeType: 'text/markdown', text: '# Today' }] });
    expect(await client.readResource({ uri: 'note://day/2025-01-02' })).toEqual({ contents: [{ uri: 'note://day/2025-01-02', text: 'note for 2025-01-02' }] });
    expect((await client.listResources()).resources).toEqual([{ uri: 'note://today', name: 'today', mimeType: 'text/markdown' }]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([{ uriTemplate: 'note://day/{date}', name: 'day' }]);
  });

  it('answers an unknown resource with -32002', async () => {
    const { client } = await connect([add], options);
    const error = await client.readResource({ uri: 'note://nope' }).catch((caught: unknown) => caught);
    expect((error as McpError).code).toBe(-32002);
  });

  it('gets prompts and refuses missing required arguments with -32602', async () => {
    const { client } = await connect([add], options);
    expect(await client.getPrompt({ name: 'review', arguments: { language: 'go' } })).toEqual({
      description: 'Reviews code.',
      messages: [{ role: 'user', content: { type: 'text', text: 'Review this go code.' } }],
    });
    const error = await client.getPrompt({ name: 'review' }).catch((caught: unknown) => caught);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain('Prompt "review" needs the argument "language"');
  });

  it('completes prompt arguments and template variables', async () => {
    const { client } = await connect([add], options);
    expect(await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'language', value: 'ty' } })).toEqual({
      completion: { values: ['typescript'], total: 1, hasMore: false },
    });
    expect(await client.complete({ ref: { type: 'ref/resource', uri: 'note://day/{date}' }, argument: { name: 'date', value: '2025' } })).toEqual({
      completion: { values: ['2025-01-01', '2025-01-02'], total: 2, hasMore: false },
    });
  });
});
