/** The page a decision lands on says what was decided and, for each state the run can be in, what happens to it next. */
import { describe, expect, it } from 'vitest';
import type { StoredConfirmation } from '../../agent/index.js';
import { approvalPage, type ApprovalPageInput } from './approval-decided-page.js';

const confirmation: StoredConfirmation = {
  approvalId: 'apr_1',
  runId: 'run_1',
  callKey: '0.0',
  callId: 'c1',
  toolName: 'refund',
  arguments: { invoice: 'INV-7', amount: 40 },
  summary: 'Refund $40 on invoice INV-7',
  token: 'never shown',
  expiresAt: Date.parse('2026-03-03T09:00:00Z'),
  createdAt: Date.parse('2026-03-02T09:00:00Z'),
};
const decided = (decision: 'approve' | 'deny', reason?: string): StoredConfirmation => ({
  ...confirmation,
  decision,
  decidedAt: Date.parse('2026-03-02T09:01:00Z'),
  ...(reason !== undefined ? { reason } : {}),
});
const base: ApprovalPageInput = {
  confirmation: decided('approve'),
  runStatus: 'awaiting_confirmation',
  othersWaiting: 0,
  resumes: true,
  formToken: 'f',
  pendingCount: 0,
};
const next = (input: Partial<ApprovalPageInput>) => {
  const page = String(approvalPage({ ...base, ...input }));
  return /<p id="next">([\s\S]*?)<\/p>/
    .exec(page)![1]!
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
};

describe('approvalPage', () => {
  it('says what was decided, with the reason told to the model, and never the token', () => {
    const page = String(approvalPage({ ...base, confirmation: decided('deny', 'not <today>') }));
    expect(page).toContain('You denied <code>refund</code>');
    expect(page).toContain('Refund $40 on invoice INV-7');
    expect(page).toContain('reason told to the model: “not &lt;today&gt;”');
    expect(page).not.toContain('never shown');
    expect(page).toContain('href="/runs/run_1"');
  });

  it('says what happens next in each state of the run', () => {
    expect(next({ othersWaiting: 2 })).toBe('The run still waits on 2 other calls: it continues once they are decided (approvals).');
    expect(next({ resume: { state: 'resuming' }, runStatus: 'running' })).toBe(
      "The run is resuming now, with the console's model and tools: the call runs. This page follows it.",
    );
    expect(next({ runStatus: 'completed', confirmation: decided('deny') })).toBe(
      'The run continued (the model is told the call was denied) and is now completed.',
    );
    expect(next({ resumes: false })).toBe(
      'The decision is recorded (approved); this console does not continue runs. Continue it with toolwright resume run_1: then the call runs.',
    );
    expect(next({ resume: { state: 'failed', message: 'another process holds the run' } })).toBe(
      'The console could not resume the run: another process holds the run',
    );
  });

  it('follows a resume by refreshing, and stops once the run has ended', () => {
    expect(String(approvalPage({ ...base, resume: { state: 'resuming' } }))).toContain('http-equiv="refresh"');
    expect(String(approvalPage({ ...base, runStatus: 'completed' }))).not.toContain('http-equiv="refresh"');
  });

  it('shows an undecided call as its card, to decide there', () => {
    const page = String(approvalPage({ ...base, confirmation }));
    expect(page).toContain('Waiting for a decision');
    expect(page).toContain('action="/approvals/apr_1/approve"');
  });
});
