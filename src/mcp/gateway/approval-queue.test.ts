import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineTool, silentLogger } from '../../tools/index.js';
import type { ToolLogger } from '../../tools/index.js';
import { createMcpServer } from '../create-mcp-server.js';
import type { McpConfirmationRequest } from '../mcp-confirmation.js';
import { ApprovalNotPendingError, createFileApprovalQueue } from './approval-queue.js';
import type { FileApprovalQueue, PendingApproval } from './approval-queue.js';

const sendEmail = defineTool<{ to: string; password: string }>({
  name: 'mail__send_email',
  description: 'Sends an email.',
  effect: 'write',
  confirm: true,
  category: 'mail',
  origin: { kind: 'mcp', server: 'mail', effectAnnotated: true },
  inputSchema: {
    type: 'object',
    properties: { to: { type: 'string' }, password: { type: 'string', writeOnly: true } },
    required: ['to', 'password'],
  },
  execute: ({ to }) => `sent to ${to}`,
});

const folders: string[] = [];
function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'tw-approvals-'));
  folders.push(folder);
  return join(folder, 'approvals');
}
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function request(signal: AbortSignal = new AbortController().signal): McpConfirmationRequest {
  return {
    tool: sendEmail,
    arguments: { to: 'ana@example.com', password: 'hunter2-secret' },
    summary: 'mail__send_email(to: "ana@example.com", password: "[REDACTED]")',
    prompt: 'mail__send_email(to: "ana@example.com", password: "[REDACTED]")\n  to: "ana@example.com"\n  password: "[REDACTED]"',
    callId: '7',
    signal,
  };
}

function collectingLogger(): ToolLogger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, error: (message) => lines.push(message) };
}

/** Waits (without blocking) until the operator's queue lists `count` calls. */
async function waitForPending(queue: FileApprovalQueue, count = 1): Promise<PendingApproval[]> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const pending = queue.list();
    if (pending.length >= count) return pending;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no call started waiting');
}

describe('createFileApprovalQueue: two processes over one folder', () => {
  it('lists a waiting call with its redacted summary and prompt, never its arguments, and approves it', async () => {
    const dir = tempFolder();
    const gateway = createFileApprovalQueue(dir, { pollMs: 10, logger: silentLogger });
    const operator = createFileApprovalQueue(dir, { logger: silentLogger });
    const decision = gateway.handler(request());
    const [pending] = await waitForPending(operator);
    expect(pending).toEqual({
      id: expect.stringMatching(/^apr_[0-9a-f]{32}$/) as string,
      tool: 'mail__send_email',
      server: 'mail',
      category: 'mail',
      summary: 'mail__send_email(to: "ana@example.com", password: "[REDACTED]")',
      prompt: 'mail__send_email(to: "ana@example.com", password: "[REDACTED]")\n  to: "ana@example.com"\n  password: "[REDACTED]"',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
    });
    const file = join(dir, `${pending!.id}.json`);
    expect(readFileSync(file, 'utf8')).not.toContain('hunter2-secret');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    operator.decide(pending!.id, { approved: true, by: 'ana' });
    await expect(decision).resolves.toEqual({ approved: true });
    expect(readdirSync(dir)).toEqual([]);
    expect(operator.list()).toEqual([]);
    expect(() => operator.decide(pending!.id, { approved: true })).toThrow(ApprovalNotPendingError);
  });

  it('denies with the reason and who decided, for the model to read', async () => {
    const dir = tempFolder();
    const gateway = createFileApprovalQueue(dir, { pollMs: 10, logger: silentLogger });
    const operator = createFileApprovalQueue(dir, { logger: silentLogger });
    const decision = gateway.handler(request());
    const [pending] = await waitForPending(operator);
    operator.decide(pending!.id, { approved: false, reason: 'not to outside addresses', by: 'ana' });
    await expect(decision).resolves.toEqual({ approved: false, reason: 'ana denied it in the approval queue: not to outside addresses' });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('lets only the first of two decisions win', async () => {
    const dir = tempFolder();
    const gateway = createFileApprovalQueue(dir, { pollMs: 300, logger: silentLogger });
    const operator = createFileApprovalQueue(dir, { logger: silentLogger });
    const other = createFileApprovalQueue(dir, { logger: silentLogger });
    const decision = gateway.handler(request());
    const [pending] = await waitForPending(operator);
    operator.decide(pending!.id, { approved: false, reason: 'first' });
    expect(() => other.decide(pending!.id, { approved: true })).toThrow('it was already decided');
    await expect(decision).resolves.toEqual({ approved: false, reason: 'the person denied it in the approval queue: first' });
  });

  it('removes the waiting call when its request is aborted, and refuses a decision for it afterwards', async () => {
    const dir = tempFolder();
    const gateway = createFileApprovalQueue(dir, { pollMs: 10, logger: silentLogger });
    const operator = createFileApprovalQueue(dir, { logger: silentLogger });
    const controller = new AbortController();
    const decision = gateway.handler(request(controller.signal));
    const [pending] = await waitForPending(operator);
    controller.abort(new Error('the host cancelled the call'));
    await expect(decision).rejects.toThrow('the host cancelled the call');
    expect(readdirSync(dir)).toEqual([]);
    const error = (() => {
      try {
        operator.decide(pending!.id, { approved: true });
      } catch (caught) {
        return caught;
      }
    })();
    expect(ApprovalNotPendingError.isInstance(error)).toBe(true);
    expect((error as ApprovalNotPendingError).code).toBe('TW_APPROVAL_NOT_PENDING');
    expect((error as Error).message).toContain('List the calls that are waiting (`toolwright gateway approvals list`)');
  });

  it('refuses a decision for an id that is not an approval id, without touching any file', () => {
    const dir = tempFolder();
    const operator = createFileApprovalQueue(dir, { logger: silentLogger });
    expect(() => operator.decide('../../etc/passwd', { approved: true })).toThrow('it is not an approval id (`apr_` and 32 hex digits)');
    expect(() => operator.decide(`apr_${'0'.repeat(32)}`, { approved: true })).toThrow('no such call is waiting');
  });
});

describe('createFileApprovalQueue: hostile files in the folder', () => {
  it('skips files that are not JSON, too large, symlinks or of another shape, each with a clear message, and still lists the real call', async () => {
    const dir = tempFolder();
    const outside = join(dir, '..', 'outside');
    mkdirSync(dir, { recursive: true });
    mkdirSync(outside);
    const ids = ['a', 'b', 'c', 'd'].map((digit) => `apr_${digit.repeat(32)}`);
    writeFileSync(join(dir, `${ids[0]}.json`), 'not json at all');
    writeFileSync(join(dir, `${ids[1]}.json`), `{"id":"${ids[1]}","tool":"${'x'.repeat(1_000_000)}"}`);
    const target = join(outside, 'looks-valid.json');
    writeFileSync(target, JSON.stringify({ id: ids[2], tool: 't', summary: 's', prompt: 'p', createdAt: '2026-12-06T00:00:00Z' }));
    symlinkSync(target, join(dir, `${ids[2]}.json`));
    writeFileSync(join(dir, `${ids[3]}.json`), JSON.stringify({ id: ids[3], tool: 7 }));
    writeFileSync(join(dir, 'notes.txt'), 'ignored: not an approval file name');
    // a named pipe would block a plain open until someone wrote to it; a folder is no file either
    const ids2 = ['e', 'f'].map((digit) => `apr_${digit.repeat(32)}`);
    execFileSync('mkfifo', [join(dir, `${ids2[0]}.json`)]);
    mkdirSync(join(dir, `${ids2[1]}.json`));

    const logger = collectingLogger();
    const gateway = createFileApprovalQueue(dir, { pollMs: 10, logger: silentLogger });
    const operator = createFileApprovalQueue(dir, { logger });
    const decision = gateway.handler(request());
    const pending = await waitForPending(operator);
    expect(pending.map(({ tool }) => tool)).toEqual(['mail__send_email']);
    const skipped = logger.lines.slice(0, 6);
    expect(skipped).toEqual([
      expect.stringMatching(
        new RegExp(`^skipped "${ids[0]}\\.json" in the approval folder .*: it is not JSON \\(.*\\)\\. Remove the file; no call is waiting on it\\.$`),
      ),
      expect.stringContaining(`skipped "${ids[1]}.json" in the approval folder ${dir}: it is 1000`),
      `skipped "${ids[2]}.json" in the approval folder ${dir}: it is a symbolic link, which the approval folder never follows. Remove the file; no call is waiting on it.`,
      `skipped "${ids[3]}.json" in the approval folder ${dir}: it lacks one of the text fields "tool", "summary", "prompt", "createdAt". Remove the file; no call is waiting on it.`,
      `skipped "${ids2[0]}.json" in the approval folder ${dir}: it is not a regular file. Remove the file; no call is waiting on it.`,
      `skipped "${ids2[1]}.json" in the approval folder ${dir}: it is not a regular file. Remove the file; no call is waiting on it.`,
    ]);
    operator.decide(pending[0]!.id, { approved: false });
    await expect(decision).resolves.toMatchObject({ approved: false });
  });

  it('reads at most 1000 waiting calls in one listing of a flooded folder, and says so', () => {
    const dir = tempFolder();
    mkdirSync(dir, { recursive: true });
    for (let index = 0; index < 1001; index++) {
      const id = `apr_${index.toString(16).padStart(32, '0')}`;
      writeFileSync(join(dir, `${id}.json`), JSON.stringify({ id, tool: 't', summary: 's', prompt: 'p', createdAt: '2026-12-06T00:00:00Z' }));
    }
    const logger = collectingLogger();
    expect(createFileApprovalQueue(dir, { logger }).list()).toHaveLength(1000);
    expect(logger.lines).toEqual([`the approval folder ${dir} holds 1001 waiting calls; only the first 1000 by name were read`]);
  });

  it('refuses the call when its decision file is a symlink or not a decision, whatever it points to', async () => {
    const dir = tempFolder();
    const logger = collectingLogger();
    const gateway = createFileApprovalQueue(dir, { pollMs: 10, logger });
    const operator = createFileApprovalQueue(dir, { logger: silentLogger });

    const viaSymlink = gateway.handler(request());
    const [first] = await waitForPending(operator);
    const approval = join(dir, '..', 'approval.json');
    writeFileSync(approval, '{"approved": true}');
    symlinkSync(approval, join(dir, `${first!.id}.decision.json`));
    await expect(viaSymlink).resolves.toEqual({ approved: false, reason: 'its decision could not be read' });

    const viaGarbage = gateway.handler(request());
    const [second] = await waitForPending(operator);
    writeFileSync(join(dir, `${second!.id}.decision.json`), '{"approved": "yes"}');
    await expect(viaGarbage).resolves.toEqual({ approved: false, reason: 'its decision could not be read' });

    expect(logger.lines).toEqual([
      `the decision file for approval ${first!.id} in ${dir} could not be read (it is a symbolic link, which the approval folder never follows); the call was refused`,
      `the decision file for approval ${second!.id} in ${dir} could not be read (it is not an object with a boolean "approved"); the call was refused`,
    ]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses the call when its request file is removed before anyone decides', async () => {
    const dir = tempFolder();
    const gateway = createFileApprovalQueue(dir, { pollMs: 10, logger: silentLogger });
    const operator = createFileApprovalQueue(dir, { logger: silentLogger });
    const decision = gateway.handler(request());
    const [pending] = await waitForPending(operator);
    rmSync(join(dir, `${pending!.id}.json`));
    await expect(decision).resolves.toEqual({ approved: false, reason: 'its approval request was removed before anyone decided it' });
  });
});

describe('createFileApprovalQueue as the MCP server confirmationFallback', () => {
  it('holds a call from a host that cannot elicit until a person approves it from another queue over the folder', async () => {
    const dir = tempFolder();
    const gateway = createFileApprovalQueue(dir, { pollMs: 10, logger: silentLogger });
    const operator = createFileApprovalQueue(dir, { logger: silentLogger });
    const server = createMcpServer([sendEmail], { logger: silentLogger, confirmationFallback: gateway.handler });
    const client = new Client({ name: 'host-without-elicitation', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);

    const result = client.callTool({ name: 'mail__send_email', arguments: { to: 'ana@example.com', password: 'hunter2-secret' } });
    const [pending] = await waitForPending(operator);
    expect(pending!.prompt).toContain('[REDACTED]');
    expect(readFileSync(join(dir, `${pending!.id}.json`), 'utf8')).not.toContain('hunter2-secret');
    operator.decide(pending!.id, { approved: true });
    await expect(result).resolves.toEqual({ content: [{ type: 'text', text: 'sent to ana@example.com' }], isError: false });
    await client.close();
  });
});
