import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../shared/errors.js';
import { formatLintReport, lintModule, lintOptionsFromCli, type LintReport } from './lint.js';

const repo = resolve(import.meta.dirname, '../../..');

const report: LintReport = {
  module: '/somewhere/tools.ts',
  tools: 3,
  errors: 1,
  warnings: 2,
  findings: [
    { rule: 'tw/missing-reason', severity: 'error', tool: 'cancel_order', path: '/inputSchema/properties', message: 'No reason.', fix: 'Add a reason.' },
    { rule: 'tw/open-object', severity: 'warning', tool: 'cancel_order', path: '/inputSchema', message: 'Open.', fix: 'Close it.' },
    { rule: 'tw/too-many-tools', severity: 'warning', tool: null, path: '', message: 'Too many.', fix: 'Route.' },
  ],
};

describe('formatLintReport', () => {
  it('groups findings by tool, each with its fix, and ends with the counts', () => {
    expect(formatLintReport(report, 'tools.ts')).toBe(
      [
        'tools.ts: 3 tools',
        '',
        'cancel_order',
        '  error    tw/missing-reason  at /inputSchema/properties',
        '    No reason.',
        '    fix: Add a reason.',
        '  warning  tw/open-object  at /inputSchema',
        '    Open.',
        '    fix: Close it.',
        '',
        '(all tools)',
        '  warning  tw/too-many-tools',
        '    Too many.',
        '    fix: Route.',
        '',
        '3 problems (1 error, 2 warnings).',
        'Errors make this command exit with code 1; see docs/lint-rules.md for each rule.',
        '',
      ].join('\n'),
    );
  });

  it('hides warnings with quiet, saying how many', () => {
    expect(formatLintReport(report, 'tools.ts', { quiet: true }).split('\n').slice(-4)).toEqual([
      '',
      '3 problems (1 error, 2 warnings); 2 warnings not shown (--quiet).',
      'Errors make this command exit with code 1; see docs/lint-rules.md for each rule.',
      '',
    ]);
  });

  it('says so when there is nothing to report', () => {
    expect(formatLintReport({ module: 'x', tools: 1, errors: 0, warnings: 0, findings: [] }, 'pack.ts')).toBe('pack.ts: 1 tool, no problems found.\n');
  });
});

describe('lintOptionsFromCli', () => {
  it('turns --disable and --providers into linter options', () => {
    expect(lintOptionsFromCli({ disable: 'tw/open-object, tw/prefer-enum', providers: 'openai,mcp', strictLosses: true })).toEqual({
      rules: { 'tw/open-object': 'off', 'tw/prefer-enum': 'off' },
      providers: ['openai', 'mcp'],
      reportStrictModeLosses: true,
    });
  });

  it('takes anthropic-strict, which the default providers leave out', () => {
    expect(lintOptionsFromCli({ providers: 'anthropic-strict' })).toEqual({ rules: {}, providers: ['anthropic-strict'], reportStrictModeLosses: false });
  });

  it('refuses unknown rules and providers with a typed error', () => {
    expect(() => lintOptionsFromCli({ disable: 'tw/open-objects' })).toThrow(InvalidArgumentError);
    expect(() => lintOptionsFromCli({ providers: 'openai,gemini' })).toThrow(
      // anthropic-strict joined the list (opt-in: not in the default set).
      '--providers: unknown provider "gemini". Use any of openai, openai-strict, anthropic, mcp, anthropic-strict.',
    );
  });
});

describe('lintModule', () => {
  it('lints a module with the categories it exports', async () => {
    const result = await lintModule('examples/subscriptions', { cwd: repo });
    expect(result).toEqual({ module: resolve(repo, 'examples/subscriptions/index.ts'), tools: 14, errors: 0, warnings: 0, findings: [] });
  });

  it('applies --disable', async () => {
    const all = await lintModule('examples/bad-tools/index.ts', { cwd: repo });
    const some = await lintModule('examples/bad-tools/index.ts', { cwd: repo, disable: 'tw/provider-compatibility,tw/missing-reason' });
    expect(all.errors).toBe(9);
    expect(some.errors).toBe(2);
    expect(some.findings.some((finding) => finding.rule === 'tw/provider-compatibility' || finding.rule === 'tw/missing-reason')).toBe(false);
  });
});
