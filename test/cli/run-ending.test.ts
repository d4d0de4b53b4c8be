/**
 * A run the CLI started ends with a `stop` in its record whatever ends it: SIGINT and SIGTERM while the model call is
 * pending (the run stops as `aborted`, the process exits 130 or 143), and an error that escapes the loop (here the run
 * store cannot be opened when the run pauses for a confirmation). Real processes, against the local provider server;
 * the tool module is given positionally, as `run ./tools.ts "task"`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunRecorder, readRunRecord } from '../../src/agent/index.js';
import { startProviderServer, type ProviderServer } from '../provider-server/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const home = mkdtempSync(join(tmpdir(), 'tw-run-ending-'));
let server: ProviderServer;

beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

/** Starts `toolwright run` on the subscriptions pack; `whenAsked` runs once the model request has reached the server. */
function run(
  state: string,
  whenAsked?: (child: ReturnType<typeof spawn>) => void,
  runs = join(home, 'runs'),
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'src/cli/main.ts'),
      'run',
      '--model',
      'openai:gpt-4o-mini',
      '--base-url',
      server.openaiBaseURL,
      '--no-interactive',
      '--state',
      state,
      '--runs',
      runs,
      'examples/subscriptions/index.ts',
      'Refund invoice inv_000102.',
    ],
    { cwd: root, env: { ...process.env, TOOLWRIGHT_HOME: home, OPENAI_API_KEY: 'sk-test-0123456789abcdefghij', NO_COLOR: '1' } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  if (whenAsked) {
    const poll = setInterval(() => {
      if (server.requests.length > 0) {
        clearInterval(poll);
        whenAsked(child);
      }
    }, 50);
    child.on('exit', () => clearInterval(poll));
  }
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

/** The record's last line, found by the run id the CLI printed. */
function lastRecordLine(stdout: string) {
  const runId = /\(run (run_[A-Za-z0-9_-]+)\)|run (run_[A-Za-z0-9_-]+)/.exec(stdout);
  expect(runId, stdout).not.toBeNull();
  const lines = readRunRecord(RunRecorder.pathFor(join(home, 'runs'), (runId![1] ?? runId![2])!));
  return lines.at(-1);
}

// Each case starts Node with tsx (seconds on a busy machine).
describe('a run the CLI started records its stop however it ends', { timeout: 90_000 }, () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s while the model call is pending: the run stops as aborted, the record says so, exit %i', async (signal, exitCode) => {
    server.reset();
    // The answer would come after a minute: the signal arrives first.
    server.enqueue({ text: 'Too late.', delayMs: 60_000 });
    const result = await run(join(home, `${signal}.db`), (child) => child.kill(signal));
    expect(result.code, result.stderr).toBe(exitCode);
    expect(result.stdout).toContain('— stopped (aborted');
    expect(lastRecordLine(result.stdout)).toMatchObject({
      type: 'stop',
      status: 'stopped',
      stopReason: { kind: 'aborted', message: `The run was aborted: interrupted by ${signal}.` },
    });
  });

  it('an error that escapes the loop (the run store cannot be opened at the pause) still leaves a stop in the record', async () => {
    server.reset();
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'create_refund', arguments: { reason: 'asked', invoice_id: 'inv_000102', amount_cents: 2900 } }] });
    // A file where the store's folder should be: the store fails only when the run pauses, after the model call.
    const blocker = join(home, 'not-a-folder');
    writeFileSync(blocker, '');
    const runs = join(home, 'runs-of-the-failed-run');
    const result = await run(join(blocker, 'state.db'), undefined, runs);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Cannot open the run store');
    // The run printed no id (it failed before its result): its record is the only one in its folder.
    const records = readdirSync(runs).filter((name) => name.endsWith('.jsonl'));
    expect(records).toHaveLength(1);
    const last = readRunRecord(join(runs, records[0]!)).at(-1);
    expect(last).toMatchObject({ type: 'stop', status: 'stopped', stopReason: { kind: 'aborted' } });
    expect((last as { stopReason: { message: string } }).stopReason.message).toMatch(/^The run ended on an error: /);
  });
});
