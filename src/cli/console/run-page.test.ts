import { describe, expect, it } from 'vitest';
import type { RunRecordLine } from '../../agent/index.js';
import type { RunSummary } from './console-runs.js';
import { runLead } from './run-page.js';

const time = '2026-11-30T09:00:00.000Z';
const line = (fields: Record<string, unknown>) => ({ time, runId: 'run_x', ...fields }) as unknown as RunRecordLine;
const summary = (fields: Partial<RunSummary> = {}): RunSummary => ({
  runId: 'run_x',
  status: 'completed',
  model: 'openai:gpt-4o-mini',
  tools: [],
  costUsd: 0,
  durationMs: 1500,
  startedAt: undefined,
  updatedAt: undefined,
  ...fields,
});
const request = (extra: Record<string, unknown> = {}) =>
  line({ type: 'model_request', step: 0, messages: [{ role: 'user', content: 'Sum the invoices.' }], tools: [], estimatedInputTokens: 1, ...extra });
const response = (text: string, costUsd = 0) =>
  line({
    type: 'model_response',
    step: 0,
    response: { content: [{ type: 'text', text }], stopReason: 'end_turn', usage: { inputTokens: 1200, outputTokens: 30 } },
    costUsd,
    durationMs: 1,
  });
const usage = { inputTokens: 1200, outputTokens: 30, modelCalls: 1, toolCalls: 0, wallTimeMs: 1500 };
// The lead's text without the template's indentation.
const lead = (...args: Parameters<typeof runLead>) =>
  runLead(...args)
    .toString()
    .replace(/>\s+</g, '><')
    .replace(/\s+/g, ' ');

describe('runLead', () => {
  it('shows a stopped run’s reason in words where the answer would be', () => {
    const page = lead(
      summary({ status: 'stopped' }),
      [
        request(),
        line({
          type: 'stop',
          status: 'stopped',
          stopReason: { kind: 'max_iterations', limit: 10, message: 'The run reached its limit of 10 model calls.' },
          usage,
          costUsd: 0,
        }),
      ],
      0,
    );
    expect(page).toContain('Why it stopped');
    expect(page).toContain('max iterations: The run reached its limit of 10 model calls.');
    expect(page).toContain('<dt>Stop reason</dt><dd>max iterations</dd>');
  });

  it('shows a validated structured output as a table, and the cost when the record shows a price', () => {
    const page = lead(
      summary({ costUsd: 0.0123 }),
      [
        request({ estimatedInputCostUsd: 0.01 }),
        response('{"total":120}', 0.0123),
        line({ type: 'stop', status: 'completed', output: { total: 120, currency: 'EUR' }, usage, costUsd: 0.0123 }),
      ],
      0,
    );
    expect(page).toContain('<th scope="row">total</th><td><span class="value-literal">120</span></td>');
    expect(page).toContain('<dd>$0.0123</dd>');
    expect(page).toContain('1,200 in / 30 out');
  });

  it('says "unknown" for the cost of a model without a price, not $0.0000', () => {
    const page = lead(summary(), [request(), response('Done.'), line({ type: 'stop', status: 'completed', usage, costUsd: 0 })], 0);
    expect(page).toContain('Done.');
    expect(page).not.toContain('$0.0000');
    expect(page).toMatch(/<dt>Cost<\/dt><dd><span class="muted">unknown<\/span><\/dd>/);
  });

  it('says a record that ends without a stop did not finish, and names what the store says', () => {
    const page = lead(summary({ status: 'interrupted' }), [request(), response('Working on it.')], 0);
    expect(page).toContain('The record ends without a stop: the run did not finish here (the store says interrupted).');
    expect(page).toContain('<span class="value-text">Sum the invoices.</span>');
  });

  it('shows what it knows of a run without a record', () => {
    const page = lead(summary({ status: 'awaiting_confirmation' }), undefined, 2);
    expect(page).toContain("The record does not hold the user's prompt.");
    expect(page).toContain('the run waits for a person to decide on 2 calls (above)');
  });
});
