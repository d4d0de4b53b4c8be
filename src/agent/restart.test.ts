/**
 * A confirmed call across real process restarts: one process starts a run
 * that pauses for confirmation and is killed while it waits; others approve
 * and resume (twice at once, then again); the tool's side effect happens
 * exactly once. (A kill *during* the call: test/hardening/run-leases.test.ts.)
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const folder = mkdtempSync(join(tmpdir(), 'tw-restart-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const script = join(folder, 'child.mts');
writeFileSync(
  script,
  `
import { appendFileSync } from 'node:fs';
import { decideConfirmation, resumeAgent, runAgent } from ${JSON.stringify(join(root, 'src/agent/index.ts'))};
import { createScriptedModel, textTurn, toolCallTurn } from ${JSON.stringify(join(root, 'src/models/index.ts'))};
import { defineTool } from ${JSON.stringify(join(root, 'src/tools/index.ts'))};

const [mode, statePath, effectFile, arg] = process.argv.slice(2);
const appendLine = defineTool({
  name: 'append_line',
  description: 'Appends a line to the ledger.',
  effect: 'write',
  confirm: true,
  summarize: (args) => 'Append ' + args.line,
  inputSchema: { type: 'object', properties: { line: { type: 'string' } }, required: ['line'] },
  execute: (args) => {
    appendFileSync(effectFile, args.line + '\\n');
    return 'appended';
  },
});
const common = { tools: [appendLine], statePath, recordDir: false };
try {
  if (mode === 'start') {
    const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'append_line', arguments: { line: 'paid invoice 7' } }])]);
    const result = await runAgent({ ...common, model, prompt: 'Pay invoice 7.' });
    process.stdout.write(JSON.stringify({ status: result.status, runId: result.runId, pending: result.status === 'awaiting_confirmation' ? result.pending : [] }) + '\\n', () => {
      // Die the hard way while the run waits: no cleanup, no close.
      process.kill(process.pid, 'SIGKILL');
    });
  } else if (mode === 'approve') {
    const decided = await decideConfirmation({ token: arg, decision: 'approve' }, { statePath });
    console.log(JSON.stringify({ decided: decided.decision }));
  } else if (mode === 'resume') {
    const result = await resumeAgent(arg, [], { ...common, model: createScriptedModel([textTurn('Paid.')]) });
    console.log(JSON.stringify({ status: result.status }));
  } else if (mode === 'approve-and-resume') {
    const [runId, token] = arg.split(' ');
    const result = await resumeAgent(runId, [{ token, decision: 'approve' }], { ...common, model: createScriptedModel([textTurn('Paid.')]) });
    console.log(JSON.stringify({ status: result.status }));
  }
} catch (error) {
  console.log(JSON.stringify({ error: error.code ?? error.name, reason: error.reason }));
}
`,
);

interface ChildOutput {
  status?: string;
  runId?: string;
  pending?: { token: string; approvalId: string; summary: string }[];
  decided?: string;
  error?: string;
  reason?: string;
}

function child(...args: string[]): Promise<{ output: ChildOutput; signal: string | null }> {
  return new Promise((done, fail) => {
    const process_ = execFile(process.execPath, ['--import', 'tsx', script, ...args], { cwd: root, timeout: 60_000 }, (error, stdout, stderr) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      if (!line.startsWith('{')) {
        fail(new Error(`child ${args[0]} printed no result: ${String(error)} ${stderr}`));
        return;
      }
      done({ output: JSON.parse(line) as ChildOutput, signal: process_.signalCode });
    });
  });
}

// Child processes load TypeScript; give them room on a loaded machine.
describe('restart, then approve', { timeout: 180_000 }, () => {
  it('executes the confirmed call exactly once, even when resume is attempted twice at once and again later', async () => {
    const statePath = join(folder, 'state.db');
    const effectFile = join(folder, 'ledger.txt');
    writeFileSync(effectFile, '');

    const started = await child('start', statePath, effectFile);
    expect(started.signal).toBe('SIGKILL');
    expect(started.output.status).toBe('awaiting_confirmation');
    expect(started.output.pending?.[0]?.summary).toBe('Append paid invoice 7');
    expect(readFileSync(effectFile, 'utf8')).toBe('');
    const runId = started.output.runId!;

    expect((await child('approve', statePath, effectFile, started.output.pending![0]!.token)).output).toEqual({ decided: 'approve' });
    const [first, second] = await Promise.all([child('resume', statePath, effectFile, runId), child('resume', statePath, effectFile, runId)]);
    const outputs = [first.output, second.output];
    expect(outputs.filter((output) => output.status === 'completed')).toHaveLength(1);
    // The loser is refused by the winner's lease while the winner runs, or as finished once it is done.
    expect(outputs.filter((output) => output.error === 'TW_RUN_LEASED' || output.error === 'TW_RUN_NOT_RESUMABLE')).toHaveLength(1);
    expect((await child('resume', statePath, effectFile, runId)).output).toEqual({ error: 'TW_RUN_NOT_RESUMABLE' });
    expect(readFileSync(effectFile, 'utf8')).toBe('paid invoice 7\n');
  });

  it('refuses the same token replayed by another process', async () => {
    const statePath = join(folder, 'state-2.db');
    const effectFile = join(folder, 'ledger-2.txt');
    writeFileSync(effectFile, '');
    const started = await child('start', statePath, effectFile);
    const token = started.output.pending![0]!.token;
    expect((await child('approve-and-resume', statePath, effectFile, `${started.output.runId} ${token}`)).output).toEqual({ status: 'completed' });
    expect((await child('approve-and-resume', statePath, effectFile, `${started.output.runId} ${token}`)).output).toEqual({
      error: 'TW_CONFIRMATION_REFUSED',
      reason: 'already_used',
    });
    expect(readFileSync(effectFile, 'utf8')).toBe('paid invoice 7\n');
  });
});
