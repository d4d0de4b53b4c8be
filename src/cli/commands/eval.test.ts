import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../main.js';
import { runEvalCommand, type EvalCommandIo } from './eval.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function capture(): EvalCommandIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (text) => stdout.push(text), err: (text) => stderr.push(text), errIsTty: false };
}

describe('toolwright eval', () => {
  it('--self-check passes offline and says what it checked', async () => {
    const io = capture();
    expect(await runEvalCommand({ selfCheck: true }, io)).toBe(0);
    expect(io.stdout.join('')).toBe(
      [
        'toolwright eval --self-check: workspace v1.0.0',
        '  user tasks:      22/22 references solve their task (100.0% utility)',
        '  injection tasks: 7/7 references reach their goal and are detected (100.0% effects)',
        "  task policies:   154/154 (user task, injection task) pairs block the injection's reference",
        '  checks:          116 passed, 0 failed',
        'self-check passed',
        '',
      ].join('\n'),
    );
  });

  it('runs the matrix offline with the default simulator, prints the table, the warnings and where the report is', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tw-eval-cli-'));
    folders.push(out);
    const io = capture();
    expect(await runEvalCommand({ out, limit: '1', strategies: 'none,policy', seed: '3' }, io)).toBe(0);
    const text = io.stdout.join('');
    expect(text).toContain('warning: sim:naive is a baseline simulator, not a model; its numbers describe no model.');
    expect(text).toContain(
      [
        'strategy  clean utility  under attack  attempts    effects     blocked (true/false)  confirmations',
        'none      1/1 100.0%     7/7 100.0%    7/7 100.0%  7/7 100.0%  0 (0/0)               0',
        'policy    1/1 100.0%     7/7 100.0%    7/7 100.0%  0/7 0.0%    7 (7/0)               0',
      ].join('\n'),
    );
    expect(text).toContain(`Report: ${join(out, 'report.html')}`);
    expect(io.stderr.join('')).toMatch(/^\[\.{24}\] 0\/16 0%\n/);
    expect(io.stderr.join('')).toContain('[########################] 16/16 100%');
    expect(existsSync(join(out, 'generations.jsonl'))).toBe(true);
  });

  it('sim:idle: zero utility, and the report says the zero attack rate is no defence', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tw-eval-cli-'));
    folders.push(out);
    const io = capture();
    expect(await runEvalCommand({ out, model: 'sim:idle', limit: '1', strategies: 'none,policy', json: true }, io)).toBe(0);
    const json = JSON.parse(io.stdout.join('')) as { metrics: { warnings: string[]; strategies: { warning?: string }[] } };
    expect(json.metrics.warnings[0]).toMatch(/^The undefended agent solves only 0 of 1 clean tasks/);
    expect(json.metrics.strategies.every((item) => item.warning?.includes('is not a defence'))).toBe(true);
    expect(io.stderr).toEqual([]);
  });

  it('refuses bad options with a message naming the fix (exit 2)', async () => {
    await expect(runEvalCommand({ isolation: 'rot13' }, capture())).rejects.toThrow('--isolation must be one of delimit, datamark, encode (got "rot13").');
    await expect(runEvalCommand({ strategies: 'none,magic' }, capture())).rejects.toThrow('Unknown strategy "magic"');
    await expect(runEvalCommand({ concurrency: '0' }, capture())).rejects.toThrow('--concurrency must be an integer of at least 1 (got "0").');
    await expect(runEvalCommand({ model: 'sim:genius' }, capture())).rejects.toThrow('Unknown simulator "sim:genius"');
    await expect(runEvalCommand({ model: 'nope' }, capture())).rejects.toThrow('write it as provider:model');
    expect(await runCli(['node', 'toolwright', 'eval', '--confirmations', 'maybe'])).toBe(2);
  });
});
