/**
 * The provider server's opt-in prompt cache (`startProviderServer({ promptCache })`): Anthropic reads back the prefix an
 * earlier breakpoint wrote (within the 20-block lookback), writes up to its last breakpoint above the minimum length, keeps
 * deferred tools out of the prompt until a search references them; Chat Completions reads the longest shared prefix of its
 * `prompt_cache_key` in 1,024 + 128·k tokens. Counts are toolwright's text estimate of the blocks' bytes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { streamAgent } from '../../src/agent/streaming/stream-agent.js';
import { createModel } from '../../src/models/create-model.js';
import { estimateTextTokens } from '../../src/models/estimate-tokens.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/tools/tool-registry.js';
import { startProviderServer, type ProviderServer } from './index.js';

const MINIMUM = 50;
let server: ProviderServer;
let plain: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer({ promptCache: { minimumTokens: MINIMUM } });
  plain = await startProviderServer();
});
afterAll(async () => {
  await server.close();
  await plain.close();
});
beforeEach(() => {
  server.reset();
  plain.reset();
});

const mark = { type: 'ephemeral' };
const toolA = { name: 'read_file', description: 'Reads a file. '.repeat(20), input_schema: { type: 'object', properties: { path: { type: 'string' } } } };
const toolB = { name: 'list_directory', description: 'Lists a directory.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } };
const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string) => ({ role: 'assistant', content: [{ type: 'text', text }] });
const marked = (message: { role: string; content: Record<string, unknown>[] }) => ({
  ...message,
  content: [...message.content.slice(0, -1), { ...message.content.at(-1)!, cache_control: mark }],
});

async function anthropicUsage(target: ProviderServer, body: Record<string, unknown>): Promise<Record<string, number>> {
  target.enqueue({ text: 'ok', usage: { inputTokens: 3, outputTokens: 2, cachedInputTokens: 1 } });
  const response = await fetch(`${target.anthropicBaseURL}/v1/messages`, {
    method: 'POST',
    body: JSON.stringify({ model: 'claude-test', max_tokens: 10, ...body }),
  });
  return ((await response.json()) as { usage: Record<string, number> }).usage;
}

/** What the simulation counts for a block: its JSON without `cache_control`; a message's first block after its role. */
const tokensOf = (...texts: string[]) => estimateTextTokens(texts.join(''));
const toolText = (tool: object) => JSON.stringify(tool);
const blockText = (role: string, text: string) => JSON.stringify({ role }) + JSON.stringify({ type: 'text', text });

describe('Anthropic Messages', () => {
  it('the first request writes up to its last breakpoint; the next reads that prefix and writes the rest', async () => {
    const first = {
      tools: [toolA, { ...toolB, cache_control: mark }],
      system: [{ type: 'text', text: 'Be brief.', cache_control: mark }],
      messages: [marked(user('Hi'))],
    };
    const prompt1 = tokensOf(toolText(toolA), toolText(toolB), JSON.stringify({ type: 'text', text: 'Be brief.' }), blockText('user', 'Hi'));
    expect(await anthropicUsage(server, first)).toEqual({
      input_tokens: 0,
      cache_creation_input_tokens: prompt1,
      cache_read_input_tokens: 0,
      output_tokens: 2,
    });

    const second = { ...first, messages: [user('Hi'), assistant('Hello.'), marked(user('List /tmp.'))] };
    const prompt2 = tokensOf(
      toolText(toolA),
      toolText(toolB),
      JSON.stringify({ type: 'text', text: 'Be brief.' }),
      blockText('user', 'Hi'),
      blockText('assistant', 'Hello.'),
      blockText('user', 'List /tmp.'),
    );
    expect(await anthropicUsage(server, second)).toEqual({
      input_tokens: 0,
      cache_creation_input_tokens: prompt2 - prompt1,
      cache_read_input_tokens: prompt1,
      output_tokens: 2,
    });
  });

  it('the text after the last breakpoint is plain input; a prefix under the minimum is neither written nor read', async () => {
    const body = { tools: [{ ...toolA, cache_control: mark }], messages: [user('Hi')] };
    const tools = tokensOf(toolText(toolA));
    expect(tools).toBeGreaterThanOrEqual(MINIMUM);
    await anthropicUsage(server, body);
    expect(await anthropicUsage(server, body)).toMatchObject({
      cache_read_input_tokens: tools,
      cache_creation_input_tokens: 0,
      input_tokens: tokensOf(toolText(toolA), blockText('user', 'Hi')) - tools,
    });

    const short = { tools: [{ ...toolB, cache_control: mark }], messages: [user('Hi')] };
    expect(tokensOf(toolText(toolB))).toBeLessThan(MINIMUM);
    await anthropicUsage(server, short);
    expect(await anthropicUsage(server, short)).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
  });

  it('a changed tool breaks the prefix: nothing is read', async () => {
    const body = { tools: [toolA, { ...toolB, cache_control: mark }], messages: [marked(user('Hi'))] };
    await anthropicUsage(server, body);
    const changed = {
      ...body,
      tools: [
        { ...toolA, description: 'Reads one file.' },
        { ...toolB, cache_control: mark },
      ],
    };
    expect(await anthropicUsage(server, changed)).toMatchObject({ cache_read_input_tokens: 0 });
  });

  it('reads an entry at most 20 blocks before a breakpoint (the lookback); further back only an earlier breakpoint reads it', async () => {
    const system = [{ type: 'text', text: 'Follow the runbook. '.repeat(20), cache_control: mark }];
    const systemTokens = tokensOf(JSON.stringify({ type: 'text', text: 'Follow the runbook. '.repeat(20) }));
    const turns = (count: number) => Array.from({ length: count }, (_, index) => (index % 2 === 0 ? user(`question ${index}`) : assistant(`answer ${index}`)));
    const first = { system, messages: [marked(user('start'))] };
    const firstPrompt = (await anthropicUsage(server, first)).cache_creation_input_tokens!;
    // 20 blocks later the message breakpoint still finds the first request's entry; 21 later only the system's.
    const within = await anthropicUsage(server, { system, messages: [user('start'), ...turns(19), marked(user('last'))] });
    expect(within.cache_read_input_tokens).toBe(firstPrompt);
    server.reset();
    await anthropicUsage(server, first);
    const beyond = await anthropicUsage(server, { system, messages: [user('start'), ...turns(20), marked(user('last'))] });
    expect(beyond.cache_read_input_tokens).toBe(systemTokens);
  });

  it('deferred tools are outside the prompt until a search result references them', async () => {
    const search = { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };
    const deferred = { ...toolA, defer_loading: true };
    const body = { tools: [search, deferred, { ...toolB, defer_loading: true, cache_control: mark }], messages: [user('Read a file.')] };
    expect((await anthropicUsage(server, body)).input_tokens).toBe(tokensOf(toolText(search), blockText('user', 'Read a file.')));
    const result = {
      type: 'tool_search_tool_result',
      tool_use_id: 'srvtoolu_1',
      content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'read_file' }] },
    };
    const found = await anthropicUsage(server, { ...body, messages: [user('Read a file.'), { role: 'assistant', content: [result] }] });
    const total = found.input_tokens! + found.cache_read_input_tokens! + found.cache_creation_input_tokens!;
    expect(total).toBe(
      tokensOf(toolText(search), blockText('user', 'Read a file.'), JSON.stringify({ role: 'assistant' }) + JSON.stringify(result), toolText(deferred)),
    );
  });

  it('off by default: the queued usage is reported', async () => {
    expect(await anthropicUsage(plain, { tools: [{ ...toolA, cache_control: mark }], messages: [marked(user('Hi'))] })).toEqual({
      input_tokens: 2,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 1,
      output_tokens: 2,
    });
  });
});

describe('OpenAI Chat Completions', () => {
  const tools = [{ type: 'function', function: { name: 'read_file', description: 'Reads a file. '.repeat(400), parameters: { type: 'object' } } }];
  async function chatUsage(body: Record<string, unknown>): Promise<Record<string, any>> {
    server.enqueue({ text: 'ok' });
    const response = await fetch(`${server.openaiBaseURL}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'gpt-test', tools, ...body }) });
    return ((await response.json()) as { usage: Record<string, any> }).usage;
  }

  it('reads the prefix shared with an earlier request of the same prompt_cache_key, in 1,024 + 128·k tokens, with the default minimum', async () => {
    const big = await startProviderServer({ promptCache: true });
    try {
      const usage = async (body: Record<string, unknown>) => {
        big.enqueue({ text: 'ok' });
        const response = await fetch(`${big.openaiBaseURL}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'gpt-test', tools, ...body }) });
        return ((await response.json()) as { usage: Record<string, any> }).usage;
      };
      const messages = [{ role: 'user', content: 'Read /tmp/a.' }];
      const first = await usage({ messages, prompt_cache_key: 'run_1' });
      expect(first.prompt_tokens).toBe(estimateTextTokens(JSON.stringify(tools[0]) + JSON.stringify(messages[0])));
      expect(first.prompt_tokens).toBeGreaterThan(1024 + 128);
      expect(first.prompt_tokens_details.cached_tokens).toBe(0);
      const longer = [...messages, { role: 'assistant', content: 'Done.' }, { role: 'user', content: 'Now /tmp/b.' }];
      const second = await usage({ messages: longer, prompt_cache_key: 'run_1' });
      // The shared characters: all of the first prompt but its closing `"}` (the next message follows in its place).
      const shared = estimateTextTokens((JSON.stringify(tools[0]) + JSON.stringify(messages[0])).slice(0, -2));
      expect(second.prompt_tokens_details.cached_tokens).toBe(1024 + Math.floor((shared - 1024) / 128) * 128);
      expect((await usage({ messages: longer, prompt_cache_key: 'run_2' })).prompt_tokens_details.cached_tokens).toBe(0);
    } finally {
      await big.close();
    }
  });

  it('a prompt under the minimum is not cached', async () => {
    const messages = [{ role: 'user', content: 'Hi' }];
    await chatUsage({ messages, tools: undefined });
    expect((await chatUsage({ messages, tools: undefined })).prompt_tokens_details.cached_tokens).toBe(0);
  });
});

describe('a run with cache: auto through the SDKs, streamed', () => {
  const lookup = defineTool<{ id: string }>({
    name: 'get_shipment',
    description: `Looks up a shipment by its identifier. ${'Use it before any change. '.repeat(60)}`,
    effect: 'read',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
    execute: ({ id }) => `shipment ${id}: in transit`,
  });
  const steps = [
    { toolCalls: [{ name: 'get_shipment', arguments: { id: 'SH-1' } }] },
    { toolCalls: [{ name: 'get_shipment', arguments: { id: 'SH-2' } }] },
    { text: 'Both in transit.' },
  ];

  it.each([
    ['Anthropic', () => createModel('anthropic:claude-test', { apiKey: 'k', baseURL: server.anthropicBaseURL, maxRetries: 0 })],
    ['OpenAI Chat', () => createModel('openai:gpt-test', { apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 })],
  ])('%s: each step after the first reads back what the step before sent', async (name, model) => {
    server.enqueue(...steps);
    const run = streamAgent({ model: model(), tools: [lookup], prompt: 'Where are SH-1 and SH-2?', cache: 'auto', recordDir: false, logger: silentLogger });
    for await (const _event of run);
    const result = await run.result;
    expect(result.status).toBe('completed');
    expect(server.requests.every((request) => request.body.stream === true)).toBe(true);
    const usage = result.steps.map((step) => step.usage);
    expect(usage[0]!.cacheReadTokens).toBeUndefined();
    for (const index of [1, 2]) {
      const previous = usage[index - 1]!.inputTokens;
      // Anthropic reads all of it; OpenAI all of it but what its 128-token steps leave.
      if (name === 'Anthropic') expect(usage[index]!.cacheReadTokens).toBe(previous);
      else expect(usage[index]!.cacheReadTokens).toBeGreaterThan(previous - 128);
    }
  });
});
