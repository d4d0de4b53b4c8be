import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runDemo } from './demo.js';

const run = promisify(execFile);
const runs = mkdtempSync(join(tmpdir(), 'tw-demo-'));
afterAll(() => rmSync(runs, { recursive: true, force: true }));

describe('toolwright demo', () => {
  it('takes one tool through all four formats, shows each mistake as the model reads it, and lints the packs', async () => {
    let printed = '';
    const report = await runDemo({ json: true, local: false }, (text) => {
      printed += text;
    });
    expect(JSON.parse(printed)).toEqual(JSON.parse(JSON.stringify(report)));
    const { formats } = report;
    expect(formats.roundTrips.map((trip) => trip.format)).toEqual(['openai-chat', 'openai-responses', 'anthropic', 'mcp']);
    for (const trip of formats.roundTrips) {
      expect(trip.parsed.name).toBe('conjugate');
      expect(JSON.stringify(trip.resultMessage)).toContain('he/she/it ate');
    }
    expect(formats.roundTrips[0]!.resultMessage).toMatchObject({ role: 'tool', tool_call_id: 'call_demo1' });
    expect(formats.roundTrips[2]!.resultMessage).toMatchObject({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_demo3', is_error: false }],
    });
    expect(formats.roundTrips[3]!.resultMessage).toMatchObject({ jsonrpc: '2.0', id: 'request-1', result: { isError: false } });
    expect(formats.errors.map((example) => example.code)).toEqual(['unknown_tool', 'invalid_json', 'invalid_arguments', 'tool_error']);
    expect(formats.errors[0]!.modelSees).toMatch(/^Unknown tool "conjugat". Did you mean "conjugate"\?/);
    const lint = Object.fromEntries(formats.lint.map((pack) => [pack.pack, pack]));
    expect(lint.conjugate!.errors + lint.conjugate!.warnings).toBe(0);
    expect(lint.subscriptions!.errors + lint.subscriptions!.warnings).toBe(0);
    expect(lint['bad-tools']!.errors).toBeGreaterThan(0);
    expect(report.constrained).toBeUndefined();
  });

  it('counts valid calls with and without the mask on the tiny model, runs the agent loop, and writes the record', async () => {
    let printed = '';
    const report = await runDemo({ json: true, calls: '2', runs }, (text) => {
      printed += text;
    });
    const figures = JSON.parse(printed) as { constrained: { valid: number; total: number }; unconstrained: { valid: number; total: number } };
    expect(figures.constrained).toMatchObject({ valid: 4, total: 4 });
    expect(figures.unconstrained.total).toBe(4);
    expect(figures.unconstrained.valid).toBeLessThan(4);
    expect(report.structuralTestModel).toBe(true);
    expect(report.limits).toContain('structural test model');
    expect(report.run!.status).toBe('completed');
    expect(report.run!.toolCalls).toBe(2);
    expect(report.run!.steps.filter((step) => step.kind === 'call')).toHaveLength(2);
    expect(report.run!.steps.at(-1)!.kind).toBe('answer');
    const record = report.run!.recordPath!;
    expect(record.startsWith(runs)).toBe(true);
    expect(existsSync(record)).toBe(true);
    expect(readFileSync(record, 'utf8')).toContain('"tool_result"');
  }, 300_000);

  it('runs as `npm start` does and prints every section', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'demo', '--no-local'], { cwd: new URL('../../..', import.meta.url) });
    for (const heading of ['1. The example tool packs', '2. One definition, four wire formats', '3. Errors are prompts', '4. The schema linter'])
      expect(stdout).toContain(heading);
  });

  it('refuses a bad --calls before it prints anything, with the range in the message', async () => {
    let printed = '';
    const refused = await runDemo({ calls: 'abc', local: false }, (text) => {
      printed += text;
    }).catch((error: unknown) => error);
    expect((refused as Error).message).toBe('--calls must be a whole number from 1 to 1000, got "abc".');
    expect(printed).toBe('');
  });
});
