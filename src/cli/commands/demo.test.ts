import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runDemo } from './demo.js';

const run = promisify(execFile);

describe('toolwright demo', () => {
  it('takes one tool through all four formats, shows each mistake as the model reads it, and lints the packs', async () => {
    let printed = '';
    const report = await runDemo({ json: true }, (text) => {
      printed += text;
    });
    expect(JSON.parse(printed)).toEqual({ formats: JSON.parse(JSON.stringify(report)) });
    expect(report.roundTrips.map((trip) => trip.format)).toEqual(['openai-chat', 'openai-responses', 'anthropic', 'mcp']);
    for (const trip of report.roundTrips) {
      expect(trip.parsed.name).toBe('conjugate');
      expect(JSON.stringify(trip.resultMessage)).toContain('he/she/it ate');
    }
    expect(report.roundTrips[0]!.resultMessage).toMatchObject({ role: 'tool', tool_call_id: 'call_demo1' });
    expect(report.roundTrips[2]!.resultMessage).toMatchObject({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_demo3', is_error: false }] });
    expect(report.roundTrips[3]!.resultMessage).toMatchObject({ jsonrpc: '2.0', id: 'request-1', result: { isError: false } });
    expect(report.errors.map((example) => example.code)).toEqual(['unknown_tool', 'invalid_json', 'invalid_arguments', 'tool_error']);
    expect(report.errors[0]!.modelSees).toMatch(/^Unknown tool "conjugat". Did you mean "conjugate"\?/);
    const lint = Object.fromEntries(report.lint.map((pack) => [pack.pack, pack]));
    expect(lint.conjugate!.errors + lint.conjugate!.warnings).toBe(0);
    expect(lint.subscriptions!.errors + lint.subscriptions!.warnings).toBe(0);
    expect(lint['bad-tools']!.errors).toBeGreaterThan(0);
  });

  it('runs as `npm start` does and prints every section', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'demo'], { cwd: new URL('../../..', import.meta.url) });
    for (const heading of ['1. The example tool packs', '2. One definition, four wire formats', '3. Errors are prompts', '4. The schema linter']) expect(stdout).toContain(heading);
  });
});
