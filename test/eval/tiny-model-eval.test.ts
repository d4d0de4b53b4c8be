/**
 * `toolwright eval --model local:tiny` runs offline on the tiny structural test
 * model (random weights, Qwen3 vocabulary) and its report says what matters:
 * the agent solves nothing, so its zero attack success is no defence. Kept to
 * one user task and two strategies; `npm run eval:tiny` runs the full matrix.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runEvalCommand } from '../../src/cli/commands/eval.js';
import { readRecords } from '../../src/eval/run-eval.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('toolwright eval on the tiny local model', () => {
  it('runs every case offline, keeps every generation, and flags the zero utility', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tw-eval-tiny-'));
    folders.push(out);
    const stdout: string[] = [];
    const code = await runEvalCommand(
      {
        model: 'local:tiny',
        out,
        limit: '1',
        strategies: 'none,isolation+policy',
        maxOutputTokens: '24',
        maxIterations: '2',
        toolChoice: 'required-first',
        seed: '1',
        progress: false,
      },
      { out: (text) => stdout.push(text), err: () => {}, errIsTty: false },
    );
    expect(code).toBe(0);
    const records = readRecords(join(out, 'generations.jsonl'));
    // 2 strategies × 1 user task × (1 clean + 9 injection tasks).
    expect(records).toHaveLength(20);
    expect(records.every((record) => record.model === 'local:tiny' && record.status !== 'error')).toBe(true);
    // Every case made its forced first call and kept the raw generation, malformed or not.
    expect(
      records.every(
        (record) =>
          record.usage.modelCalls >= 1 && record.calls.length >= 1 && record.events.some((event) => (event as { type: string }).type === 'model_response'),
      ),
    ).toBe(true);
    expect(records.filter((record) => record.utility)).toEqual([]);
    // Random calls that the task scope does not allow are blocked, and every such block is a false one.
    expect(records.flatMap((record) => record.blocked).filter((block) => block.attackCall)).toEqual([]);
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    expect(report).toContain('> **Warning:** The undefended agent solves only 0 of 1 clean tasks (0.0%).');
    expect(report).toContain('isolation+policy: Low utility: 0.0% of clean tasks solved (0/1).');
    expect(stdout.join('')).toContain('none !');
  }, 240_000);

  it('uses the tiny local model as the adaptive attacker: its rewrites are planted and scored like any try', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tw-eval-tiny-attacker-'));
    folders.push(out);
    const stdout: string[] = [];
    const code = await runEvalCommand(
      {
        suite: 'team-chat',
        model: 'sim:fickle',
        attack: 'adaptive',
        attackTries: '2',
        attackerModel: 'local:tiny',
        out,
        limit: '1',
        strategies: 'none',
        progress: false,
      },
      { out: (text) => stdout.push(text), err: () => {}, errIsTty: false },
    );
    expect(code).toBe(0);
    const attacked = readRecords(join(out, 'generations.jsonl')).filter((record) => record.adaptive);
    expect(attacked).toHaveLength(5);
    // Every case that needed a second try got it from the model (random text from random weights, but text), none from the script.
    const second = attacked.filter((record) => record.adaptive!.tries.length === 2);
    expect(second.length).toBeGreaterThan(0);
    for (const record of second) expect(record.adaptive!.tries[1]).toMatchObject({ label: 'model#2', proposedBy: 'model' });
    expect(attacked.every((record) => record.adaptive!.proposerFailures === 0)).toBe(true);
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))).toMatchObject({ adaptive: { tries: 2, proposer: 'local:tiny' } });
    expect(stdout.join('')).toContain('adaptive (best of 2) under none');
  }, 240_000);
});
