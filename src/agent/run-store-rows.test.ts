import { describe, expect, it } from 'vitest';
import { RunStoreError } from './agent-errors.js';
import { CONFIRMATION_COLUMNS, SqlRows, type CallRow, type ConfirmationRow, type RunRow } from './run-store-rows.js';
import type { StoredConfirmation } from './run-store.js';

const sqlite = new SqlRows({ textAsJson: false, damaged: 'the store file is damaged' });
const postgres = new SqlRows({ textAsJson: true, damaged: 'the database was altered by hand' });

const confirmation: StoredConfirmation = {
  approvalId: 'apr_1',
  runId: 'run_1',
  callKey: '1.0',
  callId: 'call\u0000one',
  toolName: 'send_email',
  arguments: { to: 'a@example.com' },
  summary: 'Send an email\u0000 to a@example.com',
  token: 'tok',
  expiresAt: 2_000,
  createdAt: 1_000,
};

const run: RunRow = {
  run_id: 'run_1',
  status: 'running',
  state: '{"runId":"run_1"}',
  created_at: 1,
  updated_at: 2,
  lease_owner: 'o',
  lease_holder: null,
  lease_expires_at: 3,
};

/** The row a store reads back after inserting `values` in the order of CONFIRMATION_COLUMNS, decided with `reason`. */
function confirmationRow(values: unknown[], reason: string | null, asText: boolean): ConfirmationRow {
  const columns = CONFIRMATION_COLUMNS.split(', ');
  const row = Object.fromEntries(columns.map((column, index) => [column, values[index]])) as Record<string, unknown>;
  // PostgreSQL hands BIGINT columns back as strings.
  const integer = (value: unknown) => (asText ? String(value) : value);
  return {
    ...row,
    expires_at: integer(row.expires_at),
    created_at: integer(row.created_at),
    decision: 'deny',
    reason,
    decided_at: integer(1_500),
  } as ConfirmationRow;
}

describe('SqlRows: one mapping for the SQLite and PostgreSQL rows', () => {
  it('reads back from either store the confirmation it wrote, free text with U+0000 included', () => {
    const fromSqlite = sqlite.confirmation(confirmationRow(sqlite.confirmationValues(confirmation), 'no\u0000way', false));
    const fromPostgres = postgres.confirmation(confirmationRow(postgres.confirmationValues(confirmation), postgres.text('no\u0000way'), true));
    const decided = { ...confirmation, decision: 'deny', reason: 'no\u0000way', decidedAt: 1_500 };
    expect(fromSqlite).toEqual(decided);
    expect(fromPostgres).toEqual(decided);
    // PostgreSQL's text holds no U+0000: every free-text column it is given is escaped.
    expect(postgres.confirmationValues(confirmation).filter((value) => typeof value === 'string' && value.includes('\u0000'))).toEqual([]);
  });

  it('maps a run row with its lease, and a call row with its claim and outcome, the same from both', () => {
    const expected = {
      runId: 'run_1',
      status: 'running',
      state: { runId: 'run_1' },
      createdAt: 1,
      updatedAt: 2,
      lease: { owner: 'o', holder: 'unknown process', expiresAt: 3 },
    };
    expect(sqlite.run(run)).toEqual(expected);
    expect(postgres.run({ ...run, created_at: '1', updated_at: '2', lease_expires_at: '3' })).toEqual(expected);

    const [toolName, callId, digest] = postgres.claimValues({ toolName: 'refund', callId: 'c1', digest: 'd' });
    const call: CallRow = { status: 'done', outcome: '{"callId":"c1","status":"succeeded"}', tool_name: toolName, call_id: callId, digest };
    expect(postgres.call(call, '1.0')).toEqual({
      status: 'done',
      outcome: { callId: 'c1', status: 'succeeded' },
      claim: { toolName: 'refund', callId: 'c1', digest: 'd' },
    });
    expect(sqlite.call({ ...call, tool_name: 'refund', call_id: 'c1' }, '1.0')).toEqual(postgres.call(call, '1.0'));
  });

  it('names the store’s own cause for a value it cannot read', () => {
    const damaged: RunRow = { ...run, run_id: 'r', state: '{' };
    expect(() => sqlite.run(damaged)).toThrow(RunStoreError);
    expect(() => sqlite.run(damaged)).toThrow(/The stored run r is not valid JSON .*; the store file is damaged\./);
    expect(() => postgres.run(damaged)).toThrow(/; the database was altered by hand\./);
    const notText = confirmationRow(postgres.confirmationValues(confirmation), null, true);
    expect(() => postgres.confirmation({ ...notText, summary: '42' })).toThrow(
      /A text field of the stored confirmation apr_1 is not a JSON string; the database was altered by hand\./,
    );
  });
});
