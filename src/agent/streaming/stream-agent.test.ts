import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModel, errorTurn, textTurn, toolCallTurn } from '../../models/scripted/scripted-model.js';
import type { Model } from '../../models/types.js';
import type { ModelStreamEvent } from '../../protocol/model-exchange.js';
import { InvalidArgumentError, InvalidStateError } from '../../shared/errors.js';
import { defineTool, type AnyTool } from '../../tools/define-tool.js';
import { silentLogger } from '../../tools/tool-registry.js';
import { createMemoryRunStore } from '../memory-run-store.js';
import { readRunRecord } from '../run-recorder.js';
import { runAgent, type RunAgentOptions } from '../run-agent.js';
import { STREAM_HIGH_WATER_MARK, resumeAgentStream, streamAgent, type AgentStream, type AgentStreamEvent } from './stream-agent.js';

const folders: string[] = [];
function tempDir(): string {
  const folder = mkdtempSync(join(tmpdir(), 'tw-stream-'));
  folders.push(folder);
  return folder;
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const weather = defineTool<{ city: string }>({
  name: 'get_weather',
  description: 'Current weather for a city.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: ({ city }, context) => {
    context.reportProgress(1, 2, `asking the station in ${city}`);
    context.reportProgress(2, 2);
    return `${city}: sunny`;
  },
});

function options(model: Model, tools: readonly AnyTool[], extra: Partial<RunAgentOptions> = {}): RunAgentOptions {
  return { model, tools, prompt: 'Weather in Paris?', recordDir: false, logger: silentLogger, ...extra };
}

async function collect(run: AsyncIterable<AgentStreamEvent>): Promise<AgentStreamEvent[]> {
  const events: AgentStreamEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

/** A model whose stream sends its first pieces, then waits until the request is aborted (a provider that never finishes). */
function stallingModel(pieces: readonly string[]): Model & { aborted: boolean } {
  const model = {
    id: 'scripted:stall',
    provider: 'scripted',
    aborted: false,
    generate: () => Promise.reject(new Error('streamAgent must not call generate')),
    async *stream(request: { signal?: AbortSignal }): AsyncGenerator<ModelStreamEvent> {
      for (const text of pieces) yield { type: 'text-delta', text };
      await new Promise<void>((resolve) => {
        if (request.signal?.aborted) resolve();
        request.signal?.addEventListener('abort', () => resolve(), { once: true });
      });
      model.aborted = true;
    },
    estimateInputTokens: () => 1,
  };
  return model;
}

describe('streamAgent', () => {
  it('streams text, tool calls as they form, tool progress, results and step totals, ending with stop', async () => {
    const model = createScriptedModel(
      [
        toolCallTurn([{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }], { text: 'Checking.', usage: { inputTokens: 10, outputTokens: 5 } }),
        textTurn('It is sunny in Paris.', { usage: { inputTokens: 20, outputTokens: 6 } }),
      ],
      { streamChunkSize: 6 },
    );
    const run = streamAgent(options(model, [weather]));
    const events = await collect(run);
    const result = await run.result;
    expect(result.status).toBe('completed');
    expect(events.every((event) => event.runId === run.runId && run.runId === result.runId)).toBe(true);
    expect(events.map((event) => event.type)).toEqual([
      'run_started',
      'step_started',
      'text_delta',
      'text_delta',
      'tool_call_start',
      'tool_call_delta',
      'tool_call_delta',
      'tool_call_delta',
      'tool_call_end',
      'tool_call',
      'tool_progress',
      'tool_progress',
      'tool_result',
      'step_finished',
      'step_started',
      'text_delta',
      'text_delta',
      'text_delta',
      'text_delta',
      'step_finished',
      'stop',
    ]);
    const text = (step: number) =>
      events
        .filter((event) => event.type === 'text_delta' && event.step === step)
        .map((event) => (event.type === 'text_delta' ? event.text : ''))
        .join('');
    expect(text(0)).toBe('Checking.');
    expect(text(1)).toBe('It is sunny in Paris.');
    const deltas = events.filter((event) => event.type === 'tool_call_delta');
    expect(deltas.map((event) => event.type === 'tool_call_delta' && [event.callId, event.toolName, event.partialArguments])).toEqual([
      ['c1', 'get_weather', {}],
      ['c1', 'get_weather', { city: 'Par' }],
      ['c1', 'get_weather', { city: 'Paris' }],
    ]);
    expect(events.filter((event) => event.type === 'tool_progress')).toEqual([
      {
        type: 'tool_progress',
        step: 0,
        callKey: '0.0',
        callId: 'c1',
        toolName: 'get_weather',
        progress: 1,
        total: 2,
        message: 'asking the station in Paris',
        runId: run.runId,
      },
      { type: 'tool_progress', step: 0, callKey: '0.0', callId: 'c1', toolName: 'get_weather', progress: 2, total: 2, runId: run.runId },
    ]);
    const finished = events.filter((event) => event.type === 'step_finished');
    expect(
      finished.map((event) => event.type === 'step_finished' && [event.step, event.finishReason, event.toolCalls, event.usage.inputTokens, event.text]),
    ).toEqual([
      [0, 'tool_calls', 1, 10, 'Checking.'],
      [1, 'end_turn', 0, 30, 'It is sunny in Paris.'],
    ]);
    const stop = events.at(-1);
    expect(stop?.type === 'stop' && [stop.status, stop.usage.outputTokens, stop.usage.toolCalls]).toEqual(['completed', 11, 1]);
    // Every model call streamed.
    expect(model.requests).toHaveLength(2);
  });

  it('queues every event for a reader that comes late, and gives the same result to one that never reads', async () => {
    const script = () => createScriptedModel([toolCallTurn([{ name: 'get_weather', arguments: { city: 'Rome' } }]), textTurn('Sunny.')]);
    const late = streamAgent(options(script(), [weather]));
    const result = await late.result;
    const events = await collect(late);
    expect(events[0]?.type).toBe('run_started');
    expect(events.at(-1)?.type).toBe('stop');
    expect(events.filter((event) => event.type === 'text_delta').length).toBeGreaterThan(0);
    expect(result.status).toBe('completed');
    const unread = streamAgent(options(script(), [weather]));
    expect((await unread.result).status).toBe('completed');
  });

  it('never waits for a stream nobody iterates, past the high-water mark too; a late reader still gets every delta', async () => {
    const answer = 'word '.repeat(STREAM_HIGH_WATER_MARK.events * 2);
    const late = streamAgent(options(createScriptedModel([textTurn(answer)], { streamChunkSize: 4 }), []));
    expect((await late.result).status).toBe('completed');
    const deltas = (await collect(late)).filter((event) => event.type === 'text_delta');
    expect(deltas.length).toBeGreaterThan(STREAM_HIGH_WATER_MARK.events * 2);
    expect(deltas.map((event) => (event.type === 'text_delta' ? event.text : '')).join('')).toBe(answer);
  });

  it('can be read once', async () => {
    const run = streamAgent(options(createScriptedModel([textTurn('hi')]), []));
    run[Symbol.asyncIterator]();
    expect(() => run[Symbol.asyncIterator]()).toThrow(InvalidStateError);
    await run.result;
  });

  it('throws at once for the mistakes runAgent rejects for', () => {
    expect(() => streamAgent({ model: createScriptedModel([]), tools: [] } as RunAgentOptions)).toThrow(InvalidArgumentError);
    expect(() => streamAgent({ tools: [], prompt: 'x' } as unknown as RunAgentOptions)).toThrow(InvalidArgumentError);
  });

  it('ends with a typed stop, not a throw, when the model call fails', async () => {
    const run = streamAgent(options(createScriptedModel([errorTurn(new Error('upstream broke'))]), []));
    const events = await collect(run);
    const result = await run.result;
    expect(result.status === 'stopped' && result.stopReason.kind).toBe('model_error');
    expect(events.map((event) => event.type)).toEqual(['run_started', 'step_started', 'model_error', 'stop']);
  });

  it('stops with model_error when a provider stream ends without its final response', async () => {
    const model: Model = {
      id: 'scripted:cut',
      provider: 'scripted',
      generate: () => Promise.reject(new Error('unused')),
      async *stream() {
        yield { type: 'text-delta', text: 'Half an ans' };
      },
      estimateInputTokens: () => 1,
    };
    const run = streamAgent(options(model, []));
    const events = await collect(run);
    const result = await run.result;
    expect(result.status === 'stopped' && result.stopReason).toMatchObject({ kind: 'model_error', errorCode: 'IncompleteModelStream' });
    expect(events.map((event) => event.type)).toEqual(['run_started', 'step_started', 'text_delta', 'model_error', 'stop']);
  });

  it('aborts the run when the reader breaks out early, and waits until the run has recorded its stop', async () => {
    const recordDir = tempDir();
    const model = stallingModel(['Thinking', ' about it']);
    const run = streamAgent(options(model, [], { recordDir }));
    const seen: AgentStreamEvent[] = [];
    for await (const event of run) {
      seen.push(event);
      if (event.type === 'text_delta') break;
    }
    const result = await run.result;
    expect(result.status === 'stopped' && result.stopReason).toEqual({ kind: 'aborted', message: 'The run was aborted: the stream was closed by its reader.' });
    const record = readRunRecord(result.recordPath!);
    expect(record.at(-1)).toMatchObject({ type: 'stop', status: 'stopped', stopReason: { kind: 'aborted' } });
    expect(record.map((line) => line.type)).toEqual(['run_started', 'model_request', 'model_error', 'stop']);
    // The provider's stream saw the abort.
    await expect.poll(() => model.aborted).toBe(true);
  });

  it("stops on the caller's signal mid-stream, and the stream still ends with stop", async () => {
    const controller = new AbortController();
    const run: AgentStream = streamAgent(options(stallingModel(['a', 'b']), [], { signal: controller.signal }));
    const types: string[] = [];
    for await (const event of run) {
      types.push(event.type);
      if (event.type === 'text_delta' && event.text === 'b') controller.abort(new Error('user left'));
    }
    expect(types).toEqual(['run_started', 'step_started', 'text_delta', 'text_delta', 'model_error', 'stop']);
    const result = await run.result;
    expect(result.status === 'stopped' && result.stopReason.message).toBe('The run was aborted: user left.');
  });

  it('pauses for a confirmation as runAgent does: confirmation_requested, then stop awaiting_confirmation', async () => {
    const pay = defineTool<{ amount: number }>({
      name: 'pay',
      description: 'Pays.',
      effect: 'write',
      confirm: true,
      inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      execute: () => 'paid',
    });
    const run = streamAgent(
      options(createScriptedModel([toolCallTurn([{ name: 'pay', arguments: { amount: 5 } }])]), [pay], { store: createMemoryRunStore() }),
    );
    const events = await collect(run);
    const result = await run.result;
    expect(result.status).toBe('awaiting_confirmation');
    expect(events.slice(-3).map((event) => event.type)).toEqual(['confirmation_requested', 'step_finished', 'stop']);
    const asked = events.find((event) => event.type === 'confirmation_requested');
    expect(asked?.type === 'confirmation_requested' && asked.pending.map((pending) => pending.toolName)).toEqual(['pay']);
  });

  it('passes every record event to onEvent too, and a throwing listener does not end the run', async () => {
    const seen: string[] = [];
    const run = streamAgent(
      options(createScriptedModel([textTurn('hi')]), [], {
        onEvent: (event) => {
          seen.push(event.type);
          throw new Error('listener broke');
        },
      }),
    );
    await collect(run);
    expect((await run.result).status).toBe('completed');
    expect(seen).toEqual(['run_started', 'model_request', 'model_response', 'stop']);
  });
});

describe('streamAgent abort while a tool runs', () => {
  it('aborts the running tool through its signal and answers its call, so the transcript and record stay whole', async () => {
    const recordDir = tempDir();
    let toolSawAbort = false;
    const slow = defineTool<{ id: string }>({
      name: 'slow_read',
      description: 'Reads slowly.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      execute: async (_args, context) => {
        context.reportProgress(0, 1, 'started');
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
        toolSawAbort = true;
        throw context.signal.reason;
      },
    });
    const store = createMemoryRunStore();
    const run = streamAgent(
      options(createScriptedModel([toolCallTurn([{ id: 'c1', name: 'slow_read', arguments: { id: 'a' } }])]), [slow], { recordDir, store }),
    );
    for await (const event of run) if (event.type === 'tool_progress') break;
    const result = await run.result;
    expect(toolSawAbort).toBe(true);
    expect(result.status === 'stopped' && result.stopReason).toMatchObject({ kind: 'aborted' });
    // Every call of the transcript has its result.
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(result.steps[0]?.toolCalls.map((call) => [call.callId, call.status])).toEqual([['c1', 'failed']]);
    const record = readRunRecord(result.recordPath!);
    expect(record.map((line) => line.type)).toEqual(['run_started', 'model_request', 'model_response', 'tool_call', 'tool_result', 'stop']);
    // A run that never paused left nothing behind in the store.
    expect(await store.loadRun(result.runId)).toBeUndefined();
  });
});

describe('streamAgent: stopping and failing', () => {
  it('run.abort() stops the run like its signal', async () => {
    const run = streamAgent(options(stallingModel(['a']), []));
    const types: string[] = [];
    for await (const event of run) {
      types.push(event.type);
      if (event.type === 'text_delta') run.abort(new Error('stopped by the app'));
    }
    expect(types.at(-1)).toBe('stop');
    const result = await run.result;
    expect(result.status === 'stopped' && result.stopReason.message).toBe('The run was aborted: stopped by the app.');
  });

  it('rejects where runAgent rejects (a broken run store), after handing over every event before the failure', async () => {
    const pay = defineTool<{ amount: number }>({
      name: 'pay',
      description: 'Pays.',
      effect: 'write',
      confirm: true,
      inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      execute: () => 'paid',
    });
    const brokenStore = () => {
      const store = createMemoryRunStore();
      store.saveRun = () => Promise.reject(new Error('disk full'));
      return store;
    };
    const script = () => createScriptedModel([toolCallTurn([{ name: 'pay', arguments: { amount: 5 } }])]);
    await expect(runAgent(options(script(), [pay], { store: brokenStore() }))).rejects.toThrow('disk full');
    const run = streamAgent(options(script(), [pay], { store: brokenStore() }));
    const types: string[] = [];
    await expect(
      (async () => {
        for await (const event of run) types.push(event.type);
      })(),
    ).rejects.toThrow('disk full');
    await expect(run.result).rejects.toThrow('disk full');
    expect(types).toContain('confirmation_requested');
  });
});

describe('resumeAgentStream', () => {
  const pay = (ran: unknown[]) =>
    defineTool<{ amount: number }>({
      name: 'pay',
      description: 'Pays.',
      effect: 'write',
      confirm: true,
      inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      execute: ({ amount }) => {
        ran.push(amount);
        return `paid ${amount}`;
      },
    });

  it('continues a paused run after the decisions, streaming the rest, and gives what resumeAgent gives', async () => {
    const store = createMemoryRunStore();
    const ran: unknown[] = [];
    const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'pay', arguments: { amount: 5 } }]), textTurn('Paid five.')]);
    const first = await streamAgent(options(model, [pay(ran)], { store })).result;
    expect(first.status).toBe('awaiting_confirmation');
    if (first.status !== 'awaiting_confirmation') return;

    const run = resumeAgentStream(first.runId, [{ token: first.pending[0]!.token, decision: 'approve' }], options(model, [pay(ran)], { store }));
    expect(run.runId).toBe(first.runId);
    const events = await collect(run);
    const result = await run.result;
    expect(result.status === 'completed' && result.text).toBe('Paid five.');
    expect(ran).toEqual([5]);
    expect(events.map((event) => event.type)).toEqual([
      'confirmation_decided',
      'run_started',
      'tool_result',
      'step_started',
      'text_delta',
      'text_delta',
      'step_finished',
      'stop',
    ]);
    expect((await store.loadRun(first.runId))?.status).toBe('completed');
  });

  it('ends with stop awaiting_confirmation when other calls still wait, and rejects for a refused token as resumeAgent does', async () => {
    const store = createMemoryRunStore();
    const model = createScriptedModel([
      toolCallTurn([
        { id: 'c1', name: 'pay', arguments: { amount: 5 } },
        { id: 'c2', name: 'pay', arguments: { amount: 7 } },
      ]),
    ]);
    const first = await runAgent(options(model, [pay([])], { store }));
    if (first.status !== 'awaiting_confirmation') throw new Error('expected a pause');
    const partly = resumeAgentStream(first.runId, [{ token: first.pending[0]!.token, decision: 'approve' }], options(model, [pay([])], { store }));
    const events = await collect(partly);
    expect(events.map((event) => event.type)).toEqual(['confirmation_decided', 'stop']);
    expect(events.at(-1)).toMatchObject({ type: 'stop', status: 'awaiting_confirmation', runId: first.runId });

    const replayed = resumeAgentStream(first.runId, [{ token: first.pending[0]!.token, decision: 'approve' }], options(model, [pay([])], { store }));
    await expect(collect(replayed)).rejects.toMatchObject({ code: 'TW_CONFIRMATION_REFUSED' });
    await expect(replayed.result).rejects.toMatchObject({ code: 'TW_CONFIRMATION_REFUSED' });
  });
});

describe('streamAgent with a typed run context', () => {
  it("hands the caller's context to each tool, as runAgent does, and never streams it", async () => {
    const seen: unknown[] = [];
    const whoami = defineTool<Record<string, never>, string, { tenant: string }>({
      name: 'whoami',
      description: 'Names the tenant.',
      effect: 'read',
      inputSchema: { type: 'object', properties: {} },
      execute: (_args, { context }) => {
        seen.push(context);
        return `tenant ${context.tenant}`;
      },
    });
    const model = createScriptedModel([toolCallTurn([{ name: 'whoami', arguments: {} }]), textTurn('Done.')]);
    const run = streamAgent({ ...options(model, [whoami]), context: { tenant: 'acme-secret-tenant' } });
    const events = await collect(run);
    expect((await run.result).status).toBe('completed');
    expect(seen).toEqual([{ tenant: 'acme-secret-tenant' }]);
    // The tool's result names it (the tool chose to); nothing else of the stream holds the context.
    expect(JSON.stringify(events.filter((event) => event.type !== 'tool_result' && event.type !== 'step_finished'))).not.toContain('acme-secret-tenant');
  });
});
