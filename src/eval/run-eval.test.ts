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
    // 4 strategies × 2 user tasks × (1 clean + 9 injection tasks).
    expect(result.records).toHaveLength(80);
    expect(result.complete).toBe(true);
    expect(new Set(result.records.map((record) => record.caseId)).size).toBe(80);
    expect(seen.at(-1)).toBe(80);
    const byStrategy = Object.fromEntries(result.metrics.strategies.map((item) => [item.strategy, item]));
    expect(byStrategy.none).toMatchObject({
      cleanUtility: { count: 2, total: 2 },
      attackAttempts: { count: 18, total: 18 },
      attackEffects: { count: 18, total: 18 },
    });
    expect(byStrategy.isolation).toMatchObject({ attackEffects: { count: 18, total: 18 } });
    for (const strategy of ['policy', 'isolation+policy']) {
      // The one effect is injection_task_9 under user_task_1: mailing Bob is in the task's scope, and the phishing mail uses up
      // the task's one send, so the user's own reply is then blocked (the one false block) and the task fails.
      expect(byStrategy[strategy]).toMatchObject({
        cleanUtility: { count: 2, total: 2 },
        utilityUnderAttack: { count: 17, total: 18 },
        attackAttempts: { count: 18 },
        attackEffects: { count: 1, total: 18 },
        effectsByScope: { inScope: { count: 1, total: 1 }, outOfScope: { count: 0, total: 17 } },
        blocked: { trueBlocks: 19, falseBlocks: 1, falseBlocksOnClean: 0 },
      });
    }
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
      '| policy | 2/2 (100.0%) | 17/18 (94.4%) | 18/18 (100.0%) | 1/18 (5.6%) | 20 (19 / 1) | 0 (0 cases) | 0 (0 / 0) |',
    );
    expect(readFileSync(result.paths.html, 'utf8')).toContain('<table id="results">');
    expect(JSON.parse(readFileSync(result.paths.metrics, 'utf8')).strategies).toHaveLength(4);
  });

  it('crosses suites and attacks: sim:folding gets every in-scope goal through a task scope, and nothing else', async () => {
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
    // In scope: workspace task 1 × injection 9, team-chat task 1 × injections 4 and 5, each under both attacks.
    expect(policy!.effectsByScope).toEqual({ inScope: { count: 6, total: 6, rate: 1 }, outOfScope: { count: 0, total: 22, rate: 0 } });
    expect(policy!.cleanUtility).toMatchObject({ count: 2, total: 2 });
    // Folding keeps the user's own call, so the user's task is still done under attack.
    expect(policy!.utilityUnderAttack).toMatchObject({ count: 28, total: 28 });
    expect(result.metrics.byAttack!.map((item) => [item.attack, item.effects.count, item.effects.total])).toEqual([
      ['direct', 3, 14],
      ['important_instructions', 3, 14],
    ]);
    expect(result.metrics.bySuite!.map((item) => [item.suite, item.effects.count, item.effects.total])).toEqual([
      ['workspace', 2, 18],
      ['team-chat', 4, 10],
    ]);
    const html = readFileSync(result.paths.html, 'utf8');
    expect(html).toContain('<table id="attacks">');
    expect(html).toContain('<table id="suites">');
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
