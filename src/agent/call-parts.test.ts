/**
 * The loop takes each call as its model's adapter parsed it, once: a part's
 * `arguments` are what the tool receives and what the record holds, and
 * neither the loop nor the registry parses its `argumentsText` again.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Model } from '../models/types.js';
import type { ToolCallPart } from '../protocol/messages.js';
import type { ModelResponse } from '../protocol/model-exchange.js';
import { toolCallPartFromText } from '../formats/tool-call-part.js';
import { defineTool } from '../tools/define-tool.js';
import { silentLogger } from '../tools/tool-registry.js';
import type { RunEvent } from './run-event.js';
import { runAgent } from './run-agent.js';

const received: unknown[] = [];
const echo = defineTool<{ text: string }>({
  name: 'echo',
  description: 'Echoes text.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  execute: (args) => {
    received.push(args);
    return `echo: ${args.text}`;
  },
});

/** A model whose first answer is the given call parts, its second a plain text answer. */
function modelAnswering(calls: ToolCallPart[]): Model {
  let turn = 0;
  const usage = { inputTokens: 1, outputTokens: 1 };
  return {
    id: 'test:parts',
    provider: 'test',
    estimateInputTokens: () => 1,
    async generate(): Promise<ModelResponse> {
      turn++;
      if (turn === 1) return { content: calls, stopReason: 'tool_calls', usage, modelId: 'parts' };
      return { content: [{ type: 'text', text: 'done' }], stopReason: 'end_turn', usage, modelId: 'parts' };
    },
    // eslint-disable-next-line require-yield -- the loop only calls generate.
    async *stream() {
      throw new Error('not used');
    },
  };
}

afterEach(() => {
  received.length = 0;
  vi.restoreAllMocks();
});

describe('the agent loop and call parts', () => {
  it("runs a part's parsed arguments, never its text, and never parses that text again", async () => {
    // Spaced text, so that no compact JSON the loop writes for its record can equal it.
    const rawText = '{ "text" : "as the wire sent it" }';
    const part: ToolCallPart = { type: 'tool-call', id: 'c1', name: 'echo', arguments: { text: 'as the adapter parsed it' }, argumentsText: rawText };
    const parse = vi.spyOn(JSON, 'parse');
    const events: RunEvent[] = [];
    const result = await runAgent({
      model: modelAnswering([part]),
      tools: [echo],
      prompt: 'Go.',
      recordDir: false,
      logger: silentLogger,
      onEvent: (event) => events.push(event),
    });
    expect(result.status).toBe('completed');
    expect(received).toEqual([{ text: 'as the adapter parsed it' }]);
    expect(parse.mock.calls.filter(([text]) => text === rawText)).toEqual([]);
    expect(result.steps[0]!.toolCalls[0]).toMatchObject({ status: 'succeeded', arguments: { text: 'as the adapter parsed it' } });
    expect(events.find((event) => event.type === 'tool_call')).toMatchObject({ arguments: { text: 'as the adapter parsed it' }, argumentsText: rawText });
    // The transcript replays the call as the model sent it.
    expect(result.messages.find((message) => message.role === 'assistant')).toEqual({ role: 'assistant', content: [part] });
  });

  it("answers broken text from the part's parse failure, without parsing the text again", async () => {
    const part = toolCallPartFromText('c1', 'echo', '{text: "unquoted"}');
    const parse = vi.spyOn(JSON, 'parse');
    const result = await runAgent({ model: modelAnswering([part]), tools: [echo], prompt: 'Go.', recordDir: false, logger: silentLogger });
    expect(received).toEqual([]);
    expect(parse.mock.calls.filter(([text]) => text === part.argumentsText)).toEqual([]);
    const outcome = result.steps[0]!.toolCalls[0]!;
    expect(outcome).toMatchObject({ status: 'failed', failureCode: 'invalid_json' });
    const message = outcome.result.content[0];
    expect(message?.type === 'text' && message.text).toContain('are not valid JSON: expected property name');
  });
});
