/**
 * Hardening: a model (or the server in front of it) that streams a huge tool argument in tiny deltas cannot make the
 * stream cost time in the square of its length. Every stream reader parsed the whole argument text again on every delta:
 * 100,000 characters in 10-character deltas took 2 s, and the 1,000,000 the registry accepts would have taken minutes of
 * CPU, for an argument an injected instruction can ask the model to write. They now parse again only when the text grew
 * by a sixteenth (every change up to 4,096 characters), and parse the whole text once it is complete.
 */
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/agent/redact.js';
import type { AgentStreamEvent } from '../../src/agent/streaming/stream-event.js';
import { redactAgentStream } from '../../src/agent/streaming/stream-redaction.js';
import { AISDKStreamAccumulator } from '../../src/formats/ai-sdk/ai-sdk-stream-accumulator.js';
import { AnthropicToolCallStream } from '../../src/formats/anthropic/anthropic-tool-call-stream.js';
import { OpenAIChatToolCallStream } from '../../src/formats/openai-chat/openai-chat-tool-call-stream.js';
import { OpenAIResponsesToolCallStream } from '../../src/formats/openai-responses/openai-responses-tool-call-stream.js';
import { ReparseGate } from '../../src/formats/partial-json.js';

// under the registry's 1,000,000-character limit, so the call would be accepted whole at the end
const BODY_CHARS = 900_000;
const DELTA_CHARS = 10;
/** Not a speed measurement: a liveness bound far above the linear cost (well under a second) and far below the old one (minutes). */
const LIVENESS_BOUND_MS = 20_000;

const argumentsText = JSON.stringify({ to: 'bob@example.com', body: 'a'.repeat(BODY_CHARS) });
const deltas = Array.from({ length: Math.ceil(argumentsText.length / DELTA_CHARS) }, (_, index) =>
  argumentsText.slice(index * DELTA_CHARS, (index + 1) * DELTA_CHARS),
);
const expected = JSON.parse(argumentsText) as unknown;

/** Checks a partial value seen mid-stream: the fields so far, the body a prefix of the real one. */
function expectPrefixOfArguments(partial: unknown): void {
  if (partial === undefined) return;
  const { to, body } = partial as { to?: string; body?: string };
  if (to !== undefined) expect('bob@example.com'.startsWith(to)).toBe(true);
  if (body !== undefined) expect(body).toBe('a'.repeat(body.length));
}

describe('streamed tool arguments: parsing work grows linearly with their length', () => {
  it('parses again at most a few hundred times over a 900,000-character text in 10-character deltas', () => {
    const gate = new ReparseGate();
    let parses = 0;
    for (let length = DELTA_CHARS; length <= BODY_CHARS; length += DELTA_CHARS) if (gate.due(length)) parses++;
    // every change up to 4,096 (410 here), then each sixteenth of growth: ln(900,000 / 4,096) / ln(17 / 16) ≈ 89
    expect(parses).toBeGreaterThan(400);
    expect(parses).toBeLessThan(520);
    expect(gate.due(BODY_CHARS + 1)).toBe(false); // too little growth
    expect(gate.due(BODY_CHARS + 1, true)).toBe(true); // final: whatever the growth
    expect(gate.due(BODY_CHARS + 1, true)).toBe(false); // nothing new to parse
  });

  it(
    'OpenAI Chat Completions: the complete arguments at the end, a prefix of them on the way',
    () => {
      const stream = new OpenAIChatToolCallStream();
      deltas.forEach((piece, index) => {
        stream.push({
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [{ index: 0, ...(index === 0 ? { id: 'c1' } : {}), function: { ...(index === 0 ? { name: 'send' } : {}), arguments: piece } }],
              },
              finish_reason: null,
            },
          ],
        } as ChatCompletionChunk);
        if (index % 5_000 === 0) expectPrefixOfArguments(stream.partialCalls[0]!.partialArguments);
      });
      stream.push({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] } as unknown as ChatCompletionChunk);
      expect(stream.partialCalls[0]!.partialArguments).toEqual(expected);
      expect(stream.toolCalls()[0]!.argumentsText).toBe(argumentsText);
    },
    LIVENESS_BOUND_MS,
  );

  it(
    'OpenAI Chat Completions: the finish reason in the same chunk as the last piece still gives the complete arguments',
    () => {
      const stream = new OpenAIChatToolCallStream();
      deltas.forEach((piece, index) =>
        stream.push({
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: 0, function: { arguments: piece } }] },
              finish_reason: index === deltas.length - 1 ? 'tool_calls' : null,
            },
          ],
        } as ChatCompletionChunk),
      );
      expect(stream.partialCalls[0]!.partialArguments).toEqual(expected);
    },
    LIVENESS_BOUND_MS,
  );

  it(
    'OpenAI Responses: the complete arguments at the end, a prefix of them on the way',
    () => {
      const stream = new OpenAIResponsesToolCallStream();
      stream.push({
        type: 'response.output_item.added',
        output_index: 0,
        item: { type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'send', arguments: '' },
      } as ResponseStreamEvent);
      deltas.forEach((delta, index) => {
        stream.push({ type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta } as ResponseStreamEvent);
        if (index % 5_000 === 0) expectPrefixOfArguments(stream.partialCalls[0]!.partialArguments);
      });
      expect(stream.partialCalls[0]!.done).toBe(false);
      stream.push({ type: 'response.function_call_arguments.done', item_id: 'fc_1', output_index: 0, arguments: argumentsText } as ResponseStreamEvent);
      expect(stream.partialCalls[0]!.partialArguments).toEqual(expected);
    },
    LIVENESS_BOUND_MS,
  );

  it(
    'Anthropic: the complete arguments at the end, a prefix of them on the way',
    () => {
      const stream = new AnthropicToolCallStream();
      stream.push({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'c1', name: 'send', input: {} } } as RawMessageStreamEvent);
      deltas.forEach((partial_json, index) => {
        stream.push({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json } } as RawMessageStreamEvent);
        if (index % 5_000 === 0) expectPrefixOfArguments(stream.partialCalls[0]!.partialArguments);
      });
      stream.push({ type: 'content_block_stop', index: 0 } as RawMessageStreamEvent);
      expect(stream.partialCalls[0]!.partialArguments).toEqual(expected);
    },
    LIVENESS_BOUND_MS,
  );

  it(
    'AI SDK stream parts: the complete arguments at the end of the input, before any final tool-call part',
    () => {
      const accumulator = new AISDKStreamAccumulator();
      accumulator.push({ type: 'tool-input-start', id: 'c1', toolName: 'send' } as LanguageModelV4StreamPart);
      deltas.forEach((delta, index) => {
        accumulator.push({ type: 'tool-input-delta', id: 'c1', delta } as LanguageModelV4StreamPart);
        if (index % 5_000 === 0) expectPrefixOfArguments(accumulator.partialCalls[0]!.partialArguments);
      });
      accumulator.push({ type: 'tool-input-end', id: 'c1' } as LanguageModelV4StreamPart);
      expect(accumulator.partialCalls[0]!.partialArguments).toEqual(expected);
    },
    LIVENESS_BOUND_MS,
  );

  it(
    'the redacted agent stream shows the complete fields on the way and the whole call, redacted, at its end',
    async () => {
      async function* events(): AsyncGenerator<AgentStreamEvent> {
        yield { type: 'tool_call_start', step: 0, index: 0, callId: 'c1', toolName: 'send', runId: 'r' };
        for (const argumentsDelta of deltas)
          yield {
            type: 'tool_call_delta',
            step: 0,
            index: 0,
            callId: 'c1',
            toolName: 'send',
            argumentsDelta,
            partialArguments: undefined,
            runId: 'r',
          } as AgentStreamEvent;
        yield {
          type: 'tool_call_end',
          step: 0,
          index: 0,
          call: { type: 'tool-call', id: 'c1', name: 'send', arguments: expected, argumentsText },
          runId: 'r',
        } as AgentStreamEvent;
      }
      let shown = 0;
      let last: AgentStreamEvent | undefined;
      for await (const event of redactAgentStream(events(), createRedactor())) {
        if (event.type === 'tool_call_delta') {
          shown++;
          expectPrefixOfArguments(event.partialArguments);
        }
        last = event;
      }
      // an open string is never shown (it may be a secret cut short), so the body appears only with the whole call
      expect(shown).toBeGreaterThan(0);
      expect(shown).toBeLessThan(520);
      expect(last?.type === 'tool_call_end' && last.call.arguments).toEqual(expected);
    },
    LIVENESS_BOUND_MS,
  );
});
