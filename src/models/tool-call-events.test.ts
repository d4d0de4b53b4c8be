import { describe, expect, it } from 'vitest';
import type { PartialToolCall } from '../formats/partial-tool-call.js';
import type { ToolCallPart } from '../protocol/messages.js';
import { ToolCallEventTracker } from './tool-call-events.js';

const call = (index: number, name: string, argumentsText: string, id = `c${index}`): PartialToolCall => ({
  index,
  id,
  name,
  argumentsText,
  partialArguments: undefined,
  done: false,
});

describe('ToolCallEventTracker', () => {
  it('announces a call once its name is known and reports only new argument text', () => {
    const tracker = new ToolCallEventTracker();
    expect([...tracker.changes([call(3, '', '{"a"')])]).toEqual([]);
    expect([...tracker.changes([call(3, 'f', '{"a"')])]).toEqual([
      { type: 'tool-call-start', index: 0, id: 'c3', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a"', partialArguments: undefined },
    ]);
    expect([...tracker.changes([call(3, 'f', '{"a":1}'), call(5, 'g', '')])]).toEqual([
      { type: 'tool-call-delta', index: 0, argumentsDelta: ':1}', partialArguments: undefined },
      { type: 'tool-call-start', index: 1, id: 'c5', name: 'g' },
    ]);
    expect([...tracker.changes([call(3, 'f', '{"a":1}')])]).toEqual([]);
  });

  it('ends every call, announcing any that never was', () => {
    const tracker = new ToolCallEventTracker();
    Array.from(tracker.changes([call(0, 'f', '{}')]));
    const first: ToolCallPart = { type: 'tool-call', id: 'c0', name: 'f', arguments: {}, argumentsText: '{}' };
    const second: ToolCallPart = { type: 'tool-call', id: 'c1', name: 'g', arguments: {}, argumentsText: '{}' };
    const ends = [...tracker.ends([first, second], [call(0, 'f', '{}'), call(1, '', '{}')])];
    expect(ends).toEqual([
      { type: 'tool-call-end', index: 0, call: first },
      { type: 'tool-call-start', index: 1, id: 'c1', name: 'g' },
      { type: 'tool-call-end', index: 1, call: second },
    ]);
  });
});
