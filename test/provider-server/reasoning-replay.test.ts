/**
 * Reasoning carried across tool calls, through the real SDKs and the fake provider server: Anthropic `thinking` and
 * `redacted_thinking` blocks and OpenAI Responses `reasoning` items come back in the next request exactly as received,
 * in their place (before the calls they preceded), plain and streamed; encrypted payloads stay out of the run record;
 * reasoning tokens are reported apart and counted once.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/run-agent.js';
import { streamAgent } from '../../src/agent/streaming/stream-agent.js';
import { createModel } from '../../src/models/create-model.js';
import type { ModelOptions } from '../../src/models/model-options.js';
import type { Message } from '../../src/protocol/messages.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/tools/tool-registry.js';
import { startProviderServer, type FakeReply, type ProviderServer } from './index.js';

const getWeather = defineTool<{ city: string }>({
  name: 'get_weather',
  description: 'Current weather for a city.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: ({ city }) => `${city}: sunny`,
});

/** Stands for the provider's ciphertext: it must reach the next request whole and the record never. */
const CIPHERTEXT = 'EncRypt3d+Reasoning/Payload==';

const REPLIES: FakeReply[] = [
  {
    reasoning: 'Paris first, then answer.',
    encryptedReasoning: CIPHERTEXT,
    toolCalls: [{ id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } }],
    chunkSize: 6,
  },
  { text: 'Sunny in Paris.', chunkSize: 6 },
];

let server: ProviderServer;
let recordDir: string;
beforeEach(async () => {
  server = await startProviderServer();
  recordDir = mkdtempSync(join(tmpdir(), 'tw-reasoning-'));
});
afterEach(async () => {
  await server.close();
  rmSync(recordDir, { recursive: true, force: true });
});

async function run(spec: string, options: ModelOptions, streamed: boolean) {
  const model = createModel(spec, { apiKey: 'test-key', baseURL: spec.startsWith('anthropic') ? server.anthropicBaseURL : server.openaiBaseURL, ...options });
  const settings = { model, tools: [getWeather], prompt: 'Weather in Paris?', recordDir, logger: silentLogger };
  if (!streamed) return runAgent(settings);
  const stream = streamAgent(settings);
  for await (const _event of stream);
  return stream.result;
}

function recordText(): string {
  return readdirSync(recordDir)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => readFileSync(join(recordDir, name), 'utf8'))
    .join('\n');
}

describe.each([false, true])('reasoning replay (streamed: %s)', (streamed) => {
  it('Anthropic: the thinking and redacted thinking blocks go back exactly as received, before the tool_use they preceded', async () => {
    server.enqueue(...REPLIES);
    const result = await run('anthropic:claude-test', { thinkingBudgetTokens: 2048 }, streamed);
    expect(result.status).toBe('completed');
    expect(server.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(server.requests[1]!.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Paris first, then answer.', signature: 'sig_1' },
          { type: 'redacted_thinking', data: CIPHERTEXT },
          { type: 'tool_use', id: 'call_a', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_a', is_error: false, content: [{ type: 'text', text: 'Paris: sunny' }] }] },
    ]);
    // The run state keeps the payload to replay; the record keeps only a marker, while the thinking text is recorded as text is.
    expect(JSON.stringify(result.messages)).toContain(CIPHERTEXT);
    const record = recordText();
    expect(record).toContain('Paris first, then answer.');
    expect(record).toContain('sig_1');
    expect(record).toContain('[ENCRYPTED: 29 characters');
    expect(record).not.toContain(CIPHERTEXT);
  });

  it('OpenAI Responses: with includeEncryptedReasoning, the reasoning item goes back exactly as received, before its function call', async () => {
    server.enqueue(...REPLIES);
    const result = await run('openai-responses:o-test', { includeEncryptedReasoning: true }, streamed);
    expect(result.status).toBe('completed');
    expect(server.requests[0]!.body).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] });
    expect(server.requests[1]!.body.input).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Paris first, then answer.' }], encrypted_content: CIPHERTEXT },
      { type: 'function_call', call_id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_a', output: 'Paris: sunny' },
    ]);
    expect(JSON.stringify(result.messages)).toContain(CIPHERTEXT);
    const record = recordText();
    expect(record).toContain('[ENCRYPTED: 29 characters');
    expect(record).not.toContain(CIPHERTEXT);
  });
});

describe('reasoning that cannot go back', () => {
  it('OpenAI Responses without encrypted content: the item is left out with a warning (with store: false the API could not find it by id)', async () => {
    server.enqueue(...REPLIES);
    const warnings: unknown[] = [];
    const result = await runAgent({
      model: createModel('openai-responses:o-test', { apiKey: 'test-key', baseURL: server.openaiBaseURL }),
      tools: [getWeather],
      prompt: 'Weather in Paris?',
      recordDir: false,
      logger: silentLogger,
      onEvent: (event) => {
        if (event.type === 'model_response') warnings.push(event.response.warnings);
      },
    });
    expect(result.status).toBe('completed');
    expect(server.requests[0]!.body.include).toBeUndefined();
    expect(server.requests[1]!.body.input.map((item: { type?: string }) => item.type ?? 'message')).toEqual([
      'message',
      'function_call',
      'function_call_output',
    ]);
    expect(warnings[1]).toEqual([
      expect.objectContaining({ type: 'unsupported', provider: 'openai', feature: 'reasoning-replay', path: '/messages/1/content/0' }),
    ]);
    expect((warnings[1] as { details: string }[])[0]!.details).toContain('includeEncryptedReasoning: true');
  });

  it.each([
    { spec: 'openai:gpt-test', provider: 'openai' },
    { spec: 'openai-responses:gpt-test', provider: 'openai' },
  ])('$spec: Anthropic thinking in the history is not sent, and the warning names it', async ({ spec, provider }) => {
    server.enqueue({ text: 'Done.' });
    const model = createModel(spec, { apiKey: 'test-key', baseURL: server.openaiBaseURL });
    const messages: Message[] = [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: [{ type: 'reasoning', format: 'anthropic', item: { type: 'thinking', thinking: 'Paris first.', signature: 'sig_x' } }] },
      { role: 'user', content: 'Go on.' },
    ];
    const response = await model.generate({ messages });
    expect(JSON.stringify(server.requests[0]!.body)).not.toContain('sig_x');
    expect(response.warnings).toEqual([expect.objectContaining({ type: 'unsupported', provider, feature: 'reasoning-replay', path: '/messages/1/content/0' })]);
  });

  it('Anthropic: an OpenAI reasoning item in the history is not sent, and the warning names it', async () => {
    server.enqueue({ text: 'Done.' });
    const model = createModel('anthropic:claude-test', { apiKey: 'test-key', baseURL: server.anthropicBaseURL });
    const messages: Message[] = [
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', format: 'openai-responses', item: { type: 'reasoning', id: 'rs_x', summary: [] } },
          { type: 'text', text: 'Hm.' },
        ],
      },
      { role: 'user', content: 'Go on.' },
    ];
    const response = await model.generate({ messages });
    expect(server.requests[0]!.body.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Hm.' }] });
    expect(response.warnings).toEqual([expect.objectContaining({ provider: 'anthropic', feature: 'reasoning-replay', path: '/messages/1/content/0' })]);
  });
});

describe('reasoning tokens', () => {
  it.each([
    { api: 'Responses', spec: 'openai-responses:o-test', streamed: false },
    { api: 'Responses', spec: 'openai-responses:o-test', streamed: true },
    { api: 'Chat Completions', spec: 'openai:o-test', streamed: false },
    { api: 'Chat Completions', spec: 'openai:o-test', streamed: true },
  ])('OpenAI $api reports them apart, inside the output tokens, and the run counts them once (streamed: $streamed)', async ({ spec, streamed }) => {
    server.enqueue({ ...REPLIES[0], usage: { inputTokens: 30, outputTokens: 12, reasoningTokens: 9 } } as FakeReply, {
      text: 'Sunny in Paris.',
      usage: { inputTokens: 50, outputTokens: 4 },
    });
    const model = createModel(spec, { apiKey: 'test-key', baseURL: server.openaiBaseURL });
    const events: unknown[] = [];
    const settings = {
      model,
      tools: [getWeather],
      prompt: 'Weather in Paris?',
      recordDir: false as const,
      logger: silentLogger,
      prices: { 'openai:o-test': { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 } },
      onEvent: (event: unknown) => events.push(event),
    };
    let result;
    if (streamed) {
      const stream = streamAgent(settings);
      for await (const _event of stream);
      result = await stream.result;
    } else result = await runAgent(settings);
    const responses = events.filter(
      (event): event is { type: 'model_response'; response: { usage: unknown } } => (event as { type: string }).type === 'model_response',
    );
    expect(responses.map((event) => event.response.usage)).toEqual([
      { inputTokens: 30, outputTokens: 12, reasoningTokens: 9 },
      { inputTokens: 50, outputTokens: 4 },
    ]);
    expect(result.usage).toMatchObject({ inputTokens: 80, outputTokens: 16 });
    expect(result.costUsd).toBeCloseTo(80 * 1 + 16 * 2, 9);
  });
});
