/**
 * Hardening: Anthropic fine-grained tool streaming (`eager_input_streaming: true`) sends a tool's input unbuffered and
 * unvalidated, so its pieces may form invalid or truncated JSON. Fed chunk by chunk through the real SDK's stream, hostile
 * texts must neither stall the event loop nor crash the run: the streamed previews stay best-effort, and the final text is
 * parsed once and refused by the registry's validation as any broken call is, with the tool never run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamAgent } from '../../src/agent/streaming/stream-agent.js';
import { createModel } from '../../src/models/create-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/tools/tool-registry.js';
import { STALL_MS, longestLoopHold } from '../fixtures/event-loop-stall.js';
import { startProviderServer, type ProviderServer } from '../provider-server/index.js';

/** Texts a model streaming without server-side buffering can send, each about 60,000 characters. */
const HOSTILE: { name: string; text: string }[] = [
  { name: 'nesting never closed', text: '{"city":'.concat('['.repeat(60_000)) },
  { name: 'a string cut off mid-escape', text: `{"city":"${'\\u00e9'.repeat(10_000)}\\u00` },
  { name: 'garbage after a valid prefix', text: `{"city":"Paris"}${'}]"\\'.repeat(15_000)}` },
  { name: 'keys without values', text: `{${'"k":,'.repeat(10_000)}` },
];

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
});

describe('eager input streaming on Anthropic', () => {
  it.each(HOSTILE)('$name: streamed in small pieces, no stall, no crash, and the call is refused by validation', async ({ text }) => {
    let executed = 0;
    const getWeather = defineTool<{ city: string }>({
      name: 'get_weather',
      description: 'Current weather for a city.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
      execute: ({ city }) => {
        executed++;
        return `${city}: sunny`;
      },
    });
    const before = server.requests.length;
    server.enqueue({ toolCalls: [{ id: 'call_h', name: 'get_weather', arguments: text }], chunkSize: 24 }, { text: 'I could not read that call.' });
    const model = createModel('anthropic:claude-test', { apiKey: 'test-key', baseURL: server.anthropicBaseURL, eagerInputStreaming: true });

    const types = new Set<string>();
    let status: string | undefined;
    const { longestCpuMs, longestWallMs } = await longestLoopHold(async () => {
      const run = streamAgent({ model, tools: [getWeather], prompt: 'Weather?', recordDir: false, logger: silentLogger });
      for await (const event of run) types.add(event.type);
      status = (await run.result).status;
    });

    expect(server.requests[before]!.body.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather for a city.',
        input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
        eager_input_streaming: true,
      },
    ]);
    expect(types).toContain('tool_call_delta');
    expect(longestCpuMs, `CPU time of the longest hold (${Math.round(longestWallMs)} ms of wall time)`).toBeLessThan(STALL_MS);
    expect(status).toBe('completed');
    expect(executed).toBe(0);
    // The model was told its call could not be read, in the tool result of the next request.
    const toolResult = server.requests[before + 1]!.body.messages[2].content[0];
    expect(toolResult).toMatchObject({ type: 'tool_result', tool_use_id: 'call_h', is_error: true });
  });
});
