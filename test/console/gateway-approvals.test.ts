/**
 * The console decides the calls an MCP host that cannot ask a person waits on at the gateway (its approvals folder):
 * listed with the gateway's redacted prompt, escaped; approved or denied only with the console's cookie, own Origin and
 * form token; decided once; and the waiting gateway (another queue over the same folder, as another process) gets the
 * decision and the reason.
 */
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRunStore } from '../../src/agent/index.js';
import { startConsole, type ConsoleServer } from '../../src/cli/console/console-server.js';
import { createFileApprovalQueue } from '../../src/mcp/gateway/approval-queue.js';
import type { McpConfirmationDecision } from '../../src/mcp/mcp-confirmation.js';
import { defineTool } from '../../src/tools/index.js';

const HOSTILE = '<script>document.title="owned"</script>';
const tool = defineTool<{ path: string }>({
  name: 'write_file',
  description: 'Writes a file.',
  effect: 'write',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: () => 'written',
});

let folder: string;
let consoleServer: ConsoleServer;
let withoutGateway: ConsoleServer;
let cookie: string;
let formToken: string;
const gateway = () => createFileApprovalQueue(join(folder, 'approvals'), { pollMs: 10 });

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'tw-console-gateway-'));
  consoleServer = await startConsole({ store: createMemoryRunStore(), runsDir: join(folder, 'runs'), gatewayApprovals: gateway() });
  withoutGateway = await startConsole({ store: createMemoryRunStore(), runsDir: join(folder, 'runs') });
  const exchanged = await send(consoleServer, { path: `/?token=${consoleServer.token}` });
  cookie = String(exchanged.headers['set-cookie']).split(';')[0]!;
  // The form token is the console's, on every form; a waiting call puts one on the page.
  const call = await waitingCall('/tmp/first');
  formToken = /name="form" value="([^"]+)"/.exec((await send(consoleServer, { path: '/gateway-approvals', headers: { cookie } })).body)![1]!;
  call.abort.abort();
  await call.decision.catch(() => {});
});
afterAll(async () => {
  await consoleServer.close();
  await withoutGateway.close();
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(server: ConsoleServer, options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: `127.0.0.1:${server.port}`, ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

function post(path: string, fields: Record<string, string>, origin = `http://127.0.0.1:${consoleServer.port}`): Promise<Reply> {
  return send(consoleServer, {
    method: 'POST',
    path,
    headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

/** A call waiting at the gateway, and its id once the folder lists it. */
async function waitingCall(path: string): Promise<{ id: string; decision: Promise<McpConfirmationDecision>; abort: AbortController }> {
  const abort = new AbortController();
  const queue = gateway();
  const before = new Set(queue.list().map((entry) => entry.id));
  const prompt = `The assistant wants to run "write_file", which needs your approval:\nwrite_file ${path}\n  path: ${path}\nApprove this call?`;
  const decision = queue.handler({ tool, arguments: { path }, summary: `write_file ${path}`, prompt, callId: '7', signal: abort.signal });
  for (let attempt = 0; attempt < 200; attempt++) {
    const found = queue.list().find((entry) => !before.has(entry.id));
    if (found) return { id: found.id, decision, abort };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the call never appeared in the approvals folder');
}

describe('the console and the MCP gateway approvals folder', () => {
  it('lists a waiting call with its prompt escaped, and links it from the approvals page', async () => {
    const call = await waitingCall(`/tmp/${HOSTILE}`);
    const page = await send(consoleServer, { path: '/gateway-approvals', headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain(`data-gateway-approval-id="${call.id}"`);
    expect(page.body).not.toContain(HOSTILE);
    expect(page.body).toContain('&lt;script&gt;');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await send(consoleServer, { path: '/approvals', headers: { cookie } })).body).toContain('MCP gateway: 1 call waiting');
    call.abort.abort();
    await expect(call.decision).rejects.toBeDefined();
  });

  it('approves a call once, only from its own origin with the form token; the gateway gets the decision', async () => {
    const call = await waitingCall('/tmp/report.txt');
    const action = `/gateway-approvals/${call.id}/approve`;
    expect((await post(action, { form: formToken }, 'http://evil.example')).status).toBe(403);
    expect((await post(action, { form: 'wrong' })).status).toBe(403);
    expect((await send(consoleServer, { method: 'POST', path: action, body: `form=${formToken}` })).status).toBe(401);
    const decided = await post(action, { form: formToken });
    expect([decided.status, decided.headers.location]).toEqual([303, '/gateway-approvals']);
    expect(await call.decision).toMatchObject({ approved: true });
    const again = await post(action, { form: formToken });
    expect(again.status).toBe(409);
    expect(again.body).toContain('Not recorded');
  });

  it("denies with the person's reason, which the gateway passes on", async () => {
    const call = await waitingCall('/etc/hosts');
    expect((await post(`/gateway-approvals/${call.id}/deny`, { form: formToken, reason: '  not that file  ' })).status).toBe(303);
    expect(await call.decision).toEqual({ approved: false, reason: 'a person in the toolwright console denied it in the approval queue: not that file' });
  });

  it('answers 404 for the page and a decision when the console has no gateway', async () => {
    const exchanged = await send(withoutGateway, { path: `/?token=${withoutGateway.token}` });
    const otherCookie = String(exchanged.headers['set-cookie']).split(';')[0]!;
    const page = await send(withoutGateway, { path: '/gateway-approvals', headers: { cookie: otherCookie } });
    expect(page.status).toBe(404);
    expect(page.body).toContain('--gateway');
    expect((await send(withoutGateway, { path: '/approvals', headers: { cookie: otherCookie } })).body).not.toContain('MCP gateway');
  });
});
