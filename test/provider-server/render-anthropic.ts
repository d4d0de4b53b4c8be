/**
 * Anthropic Messages (`POST /v1/messages`) as documented: a `message` object
 * with `text` and `tool_use` blocks (`input` an object) and a `stop_reason`;
 * when streamed, named SSE events `message_start` (usage with input tokens),
 * per block `content_block_start` / `content_block_delta` (`text_delta`,
 * `input_json_delta` with `partial_json`, `thinking_delta` then `signature_delta`;
 * a `redacted_thinking` block whole in its start) / `content_block_stop`, a `ping`,
 * then `message_delta` (stop reason, output tokens) and `message_stop`.
 * Errors are `{ type: 'error', error: { type, message } }`.
 * @module
 */
import type { FakeStopReason, FakeTurn } from './types.js';
import { DEFAULT_CHUNK_SIZE, DEFAULT_USAGE, argumentsText, chunks, type SseEvent } from './sse.js';

const STOP: Record<FakeStopReason, string> = { end_turn: 'end_turn', tool_calls: 'tool_use', max_tokens: 'max_tokens', content_filter: 'refusal' };

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export function anthropicError(status: number, message: string, type: string | undefined): unknown {
  return {
    type: 'error',
    error: { type: type ?? ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message },
    request_id: 'req_fake',
  };
}

function stopReason(turn: FakeTurn): string {
  return turn.wireStopReason ?? STOP[turn.stopReason ?? ((turn.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'end_turn')];
}

function inputOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return {};
  }
}

function usageOf(turn: FakeTurn, outputTokens: number) {
  const usage = turn.usage ?? DEFAULT_USAGE;
  const cached = turn.usage?.cachedInputTokens ?? 0;
  const written = turn.usage?.cacheWriteTokens ?? 0;
  // Anthropic's input_tokens excludes cache reads and writes, which are reported apart.
  return {
    input_tokens: usage.inputTokens - cached - written,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: cached,
    output_tokens: outputTokens,
  };
}

function blocks(turn: FakeTurn, sequence: number, request?: any) {
  const content: any[] = [];
  if (turn.reasoning !== undefined) content.push({ type: 'thinking', thinking: turn.reasoning, signature: `sig_${sequence}` });
  if (turn.encryptedReasoning !== undefined) content.push({ type: 'redacted_thinking', data: turn.encryptedReasoning });
  if (turn.text !== undefined) content.push({ type: 'text', text: turn.text });
  const program = turn.program;
  if (program !== undefined) {
    const input = { code: program.code };
    content.push({ type: 'server_tool_use', id: program.id, name: 'code_execution', input, raw: JSON.stringify(input) });
  }
  if (turn.toolSearch !== undefined) {
    const searchTool = (request?.tools ?? []).find((tool: any) => String(tool.type).startsWith('tool_search_tool_'));
    const id = turn.toolSearch.id ?? `srvtoolu_${sequence}`;
    const input = { query: turn.toolSearch.query };
    content.push({
      type: 'server_tool_use',
      id,
      name: searchTool?.name ?? 'tool_search_tool_bm25',
      input,
      caller: { type: 'direct' },
      raw: JSON.stringify(input),
    });
    content.push({
      type: 'tool_search_tool_result',
      tool_use_id: id,
      content: { type: 'tool_search_tool_search_result', tool_references: turn.toolSearch.found.map((tool_name) => ({ type: 'tool_reference', tool_name })) },
    });
  }
  (turn.toolCalls ?? []).forEach((call, index) =>
    content.push({
      type: 'tool_use',
      id: call.id ?? `toolu_${sequence}_${index + 1}`,
      name: call.name,
      input: inputOf(call.arguments),
      ...(call.fromProgram && program ? { caller: { type: 'code_execution_20250825', tool_id: program.id } } : {}),
      raw: argumentsText(call.arguments),
    }),
  );
  if (program?.result !== undefined) {
    const result = { type: 'code_execution_result', stdout: program.result, stderr: '', return_code: 0, content: [] };
    content.push({ type: 'code_execution_tool_result', tool_use_id: program.id, content: result });
  }
  return content;
}

export function renderAnthropic(turn: FakeTurn, request: any, sequence: number): unknown {
  return {
    id: `msg_${sequence}`,
    type: 'message',
    role: 'assistant',
    model: turn.model ?? request?.model ?? 'fake-model',
    content: blocks(turn, sequence, request).map(({ raw: _raw, ...block }) => block),
    stop_reason: stopReason(turn),
    stop_sequence: null,
    usage: usageOf(turn, (turn.usage ?? DEFAULT_USAGE).outputTokens),
    ...containerOf(turn),
  };
}

/** The code execution container, on a message whose turn ran a program (Anthropic returns it with the message). */
function containerOf(turn: FakeTurn): { container?: { id: string; expires_at: string } } {
  return turn.program === undefined ? {} : { container: { id: `container_of_${turn.program.id}`, expires_at: '2026-12-31T00:00:00Z' } };
}

export function streamAnthropic(turn: FakeTurn, request: any, sequence: number): SseEvent[] {
  const size = turn.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const events: SseEvent[] = [];
  const emit = (type: string, payload: Record<string, unknown>) => events.push({ event: type, data: JSON.stringify({ type, ...payload }) });
  emit('message_start', {
    message: {
      id: `msg_${sequence}`,
      type: 'message',
      role: 'assistant',
      model: turn.model ?? request?.model ?? 'fake-model',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usageOf(turn, 1),
    },
  });
  blocks(turn, sequence, request).forEach((block, index) => {
    if (block.type === 'text') {
      emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
      if (index === 0) emit('ping', {});
      for (const text of chunks(block.text, size)) emit('content_block_delta', { index, delta: { type: 'text_delta', text } });
    } else if (block.type === 'thinking') {
      emit('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      for (const thinking of chunks(block.thinking, size)) emit('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } });
      emit('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } });
    } else if (block.type === 'code_execution_tool_result' || block.type === 'tool_search_tool_result') {
      // Server tool results arrive whole in their content_block_start.
      emit('content_block_start', { index, content_block: block });
    } else if (block.type === 'server_tool_use') {
      const { raw, ...start } = block;
      emit('content_block_start', { index, content_block: { ...start, input: {} } });
      for (const partial_json of chunks(raw, size)) emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
    } else if (block.type === 'redacted_thinking') {
      // A redacted block arrives whole in its start event.
      emit('content_block_start', { index, content_block: block });
    } else {
      const caller = block.caller === undefined ? {} : { caller: block.caller };
      emit('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {}, ...caller } });
      for (const partial_json of chunks(block.raw, size)) emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
    }
    emit('content_block_stop', { index });
  });
  emit('message_delta', {
    delta: { stop_reason: stopReason(turn), stop_sequence: null, ...containerOf(turn) },
    usage: { output_tokens: (turn.usage ?? DEFAULT_USAGE).outputTokens },
  });
  emit('message_stop', {});
  return events;
}
