/**
 * The Gemini API (`POST /v1beta/models/{model}:generateContent`, and
 * `:streamGenerateContent?alt=sse` for a stream) as documented: a
 * `GenerateContentResponse` with one candidate whose `content` (`role: "model"`)
 * holds `text` and `functionCall` parts (`args` an object), a `finishReason`
 * (`STOP` also when the model calls functions, `MAX_TOKENS`, `SAFETY`…) and
 * `usageMetadata` (`promptTokenCount`, `candidatesTokenCount`, `totalTokenCount`,
 * `cachedContentTokenCount`). A stream is the same response cut into chunks,
 * one SSE `data:` line each: text in pieces, each function call whole, the last
 * chunk with the finish reason and usage. Errors are
 * `{ error: { code, message, status } }` with Google's status names.
 * @module
 */
import type { FakeStopReason, FakeTurn } from './types.js';
import { DEFAULT_CHUNK_SIZE, DEFAULT_USAGE, chunks, type SseEvent } from './sse.js';

const FINISH: Record<FakeStopReason, string> = { end_turn: 'STOP', tool_calls: 'STOP', max_tokens: 'MAX_TOKENS', content_filter: 'SAFETY' };

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export function geminiError(status: number, message: string, type: string | undefined): unknown {
  return { error: { code: status, message, status: type ?? STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT') } };
}

function finishReason(turn: FakeTurn): string {
  return turn.wireStopReason ?? FINISH[turn.stopReason ?? 'end_turn'];
}

function argsOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    // Gemini sends `args` as an object; text that is not JSON cannot be said on this wire.
    return {};
  }
}

function usageMetadata(turn: FakeTurn) {
  const usage = turn.usage ?? DEFAULT_USAGE;
  return {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: usage.outputTokens,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
    ...(turn.usage?.cachedInputTokens === undefined ? {} : { cachedContentTokenCount: turn.usage.cachedInputTokens }),
  };
}

function functionCallParts(turn: FakeTurn) {
  return (turn.toolCalls ?? []).map((call) => ({
    functionCall: { ...(call.id === undefined ? {} : { id: call.id }), name: call.name, args: argsOf(call.arguments) },
  }));
}

/** One model's endpoint: the response echoes the model named in the path. */
export function renderGemini(model: string) {
  return (turn: FakeTurn, _request: unknown, sequence: number): unknown => ({
    candidates: [
      {
        content: { role: 'model', parts: [...(turn.text === undefined ? [] : [{ text: turn.text }]), ...functionCallParts(turn)] },
        finishReason: finishReason(turn),
        index: 0,
      },
    ],
    usageMetadata: usageMetadata(turn),
    modelVersion: turn.model ?? model,
    responseId: `resp_${sequence}`,
  });
}

export function streamGemini(model: string) {
  return (turn: FakeTurn, _request: unknown, sequence: number): SseEvent[] => {
    const size = turn.chunkSize ?? DEFAULT_CHUNK_SIZE;
    const base = { modelVersion: turn.model ?? model, responseId: `resp_${sequence}` };
    const chunk = (parts: unknown[], last: boolean) => ({
      data: JSON.stringify({
        candidates: [{ content: { role: 'model', parts }, ...(last ? { finishReason: finishReason(turn) } : {}), index: 0 }],
        ...(last ? { usageMetadata: usageMetadata(turn) } : {}),
        ...base,
      }),
    });
    const pieces: unknown[][] = [...chunks(turn.text ?? '', size).map((text) => [{ text }]), ...functionCallParts(turn).map((part) => [part])];
    if (pieces.length === 0) pieces.push([]);
    return pieces.map((parts, index) => chunk(parts, index === pieces.length - 1));
  };
}
