import { describe, expect, it } from 'vitest';
import { ToolwrightError } from '../../shared/errors.js';
import { toolCallsOf, type ModelResponse, type ModelStreamEvent } from '../../protocol/model-exchange.js';
import type { ToolMessage } from '../../protocol/messages.js';
import { ScriptExhaustedError, createScriptedModel, errorTurn, textTurn, toolCallTurn } from './scripted-model.js';

const ask = (text: string) => ({ messages: [{ role: 'user' as const, content: text }] });

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const all: ModelStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('createScriptedModel', () => {
  it('replays tool-call and text turns in order', async () => {
    const model = createScriptedModel([toolCallTurn([{ name: 'get_weather', arguments: { city: 'Paris' } }]), textTurn('It is sunny.')]);
    const first = await model.generate(ask('Weather?'));
    expect(first).toEqual({
      content: [{ type: 'tool-call', id: 'call_1_1', name: 'get_weather', arguments: { city: 'Paris' } }],
      stopReason: 'tool_calls',
      // ceil(36 / 4) for {"role":"user","content":"Weather?"}; ceil(27 / 4) for get_weather{"city":"Paris"}.
      usage: { inputTokens: 9, outputTokens: 7 },
      modelId: 'model',
    });
    const second = await model.generate(ask('and?'));
    expect(second.content).toEqual([{ type: 'text', text: 'It is sunny.' }]);
    expect(toolCallsOf(second)).toEqual([]);
    expect(second.stopReason).toBe('end_turn');
    expect(model.remainingTurns).toBe(0);
  });

  it('records every request it received', async () => {
    const model = createScriptedModel([textTurn('a'), textTurn('b')]);
    const messages = [{ role: 'user' as const, content: 'one' }];
    await model.generate({ messages, toolChoice: 'auto' });
    messages.push({ role: 'user', content: 'two' });
    await model.generate({ messages });
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]!.messages).toEqual([{ role: 'user', content: 'one' }]);
    expect(model.requests[0]!.toolChoice).toBe('auto');
    expect(model.requests[1]!.messages).toHaveLength(2);
  });

  it('lets a turn function react to the tool results it sees', async () => {
    const model = createScriptedModel([
      toolCallTurn([{ name: 'add', arguments: { a: 1, b: 2 } }]),
      (request, { turn }) => {
        const tool = request.messages.find((message): message is ToolMessage => message.role === 'tool');
        const text = tool?.results[0]?.result.content[0];
        return textTurn(`turn ${turn}: ${text && 'text' in text ? text.text : 'nothing'}`);
      },
    ]);
    await model.generate(ask('1+2?'));
    const answer = await model.generate({
      messages: [
        { role: 'user', content: '1+2?' },
        { role: 'tool', results: [{ callId: 'call_1_1', toolName: 'add', result: { content: [{ type: 'text', text: '3' }], isError: false } }] },
      ],
    });
    expect(answer.content).toEqual([{ type: 'text', text: 'turn 2: 3' }]);
  });

  it('throws a typed error naming the missing turn when the script runs out', async () => {
    const model = createScriptedModel([textTurn('only one')]);
    await model.generate(ask('1'));
    const error = await model.generate(ask('2')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ScriptExhaustedError);
    expect(ToolwrightError.isInstance(error) && error.code).toBe('TW_SCRIPT_EXHAUSTED');
    expect((error as Error).message).toBe('The scripted model has no turn 2; add one (its script holds 1 turn, and turn 2 was requested).');
  });

  it('keeps broken argument text verbatim, with its parse failure for the registry to report', async () => {
    const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'add', argumentsText: '{"a": 1,' }])]);
    const response = await model.generate(ask('x'));
    expect(response.content).toEqual([
      { type: 'tool-call', id: 'c1', name: 'add', arguments: undefined, argumentsText: '{"a": 1,', argumentsError: expect.objectContaining({ position: 8 }) },
    ]);
  });

  it("parses a scripted part's text itself, so that the text wins over the arguments it also gives", async () => {
    const model = createScriptedModel([{ content: [{ type: 'tool-call', id: 'c1', name: 'add', arguments: { a: 2 }, argumentsText: '{"a": 1}' }] }]);
    expect(toolCallsOf(await model.generate(ask('x')))).toEqual([{ type: 'tool-call', id: 'c1', name: 'add', arguments: { a: 1 }, argumentsText: '{"a": 1}' }]);
  });

  it('accepts a full ModelResponse as a turn and keeps its order and usage', async () => {
    const scripted: ModelResponse = {
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool-call', id: 'toolu_1', name: 'lookup', arguments: { q: 'x' } },
      ],
      stopReason: 'tool_calls',
      usage: { inputTokens: 100, outputTokens: 20 },
      modelId: 'claude-test',
    };
    const model = createScriptedModel([scripted]);
    expect(await model.generate(ask('x'))).toEqual(scripted);
  });

  it('throws scripted provider errors', async () => {
    const failure = new Error('rate limited');
    const model = createScriptedModel([errorTurn(failure), textTurn('ok')]);
    await expect(model.generate(ask('x'))).rejects.toBe(failure);
    expect((await model.generate(ask('x'))).content).toEqual([{ type: 'text', text: 'ok' }]);
  });

  it('streams text and tool-call deltas that fold into the end response', async () => {
    const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }], { text: 'Checking the weather.' })], {
      streamChunkSize: 10,
    });
    const events = await collect(model.stream(ask('Weather?')));
    expect(events.slice(0, -1)).toEqual([
      { type: 'text-delta', text: 'Checking t' },
      { type: 'text-delta', text: 'he weather' },
      { type: 'text-delta', text: '.' },
      { type: 'tool-call-start', index: 0, id: 'c1', name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":"P', partialArguments: { city: 'P' } },
      { type: 'tool-call-delta', index: 0, argumentsDelta: 'aris"}', partialArguments: { city: 'Paris' } },
      { type: 'tool-call-end', index: 0, call: { type: 'tool-call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } } },
    ]);
    const end = events.at(-1);
    expect(end?.type === 'end' && end.response.content).toEqual([
      { type: 'text', text: 'Checking the weather.' },
      { type: 'tool-call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } },
    ]);
    // The end event of a call carries the response's own part.
    expect(end?.type === 'end' && end.response.content[1]).toBe(events.find((event) => event.type === 'tool-call-end')?.call);
  });

  it('stops when the request is aborted', async () => {
    const controller = new AbortController();
    const model = createScriptedModel([textTurn('a long answer that streams in many pieces')], { streamChunkSize: 4 });
    const seen: ModelStreamEvent[] = [];
    const run = (async () => {
      for await (const event of model.stream({ ...ask('x'), signal: controller.signal })) {
        seen.push(event);
        if (seen.length === 2) controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toHaveLength(2);
    await expect(createScriptedModel([textTurn('x')]).generate({ ...ask('x'), signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('takes its provider from its id', () => {
    expect(createScriptedModel([]).provider).toBe('scripted');
    expect(createScriptedModel([], { id: 'openai:gpt-test' }).provider).toBe('openai');
  });
});
