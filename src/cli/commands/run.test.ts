import { describe, expect, it } from 'vitest';
import { formatEvent, formatResult, runRunCommand, type AgentCliIo } from './run.js';

const io: AgentCliIo = { out: () => {}, err: () => {} };

describe('toolwright run', () => {
  it('refuses bad limits and a missing task before loading anything', async () => {
    await expect(runRunCommand('Do it.', { model: 'openai:gpt-4o-mini', tools: 'x.ts', maxCost: 'lots' }, io)).rejects.toThrow(
      '--max-cost must be an amount in USD, such as 0.05 (got "lots").',
    );
    await expect(runRunCommand('  ', { model: 'openai:gpt-4o-mini', tools: 'x.ts' }, io)).rejects.toMatchObject({ code: 'TW_INVALID_ARGUMENT' });
  });

  it('prints tool results, failures and unrun calls on one line each', () => {
    const base = { step: 0, callKey: '0.0', callId: 'c1', toolName: 'refund', arguments: {}, durationMs: 12.4, truncated: false } as const;
    expect(
      formatEvent({ ...base, type: 'tool_result', status: 'succeeded', result: { content: [{ type: 'text', text: 'done\n  ok' }], isError: false } }),
    ).toBe('  ✓ refund (12 ms): done ok');
    expect(
      formatEvent({
        ...base,
        type: 'tool_result',
        status: 'failed',
        result: { content: [{ type: 'text', text: 'no such invoice' }], isError: true },
        failure: { code: 'tool_error', retryable: false },
      }),
    ).toBe('  ✗ refund [tool_error]: no such invoice');
    expect(formatEvent({ ...base, type: 'tool_result', status: 'outcome_unknown', result: { content: [], isError: true } })).toBe('  – refund outcome unknown');
  });

  it('names the stop reason and the totals when a run stops', () => {
    const text = formatResult({
      status: 'stopped',
      stopReason: { kind: 'max_iterations', limit: 2, message: 'The run reached its limit of 2 model calls before the model finished.' },
      runId: 'run_x',
      messages: [],
      steps: [],
      usage: { inputTokens: 10, outputTokens: 5, modelCalls: 2, toolCalls: 1, wallTimeMs: 3 },
      costUsd: 0.00012,
      recordPath: '/tmp/run_x.jsonl',
    });
    expect(text).toBe(
      '\n— stopped (max_iterations, run run_x): The run reached its limit of 2 model calls before the model finished.\n  2 model calls · 1 tool calls · 10 in / 5 out tokens · $0.0001\nrecord: /tmp/run_x.jsonl\n',
    );
  });
});
