import { describe, expect, it } from 'vitest';
import type { RunRecordLine } from '../../agent/index.js';
import { escapeHtml, html } from './html.js';
import { buildTimeline } from './run-timeline.js';

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
const usage = { inputTokens: 1, outputTokens: 1, modelCalls: 1, toolCalls: 0, wallTimeMs: 1 };
const result = (text: string) => ({ content: [{ type: 'text' as const, text }], isError: false });

function line(ms: number, event: Record<string, unknown>): RunRecordLine {
  return { time: at(ms), runId: 'run_1', ...event } as RunRecordLine;
}

const response = (stopReason: string) => ({ content: [], stopReason, usage: { inputTokens: 3, outputTokens: 4 } });

/** A run: one model call, two reads in parallel (100 ms and 60 ms, ending at 300 and 250), a write asked of a person, then a resume an hour later. */
const record: RunRecordLine[] = [
  line(0, { type: 'run_started', modelId: 'm', tools: ['a', 'b', 'w'], limits: {}, resumed: false }),
  line(10, { type: 'model_request', step: 0, messages: [], tools: ['a', 'b', 'w'], toolChoice: 'auto', maxOutputTokens: undefined, estimatedInputTokens: 1 }),
  line(190, { type: 'model_response', step: 0, response: response('tool_calls'), raw: null, costUsd: 0, durationMs: 180 }),
  line(195, { type: 'tool_call', step: 0, callKey: '0.0', callId: 'c1', toolName: 'a', arguments: {} }),
  line(196, { type: 'tool_call', step: 0, callKey: '0.1', callId: 'c2', toolName: 'b', arguments: {} }),
  line(197, { type: 'policy_decision', step: 0, callKey: '0.1', callId: 'c2', toolName: 'b', action: 'allow', flags: [], reason: 'read only' }),
  line(250, {
    type: 'tool_result',
    step: 0,
    callKey: '0.1',
    callId: 'c2',
    toolName: 'b',
    arguments: {},
    status: 'succeeded',
    result: result('B'),
    durationMs: 60,
    truncated: false,
  }),
  line(300, {
    type: 'tool_result',
    step: 0,
    callKey: '0.0',
    callId: 'c1',
    toolName: 'a',
    arguments: {},
    status: 'succeeded',
    result: result('A'),
    durationMs: 100,
    truncated: false,
  }),
  line(320, { type: 'model_request', step: 1, messages: [], tools: ['w'], toolChoice: 'auto', maxOutputTokens: undefined, estimatedInputTokens: 1 }),
  line(400, { type: 'model_response', step: 1, response: response('tool_calls'), raw: null, costUsd: 0, durationMs: 80 }),
  line(401, { type: 'tool_call', step: 1, callKey: '1.0', callId: 'c3', toolName: 'w', arguments: {} }),
  line(402, { type: 'confirmation_requested', step: 1, pending: [{ approvalId: 'apr_1', callKey: '1.0', summary: 'Write it' }] }),
  line(403, { type: 'stop', status: 'awaiting_confirmation', usage, costUsd: 0 }),
  line(3_600_000, { type: 'confirmation_decided', callKey: '1.0', callId: 'c3', toolName: 'w', decision: 'approve' }),
  line(3_600_100, { type: 'run_started', modelId: 'm', tools: ['a', 'b', 'w'], limits: {}, resumed: true }),
  line(3_600_150, {
    type: 'tool_result',
    step: 1,
    callKey: '1.0',
    callId: 'c3',
    toolName: 'w',
    arguments: {},
    status: 'succeeded',
    result: result('W'),
    durationMs: 40,
    truncated: false,
  }),
  line(3_600_200, { type: 'stop', status: 'completed', usage, costUsd: 0 }),
];

describe('buildTimeline', () => {
  it('places each call by its duration, ending at its line, so parallel reads overlap', () => {
    const timeline = buildTimeline(record);
    const span = (label: string) => timeline.spans.find((item) => item.label === label)!;
    expect(span('model call 1')).toMatchObject({ start: Date.parse(at(10)), end: Date.parse(at(190)), status: 'tool_calls' });
    expect(span('a')).toMatchObject({ start: Date.parse(at(200)), end: Date.parse(at(300)), section: 0 });
    expect(span('b')).toMatchObject({ start: Date.parse(at(190)), end: Date.parse(at(250)), decisions: ['policy: allow: read only'] });
    expect(span('a').start < span('b').end && span('b').start < span('a').end).toBe(true);
  });

  it('draws a resume as its own section, and keeps the person’s decision with the call', () => {
    const timeline = buildTimeline(record);
    expect(timeline.sections).toEqual([
      { resumed: false, start: Date.parse(at(0)), end: Date.parse(at(403)) },
      { resumed: true, start: Date.parse(at(3_600_100)), end: Date.parse(at(3_600_200)) },
    ]);
    expect(timeline.spans.find((item) => item.label === 'w')).toMatchObject({
      section: 1,
      start: Date.parse(at(3_600_110)),
      decisions: ['asked a person: Write it', 'approved by a person'],
    });
    expect(timeline.marks.map((mark) => [mark.section, mark.label])).toEqual([
      [0, 'started with m'],
      [0, 'waiting for 1 confirmation(s)'],
      [0, 'awaiting_confirmation'],
      [1, 'resumed with m'],
      [1, 'completed'],
    ]);
  });

  it('skips a line whose time does not parse and counts a negative or missing duration as zero', () => {
    const timeline = buildTimeline([
      { ...record[6]!, time: 'not a time' },
      line(500, { ...record[7]!, durationMs: -5 }),
      line(600, { ...record[7]!, callKey: '0.2', durationMs: 'NaN' }),
    ] as RunRecordLine[]);
    expect(timeline.spans.map((span) => [span.callKey, span.end - span.start])).toEqual([
      ['0.0', 0],
      ['0.2', 0],
    ]);
  });
});

describe('html', () => {
  it('escapes every interpolated string, in text and in attributes, and inserts only html values as markup', () => {
    const hostile = `<script>alert("x")</script>' onmouseover='x`;
    expect(String(html`<p title="${hostile}">${hostile}${html`<b>${hostile}</b>`}</p>`)).toBe(
      `<p title="${escapeHtml(hostile)}">${escapeHtml(hostile)}<b>${escapeHtml(hostile)}</b></p>`,
    );
    expect(escapeHtml(hostile)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;x');
    expect(String(html`${[hostile, 1, undefined, null, false]}`)).toBe(`${escapeHtml(hostile)}1`);
  });
});
