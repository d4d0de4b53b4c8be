/**
 * One conversation that exercises every message kind, shared by the
 * conversion tests of every provider: a system prompt, a user question, an
 * assistant turn with text and two calls (the second with broken JSON, as a
 * model might send), both results, a follow-up, and a final answer.
 */
import { defineTool } from '../../tools/define-tool.js';
import type { Message } from '../../protocol/messages.js';

export const getWeather = defineTool<{ city: string }>({
  name: 'get_weather',
  description: 'Current weather for a city.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: ({ city }) => `${city}: sunny`,
});

export const CONVERSATION: Message[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Weather in Paris and Rome?' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Checking both.' },
      { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' }, argumentsText: '{"city": "Paris"}' },
      { type: 'tool-call', id: 'call_2', name: 'get_weather', arguments: undefined, argumentsText: '{"city": "Rome"' },
    ],
  },
  {
    role: 'tool',
    results: [
      { callId: 'call_1', toolName: 'get_weather', result: { content: [{ type: 'text', text: 'Paris: sunny' }], isError: false } },
      { callId: 'call_2', toolName: 'get_weather', result: { content: [{ type: 'text', text: 'The arguments are not valid JSON.' }], isError: true } },
    ],
  },
  { role: 'user', content: 'And tomorrow?' },
  { role: 'assistant', content: [{ type: 'text', text: 'No forecast tool.' }] },
];
