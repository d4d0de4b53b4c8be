import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModel, textTurn, toolCallTurn } from '../../models/scripted/scripted-model.js';
import type { Model } from '../../models/types.js';
import type { ModelStreamEvent } from '../../protocol/model-exchange.js';
import { defineTool } from '../../tools/define-tool.js';
import { silentLogger } from '../../tools/tool-registry.js';
import type { AgentResult } from '../agent-result.js';
import { STREAM_HIGH_WATER_MARK, streamAgent, type AgentStream } from './stream-agent.js';
import { toEventStreamResponse } from './stream-response.js';

const KEY = 'sk-ant-' + 'Zq9Yx8Wv7Ut6Sr5Qp4On3Ml2';

const account = defineTool<{ user: string; apiKey: string }>({
  name: 'connect_account',
  description: 'Connects an account.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { user: { type: 'string' }, apiKey: { type: 'string', writeOnly: true } }, required: ['user', 'apiKey'] },
  execute: ({ user }) => `connected ${user}`,
});

interface SseMessage {
  event: string;
  data: any;
}

function parseSse(text: string): SseMessage[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))!.slice(7);
      const data = JSON.parse(lines.find((line) => line.startsWith('data: '))!.slice(6));
      return { event, data };
    });
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A Node http route that answers with the run's SSE Response as a framework bridges one: a disconnect cancels the body, a full socket waits. */
async function serve(start: () => AgentStream): Promise<{ url: string; runs: AgentStream[] }> {
  const runs: AgentStream[] = [];
  const server = createServer((request, response) => {
    const run = start();
    runs.push(run);
    const web = toEventStreamResponse(run);
    response.writeHead(web.status, Object.fromEntries(web.headers));
    const reader = web.body!.getReader();
    response.on('close', () => void reader.cancel());
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        // Wait while the socket is full, so that a client that stops reading holds the run back (docs/agent.md).
        if (!response.write(value)) await new Promise((resolve) => response.once('drain', resolve).once('close', resolve));
      }
      response.end();
    })().catch(() => response.destroy());
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, runs };
}

describe('toEventStreamResponse', () => {
  it('serves one SSE message per event over real HTTP, redacted like the record, ending with stop', async () => {
    const { url, runs } = await serve(() =>
      streamAgent({
        model: createScriptedModel([
          toolCallTurn([{ id: 'c1', name: 'connect_account', arguments: { user: 'ada', apiKey: KEY } }], { text: `Connecting with ${KEY} now.` }),
          textTurn('Connected.'),
        ]),
        tools: [account],
        prompt: 'Connect my account.',
        recordDir: false,
        logger: silentLogger,
      }),
    );
    const response = await fetch(url);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    const body = await response.text();
    expect(body).not.toContain('Zq9Y');
    const messages = parseSse(body);
    expect(messages.every((message) => message.event === message.data.type && message.data.runId === runs[0]!.runId)).toBe(true);
    expect(messages[0]!.event).toBe('run_started');
    expect(messages.at(-1)).toMatchObject({ event: 'stop', data: { status: 'completed' } });
    const text = messages.filter((message) => message.event === 'text_delta' && message.data.step === 0).map((message) => message.data.text as string);
    expect(text.join('')).toBe('Connecting with [REDACTED] now.');
    const call = messages.find((message) => message.event === 'tool_call_end');
    expect(call?.data.call.arguments).toEqual({ user: 'ada', apiKey: '[REDACTED]' });
    const result = messages.find((message) => message.event === 'tool_result');
    expect(result?.data.arguments).toEqual({ user: 'ada', apiKey: '[REDACTED]' });
    expect((await runs[0]!.result).status).toBe('completed');
  });

  it('aborts the run when the client disconnects, and the run still ends with its stop', async () => {
    let providerSawAbort = false;
    const stalling: Model = {
      id: 'scripted:stall',
      provider: 'scripted',
      generate: () => Promise.reject(new Error('unused')),
      async *stream(request): AsyncGenerator<ModelStreamEvent> {
        yield { type: 'text-delta', text: 'Thinking about it for a long while. ' };
        await new Promise<void>((resolve) => request.signal?.addEventListener('abort', () => resolve(), { once: true }));
        providerSawAbort = true;
      },
      estimateInputTokens: () => 1,
    };
    const { url, runs } = await serve(() => streamAgent({ model: stalling, tools: [], prompt: 'Think.', recordDir: false, logger: silentLogger }));
    const client = new AbortController();
    const response = await fetch(url, { signal: client.signal });
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('event: step_started')) text += new TextDecoder().decode((await reader.read()).value);
    client.abort();
    const result: AgentResult = await runs[0]!.result;
    expect(result.status === 'stopped' && result.stopReason).toEqual({ kind: 'aborted', message: 'The run was aborted: the client disconnected.' });
    expect(providerSawAbort).toBe(true);
  });

  /** A model that writes `totalChars` of answer in deltas of `deltaChars`, counting what it has handed over so far. */
  function longAnswer(totalChars: number, deltaChars: number): { model: Model; produced: () => number } {
    let produced = 0;
    const model: Model = {
      id: 'scripted:long-answer',
      provider: 'scripted',
      generate: () => Promise.reject(new Error('unused')),
      async *stream(): AsyncGenerator<ModelStreamEvent> {
        const piece = 'a'.repeat(deltaChars - 1) + ' ';
        for (; produced < totalChars; produced += deltaChars) yield { type: 'text-delta', text: piece };
        const text = piece.repeat(totalChars / deltaChars);
        yield {
          type: 'end',
          response: { content: [{ type: 'text', text }], stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 }, modelId: 'long' },
        };
      },
      estimateInputTokens: () => 1,
    };
    return { model, produced: () => produced };
  }

  /** Waits until `count` stops changing (the producer is waiting), or the run ended. */
  async function settled(count: () => number, run: AgentStream): Promise<void> {
    let ended = false;
    void run.result.finally(() => (ended = true));
    for (let last = -1, quiet = 0; quiet < 5 && !ended;) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      quiet = count() === last ? quiet + 1 : 0;
      last = count();
    }
  }

  it.each([
    { name: '256 KiB in 4-character deltas, bounded by the unread events', totalChars: 262_144, deltaChars: 4, bound: STREAM_HIGH_WATER_MARK.events * 4 },
    {
      name: '4 MiB in 64 KiB deltas, bounded by the unread characters',
      totalChars: 4_194_304,
      deltaChars: 65_536,
      bound: STREAM_HIGH_WATER_MARK.modelChars + 65_536,
    },
  ])('holds back the model for a client that never reads: $name', async ({ totalChars, deltaChars, bound }) => {
    const answer = longAnswer(totalChars, deltaChars);
    const run = streamAgent({ model: answer.model, tools: [], prompt: 'Write a lot.', recordDir: false, logger: silentLogger });
    const response = toEventStreamResponse(run);
    await settled(answer.produced, run);
    // The model handed over no more than the reader may fall behind, and the run waits instead of finishing.
    expect(answer.produced()).toBeLessThanOrEqual(bound);
    expect(answer.produced()).toBeGreaterThan(0);
    // Read late, the body still holds every word of the answer, then the stop.
    const messages = parseSse(await response.text());
    const text = messages.filter((message) => message.event === 'text_delta').map((message) => message.data.text as string);
    expect(text.join('')).toBe(('a'.repeat(deltaChars - 1) + ' ').repeat(totalChars / deltaChars));
    expect(messages.at(-1)).toMatchObject({ event: 'stop', data: { status: 'completed' } });
  });

  it('a client that never reads and then goes away stops the held-back run', async () => {
    const answer = longAnswer(4_194_304, 4);
    const run = streamAgent({ model: answer.model, tools: [], prompt: 'Write a lot.', recordDir: false, logger: silentLogger });
    const response = toEventStreamResponse(run);
    await settled(answer.produced, run);
    expect(answer.produced()).toBeLessThanOrEqual(STREAM_HIGH_WATER_MARK.events * 4);
    await response.body!.cancel();
    const result = await run.result;
    expect(result.status === 'stopped' && result.stopReason.kind).toBe('aborted');
    expect(answer.produced()).toBeLessThanOrEqual(STREAM_HIGH_WATER_MARK.events * 4 + 4);
  });

  it("aborts the run on the request's signal, sending the rest of the events up to stop", async () => {
    const controller = new AbortController();
    const run = streamAgent({
      model: {
        id: 'scripted:stall',
        provider: 'scripted',
        generate: () => Promise.reject(new Error('unused')),
        async *stream(request): AsyncGenerator<ModelStreamEvent> {
          await new Promise<void>((resolve) => request.signal?.addEventListener('abort', () => resolve(), { once: true }));
          yield { type: 'text-delta', text: 'too late' };
        },
        estimateInputTokens: () => 1,
      },
      tools: [],
      prompt: 'x',
      recordDir: false,
      logger: silentLogger,
    });
    const response = toEventStreamResponse(run, { signal: controller.signal, headers: { 'x-run-id': run.runId } });
    expect(response.headers.get('x-run-id')).toBe(run.runId);
    setTimeout(() => controller.abort(new Error('request ended')), 10);
    const messages = parseSse(await response.text());
    expect(messages.map((message) => message.event)).toEqual(['run_started', 'step_started', 'model_error', 'stop']);
    expect(messages.at(-1)?.data.stopReason).toEqual({ kind: 'aborted', message: 'The run was aborted: request ended.' });
  });
});
