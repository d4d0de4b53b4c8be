/**
 * The Responses API (`POST /v1/responses`) as documented: a `response` object
 * whose `output` holds a `message` item (with `output_text` parts) and
 * `function_call` items (`call_id`, `name`, `arguments` as JSON text); when
 * streamed, named SSE events from `response.created` through
 * `response.output_item.added`, `response.output_text.delta`,
 * `response.function_call_arguments.delta`/`.done`, `response.output_item.done`
 * to `response.completed` (or `response.incomplete`), each with a
 * `sequence_number`; there is no `[DONE]` sentinel.
 * @module
 */
import type { FakeStopReason, FakeTurn } from './types.js';
import { DEFAULT_CHUNK_SIZE, DEFAULT_USAGE, argumentsText, chunks, type SseEvent } from './sse.js';

const INCOMPLETE: Partial<Record<FakeStopReason, string>> = { max_tokens: 'max_output_tokens', content_filter: 'content_filter' };

function incompleteReason(turn: FakeTurn): string | undefined {
  if (turn.wireStopReason !== undefined) return turn.wireStopReason;
  return turn.stopReason === undefined ? undefined : INCOMPLETE[turn.stopReason];
}

function items(turn: FakeTurn, request: any, sequence: number) {
  const output: any[] = [];
  if (turn.reasoning !== undefined || turn.encryptedReasoning !== undefined) {
    const item: any = {
      type: 'reasoning',
      id: `rs_${sequence}`,
      summary: turn.reasoning === undefined ? [] : [{ type: 'summary_text', text: turn.reasoning }],
    };
    // The API sends encrypted reasoning only to a request that includes it.
    const included = Array.isArray(request?.include) && request.include.includes('reasoning.encrypted_content');
    if (included && turn.encryptedReasoning !== undefined) item.encrypted_content = turn.encryptedReasoning;
    output.push(item);
  }
  if (turn.text !== undefined) {
    output.push({
      type: 'message',
      id: `msg_${sequence}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: turn.text, annotations: [], logprobs: [] }],
    });
  }
  const program = turn.program;
  // Programmatic tool calling: the hosted program (its code and the fingerprint a replay must carry back) before its calls.
  if (program !== undefined)
    output.push({ type: 'program', id: `prog_${program.id}`, call_id: program.id, code: program.code, fingerprint: `fp_${program.id}` });
  if (turn.toolSearch !== undefined) {
    const id = turn.toolSearch.id ?? `${sequence}`;
    const call_id = `tsc_call_${id}`;
    const execution = turn.toolSearch.execution ?? 'server';
    output.push({ type: 'tool_search_call', id: `tsc_${id}`, call_id, execution, status: 'completed', arguments: { query: turn.toolSearch.query } });
  }
  // A server-run search answers in the same response; a client-run one waits for the client's tool_search_output.
  if (turn.toolSearch !== undefined && turn.toolSearch.execution !== 'client') {
    const found = new Set(turn.toolSearch.found);
    const id = turn.toolSearch.id ?? `${sequence}`;
    const call_id = `tsc_call_${id}`;
    // A namespace is loaded with the functions the search found in it, as the Responses API returns it.
    const tools = (request?.tools ?? []).flatMap((tool: any) => {
      if (tool.type === 'function' && found.has(tool.name)) return [tool];
      const members = tool.type === 'namespace' ? tool.tools.filter((member: any) => found.has(member.name)) : [];
      return members.length > 0 ? [{ ...tool, tools: members }] : [];
    });
    output.push({ type: 'tool_search_output', id: `tso_${id}`, call_id, execution: 'server', status: 'completed', tools });
  }
  (turn.toolCalls ?? []).forEach((call, index) => {
    if (call.custom) {
      output.push({
        type: 'custom_tool_call',
        id: `ctc_${sequence}_${index + 1}`,
        call_id: call.id ?? `call_${sequence}_${index + 1}`,
        name: call.name,
        input: String(call.arguments),
        status: 'completed',
      });
      return;
    }
    output.push({
      type: 'function_call',
      id: `fc_${sequence}_${index + 1}`,
      call_id: call.id ?? `call_${sequence}_${index + 1}`,
      name: call.name,
      arguments: argumentsText(call.arguments),
      ...(call.fromProgram && program ? { caller: { type: 'program', caller_id: program.id } } : {}),
      ...(call.namespace !== undefined ? { namespace: call.namespace } : {}),
      status: 'completed',
    });
  });
  if (program?.result !== undefined)
    output.push({ type: 'program_output', id: `progout_${program.id}`, call_id: program.id, result: program.result, status: 'completed' });
  return output;
}

function responseObject(turn: FakeTurn, request: any, sequence: number, status: string, output: unknown[]) {
  const usage = turn.usage ?? DEFAULT_USAGE;
  const incomplete = incompleteReason(turn);
  const done = status !== 'in_progress';
  return {
    id: `resp_${sequence}`,
    object: 'response',
    created_at: 1_700_000_000 + sequence,
    status: done && incomplete !== undefined ? 'incomplete' : status,
    error: null,
    incomplete_details: done && incomplete !== undefined ? { reason: incomplete } : null,
    instructions: request?.instructions ?? null,
    max_output_tokens: request?.max_output_tokens ?? null,
    model: turn.model ?? request?.model ?? 'fake-model',
    output,
    parallel_tool_calls: true,
    temperature: request?.temperature ?? 1,
    tool_choice: request?.tool_choice ?? 'auto',
    tools: request?.tools ?? [],
    top_p: 1,
    usage: done
      ? {
          input_tokens: usage.inputTokens,
          input_tokens_details: { cached_tokens: turn.usage?.cachedInputTokens ?? 0 },
          output_tokens: usage.outputTokens,
          output_tokens_details: { reasoning_tokens: turn.usage?.reasoningTokens ?? 0 },
          total_tokens: usage.inputTokens + usage.outputTokens,
        }
      : null,
  };
}

export function renderOpenAIResponses(turn: FakeTurn, request: any, sequence: number): unknown {
  return responseObject(turn, request, sequence, 'completed', items(turn, request, sequence));
}

export function streamOpenAIResponses(turn: FakeTurn, request: any, sequence: number): SseEvent[] {
  const size = turn.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const events: SseEvent[] = [];
  let number = 0;
  const emit = (type: string, payload: Record<string, unknown>) =>
    events.push({ event: type, data: JSON.stringify({ type, sequence_number: number++, ...payload }) });
  emit('response.created', { response: responseObject(turn, request, sequence, 'in_progress', []) });
  emit('response.in_progress', { response: responseObject(turn, request, sequence, 'in_progress', []) });
  const output = items(turn, request, sequence);
  output.forEach((item, outputIndex) => {
    if (item.type === 'reasoning') {
      const { encrypted_content: _encrypted, ...started } = item;
      emit('response.output_item.added', { output_index: outputIndex, item: { ...started, summary: [] } });
      if (item.summary.length === 0) {
        emit('response.output_item.done', { output_index: outputIndex, item });
        return;
      }
      const text: string = item.summary[0].text;
      const part = { type: 'summary_text', text: '' };
      emit('response.reasoning_summary_part.added', { item_id: item.id, output_index: outputIndex, summary_index: 0, part });
      for (const delta of chunks(text, size))
        emit('response.reasoning_summary_text.delta', { item_id: item.id, output_index: outputIndex, summary_index: 0, delta });
      emit('response.reasoning_summary_text.done', { item_id: item.id, output_index: outputIndex, summary_index: 0, text });
      emit('response.reasoning_summary_part.done', { item_id: item.id, output_index: outputIndex, summary_index: 0, part: { ...part, text } });
    } else if (item.type === 'message') {
      const text: string = item.content[0].text;
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } });
      const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
      emit('response.content_part.added', { item_id: item.id, output_index: outputIndex, content_index: 0, part });
      for (const delta of chunks(text, size))
        emit('response.output_text.delta', { item_id: item.id, output_index: outputIndex, content_index: 0, delta, logprobs: [] });
      emit('response.output_text.done', { item_id: item.id, output_index: outputIndex, content_index: 0, text, logprobs: [] });
      emit('response.content_part.done', { item_id: item.id, output_index: outputIndex, content_index: 0, part: { ...part, text } });
    } else if (item.type === 'custom_tool_call') {
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, input: '', status: 'in_progress' } });
      for (const delta of chunks(item.input, size)) emit('response.custom_tool_call_input.delta', { item_id: item.id, output_index: outputIndex, delta });
      emit('response.custom_tool_call_input.done', { item_id: item.id, output_index: outputIndex, input: item.input });
    } else if (item.type === 'program' || item.type === 'program_output') {
      emit('response.output_item.added', { output_index: outputIndex, item });
    } else if (item.type === 'tool_search_call' || item.type === 'tool_search_output') {
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress' } });
    } else {
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, arguments: '', status: 'in_progress' } });
      for (const delta of chunks(item.arguments, size)) emit('response.function_call_arguments.delta', { item_id: item.id, output_index: outputIndex, delta });
      emit('response.function_call_arguments.done', { item_id: item.id, output_index: outputIndex, name: item.name, arguments: item.arguments });
    }
    emit('response.output_item.done', { output_index: outputIndex, item });
  });
  const final = responseObject(turn, request, sequence, 'completed', output);
  emit(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final });
  return events;
}
