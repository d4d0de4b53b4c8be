import { describe, expect, it } from 'vitest';
import { objectCallInput } from './object-call-input.js';
import { toolCallPartFromText } from './tool-call-part.js';

const replay = { provider: 'anthropic', path: '/messages/1/content/0', requirement: 'Anthropic needs tool_use input as an object' } as const;

describe('objectCallInput', () => {
  it('sends the arguments the adapter parsed, the same object, with no note', () => {
    const part = toolCallPartFromText('call_1', 'get_weather', '{"city":"Paris"}');
    const replayed = objectCallInput(part, replay);
    expect(replayed).toEqual({ input: { city: 'Paris' } });
    expect(replayed.input).toBe(part.arguments);
  });

  it('replays unparsable text as {} after a note quoting it, with a rewritten warning', () => {
    expect(objectCallInput(toolCallPartFromText('call_2', 'get_weather', '{"city": "Rome"'), replay)).toEqual({
      input: {},
      note: '(The arguments of call call_2 to get_weather were not a JSON object and are replayed as {}. They were: {"city": "Rome")',
      warning: {
        type: 'rewritten',
        provider: 'anthropic',
        feature: 'unparsable-tool-arguments',
        path: '/messages/1/content/0',
        details: 'Anthropic needs tool_use input as an object; call call_2 had unparsable arguments, so it is replayed as {} with a text note quoting them',
      },
    });
  });

  it('treats parsed JSON that is not an object (an array) as unusable too, quoting its text', () => {
    const { input, note } = objectCallInput(toolCallPartFromText('call_3', 'tag', '[1,2]'), replay);
    expect(input).toEqual({});
    expect(note).toContain('They were: [1,2])');
  });

  it('quotes at most 500 characters of long broken arguments, marking the cut', () => {
    const text = `{"body": "${'x'.repeat(600)}`;
    const { note } = objectCallInput(toolCallPartFromText('call_4', 'send', text), replay);
    expect(note).toContain(`They were: ${text.slice(0, 500)}…)`);
    expect(note).not.toContain(text.slice(0, 501));
  });
});
