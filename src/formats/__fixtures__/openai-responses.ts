/**
 * Responses API payloads from OpenAI's function calling guide
 * (https://platform.openai.com/docs/guides/function-calling?api-mode=responses),
 * typed with the official SDK types so that wire drift fails to compile.
 * The guide's stream events carry `response_id`, which the SDK types do not
 * declare; it is left out, and the SDK's required `sequence_number` (and `name`
 * on `.done`) are filled in.
 */
import type { FunctionTool, ResponseOutputItem } from 'openai/resources/responses/responses';
import type { OpenAIResponsesStreamEvent } from '../openai-responses/openai-responses-tool-call-stream.js';

/** "Defining functions": the guide's `get_weather` declaration. */
export const getWeatherDeclaration: FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Get current temperature for a given location.',
  parameters: {
    type: 'object',
    properties: { location: { type: 'string', description: 'City and country e.g. Bogotá, Colombia' } },
    required: ['location'],
    additionalProperties: false,
  },
  strict: true,
};

/** "Parallel function calling": `response.output` with three calls. */
export const parallelCallsOutput: ResponseOutputItem[] = [
  { id: 'fc_12345xyz', call_id: 'call_12345xyz', type: 'function_call', name: 'get_weather', arguments: '{"location":"Paris, France"}' },
  { id: 'fc_67890abc', call_id: 'call_67890abc', type: 'function_call', name: 'get_weather', arguments: '{"location":"Bogotá, Colombia"}' },
  { id: 'fc_99999def', call_id: 'call_99999def', type: 'function_call', name: 'send_email', arguments: '{"to":"bob@email.com","body":"Hi bob"}' },
];

const deltas = ['{"', 'location', '":"', 'Paris', ',', ' France', '"}'];

/** "Streaming": one call, from `output_item.added` to `output_item.done`. */
export const streamEvents: OpenAIResponsesStreamEvent[] = [
  {
    type: 'response.output_item.added',
    sequence_number: 1,
    output_index: 0,
    item: { type: 'function_call', id: 'fc_1234xyz', call_id: 'call_1234xyz', name: 'get_weather', arguments: '' },
  },
  ...deltas.map((delta, index): OpenAIResponsesStreamEvent => ({
    type: 'response.function_call_arguments.delta',
    sequence_number: index + 2,
    item_id: 'fc_1234xyz',
    output_index: 0,
    delta,
  })),
  {
    type: 'response.function_call_arguments.done',
    sequence_number: 9,
    item_id: 'fc_1234xyz',
    output_index: 0,
    name: 'get_weather',
    arguments: '{"location":"Paris, France"}',
  },
  {
    type: 'response.output_item.done',
    sequence_number: 10,
    output_index: 0,
    item: { type: 'function_call', id: 'fc_1234xyz', call_id: 'call_1234xyz', name: 'get_weather', arguments: '{"location":"Paris, France"}' },
  },
];
