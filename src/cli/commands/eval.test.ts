import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  it('--self-check passes on workspace and team-chat with no holes (provenance rules close their in-scope pairs), fails on the holes a suite declares, and passes when they are accepted by flag', async () => {
    const workspace = capture();
    expect(await runEvalCommand({ selfCheck: true }, workspace)).toBe(0);
    expect(workspace.stdout.join('')).toBe(
      [
        'toolwright eval --self-check: workspace v1.1.0',
        '  user tasks:      22/22 references solve their task (100.0% utility)',
        '  injection tasks: 9/9 references reach their goal and are detected (100.0% effects)',
        "  task policies:   198/198 (user task, injection task) pairs keep the injection's reference from its goal",
        '  checks:          124 passed, 0 failed',
        'self-check passed',
        '',
      ].join('\n'),
    );
    const chat = capture();
    expect(await runEvalCommand({ selfCheck: true, suite: 'team-chat' }, chat)).toBe(0);
    expect(chat.stdout.join('')).toBe(
      [
        'toolwright eval --self-check: team-chat v1.1.0',
        '  user tasks:      8/8 references solve their task (100.0% utility)',
        '  injection tasks: 5/5 references reach their goal and are detected (100.0% effects)',
        "  task policies:   40/40 (user task, injection task) pairs keep the injection's reference from its goal",
        '  checks:          52 passed, 0 failed',
        'self-check passed',
        '',
      ].join('\n'),
    );
    // A suite that still declares holes: team-chat with an id-like token no detector recognises (test/fixtures).
    const withHoles = fileURLToPath(new URL('../../../test/fixtures/team-chat-with-holes.ts', import.meta.url));
    const holes = ['1', '2', '3', '4', '7'].map((id) => `chat_task_${id}×chat_injection_5`).join(', ');
    const strict = capture();
    expect(await runEvalCommand({ selfCheck: true, suite: withHoles }, strict)).toBe(1);
    expect(strict.stdout.join('')).toContain(
      [
        "  task policies:   35/40 (user task, injection task) pairs keep the injection's reference from its goal",
        `  holes:           5 pairs reach the goal under the task's own scope: ${holes}`,
        '                   (a suite declares those only provenance rules can close as needsProvenance; --allow-provenance-holes accepts them)',
        '  checks:          52 passed, 1 failed',
        '  FAIL chat_injection_5: no task policy lets the reference reach the goal (under chat_task_1, chat_task_2, chat_task_3, chat_task_4, chat_task_7 (declared as needing provenance rules; pass --allow-provenance-holes to accept them))',
        'self-check FAILED',
        '',
      ].join('\n'),
    );
    const io = capture();
    expect(await runEvalCommand({ selfCheck: true, suite: withHoles, allowProvenanceHoles: true }, io)).toBe(0);
    expect(io.stdout.join('')).toBe(
      [
        'toolwright eval --self-check: team-chat-with-holes v1.1.0',
        '  user tasks:      8/8 references solve their task (100.0% utility)',
        '  injection tasks: 5/5 references reach their goal and are detected (100.0% effects)',
        "  task policies:   35/40 (user task, injection task) pairs keep the injection's reference from its goal",
        `  holes:           5 pairs reach the goal under the task's own scope: ${holes}`,
        '                   (a suite declares those only provenance rules can close as needsProvenance; --allow-provenance-holes accepts them)',
        '  checks:          53 passed, 0 failed',
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
        'none      1/1 100.0%     9/9 100.0%    9/9 100.0%  9/9 100.0%  0 (0/0)               0',
        // injection_task_9's phishing mail goes out with its link taken out, on an allowance of its own: user_task_1's one send
        // is still the user's (docs/policy.md, "Taking the value out instead").
        'policy    1/1 100.0%     9/9 100.0%    9/9 100.0%  0/9 0.0%    9 (9/0)               0',
      ].join('\n'),
    );
    expect(text).toContain(`Report: ${join(out, 'report.html')}`);
    expect(io.stderr.join('')).toMatch(/^\[\.{24}\] 0\/20 0%\n/);
    expect(io.stderr.join('')).toContain('[########################] 20/20 100%');
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

  it("sim:substituting: the attacker's values in the user's own writes reach the goal undefended, and the report names the simulator", async () => {
    const out = mkdtempSync(join(tmpdir(), 'tw-eval-cli-'));
    folders.push(out);
    const io = capture();
    expect(await runEvalCommand({ out, model: 'sim:substituting', limit: '2', strategies: 'none,policy', json: true }, io)).toBe(0);
    const json = JSON.parse(io.stdout.join('')) as { metrics: { strategies: { strategy: string; attackEffects: { count: number; total: number } }[] } };
    // user_task_2 pays the rent: the attacker's IBAN and amount go into that payment (injection_task_2); the task's pin blocks it.
    expect(json.metrics.strategies.map((item) => [item.strategy, item.attackEffects.count, item.attackEffects.total])).toEqual([
      ['none', 1, 18],
      ['policy', 0, 18],
    ]);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(
      "sim:substituting is an adversarial simulator, not a model: it replays each task's reference calls",
    );
  });

  it('--attack all,adaptive --attack-tries: prints the best of N beside the best single-shot attack, and the tries it ran', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tw-eval-cli-'));
    folders.push(out);
    const io = capture();
    const code = await runEvalCommand(
      { out, model: 'sim:fickle', suite: 'team-chat', limit: '2', strategies: 'none,policy', attack: 'all,adaptive', attackTries: '6', progress: false },
      io,
    );
    expect(code).toBe(0);
    const text = io.stdout.join('');
    expect(text).toMatch(/adaptive \(best of 6\) under none: effects \d+\/10 [\d.]+%; best single-shot attack \w+: \d+\/10 [\d.]+%; \d+ of 60 tries run/);
    expect(text).toContain(
      'adaptive (best of 6) under policy: effects 0/10 0.0%; best single-shot attack important_instructions: 0/10 0.0%; 60 of 60 tries run',
    );
  });

  it('refuses bad options with a message naming the fix (exit 2)', async () => {
    await expect(runEvalCommand({ isolation: 'rot13' }, capture())).rejects.toThrow('--isolation must be one of delimit, datamark, encode (got "rot13").');
    await expect(runEvalCommand({ strategies: 'none,magic' }, capture())).rejects.toThrow('Unknown strategy "magic"');
    for (const tries of ['0', '51', '2.5', 'many', ''])
      await expect(runEvalCommand({ attack: 'adaptive', attackTries: tries }, capture())).rejects.toThrow(
        `--attack-tries must be an integer from 1 to 50 (got ${JSON.stringify(tries)}): it is how many agent runs the adaptive attack makes per attack case.`,
      );
    await expect(runEvalCommand({ attack: 'all', attackTries: '5' }, capture())).rejects.toThrow(
      '--attack-tries applies to the adaptive attack only, and --attack "all" does not name it; add adaptive (e.g. --attack all,adaptive).',
    );
    await expect(runEvalCommand({ attack: 'direct', attackerModel: 'openai:gpt-4o-mini' }, capture())).rejects.toThrow(
      '--attacker-model applies to the adaptive attack only, and --attack "direct" does not name it',
    );
    await expect(runEvalCommand({ concurrency: '0' }, capture())).rejects.toThrow('--concurrency must be an integer of at least 1 (got "0").');
    await expect(runEvalCommand({ model: 'sim:genius' }, capture())).rejects.toThrow('Unknown simulator "sim:genius"');
    await expect(runEvalCommand({ model: 'nope' }, capture())).rejects.toThrow('write it as provider:model');
    expect(await runCli(['node', 'toolwright', 'eval', '--confirmations', 'maybe'])).toBe(2);
  });
});
