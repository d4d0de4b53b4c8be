import { describe, expect, it } from 'vitest';
import type { RunRecordLine } from '../../agent/index.js';
import { buildConversation, conversationView, MAX_CONVERSATION_ENTRIES, resultText } from './conversation-view.js';
import { runLead } from './run-page.js';

const time = '2026-11-30T09:00:00.000Z';
const line = (fields: Record<string, unknown>) => ({ time, runId: 'run_x', ...fields }) as unknown as RunRecordLine;
const request = (messages: unknown[]) => line({ type: 'model_request', step: 0, messages, tools: [], toolChoice: 'auto', estimatedInputTokens: 1 });

describe('buildConversation', () => {
  it('shows each system and user message once, though every request (and a resume) sends the whole history again', () => {
    const system = { role: 'system', content: 'Be brief.' };
    const user = { role: 'user', content: 'Refund A-1.' };
    const assistant = { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] };
    const entries = buildConversation([
      line({ type: 'run_started', modelId: 'm', tools: [], limits: {}, resumed: false }),
      request([system, user]),
      line({
        type: 'model_response',
        step: 0,
        response: { content: [{ type: 'text', text: 'Done.' }], stopReason: 'end_turn', usage: {} },
        costUsd: 0,
        durationMs: 1,
      }),
      request([system, user, assistant, { role: 'user', content: [{ type: 'text', text: 'And B-2?' }] }]),
      line({ type: 'run_started', modelId: 'm', tools: [], limits: {}, resumed: true }),
      request([system, user, assistant, { role: 'user', content: 'And B-2?' }]),
    ]);
    expect(
      entries.map((entry) => (entry.kind === 'message' ? `${entry.role}: ${entry.text}` : entry.kind === 'note' ? `note: ${entry.title}` : 'call')),
    ).toEqual(['system: Be brief.', 'user: Refund A-1.', 'assistant: Done.', 'user: And B-2?', 'note: Resumed with m']);
  });

  it('gathers a call’s lines into one card: the policy’s decision with what it removed and flagged, the request to a person and the answer', () => {
    const entries = buildConversation([
      line({ type: 'tool_call', step: 0, callKey: '0.0', callId: 'c1', toolName: 'send', arguments: { to: 'a@b.example' } }),
      line({
        type: 'policy_decision',
        step: 0,
        callKey: '0.0',
        callId: 'c1',
        toolName: 'send',
        action: 'confirm',
        ruleId: 'untrusted-write',
        reason: 'needs a person',
        flags: [{ ruleId: 'copied-argument', argumentPath: 'body', message: 'copied from a read' }],
        removed: [{ ruleId: 'values-from', argumentPath: 'body', kind: 'url', message: 'the URL "https://x.example"' }],
      }),
      line({ type: 'confirmation_requested', step: 0, pending: [{ callKey: '0.0', callId: 'c1', toolName: 'send', summary: 'Send to a@b.example' }] }),
      line({ type: 'confirmation_decided', callKey: '0.0', callId: 'c1', toolName: 'send', decision: 'deny', reason: 'not this one' }),
      line({
        type: 'tool_result',
        step: 0,
        callKey: '0.0',
        callId: 'c1',
        toolName: 'send',
        arguments: { to: 'a@b.example' },
        status: 'declined',
        result: { content: [{ type: 'text', text: 'Declined by a person:\nnot this one' }], isError: true },
        durationMs: 0,
        truncated: false,
      }),
    ]);
    expect(entries).toHaveLength(1);
    const page = conversationView(entries, 'run_x').toString();
    const decisions = [...page.matchAll(/<li class="decision (decision-\w+)"/g)].map((match) => match[1]);
    expect(decisions).toEqual(['decision-confirm', 'decision-removed', 'decision-flag', 'decision-confirm', 'decision-deny']);
    expect(page).toContain('the URL &quot;https://x.example&quot;');
    expect(page).toContain('What the model was told (its recovery text)');
    expect(page).toContain('<span class="value-text">Declined by a person:\nnot this one</span>');
  });

  it('reads a record with lines of the wrong shape without throwing', () => {
    const odd = [
      line({ type: 'model_request', step: 0, messages: 'not a list' }),
      line({ type: 'model_response', step: 0, response: null }),
      line({ type: 'model_response', step: 0, response: { content: [null, { type: 'text' }] } }),
      request([null, { role: 'user', content: [null] }]),
      line({ type: 'model_error', step: 0 }),
      line({ type: 'confirmation_requested', step: 0, pending: { not: 'a list' } }),
      line({ type: 'policy_decision', step: 0, callKey: '0.0', toolName: 't', action: 'block', flags: 'x', removed: 5 }),
      line({ type: 'tool_result', step: 0, callKey: '0.0', toolName: 't', status: 'failed', result: { content: 'x' } }),
      line({ type: 'tool_result', step: 0, callKey: '0.1', toolName: 't', status: 'failed', result: { content: [null, { type: 'resource', resource: {} }] } }),
      line({ type: 'output_invalid', step: 0, issues: null }),
      line({ type: 'routing', step: 0, tools: null }),
      line({ type: 'stop', status: 'stopped', stopReason: { kind: 7 } }),
    ];
    expect(() => conversationView(buildConversation(odd), 'run_x').toString()).not.toThrow();
    expect(() =>
      runLead(
        {
          runId: 'run_x',
          status: 'stopped',
          model: undefined,
          tools: [],
          costUsd: undefined,
          durationMs: undefined,
          startedAt: undefined,
          updatedAt: undefined,
        },
        odd,
        0,
      ).toString(),
    ).not.toThrow();
  });
});

describe('conversationView', () => {
  it('shows the first and the last entries of a long run, and says how many it left out and where to read them', () => {
    const lines = Array.from({ length: 2_000 }, (_, index) =>
      line({ type: 'tool_call', step: index, callKey: `${index}.0`, callId: `c${index}`, toolName: 'read', arguments: { path: `/f/${index}` } }),
    );
    const page = conversationView(buildConversation(lines), 'run_long').toString();
    expect(page.split('<li class="call-card').length - 1).toBe(MAX_CONVERSATION_ENTRIES);
    expect(page).toContain(`${2_000 - MAX_CONVERSATION_ENTRIES} entries of the conversation are not shown here`);
    expect(page).toContain('<code>toolwright logs run_long</code>');
    expect(page).toContain('data-call-key="0.0"');
    expect(page).toContain('data-call-key="1999.0"');
    expect(page).not.toContain(`data-call-key="${MAX_CONVERSATION_ENTRIES / 2}.0"`);
  });
});

describe('resultText', () => {
  it('joins a result’s text parts and names the others', () => {
    expect(
      resultText({
        content: [
          { type: 'text', text: 'one\ntwo' },
          { type: 'image', data: '', mimeType: 'image/png' },
          { type: 'resource_link', uri: 'file:///a', name: 'a' },
          { type: 'resource', resource: { uri: 'file:///b', text: 'b text' } },
        ],
        isError: false,
      }),
    ).toBe('one\ntwo\n(image, image/png)\n(link to file:///a)\nb text');
  });
});
