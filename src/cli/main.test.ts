import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LINT_RULES } from '../formats/lint/index.js';
import type { LintReport } from './commands/lint.js';

const repo = resolve(import.meta.dirname, '../..');

/** Runs the real CLI the way the npm scripts do (under tsx), and never rejects. */
function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', ...args],
      { cwd: repo, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        done({ code, stdout, stderr });
      },
    );
  });
}

// Each case starts Node with tsx (seconds on a busy machine), so the limit is generous.
describe('toolwright CLI', { timeout: 90_000 }, () => {
  it('prints the version from package.json', async () => {
    const { version } = JSON.parse(readFileSync(resolve(repo, 'package.json'), 'utf8')) as { version: string };
    expect(await cli('--version')).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('lint --json on examples/bad-tools reports every rule and exits 1', async () => {
    const result = await cli('lint', 'examples/bad-tools/index.ts', '--json');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout) as LintReport;
    expect(report.module).toBe(resolve(repo, 'examples/bad-tools/index.ts'));
    expect([report.tools, report.errors, report.warnings]).toEqual([26, 9, 24]);
    expect([...new Set(report.findings.map((finding) => finding.rule))].sort()).toEqual(LINT_RULES.map((rule) => rule.id).sort());
    expect(report.findings.find((finding) => finding.rule === 'tw/missing-reason')).toEqual({
      rule: 'tw/missing-reason',
      severity: 'error',
      tool: 'manage_subscription',
      path: '/inputSchema/properties',
      message: 'Write tool "manage_subscription" has no "reason" property, so the model changes things without first saying why.',
      fix: 'Add "reason": { "type": "string", "description": "Why this call is being made (quote the user\'s request)" } as the first property, and list "reason" in "required".',
    });
  });

  it('lint prints a clean pack in one line and exits 0; warnings alone keep exit code 0', async () => {
    const [clean, cleanByFlag, warningsOnly] = await Promise.all([
      cli('lint', 'examples/conjugate'),
      cli('lint', '--tools', 'examples/conjugate'),
      cli(
        'lint',
        'examples/bad-tools/index.ts',
        '--disable',
        'tw/missing-reason,tw/missing-description,tw/provider-compatibility,tw/missing-required,tw/unconfirmed-action',
      ),
    ]);
    expect(clean).toEqual({ code: 0, stdout: 'examples/conjugate: 2 tools, no problems found.\n', stderr: '' });
    // The module named with --tools, as serve and run take it.
    expect(cleanByFlag).toEqual(clean);
    expect(warningsOnly.code).toBe(0);
    expect(warningsOnly.stdout).toContain('\nmanage_subscription\n  warning  tw/vague-description  at /description\n');
    expect(warningsOnly.stdout.trimEnd().split('\n').at(-1)).toBe('19 problems (0 errors, 19 warnings).');
  });

  it('explains a user mistake in one line, without a stack trace, and exits 2', async () => {
    const [missing, noTools, badOption] = await Promise.all([
      cli('lint', 'examples/nope.ts'),
      cli('lint', 'package.json'),
      cli('lint', 'examples/conjugate', '--colour'),
    ]);
    expect(missing).toEqual({
      code: 2,
      stdout: '',
      stderr: `toolwright: Cannot load tools from "${resolve(repo, 'examples/nope.ts')}": no such file. Check the path (it is resolved from ${repo}).\n`,
    });
    expect(noTools.code).toBe(2);
    expect(noTools.stderr).toMatch(
      /^toolwright: Cannot load tools from ".*package\.json": it exports no tools \(its exports: [^)]*\)\. Export them as `export const tools/,
    );
    expect(noTools.stderr).not.toMatch(/\n\s+at /);
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toBe("error: unknown option '--colour'\n(run with --help for usage)\n");
  });
});
