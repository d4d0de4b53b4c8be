/**
 * Chat Completions (`POST /v1/chat/completions`) as documented in the API
 * reference: a `chat.completion` object, or `chat.completion.chunk` events on
 * `data:` lines ending with `data: [DONE]`; tool-call arguments arrive as
 * string fragments keyed by `index`, the first fragment carrying `id` and
 * `name`; usage comes in a last chunk with empty `choices` only when the
 * request set `stream_options.include_usage`.
 * @module
 */
import type { FakeStopReason, FakeTurn } from './types.js';
import { DEFAULT_CHUNK_SIZE, DEFAULT_USAGE, argumentsText, chunks, type SseEvent } from './sse.js';

const FINISH: Record<FakeStopReason, string> = { end_turn: 'stop', tool_calls: 'tool_calls', max_tokens: 'length', content_filter: 'content_filter' };

export function openAIChatError(status: number, message: string, type: string | undefined): unknown {
  return { error: { message, type: type ?? openAIErrorType(status), param: null, code: status === 401 ? 'invalid_api_key' : null } };
}

export function openAIErrorType(status: number): string {
  if (status === 401) return 'invalid_request_error';
  if (status === 429) return 'rate_limit_exceeded';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function finishReason(turn: FakeTurn): string {
  return turn.wireStopReason ?? FINISH[turn.stopReason ?? ((turn.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'end_turn')];
}

function usageOf(turn: FakeTurn) {
  const usage = turn.usage ?? DEFAULT_USAGE;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: turn.usage?.cachedInputTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: turn.usage?.reasoningTokens ?? 0 },
  };
}

export function renderOpenAIChat(turn: FakeTurn, request: any, sequence: number): unknown {
  const toolCalls = (turn.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${sequence}_${index + 1}`,
    type: 'function',
    function: { name: call.name, arguments: argumentsText(call.arguments) },
  }));
  return {
    id: `chatcmpl-${sequence}`,
    object: 'chat.completion',
    created: 1_700_000_000 + sequence,
    model: turn.model ?? request?.model ?? 'fake-model',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: turn.text ?? null, refusal: null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
        logprobs: null,
        finish_reason: finishReason(turn),
      },
    ],
    usage: usageOf(turn),
  };
}

export function streamOpenAIChat(turn: FakeTurn, request: any, sequence: number): SseEvent[] {
  const size = turn.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const base = {
    id: `chatcmpl-${sequence}`,
    object: 'chat.completion.chunk',
    created: 1_700_000_000 + sequence,
    model: turn.model ?? request?.model ?? 'fake-model',
  };
  // With include_usage, every chunk but the last carries `usage: null`, as the reference documents.
  const withUsage = request?.stream_options?.include_usage === true;
  const chunk = (delta: unknown, finish: string | null = null) => ({
    data: JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(withUsage ? { usage: null } : {}) }),
  });
  const events: SseEvent[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const piece of chunks(turn.text ?? '', size)) events.push(chunk({ content: piece }));
  (turn.toolCalls ?? []).forEach((call, index) => {
    events.push(
      chunk({ tool_calls: [{ index, id: call.id ?? `call_${sequence}_${index + 1}`, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    for (const piece of chunks(argumentsText(call.arguments), size)) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(chunk({}, finishReason(turn)));
  if (withUsage) events.push({ data: JSON.stringify({ ...base, choices: [], usage: usageOf(turn) }) });
  events.push({ data: '[DONE]' });
  return events;
}
