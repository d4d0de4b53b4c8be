/**
 * What `toolwright run` tells a person while and after it works, against the
 * local provider server: the answer once, "price unknown" for a model without a
 * price (text and --json), a line per retry on stderr with --max-retries and the
 * flag named when retries run out, nothing but JSON on stdout with --json, and
 * an unknown option reported as such (exit 2) rather than as a missing one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runRunCommand, type AgentCliIo, type RunCommandOptions } from '../../src/cli/commands/run.js';
import { EXIT_CODES, runCli } from '../../src/cli/main.js';
import { startProviderServer, type ProviderServer } from '../provider-server/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const home = mkdtempSync(join(tmpdir(), 'tw-progress-'));
const savedKey = process.env.OPENAI_API_KEY;
let server: ProviderServer;

beforeAll(async () => {
  process.env.OPENAI_API_KEY = 'sk-test-progress-0123456789';
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
  if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = savedKey;
  rmSync(home, { recursive: true, force: true });
});

async function run(options: Partial<RunCommandOptions> = {}): Promise<{ stdout: string; stderr: string; status: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: AgentCliIo = { out: (text) => out.push(text), err: (text) => err.push(text) };
  const result = await runRunCommand(
    'What plans are there?',
    {
      model: 'openai:gpt-4o-mini',
      baseUrl: server.openaiBaseURL,
      tools: 'examples/subscriptions/index.ts',
      interactive: false,
      state: join(home, 'state.db'),
      runs: join(home, 'runs'),
      cwd: root,
      ...options,
    },
    io,
  );
  return { stdout: out.join(''), stderr: err.join(''), status: result.status };
}

const rateLimited = { kind: 'error', status: 429, message: 'Slow down', headers: { 'retry-after-ms': '5' } } as const;

describe('toolwright run: progress and results', () => {
  it('prints the final answer once', async () => {
    server.reset();
    server.enqueue({ text: 'There are three plans: Free, Pro and Team.' });
    const { stdout, stderr } = await run();
    expect(stdout.split('There are three plans: Free, Pro and Team.')).toHaveLength(2);
    expect(stdout).toContain('assistant: There are three plans: Free, Pro and Team.');
    expect(stdout).toMatch(/— completed \(run run_\w+\) · 1 model calls · 0 tool calls · 11 in \/ 7 out tokens · \$0\.0000/);
    expect(stderr).toBe('');
  });

  it('prints the answer as it streams, after the status line is cleared, and each step once', async () => {
    const answer = `${'The Free plan costs nothing, the Pro plan costs 29 USD a month, '.repeat(3)}and the Team plan is priced per seat.`;
    server.reset();
    server.enqueue(
      { text: 'Let me look.', toolCalls: [{ id: 'call_1', name: 'get_invoices', arguments: { user_id: 'usr_8f3kd92mfa01xq7zt4pb' } }] },
      { text: answer, chunkSize: 6 },
    );
    const writes: { to: 'out' | 'err'; text: string }[] = [];
    const io: AgentCliIo = {
      out: (text) => writes.push({ to: 'out', text }),
      err: (text) => writes.push({ to: 'err', text }),
      errIsTTY: true,
    };
    const result = await runRunCommand(
      'What plans are there?',
      {
        model: 'openai:gpt-4o-mini',
        baseUrl: server.openaiBaseURL,
        tools: 'examples/subscriptions/index.ts',
        interactive: false,
        state: join(home, 'state.db'),
        runs: join(home, 'runs'),
        cwd: root,
      },
      io,
    );
    expect(result.status).toBe('completed');
    expect(server.requests.every((request) => request.body.stream === true)).toBe(true);
    const stdout = writes.flatMap((write) => (write.to === 'out' ? [write.text] : [])).join('');
    expect(stdout.split(answer)).toHaveLength(2);
    expect(stdout).toContain(`assistant: Let me look.\n→ get_invoices {"user_id":"usr_8f3kd92mfa01xq7zt4pb"}\n  ✓ get_invoices`);
    expect(stdout).toContain(`assistant: ${answer}\n`);
    // The long answer came in several writes, not one at the end.
    const first = writes.findIndex((write) => write.to === 'out' && write.text.startsWith('assistant: The'));
    const pieces = writes.slice(first).filter((write) => write.to === 'out' && !write.text.startsWith('\n—'));
    expect(pieces.length).toBeGreaterThan(3);
    // On a terminal the status line was drawn while waiting, and erased before the first token.
    const before = writes.slice(0, first).filter((write) => write.to === 'err');
    expect(before.some((write) => write.text.includes('waiting for openai:gpt-4o-mini'))).toBe(true);
    expect(before.at(-1)?.text).toBe('\r\u001b[2K');
    expect(writes.slice(first).some((write) => write.to === 'err' && write.text.includes('waiting'))).toBe(false);
  });

  it('says "price unknown" for a model without a price, in text and in --json', async () => {
    server.reset();
    server.enqueue({ text: 'Three.' }, { text: 'Three.' }, { text: 'Three.' });
    const text = await run({ model: 'openai:gpt-unpriced-test' });
    expect(text.stdout).toContain('11 in / 7 out tokens · price unknown');
    expect(text.stdout).not.toContain('$0');

    const json = JSON.parse((await run({ model: 'openai:gpt-unpriced-test', json: true })).stdout) as { costUsd: unknown; priceKnown: unknown };
    expect(json).toMatchObject({ costUsd: null, priceKnown: false });
    const priced = JSON.parse((await run({ json: true })).stdout) as { costUsd: unknown; priceKnown: unknown };
    expect(priced.priceKnown).toBe(true);
    expect(typeof priced.costUsd).toBe('number');
  });

  it('prints each retry on stderr (no carriage return off a terminal), honours --max-retries, and names the flag when retries run out', async () => {
    server.reset();
    server.enqueue(rateLimited, { text: 'Three.' });
    const recovered = await run({ maxRetries: '3' });
    expect(recovered.status).toBe('completed');
    expect(recovered.stderr).toBe('retry 1/3 in 0.0 s (429 rate limited)\n');

    server.reset();
    server.enqueue(rateLimited, rateLimited);
    const exhausted = await run({ maxRetries: '1' });
    expect(server.requests).toHaveLength(2);
    expect(exhausted.status).toBe('stopped');
    expect(exhausted.stderr).toBe('retry 1/1 in 0.0 s (429 rate limited)\n');
    expect(exhausted.stdout).toContain('raise --max-retries');
    expect(exhausted.stdout).not.toContain('maxRetries');

    server.reset();
    server.enqueue(rateLimited);
    const none = await run({ maxRetries: '0' });
    expect(server.requests).toHaveLength(1);
    expect([none.status, none.stderr]).toEqual(['stopped', '']);

    await expect(run({ maxRetries: '1.5' })).rejects.toThrow('--max-retries must be a whole number from 0 to 20, got "1.5".');
    await expect(run({ maxRetries: '-1' })).rejects.toMatchObject({ code: 'TW_INVALID_ARGUMENT' });
  });

  it('with --json, prints only the JSON result on stdout; a retry still goes to stderr', async () => {
    server.reset();
    server.enqueue(rateLimited, { text: 'Three.' });
    const { stdout, stderr } = await run({ json: true });
    expect(JSON.parse(stdout)).toMatchObject({ status: 'completed', text: 'Three.' });
    expect(stderr).toBe('retry 1/2 in 0.0 s (429 rate limited)\n');
  });
});

describe('toolwright run: options', () => {
  async function cli(...args: string[]): Promise<{ code: number; stderr: string }> {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      return { code: await runCli(['node', 'toolwright', ...args]), stderr: written.join('') };
    } finally {
      spy.mockRestore();
    }
  }

  it('reports a misspelt option as unknown, with a suggestion, before any missing option', async () => {
    const misspelt = await cli('run', '--modle', 'openai:gpt-4o-mini', '--tools', 'examples/subscriptions/index.ts', 'Do it.');
    expect(misspelt.code).toBe(EXIT_CODES.usage);
    expect(misspelt.stderr).toContain("error: unknown option '--modle'\n(Did you mean --model?)");
    expect(misspelt.stderr).not.toContain('required');

    const serve = await cli('serve', '--tols', 'x.ts');
    expect(serve.code).toBe(EXIT_CODES.usage);
    expect(serve.stderr).toContain("error: unknown option '--tols'\n(Did you mean --tools?)");
  });

  it('still says what is missing when nothing is misspelt', async () => {
    const missing = await cli('run', '--tools', 'examples/subscriptions/index.ts', 'Do it.');
    expect(missing).toEqual({ code: EXIT_CODES.usage, stderr: 'toolwright: --model is required, e.g. --model openai:gpt-4o-mini.\n' });
    const serve = await cli('serve');
    expect(serve.code).toBe(EXIT_CODES.usage);
    expect(serve.stderr).toContain('toolwright serve needs the module that exports the tools, e.g. toolwright serve ./tools.ts (or --tools ./tools.ts).');
    const both = await cli('serve', 'a.ts', '--tools', 'b.ts');
    expect(both.code).toBe(EXIT_CODES.usage);
    expect(both.stderr).toContain('toolwright serve was given two tool modules, "a.ts" and --tools "b.ts"');
  });

  it('reads the tool module positionally in every command that takes one, as with --tools', async () => {
    for (const [command, ...args] of [['resume', 'run_x'], ['console'], ['approvals', 'approve', 'apr_x']]) {
      const both = await cli(command!, ...args, 'a.ts', '--tools', 'b.ts');
      expect(both.code, command).toBe(EXIT_CODES.usage);
      expect(both.stderr).toContain(`was given two tool modules, "a.ts" and --tools "b.ts"`);
    }
  });
});
