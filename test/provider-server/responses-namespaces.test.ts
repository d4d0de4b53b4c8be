/**
 * OpenAI Responses `namespace` tools from toolwright's categories, through the real SDK (both `openai` majors: this file
 * is one of the openai-7 project's suites) against the fake provider server: under the server-run tool search the tools
 * of each category are declared inside one namespace (the exact body), a call that arrives under a namespace runs the
 * tool it names through the one pipeline (policy included) and is sent back with its `namespace`, plain and streamed; a
 * policy-denied tool is declared in no namespace; `toolSearch: { namespaces: false }` and the client-run search keep
 * every tool top-level.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryRunStore } from '../../src/agent/memory-run-store.js';
import { resumeAgent } from '../../src/agent/resume-agent.js';
import { runAgent } from '../../src/agent/run-agent.js';
import type { RunEvent } from '../../src/agent/run-event.js';
import { streamAgent } from '../../src/agent/streaming/stream-agent.js';
import { createModel } from '../../src/models/create-model.js';
import { createPolicy } from '../../src/policy/create-policy.js';
import { defineTool, type AnyTool } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/tools/tool-registry.js';
import type { ProviderServer } from './index.js';
import { useProviderServer } from './use-provider-server.js';

let server: ProviderServer;
useProviderServer((started) => (server = started));

const schemaOf = (property: string) => ({ type: 'object', properties: { [property]: { type: 'string' } }, required: [property], additionalProperties: false });

function tools(ran: string[]): AnyTool[] {
  const tool = (name: string, description: string, property: string, category?: string) =>
    defineTool<Record<string, string>>({
      name,
      description,
      effect: 'read',
      inputSchema: schemaOf(property),
      ...(category !== undefined ? { category } : {}),
      execute: (args) => {
        ran.push(name);
        return `${name}: ${JSON.stringify(args)}`;
      },
    });
  return [
    tool('get_weather', 'Current weather for a city.', 'city'),
    tool('refund_invoice', 'Refund a paid invoice to the customer.', 'invoice_id', 'billing'),
    tool('list_files', 'List the files of a folder.', 'folder', 'files'),
    tool('delete_account', 'Delete a customer account and refund its open invoices.', 'account_id', 'billing'),
    tool('get_invoice', 'Read an invoice.', 'invoice_id', 'billing'),
  ];
}

/** A function declaration as toolwright sends it to the Responses API. */
const declared = (name: string, description: string, property: string, deferred = true) => ({
  type: 'function',
  name,
  description,
  parameters: schemaOf(property),
  strict: false,
  ...(deferred ? { defer_loading: true } : {}),
});
const refundDeclaration = declared('refund_invoice', 'Refund a paid invoice to the customer.', 'invoice_id');
const billing = {
  type: 'namespace',
  name: 'billing',
  description: 'Tools of the category "billing": refund_invoice, get_invoice.',
  tools: [refundDeclaration, declared('get_invoice', 'Read an invoice.', 'invoice_id')],
};
const files = {
  type: 'namespace',
  name: 'files',
  description: 'Tools of the category "files": list_files.',
  tools: [declared('list_files', 'List the files of a folder.', 'folder')],
};

const model = () => createModel('openai-responses:gpt-test', { apiKey: 'test-key', baseURL: server.openaiBaseURL });

async function run(options: Parameters<typeof runAgent>[0], streamed: boolean) {
  if (!streamed) return runAgent(options);
  const started = streamAgent(options);
  for await (const _event of started);
  return started.result;
}

describe('OpenAI Responses namespaces from categories (server tool search)', () => {
  it.each([false, true])(
    'declares one namespace per category, runs a namespaced call and sends it back with its namespace (streamed: %s)',
    async (streamed) => {
      const ran: string[] = [];
      const events: RunEvent[] = [];
      server.enqueue(
        {
          toolSearch: { id: '1', query: 'refund invoice', found: ['refund_invoice'] },
          toolCalls: [{ id: 'call_r', name: 'refund_invoice', namespace: 'billing', arguments: { invoice_id: 'INV-7' } }],
          chunkSize: 6,
        },
        { text: 'Refunded.' },
      );
      const result = await run(
        {
          model: model(),
          tools: tools(ran),
          prompt: 'Refund invoice INV-7.',
          policy: createPolicy({ denyTools: ['delete_account'] }),
          toolSearch: { alwaysLoaded: ['get_weather'] },
          onEvent: (event) => events.push(event),
          recordDir: false,
          logger: silentLogger,
        },
        streamed,
      );

      expect(result.status).toBe('completed');
      expect(ran).toEqual(['refund_invoice']);
      expect(events.filter((event) => event.type === 'tool_call').map((event) => event.type === 'tool_call' && event.toolName)).toEqual(['refund_invoice']);
      const [first, second] = server.requests;
      expect(first!.body.tools).toEqual([
        declared('get_weather', 'Current weather for a city.', 'city', false),
        billing,
        files,
        { type: 'tool_search', execution: 'server' },
      ]);
      // The same declaration at every step, so the cached prefix survives; the denied tool is in no namespace.
      expect(second!.body.tools).toEqual(first!.body.tools);
      expect(server.requests.some((sent) => JSON.stringify(sent.body).includes('delete_account'))).toBe(false);
      expect(second!.body.input.slice(1)).toEqual([
        { type: 'tool_search_call', id: 'tsc_1', call_id: 'tsc_call_1', arguments: { query: 'refund invoice' }, execution: 'server', status: 'completed' },
        {
          type: 'tool_search_output',
          id: 'tso_1',
          call_id: 'tsc_call_1',
          execution: 'server',
          status: 'completed',
          tools: [{ ...billing, tools: [refundDeclaration] }],
        },
        { type: 'function_call', call_id: 'call_r', name: 'refund_invoice', namespace: 'billing', arguments: '{"invoice_id":"INV-7"}' },
        { type: 'function_call_output', call_id: 'call_r', output: 'refund_invoice: {"invoice_id":"INV-7"}' },
      ]);
    },
  );

  it('a namespaced write waits for its confirmation, runs once after approval, and the resumed request replays its namespace', async () => {
    const refunded: unknown[] = [];
    const refundWrite = defineTool<{ invoice_id: string }>({
      name: 'refund_invoice',
      description: 'Refund a paid invoice to the customer.',
      effect: 'write',
      confirm: true,
      category: 'billing',
      inputSchema: schemaOf('invoice_id'),
      execute: (args) => (refunded.push(args), 'refunded'),
    });
    server.enqueue({ toolCalls: [{ id: 'call_r', name: 'refund_invoice', namespace: 'billing', arguments: { invoice_id: 'INV-7' } }] }, { text: 'Refunded.' });
    const options = { model: model(), tools: [refundWrite], store: createMemoryRunStore(), toolSearch: {}, recordDir: false as const, logger: silentLogger };
    const paused = await runAgent({ ...options, prompt: 'Refund invoice INV-7.' });
    if (paused.status !== 'awaiting_confirmation') throw new Error(`expected a pause, got ${paused.status}`);
    expect(paused.pending.map((pending) => pending.toolName)).toEqual(['refund_invoice']);
    expect(refunded).toEqual([]);
    const resumed = await resumeAgent(paused.runId, [{ token: paused.pending[0]!.token, decision: 'approve' }], options);
    expect(resumed.status).toBe('completed');
    expect(refunded).toEqual([{ invoice_id: 'INV-7' }]);
    expect(server.requests[1]!.body.input.slice(1)).toEqual([
      { type: 'function_call', call_id: 'call_r', name: 'refund_invoice', namespace: 'billing', arguments: '{"invoice_id":"INV-7"}' },
      { type: 'function_call_output', call_id: 'call_r', output: 'refunded' },
    ]);
  });

  it('a namespaced call to a policy-denied tool is refused and never runs', async () => {
    const ran: string[] = [];
    server.enqueue({ toolCalls: [{ id: 'call_d', name: 'delete_account', namespace: 'billing', arguments: { account_id: 'A1' } }] }, { text: 'Could not.' });
    const result = await runAgent({
      model: model(),
      tools: tools(ran),
      prompt: 'Delete account A1.',
      policy: createPolicy({ denyTools: ['delete_account'] }),
      toolSearch: {},
      recordDir: false,
      logger: silentLogger,
    });
    expect(ran).toEqual([]);
    const refused = result.steps.flatMap((step) => step.toolCalls).find((call) => call.toolName === 'delete_account')!;
    expect(refused.result.isError).toBe(true);
    expect(server.requests[0]!.body.tools.find((tool: { name?: string }) => tool.name === 'billing').tools.map((tool: { name: string }) => tool.name)).toEqual([
      'refund_invoice',
      'get_invoice',
    ]);
  });

  it("toolSearch: { namespaces: false } and openAIExecution: 'client' keep every tool top-level", async () => {
    server.enqueue({ text: 'ok' }, { text: 'ok' });
    await runAgent({ model: model(), tools: tools([]), prompt: 'hi', toolSearch: { namespaces: false }, recordDir: false, logger: silentLogger });
    await runAgent({ model: model(), tools: tools([]), prompt: 'hi', toolSearch: { openAIExecution: 'client' }, recordDir: false, logger: silentLogger });
    for (const sent of server.requests) {
      const types = sent.body.tools.map((tool: { type: string }) => tool.type);
      expect(types.filter((type: string) => type === 'function')).toHaveLength(5);
      expect(types).not.toContain('namespace');
    }
  });

  it('refuses a toolSearch.namespaces that is not a boolean', async () => {
    const options = { model: model(), tools: tools([]), prompt: 'hi', toolSearch: { namespaces: 'no' as unknown as boolean }, recordDir: false as const };
    await expect(runAgent(options)).rejects.toThrow(/toolSearch.namespaces must be true or false/);
  });

  it('makes a category a valid namespace name that no tool or other namespace has, and says so', async () => {
    const tool = (name: string, category?: string) =>
      defineTool({ name, description: `${name}.`, effect: 'read', inputSchema: schemaOf('id'), ...(category ? { category } : {}), execute: () => 'ok' });
    const request = {
      messages: [{ role: 'user' as const, content: 'hi' }],
      tools: [tool('refund', 'Billing & Refunds'), tool('files'), tool('list_files', 'files')],
      toolSearch: { deferred: ['refund', 'files', 'list_files'] },
    };
    server.enqueue({ text: 'ok' });
    const response = await model().generate(request);
    expect(server.requests[0]!.body.tools.map((declaration: { type: string; name?: string }) => [declaration.type, declaration.name])).toEqual([
      ['namespace', 'Billing___Refunds'],
      ['function', 'files'],
      ['namespace', 'files_2'],
      ['tool_search', undefined],
    ]);
    expect(response.warnings).toEqual([
      expect.objectContaining({ type: 'rewritten', provider: 'openai', feature: 'namespace-name', details: expect.stringContaining('"Billing___Refunds"') }),
      expect.objectContaining({ type: 'rewritten', provider: 'openai', feature: 'namespace-name', details: expect.stringContaining('"files_2"') }),
    ]);
  });
});
