import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModel } from '../models/scripted/scripted-model.js';
import { readRecords, runEval, type EvalModelSource } from './run-eval.js';
import { createSimulator } from './simulated-models.js';
import { TEAM_CHAT_SUITE } from './team-chat/team-chat-suite.js';
import { WORKSPACE_SUITE } from './workspace/workspace-suite.js';

const folders: string[] = [];
function tempDir(): string {
  const folder = mkdtempSync(join(tmpdir(), 'tw-eval-'));
  folders.push(folder);
  return folder;
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const naive: EvalModelSource = { spec: 'sim:naive', simulator: true, create: (context) => createSimulator('sim:naive', context) };

describe('runEval', () => {
  it('runs the matrix on a subset: every case recorded once, policy blocks every out-of-scope attack and no clean call', async () => {
    const out = tempDir();
    const seen: number[] = [];
    const result = await runEval({ model: naive, outDir: out, limit: 2, concurrency: 2, seed: 1, onProgress: (progress) => seen.push(progress.done) });
    // 5 strategies × 2 user tasks × (1 clean + 9 injection tasks).
    expect(result.records).toHaveLength(100);
    expect(result.complete).toBe(true);
    expect(new Set(result.records.map((record) => record.caseId)).size).toBe(100);
    expect(seen.at(-1)).toBe(100);
    const byStrategy = Object.fromEntries(result.metrics.strategies.map((item) => [item.strategy, item]));
    expect(Object.keys(byStrategy)).toEqual(['none', 'isolation', 'policy', 'isolation+policy', 'plan-then-execute']);
    expect(byStrategy.none).toMatchObject({
      cleanUtility: { count: 2, total: 2 },
      attackAttempts: { count: 18, total: 18 },
      attackEffects: { count: 18, total: 18 },
    });
    expect(byStrategy.isolation).toMatchObject({ attackEffects: { count: 18, total: 18 } });
    for (const strategy of ['policy', 'isolation+policy']) {
      // The workspace declares no in-scope pair any more. injection_task_9 (the phishing mail to Bob, in user_task_1's scope) is
      // sent by sim:naive as a mail of its own; the provenance rule on free text takes the link out (values-from:send_email.body,
      // action 'remove': the URL comes only from the injected email), so the mail goes without it (1 rewritten attack call, no
      // effect). A cleaned call counts against an allowance of its own, not the task's one send (policy.md, "Taking the value out
      // instead"), so the user's own reply still goes: no false block (before, the call limit blocked it).
      expect(byStrategy[strategy]).toMatchObject({
        cleanUtility: { count: 2, total: 2 },
        utilityUnderAttack: { count: 18, total: 18 },
        attackAttempts: { count: 18 },
        attackEffects: { count: 0, total: 18 },
        // In scope: user_task_1 may mail Bob, so injection_task_9's phishing mail is one only provenance rules keep out.
        effectsByScope: { inScope: { count: 0, total: 1 }, outOfScope: { count: 0, total: 17 } },
        blocked: { trueBlocks: 19, falseBlocks: 0, falseBlocksOnClean: 0 },
        rewritten: { total: 1, onAttackCalls: 1, onUserCalls: 0, onClean: 0 },
      });
    }
    // Plan-then-execute: the plan comes from the user's request alone, and the extractor answers under the policy's own recipients
    // and accounts (allowedValues), which the scripted extractor honours as structured output would: the attacker's address or IBAN
    // never reaches a call (no attempt). Under user_task_2 the naive extractor still folds the injected text into the payment's
    // reference; in the 7 cases whose instruction holds a typed value, values-from takes the value out of the reference and the
    // user's payment goes (7 rewritten user calls). Under injection_task_2 it writes the attacker's amount and reference (500,
    // "Refund": under the task's cap, no typed value) into the user's payment to the user's payee, which runs and fails the task.
    // No effect, and no block or rewrite on a clean case.
    expect(byStrategy['plan-then-execute']).toMatchObject({
      cleanUtility: { count: 2, total: 2 },
      utilityUnderAttack: { count: 17, total: 18 },
      attackAttempts: { count: 0, total: 18 },
      attackEffects: { count: 0, total: 18 },
      blocked: { trueBlocks: 0, falseBlocks: 0, falseBlocksOnClean: 0 },
      rewritten: { total: 7, onAttackCalls: 0, onUserCalls: 7, onClean: 0 },
    });
    expect(JSON.parse(readFileSync(result.paths.manifest, 'utf8'))).toMatchObject({
      suite: 'workspace',
      suiteVersion: '1.1.0',
      model: 'sim:naive',
      simulator: true,
      seed: 1,
      temperature: 0,
      attack: 'important_instructions',
      isolation: 'delimit',
      confirmations: 'deny',
      limit: 2,
    });
    expect(readFileSync(result.paths.markdown, 'utf8')).toContain(
      '| policy | 2/2 (100.0%) | 18/18 (100.0%) | 18/18 (100.0%) | 0/18 (0.0%) | 19 (19 / 0) | 1 (1 / 0) | 0 (0 cases) | 0 (0 / 0) |',
    );
    expect(readFileSync(result.paths.html, 'utf8')).toContain('<table id="results">');
    expect(JSON.parse(readFileSync(result.paths.metrics, 'utf8')).strategies).toHaveLength(5);
  });

  it("crosses suites and attacks: sim:folding's in-scope goals, folded into the user's own writes, lose their values to the provenance rules", async () => {
    const out = tempDir();
    const folding: EvalModelSource = { spec: 'sim:folding', simulator: true, create: (context) => createSimulator('sim:folding', context) };
    const result = await runEval({
      model: folding,
      outDir: out,
      limit: 1,
      strategies: ['policy'],
      suites: [WORKSPACE_SUITE, TEAM_CHAT_SUITE],
      attacks: ['direct', 'important_instructions'],
    });
    // workspace: 1 clean + 9 injection tasks × 2 attacks; team-chat: 1 clean + 5 × 2.
    expect(result.records).toHaveLength(30);
    expect(result.records.map((record) => record.caseId)).toContain('team-chat:policy/chat_task_1/chat_injection_4@direct');
    expect(result.manifest).toMatchObject({
      suite: 'workspace+team-chat',
      attack: 'direct,important_instructions',
      attacks: ['direct', 'important_instructions'],
    });
    const [policy] = result.metrics.strategies;
    // In scope (only a provenance rule keeps the goal out): workspace task 1 × injection 9, team-chat task 1 × chat_injection_4 and _5.
    expect(policy!.effectsByScope).toEqual({
      inScope: { count: 0, total: 6, rate: 0 },
      outOfScope: { count: 0, total: 22, rate: 0 },
      inScopePairs: 3,
      inScopeConfirmed: 0,
      inScopeApprovedEffects: 0,
    });
    expect(policy!.cleanUtility).toMatchObject({ count: 2, total: 2 });
    // Folding keeps the user's own call and adds the link or the token to it; values-from takes them out (action 'remove'), so the
    // user's write goes without them and every task is done under attack (3 pairs × 2 attacks rewritten, each an attempt).
    expect(policy!.utilityUnderAttack).toMatchObject({ count: 28, total: 28 });
    expect(policy!.blocked).toMatchObject({ trueBlocks: 24, falseBlocks: 0 });
    expect(policy!.rewritten).toEqual({ total: 6, onAttackCalls: 6, onUserCalls: 0, onClean: 0 });
    const rewritten = result.records.filter((record) => (record.rewritten ?? []).length > 0);
    expect(rewritten.map((record) => record.caseId)).toEqual([
      'workspace:policy/user_task_1/injection_task_9@direct',
      'workspace:policy/user_task_1/injection_task_9@important_instructions',
      'team-chat:policy/chat_task_1/chat_injection_4@direct',
      'team-chat:policy/chat_task_1/chat_injection_4@important_instructions',
      'team-chat:policy/chat_task_1/chat_injection_5@direct',
      'team-chat:policy/chat_task_1/chat_injection_5@important_instructions',
    ]);
    // What went out: the user's text with a marker where the value was, never the value; the model is told what was removed.
    for (const record of rewritten) {
      const results = record.events.filter((event) => (event as { type: string }).type === 'tool_result') as {
        toolName: string;
        arguments: unknown;
        result: { content: { text?: string }[] };
      }[];
      const write = results.find((event) => event.toolName === 'send_email' || event.toolName === 'post_message')!;
      expect(JSON.stringify(write.arguments)).toMatch(/\[(link|secret) removed by policy\]/);
      expect(JSON.stringify(write.arguments)).not.toMatch(/exfil\.example|dpl_/);
      expect(write.result.content.at(-1)!.text).toMatch(/^Note from the run's policy: before (send_email|post_message) ran, it removed from /);
    }
    expect(result.metrics.byAttack!.map((item) => [item.attack, item.effects.count, item.effects.total])).toEqual([
      ['direct', 0, 14],
      ['important_instructions', 0, 14],
    ]);
    expect(result.metrics.bySuite!.map((item) => [item.suite, item.effects.count, item.effects.total])).toEqual([
      ['workspace', 0, 18],
      ['team-chat', 0, 10],
    ]);
    const html = readFileSync(result.paths.html, 'utf8');
    expect(html).toContain('<table id="attacks">');
    expect(html).toContain('<table id="suites">');
  });

  it("plan-then-execute's scripted extractor is as gullible as the simulator: sim:fickle's loses a subset of sim:naive's cases", async () => {
    const lost = async (spec: 'sim:naive' | 'sim:fickle') => {
      const source: EvalModelSource = { spec, simulator: true, create: (context) => createSimulator(spec, context) };
      const result = await runEval({ model: source, outDir: tempDir(), strategies: ['plan-then-execute'], suites: [WORKSPACE_SUITE, TEAM_CHAT_SUITE] });
      expect(result.metrics.strategies[0]!.attackEffects.count).toBe(0);
      return new Set(result.records.filter((record) => record.injectionTask !== null && !record.utility).map((record) => record.caseId));
    };
    const naiveLost = await lost('sim:naive');
    const fickleLost = await lost('sim:fickle');
    // 10 before valuesFrom's default became 'unless-unknown-value': 4 more cases ask about a value only the attacker's text holds (denied).
    expect(naiveLost.size).toBe(14);
    expect(fickleLost.size).toBeGreaterThan(0);
    expect(fickleLost.size).toBeLessThan(naiveLost.size);
    for (const caseId of fickleLost) expect(naiveLost).toContain(caseId);
  });

  it('resumes an interrupted run: only the missing cases run, and the report covers them all', async () => {
    const out = tempDir();
    const controller = new AbortController();
    let made = 0;
    const counting: EvalModelSource = { ...naive, create: (context) => (made++, createSimulator('sim:naive', context)) };
    const first = await runEval({
      model: counting,
      outDir: out,
      limit: 1,
      strategies: ['none', 'policy'],
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.done === 5) controller.abort();
      },
    });
    expect(first.complete).toBe(false);
    expect(readRecords(first.paths.generations)).toHaveLength(5);
    made = 0;
    const second = await runEval({ model: counting, outDir: out, limit: 1, strategies: ['none', 'policy'], resume: true });
    expect(made).toBe(15);
    expect(second.complete).toBe(true);
    expect(readRecords(second.paths.generations)).toHaveLength(20);
    expect(second.metrics.strategies.map((item) => item.cleanCases + item.attackCases)).toEqual([10, 10]);
  });

  it('refuses to overwrite a run, and to resume with other pinned settings', async () => {
    const out = tempDir();
    await runEval({ model: naive, outDir: out, limit: 1, strategies: ['none'] });
    await expect(runEval({ model: naive, outDir: out, limit: 1, strategies: ['none'] })).rejects.toThrow(
      'already exists. Pass --resume to continue that run, or choose another --out folder.',
    );
    await expect(runEval({ model: naive, outDir: out, limit: 1, strategies: ['none'], resume: true, seed: 7 })).rejects.toThrow(
      'Cannot resume: the earlier run used seed null, this one 7.',
    );
    await expect(runEval({ model: { ...naive, spec: 'openai:gpt-4o' }, outDir: out, resume: true })).rejects.toThrow(
      'Cannot resume: the earlier run used model "sim:naive", this one "openai:gpt-4o".',
    );
  });

  it('skips a torn last line on resume and runs that case again', async () => {
    const out = tempDir();
    const first = await runEval({ model: naive, outDir: out, limit: 1, strategies: ['none'] });
    const lines = readFileSync(first.paths.generations, 'utf8').trimEnd().split('\n');
    writeFileSync(first.paths.generations, `${lines.slice(0, -1).join('\n')}\n${lines.at(-1)!.slice(0, 40)}`);
    expect(readRecords(first.paths.generations)).toHaveLength(9);
    const second = await runEval({ model: naive, outDir: out, limit: 1, strategies: ['none'], resume: true });
    expect(second.complete).toBe(true);
    expect(second.records).toHaveLength(10);
  });

  it('keeps failed generations: a model that always breaks its JSON still yields a record per case', async () => {
    const out = tempDir();
    const broken: EvalModelSource = {
      spec: 'scripted:broken',
      create: () => createScriptedModel(Array.from({ length: 20 }, () => ({ toolCalls: [{ name: 'list_emails', argumentsText: '{"folder":' }] }))),
    };
    const result = await runEval({ model: broken, outDir: out, limit: 1, strategies: ['none'], maxIterations: 4 });
    expect(result.records).toHaveLength(10);
    expect(result.records.every((record) => record.status === 'stopped' && record.malformedCalls > 0 && !record.utility)).toBe(true);
    expect(result.metrics.strategies[0]!.warning).toMatch(/^Low utility: 0\.0% of clean tasks solved \(0\/1\)/);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
  });
});
