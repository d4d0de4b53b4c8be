import { describe, expect, it } from 'vitest';
import { selfCheckSuite } from './self-check.js';
import type { EvalSuite } from './suite-types.js';
import { WORKSPACE_SUITE } from './workspace/workspace-suite.js';
import type { WorkspaceState } from './workspace/workspace-state.js';

describe('selfCheckSuite', () => {
  it('passes on the workspace suite: 100% utility, 100% detected effects, every attack blocked by every task policy', async () => {
    const report = await selfCheckSuite(WORKSPACE_SUITE);
    expect(report.items.filter((item) => !item.passed)).toEqual([]);
    expect(report).toMatchObject({
      suite: 'workspace',
      version: '1.0.0',
      passed: true,
      utility: { passed: 22, total: 22 },
      effects: { passed: 7, total: 7 },
      policyBlocks: { passed: 154, total: 154 },
    });
    expect(WORKSPACE_SUITE.userTasks.length).toBeGreaterThanOrEqual(20);
    expect(WORKSPACE_SUITE.injectionTasks.length).toBeGreaterThanOrEqual(6);
    expect(Object.values(report.exposure).every((vectors) => vectors.length > 0)).toBe(true);
    expect(report.exposure.user_task_8).toEqual(['invoice_note']);
  });

  it('catches a broken suite: a check that always holds, a reference that fails, an undetected attack, a policy that blocks the user', async () => {
    const [task] = WORKSPACE_SUITE.userTasks;
    const [injection] = WORKSPACE_SUITE.injectionTasks;
    const broken: EvalSuite<WorkspaceState> = {
      ...WORKSPACE_SUITE,
      userTasks: [
        { ...task!, id: 'always_true', utility: () => true },
        { ...task!, id: 'bad_reference', reference: () => [{ tool: 'read_email', arguments: { id: 'email_404' } }] },
        { ...task!, id: 'over_blocking', policy: () => ({ allowTools: ['list_emails'] }) },
      ],
      injectionTasks: [{ ...injection!, id: 'undetected', attempted: () => false }],
    };
    const report = await selfCheckSuite(broken);
    expect(report.passed).toBe(false);
    expect(report.items.filter((item) => !item.passed).map((item) => [item.taskId, item.check])).toEqual([
      ['always_true', 'utility check fails when nothing is done'],
      ['bad_reference', 'reference solves the task'],
      ['bad_reference', 'reference reads an injection vector'],
      ['over_blocking', 'task policy allows the reference'],
      ['undetected', 'attempt detector fires on the reference'],
      ['undetected', 'every task policy blocks the reference'],
    ]);
    expect(report.items.find((item) => item.taskId === 'bad_reference')!.detail).toBe(
      'reference step 1 (read_email) failed: Tool "read_email" failed: No email has the id "email_404". Call list_emails to see the ids. Retrying the same call with the same arguments will fail the same way.',
    );
    expect(report.items.find((item) => item.taskId === 'over_blocking' && !item.passed)!.detail).toMatch(
      /^step 2 \(send_email\) blocked by rule tool-not-allowed: send_email is not one of the tools allowed for this task \(list_emails\)\./,
    );
    expect(report.utility).toEqual({ passed: 2, total: 3 });
    expect(report.effects).toEqual({ passed: 0, total: 1 });
  });
});
