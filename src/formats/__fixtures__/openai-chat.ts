/**
 * Chat Completions payloads from OpenAI's function calling guide
 * (https://platform.openai.com/docs/guides/function-calling?api-mode=chat),
 * typed with the official SDK types so that wire drift fails to compile.
 * The guide shows `tool_calls` and stream deltas; the envelopes around them
 * (ids, `created`, `model`) are filled in with the SDK's required fields.
 */
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionTool } from 'openai/resources/chat/completions';

/** "Defining functions": the guide's `get_weather` declaration. */
export const getWeatherDeclaration: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get current temperature for a given location.',
    parameters: {
      type: 'object',
      properties: { location: { type: 'string', description: 'City and country e.g. Bogotá, Colombia' } },
      required: ['location'],
      additionalProperties: false,
    },
    strict: true,
  },
};

/** "Parallel function calling": three calls in one response. */
export const parallelCallsCompletion: ChatCompletion = {
  id: 'chatcmpl-parallel',
  object: 'chat.completion',
  created: 1_741_570_283,
  model: 'gpt-4.1-2025-04-14',
  choices: [
    {
      index: 0,
      finish_reason: 'tool_calls',
      logprobs: null,
      message: {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [
          { id: 'call_12345xyz', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris, France"}' } },
          { id: 'call_67890abc', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Bogotá, Colombia"}' } },
          { id: 'call_99999def', type: 'function', function: { name: 'send_email', arguments: '{"to":"bob@email.com","body":"Hi bob"}' } },
        ],
      },
    },
  ],
};

function chunk(delta: ChatCompletionChunk.Choice.Delta, finishReason: ChatCompletionChunk.Choice['finish_reason'] = null): ChatCompletionChunk {
  return {
    id: 'chatcmpl-stream',
    object: 'chat.completion.chunk',
    created: 1_741_570_283,
    model: 'gpt-4.1-2025-04-14',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

/** "Streaming": the guide's `delta.tool_calls` sequence for one call, then the final chunk. */
export const streamChunks: ChatCompletionChunk[] = [
  chunk({ role: 'assistant', content: null }),
  chunk({ tool_calls: [{ index: 0, id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', type: 'function', function: { arguments: '', name: 'get_weather' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: 'location' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '":"' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: 'Paris' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: ',' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: ' France' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"}' } }] }),
  chunk({}, 'tool_calls'),
];
