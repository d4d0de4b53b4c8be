import { describe, expect, it } from 'vitest';
import type { ProviderTurnItems } from '../../protocol/messages.js';
import { aiSDKItemsBefore, aiSDKProviderItem, aiSDKProviderItemPromptPart, withAISDKToolSearch } from './ai-sdk-tool-search.js';

const call = { type: 'tool-call', toolCallId: 'srv_1', toolName: 'tool_search_tool_bm25', input: '{"query":"time"}', providerExecuted: true };
const found = { type: 'tool-result', toolCallId: 'srv_1', toolName: 'tool_search_tool_bm25', result: [{ type: 'tool_reference', toolName: 'get_time' }] };

describe('the provider-executed parts of a native tool search', () => {
  it('keeps provider-executed calls and results, not client calls', () => {
    expect(aiSDKProviderItem(call)).toEqual(call);
    expect(aiSDKProviderItem(found)).toEqual(found);
    expect(aiSDKProviderItem({ type: 'tool-call', toolCallId: 'c', toolName: 'get_time', input: '{}' })).toBeUndefined();
    expect(aiSDKProviderItem({ type: 'text', text: 'hi' })).toBeUndefined();
  });

  it('replays a call with its input as an object, a result as json, a failed one as error-json', () => {
    expect(aiSDKProviderItemPromptPart(call)).toEqual({
      type: 'tool-call',
      toolCallId: 'srv_1',
      toolName: 'tool_search_tool_bm25',
      input: { query: 'time' },
      providerExecuted: true,
    });
    expect(aiSDKProviderItemPromptPart(found)).toEqual({
      type: 'tool-result',
      toolCallId: 'srv_1',
      toolName: 'tool_search_tool_bm25',
      output: { type: 'json', value: [{ type: 'tool_reference', toolName: 'get_time' }] },
    });
    const failed = { ...found, isError: true, result: { type: 'tool_search_tool_result_error', errorCode: 'unavailable' } };
    expect(aiSDKProviderItemPromptPart(failed)).toMatchObject({ output: { type: 'error-json', value: failed.result } });
    expect(aiSDKProviderItemPromptPart({ ...call, input: '{"query":' })).toMatchObject({ input: {} });
    expect(aiSDKProviderItemPromptPart({ type: 'tool-call' })).toBeUndefined();
  });

  it("puts each item before the part it preceded, the rest after the turn's parts; only the AI SDK's own items", () => {
    const items: ProviderTurnItems = {
      provider: 'ai-sdk',
      items: [
        { before: 0, item: call },
        { before: 0, item: found },
        { before: 2, item: { ...found, toolCallId: 'srv_2' } },
      ],
    };
    expect(aiSDKItemsBefore(items, 0, 2).map((part) => [part.type, (part as { toolCallId: string }).toolCallId])).toEqual([
      ['tool-call', 'srv_1'],
      ['tool-result', 'srv_1'],
    ]);
    expect(aiSDKItemsBefore(items, 1, 2)).toEqual([]);
    expect(aiSDKItemsBefore(items, 2, 2).map((part) => (part as { toolCallId: string }).toolCallId)).toEqual(['srv_2']);
    expect(aiSDKItemsBefore({ ...items, provider: 'anthropic' }, 0, 2)).toEqual([]);
  });

  it("marks only the deferred tools, keeping a tool's own provider options, and appends the search tool", () => {
    const tool = (name: string) => ({ type: 'function' as const, name, inputSchema: { type: 'object' as const } });
    const declared = withAISDKToolSearch([tool('a'), { ...tool('b'), providerOptions: { anthropic: { eagerInputStreaming: true } } }], {
      deferred: ['b'],
      anthropicSearch: 'regex',
    });
    expect(declared).toEqual([
      tool('a'),
      { ...tool('b'), providerOptions: { anthropic: { eagerInputStreaming: true, deferLoading: true } } },
      { type: 'provider', id: 'anthropic.tool_search_regex_20251119', name: 'tool_search_tool_regex', args: {} },
    ]);
  });
});
