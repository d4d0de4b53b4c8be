/**
 * Programmatic tool calling through the real SDKs against the fake provider server: the tools that allow calls from
 * code are declared as each provider documents (Anthropic `allowed_callers` beside the code execution tool, OpenAI
 * Responses `allowed_callers` beside `programmatic_tool_calling`), calls made by the provider's code runner keep their
 * caller, pass the same pipeline as direct calls (a write waits for its confirmation and runs once after approval; a
 * policy-blocked tool and a direct-only tool are refused), and the provider's own items of the turn are replayed
 * exactly, with the results in the shape each provider requires.
 */
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryRunStore } from '../../src/agent/memory-run-store.js';
import { resumeAgent } from '../../src/agent/resume-agent.js';
import { runAgent } from '../../src/agent/run-agent.js';
import { resumeAgentStream, streamAgent } from '../../src/agent/streaming/stream-agent.js';
import type { RunEvent } from '../../src/agent/run-event.js';
import { fromAISDKModel } from '../../src/models/ai-sdk/index.js';
import { createModel } from '../../src/models/create-model.js';
import type { ModelOptions } from '../../src/models/model-options.js';
import { createPolicy } from '../../src/policy/index.js';
import { toolCallsOf, type ModelResponse, type ModelStreamEvent } from '../../src/protocol/model-exchange.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { type ProviderServer } from './index.js';
import { useProviderServer } from './use-provider-server.js';

let server: ProviderServer;
useProviderServer((started) => (server = started));

const sentEmails: unknown[] = [];
beforeEach(() => {
  sentEmails.length = 0;
});

const regionSchema = { type: 'object', properties: { region: { type: 'string' } }, required: ['region'], additionalProperties: false } as const;
const emailSchema = { type: 'object', properties: { to: { type: 'string' } }, required: ['to'], additionalProperties: false } as const;

const querySales = defineTool<{ region: string }>({
  name: 'query_sales',
  description: 'Revenue of one region.',
  effect: 'read',
  inputSchema: regionSchema,
  allowedCallers: ['direct', 'programmatic'],
  execute: ({ region }) => `${region}: 100`,
});
const sendEmail = defineTool<{ to: string }>({
  name: 'send_email',
  description: 'Sends the report.',
  effect: 'write',
  confirm: true,
  inputSchema: emailSchema,
  allowedCallers: ['programmatic'],
  execute: ({ to }) => {
    sentEmails.push(to);
    return `sent to ${to}`;
  },
});
const deleteAll = defineTool<{ region: string }>({
  name: 'delete_region',
  description: 'Deletes a region.',
  effect: 'write',
  inputSchema: regionSchema,
  execute: () => 'deleted',
});
const tools = [querySales, sendEmail, deleteAll];

const PROGRAM = { id: 'srvtoolu_1', code: 'for r in ["West"]: await query_sales(region=r)' };

describe('Anthropic programmatic tool calling', () => {
  const options = (): ModelOptions => ({ apiKey: 'test-key', baseURL: server.anthropicBaseURL });

  it('declares the code execution tool and allowed_callers, and replays the server block, caller and container after approval', async () => {
    server.enqueue(
      { text: 'Sending.', program: PROGRAM, toolCalls: [{ id: 'toolu_1', name: 'send_email', arguments: { to: 'boss@example.com' }, fromProgram: true }] },
      { text: 'Done.' },
    );
    const store = createMemoryRunStore();
    const events: RunEvent[] = [];
    const recordDir = mkdtempSync(join(tmpdir(), 'tw-programmatic-'));
    const common = { model: createModel('anthropic:claude-test', options()), tools, store, recordDir, onEvent: (event: RunEvent) => events.push(event) };
    const paused = await runAgent({ ...common, prompt: 'Mail the report.' });
    const recorded = readFileSync(paused.recordPath!, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(recorded.find((event) => event.type === 'tool_call')).toMatchObject({ caller: { type: 'programmatic', id: 'srvtoolu_1' } });
    rmSync(recordDir, { recursive: true, force: true });

    expect(paused.status).toBe('awaiting_confirmation');
    expect(sentEmails).toEqual([]);
    expect(server.requests[0]!.body.tools).toEqual([
      { name: 'query_sales', description: 'Revenue of one region.', input_schema: regionSchema, allowed_callers: ['direct', 'code_execution_20250825'] },
      { name: 'send_email', description: 'Sends the report.', input_schema: emailSchema, allowed_callers: ['code_execution_20250825'] },
      { name: 'delete_region', description: 'Deletes a region.', input_schema: regionSchema },
      { type: 'code_execution_20250825', name: 'code_execution' },
    ]);
    expect(server.requests[0]!.body.container).toBeUndefined();
    expect(events.find((event) => event.type === 'tool_call')).toMatchObject({
      toolName: 'send_email',
      caller: { type: 'programmatic', id: 'srvtoolu_1', runner: 'code_execution_20250825' },
    });

    if (paused.status !== 'awaiting_confirmation') throw new Error('expected a pause');
    const done = await resumeAgent(paused.runId, [{ token: paused.pending[0]!.token, decision: 'approve' }], common);

    expect(done.status).toBe('completed');
    expect(sentEmails).toEqual(['boss@example.com']);
    const second = server.requests[1]!.body;
    expect(second.container).toBe('container_of_srvtoolu_1');
    expect(second.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Mail the report.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Sending.' },
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'code_execution', input: { code: PROGRAM.code } },
          {
            type: 'tool_use',
            id: 'toolu_1',
            name: 'send_email',
            input: { to: 'boss@example.com' },
            caller: { type: 'code_execution_20250825', tool_id: 'srvtoolu_1' },
          },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'sent to boss@example.com' }], is_error: false }],
      },
    ]);
  });

  it('prepares a paused call from code again on resume: a tool that no longer allows code refuses it, and it never runs', async () => {
    server.enqueue(
      { program: PROGRAM, toolCalls: [{ id: 'toolu_1', name: 'send_email', arguments: { to: 'boss@example.com' }, fromProgram: true }] },
      { text: 'Done.' },
    );
    const store = createMemoryRunStore();
    const model = createModel('anthropic:claude-test', options());
    const paused = await runAgent({ model, tools, store, prompt: 'Mail the report.' });
    if (paused.status !== 'awaiting_confirmation') throw new Error('expected a pause');
    const { allowedCallers: _allowed, ...directOnly } = sendEmail;
    const resumed = await resumeAgent(paused.runId, [{ token: paused.pending[0]!.token, decision: 'approve' }], {
      model,
      store,
      tools: [querySales, directOnly, deleteAll],
    });

    expect(resumed.status).toBe('completed');
    expect(sentEmails).toEqual([]);
    const result = server.requests[1]!.body.messages.at(-1).content[0];
    expect(result).toMatchObject({ tool_use_id: 'toolu_1', is_error: true });
    expect(JSON.stringify(result.content)).toContain('cannot be called from code');
  });

  it('refuses a policy-blocked tool and a direct-only tool called from code, and tells the code runner why', async () => {
    server.enqueue(
      {
        program: PROGRAM,
        toolCalls: [
          { id: 'toolu_1', name: 'query_sales', arguments: { region: 'West' }, fromProgram: true },
          { id: 'toolu_2', name: 'delete_region', arguments: { region: 'West' }, fromProgram: true },
        ],
      },
      { text: 'Done.' },
    );
    const policy = createPolicy({ allowTools: ['delete_region', 'send_email'] });
    const result = await runAgent({ model: createModel('anthropic:claude-test', options()), tools, policy, prompt: 'Totals?' });

    expect(result.status).toBe('completed');
    const results = server.requests[1]!.body.messages.at(-1).content;
    expect(results.map((block: any) => [block.tool_use_id, block.is_error ?? false])).toEqual([
      ['toolu_1', true],
      ['toolu_2', true],
    ]);
    expect(JSON.stringify(results[0].content)).toContain('query_sales');
    expect(JSON.stringify(results[1].content)).toContain('cannot be called from code');
    expect(result.steps.flatMap((step) => step.toolCalls.map((call) => call.status))).toEqual(['blocked', 'failed']);
  });

  it('reads the same calls, caller, server block and container from a stream as from a plain response', async () => {
    const turn = { program: PROGRAM, toolCalls: [{ id: 'toolu_1', name: 'query_sales', arguments: { region: 'West' }, fromProgram: true }] };
    server.enqueue(turn, turn);
    const model = createModel('anthropic:claude-test', options());
    const request = { messages: [{ role: 'user' as const, content: 'Totals?' }], tools };
    const plain = await model.generate(request);
    let streamed: ModelResponse | undefined;
    for await (const event of model.stream(request) as AsyncIterable<ModelStreamEvent>) if (event.type === 'end') streamed = event.response;

    expect(toolCallsOf(plain)[0]!.caller).toEqual({ type: 'programmatic', id: 'srvtoolu_1', runner: 'code_execution_20250825' });
    expect(plain.providerItems).toEqual({
      provider: 'anthropic',
      items: [{ before: 0, item: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'code_execution', input: { code: PROGRAM.code } } }],
      container: 'container_of_srvtoolu_1',
    });
    // A stream carries the input as JSON text, which the part keeps; the call and its caller are the same.
    expect(streamed!.content).toEqual([{ ...toolCallsOf(plain)[0], argumentsText: '{"region":"West"}' }]);
    expect(streamed!.providerItems).toEqual(plain.providerItems);
  });
});

describe('OpenAI Responses programmatic tool calling', () => {
  const options = (): ModelOptions => ({ apiKey: 'test-key', baseURL: server.openaiBaseURL });
  const fnTool = (name: string, description: string, parameters: unknown) => ({ type: 'function', name, description, parameters, strict: false });

  it('declares programmatic_tool_calling and allowed_callers, and replays the program item and callers after approval', async () => {
    server.enqueue(
      { program: PROGRAM, toolCalls: [{ id: 'call_1', name: 'send_email', arguments: { to: 'boss@example.com' }, fromProgram: true }] },
      { text: 'Done.' },
    );
    const store = createMemoryRunStore();
    const events: RunEvent[] = [];
    const common = { model: createModel('openai-responses:gpt-test', options()), tools, store, onEvent: (event: RunEvent) => events.push(event) };
    const paused = await runAgent({ ...common, prompt: 'Mail the report.' });

    expect(paused.status).toBe('awaiting_confirmation');
    expect(sentEmails).toEqual([]);
    expect(server.requests[0]!.body.tools).toEqual([
      { ...fnTool('query_sales', 'Revenue of one region.', regionSchema), allowed_callers: ['direct', 'programmatic'] },
      { ...fnTool('send_email', 'Sends the report.', emailSchema), allowed_callers: ['programmatic'] },
      fnTool('delete_region', 'Deletes a region.', regionSchema),
      { type: 'programmatic_tool_calling' },
    ]);
    expect(events.find((event) => event.type === 'tool_call')).toMatchObject({
      toolName: 'send_email',
      caller: { type: 'programmatic', id: 'srvtoolu_1', runner: 'program' },
    });

    if (paused.status !== 'awaiting_confirmation') throw new Error('expected a pause');
    const done = await resumeAgent(paused.runId, [{ token: paused.pending[0]!.token, decision: 'approve' }], common);

    expect(done.status).toBe('completed');
    expect(sentEmails).toEqual(['boss@example.com']);
    expect(server.requests[1]!.body.input).toEqual([
      { role: 'user', content: 'Mail the report.' },
      { type: 'program', id: 'prog_srvtoolu_1', call_id: 'srvtoolu_1', code: PROGRAM.code, fingerprint: 'fp_srvtoolu_1' },
      {
        type: 'function_call',
        call_id: 'call_1',
        name: 'send_email',
        arguments: '{"to":"boss@example.com"}',
        caller: { type: 'program', caller_id: 'srvtoolu_1' },
      },
      { type: 'function_call_output', call_id: 'call_1', output: 'sent to boss@example.com', caller: { type: 'program', caller_id: 'srvtoolu_1' } },
    ]);
  });

  it('refuses a policy-blocked tool and a direct-only tool called from code, answering the program', async () => {
    server.enqueue(
      {
        program: PROGRAM,
        toolCalls: [
          { id: 'call_1', name: 'query_sales', arguments: { region: 'West' }, fromProgram: true },
          { id: 'call_2', name: 'delete_region', arguments: { region: 'West' }, fromProgram: true },
        ],
      },
      { text: 'Done.' },
    );
    const policy = createPolicy({ allowTools: ['delete_region', 'send_email'] });
    const result = await runAgent({ model: createModel('openai-responses:gpt-test', options()), tools, policy, prompt: 'Totals?' });

    expect(result.status).toBe('completed');
    const outputs = server.requests[1]!.body.input.filter((item: any) => item.type === 'function_call_output');
    expect(outputs.map((item: any) => [item.call_id, item.caller])).toEqual([
      ['call_1', { type: 'program', caller_id: 'srvtoolu_1' }],
      ['call_2', { type: 'program', caller_id: 'srvtoolu_1' }],
    ]);
    expect(outputs[1].output).toContain('cannot be called from code');
    expect(result.steps.flatMap((step) => step.toolCalls.map((call) => call.status))).toEqual(['blocked', 'failed']);
  });

  it('reads the same calls, callers and program item from a stream as from a plain response', async () => {
    const turn = { program: PROGRAM, toolCalls: [{ id: 'call_1', name: 'query_sales', arguments: { region: 'West' }, fromProgram: true }] };
    server.enqueue(turn, turn);
    const model = createModel('openai-responses:gpt-test', options());
    const request = { messages: [{ role: 'user' as const, content: 'Totals?' }], tools };
    const plain = await model.generate(request);
    let streamed: ModelResponse | undefined;
    for await (const event of model.stream(request) as AsyncIterable<ModelStreamEvent>) if (event.type === 'end') streamed = event.response;

    expect(toolCallsOf(plain)[0]!.caller).toEqual({ type: 'programmatic', id: 'srvtoolu_1', runner: 'program' });
    expect(plain.providerItems).toEqual({
      provider: 'openai-responses',
      items: [{ before: 0, item: { type: 'program', id: 'prog_srvtoolu_1', call_id: 'srvtoolu_1', code: PROGRAM.code, fingerprint: 'fp_srvtoolu_1' } }],
    });
    expect(streamed!.content).toEqual(plain.content);
    expect(streamed!.providerItems).toEqual(plain.providerItems);
  });
});

describe.each([
  ['anthropic:claude-test', () => server.anthropicBaseURL],
  ['openai-responses:gpt-test', () => server.openaiBaseURL],
])('streamAgent over %s', (spec, baseURL) => {
  it('pauses a write called from code, runs it once after approval, and replays the same history as a plain run', async () => {
    server.enqueue(
      { program: PROGRAM, toolCalls: [{ id: 'toolu_1', name: 'send_email', arguments: { to: 'boss@example.com' }, fromProgram: true }] },
      { text: 'Done.' },
    );
    const store = createMemoryRunStore();
    const common = { model: createModel(spec, { apiKey: 'test-key', baseURL: baseURL() }), tools, store };
    const run = streamAgent({ ...common, prompt: 'Mail the report.' });
    for await (const _event of run);
    const paused = await run.result;
    expect(paused.status).toBe('awaiting_confirmation');
    expect(sentEmails).toEqual([]);
    if (paused.status !== 'awaiting_confirmation') throw new Error('expected a pause');

    const resumed = resumeAgentStream(paused.runId, [{ token: paused.pending[0]!.token, decision: 'approve' }], common);
    for await (const _event of resumed);
    expect((await resumed.result).status).toBe('completed');
    expect(sentEmails).toEqual(['boss@example.com']);
    const history = JSON.stringify(server.requests[1]!.body);
    // The provider's own item of the turn and the call's caller went back as received.
    expect(history).toContain(spec.startsWith('anthropic') ? '"type":"server_tool_use","id":"srvtoolu_1"' : '"fingerprint":"fp_srvtoolu_1"');
    expect(history).toContain(spec.startsWith('anthropic') ? '"tool_id":"srvtoolu_1"' : '"caller_id":"srvtoolu_1"');
  });
});

describe('a finished program replayed in a later request', () => {
  const finished = { text: 'Before.', program: { ...PROGRAM, result: 'West: 100' } };
  async function replay(spec: string, baseURL: string, stream: boolean): Promise<any> {
    server.enqueue(finished, { text: 'ok' });
    const model = createModel(spec, { apiKey: 'test-key', baseURL });
    const request = { messages: [{ role: 'user' as const, content: 'Totals?' }], tools };
    let response: ModelResponse | undefined;
    if (stream) for await (const event of model.stream(request) as AsyncIterable<ModelStreamEvent>) response = event.type === 'end' ? event.response : response;
    else response = await model.generate(request);
    const assistant = { role: 'assistant' as const, content: response!.content, providerItems: response!.providerItems! };
    await model.generate({ ...request, messages: [...request.messages, assistant, { role: 'user', content: 'And?' }] });
    return server.requests.at(-1)!.body;
  }

  it.each([false, true])('Anthropic (streamed: %s): the server_tool_use and code_execution_tool_result blocks, and the container', async (stream) => {
    const body = await replay('anthropic:claude-test', server.anthropicBaseURL, stream);
    expect(body.container).toBe('container_of_srvtoolu_1');
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Before.' },
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'code_execution', input: { code: PROGRAM.code } },
        {
          type: 'code_execution_tool_result',
          tool_use_id: 'srvtoolu_1',
          content: { type: 'code_execution_result', stdout: 'West: 100', stderr: '', return_code: 0, content: [] },
        },
      ],
    });
  });

  it.each([false, true])('OpenAI Responses (streamed: %s): the program and program_output items', async (stream) => {
    const body = await replay('openai-responses:gpt-test', server.openaiBaseURL, stream);
    expect(body.input.slice(1, 4)).toEqual([
      { role: 'assistant', content: 'Before.' },
      { type: 'program', id: 'prog_srvtoolu_1', call_id: 'srvtoolu_1', code: PROGRAM.code, fingerprint: 'fp_srvtoolu_1' },
      { type: 'program_output', id: 'progout_srvtoolu_1', call_id: 'srvtoolu_1', result: 'West: 100', status: 'completed' },
    ]);
  });
});

describe('providers without a code runner', () => {
  const expectedWarnings = (provider: string, providerName: string) =>
    ['query_sales', 'send_email'].map((tool) => ({
      type: 'unsupported',
      provider,
      feature: 'programmatic-tool-calling',
      path: '/allowedCallers',
      tool,
      details: `${providerName} cannot run code that calls tools; "${tool}" is declared as a tool the model calls directly`,
    }));

  it('OpenAI Chat Completions: plain function tools, a warning per tool, and a code-only tool stays directly callable', async () => {
    server.enqueue({ text: 'Totals.' });
    const model = createModel('openai:gpt-test', { apiKey: 'test-key', baseURL: server.openaiBaseURL });
    const response = await model.generate({ messages: [{ role: 'user', content: 'Totals?' }], tools });
    expect(server.requests[0]!.body.tools.map((tool: any) => tool.function.name)).toEqual(['query_sales', 'send_email', 'delete_region']);
    expect(server.requests[0]!.body.tools.every((tool: any) => !('allowed_callers' in tool) && !('allowed_callers' in tool.function))).toBe(true);
    expect(response.warnings).toEqual(expectedWarnings('openai', 'OpenAI Chat Completions'));

    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'send_email', arguments: { to: 'boss@example.com' } }] });
    const paused = await runAgent({ model, tools, prompt: 'Mail the report.' });
    // Called directly, the code-only tool is not refused: it asks for its confirmation as any write with `confirm` does.
    expect(paused.status).toBe('awaiting_confirmation');
  });

  it('AI SDK models: plain function tools and a warning per tool', async () => {
    server.enqueue({ text: 'Totals.' });
    const model = fromAISDKModel(createGoogleGenerativeAI({ baseURL: server.geminiBaseURL, apiKey: 'test-key' })('gemini-test'));
    const response = await model.generate({ messages: [{ role: 'user', content: 'Totals?' }], tools });
    const declared = server.requests[0]!.body.tools[0].functionDeclarations;
    expect(declared.map((tool: any) => Object.keys(tool).sort())).toEqual([0, 1, 2].map(() => ['description', 'name', 'parametersJsonSchema']));
    expect(response.warnings).toEqual(expectedWarnings('ai-sdk', 'An AI SDK model'));
  });
});
