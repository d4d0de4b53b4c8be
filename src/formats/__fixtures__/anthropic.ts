/**
 * Messages API payloads from Anthropic's tool use documentation
 * (https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use)
 * and streaming documentation
 * (https://docs.claude.com/en/docs/build-with-claude/streaming, "Streaming request with tool use"),
 * typed with the official SDK types so that wire drift fails to compile.
 * The SDK's required fields the examples leave out (`caller`, `container`,
 * `diagnostics`, `stop_details`, the full `usage`) are filled in.
 */
import type { Message, MessageParam, RawMessageStreamEvent, Tool as AnthropicTool, Usage } from '@anthropic-ai/sdk/resources/messages';

/** The documentation's `get_weather` tool. */
export const getWeatherDeclaration: AnthropicTool = {
  name: 'get_weather',
  description: 'Get the current weather in a given location',
  input_schema: {
    type: 'object',
    properties: {
      location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: "The unit of temperature, either 'celsius' or 'fahrenheit'" },
    },
    required: ['location'],
  },
};

function usage(input: number, output: number): Usage {
  return {
    input_tokens: input,
    output_tokens: output,
    cache_creation: null,
    cache_creation_input_tokens: null,
    cache_read_input_tokens: null,
    inference_geo: null,
    output_tokens_details: null,
    server_tool_use: null,
    service_tier: 'standard',
    speed: null,
  };
}

function message(id: string, content: Message['content'], stopReason: Message['stop_reason']): Message {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: 'claude-opus-4-1-20250805',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage: usage(472, 89),
  };
}

/** "Handling tool use": text, then one `tool_use` block. */
export const toolUseMessage: Message = message(
  'msg_01Aq9w938a90dw8q',
  [
    { type: 'text', text: "I'll check the current weather in San Francisco for you.", citations: null },
    {
      type: 'tool_use',
      id: 'toolu_01A09q90qw90lq917835lq9',
      name: 'get_weather',
      input: { location: 'San Francisco, CA', unit: 'celsius' },
      caller: { type: 'direct' },
    },
  ],
  'tool_use',
);

/** "Parallel tool use": two `tool_use` blocks in one response. */
export const parallelToolUseMessage: Message = message(
  'msg_01ParallelExample',
  [
    { type: 'text', text: "I'll check the weather and time in San Francisco.", citations: null },
    { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { location: 'San Francisco, CA' }, caller: { type: 'direct' } },
    { type: 'tool_use', id: 'toolu_02', name: 'get_time', input: { timezone: 'America/Los_Angeles' }, caller: { type: 'direct' } },
  ],
  'tool_use',
);

/** "Handling results": the user turn that answers the tool use. */
export const toolResultMessage: MessageParam = {
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: 'toolu_01A09q90qw90lq917835lq9', content: '15 degrees' }],
};

const jsonPieces = ['', '{"location":', ' "San', ' Francisc', 'o,', ' CA"', ', ', '"unit": "fah', 'renheit"}'];

/** "Streaming request with tool use": a text block, then a tool_use block whose input streams as JSON pieces. */
export const streamEvents: RawMessageStreamEvent[] = [
  { type: 'message_start', message: { ...message('msg_014p7gG3wDgGV9EUtLvnow3U', [], null), usage: usage(472, 2) } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '', citations: null } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Okay' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ", let's check the weather for San Francisco, CA:" } },
  { type: 'content_block_stop', index: 0 },
  {
    type: 'content_block_start',
    index: 1,
    content_block: { type: 'tool_use', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', input: {}, caller: { type: 'direct' } },
  },
  ...jsonPieces.map((partial_json): RawMessageStreamEvent => ({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json } })),
  { type: 'content_block_stop', index: 1 },
  {
    type: 'message_delta',
    delta: { stop_reason: 'tool_use', stop_sequence: null, stop_details: null, container: null },
    usage: {
      output_tokens: 89,
      input_tokens: null,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
      output_tokens_details: null,
      server_tool_use: null,
    },
  },
  { type: 'message_stop' },
];
