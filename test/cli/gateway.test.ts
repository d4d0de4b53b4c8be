/**
 * `toolwright gateway` as a user runs it: the real CLI (under tsx) with a scripted upstream server
 * (test/fixtures/mcp-upstreams/scripted-upstream.ts) and the official SDK client as the host. The pin lifecycle (nothing
 * served before `gateway approve`; a definition changed between two sessions withheld, shown by `gateway diff`, served
 * again once approved), the config loaders, and the approvals queue for a host that cannot ask the person.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScriptedDefinitions, ScriptedTool } from '../fixtures/mcp-upstreams/scripted-upstream.js';

const repo = resolve(import.meta.dirname, '../..');
const main = join(repo, 'src/cli/main.ts');
// By URL: `--import tsx` would be resolved from each command's working directory, a temporary folder here.
const tsx = import.meta.resolve('tsx');
const scriptedUpstream = join(repo, 'test/fixtures/mcp-upstreams/scripted-upstream.ts');
const work = mkdtempSync(join(tmpdir(), 'tw-gateway-cli-'));
const hosts: { close(): Promise<void>; pid: number | null }[] = [];
afterAll(async () => {
  await Promise.all(hosts.map((host) => host.close().catch(() => {})));
  for (const { pid } of hosts) {
    try {
      if (pid) process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  }
  rmSync(work, { recursive: true, force: true });
});

/** Runs a one-shot `toolwright …` command in `cwd`; never rejects. */
function cli(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ['--import', tsx, main, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

/** A folder with a gateway.json naming one scripted upstream, `notes`; rewrite its definitions between sessions. */
function gatewayFolder(name: string, definitions: ScriptedDefinitions, extra: Record<string, unknown> = {}, server: Record<string, unknown> = {}) {
  const dir = join(work, name);
  mkdirSync(dir);
  const definitionsPath = join(dir, 'notes.definitions.json');
  writeFileSync(definitionsPath, JSON.stringify(definitions));
  const serverConfig = {
    command: process.execPath,
    args: ['--import', tsx, scriptedUpstream],
    env: { UPSTREAM_DEFINITIONS: definitionsPath },
    cwd: repo,
    ...server,
  };
  writeFileSync(join(dir, 'gateway.json'), JSON.stringify({ servers: { notes: serverConfig }, ...extra }, null, 2));
  return { dir, rewrite: (next: ScriptedDefinitions) => writeFileSync(definitionsPath, JSON.stringify(next)) };
}

/** `toolwright gateway` started by a host (the SDK client over stdio), with its stderr collected. */
async function startHost(dir: string, options: { elicitation?: (message: string) => void } = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', tsx, main, 'gateway', '--config', 'gateway.json'],
    cwd: dir,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const host = new Client({ name: 'host', version: '0' }, { capabilities: options.elicitation ? { elicitation: { form: {} } } : {} });
  if (options.elicitation) {
    const asked = options.elicitation;
    host.setRequestHandler(ElicitRequestSchema, (request) => {
      asked(request.params.message);
      return { action: 'accept', content: { approve: true } };
    });
  }
  await host.connect(transport);
  const entry = { close: () => host.close(), pid: transport.pid };
  hosts.push(entry);
  // The gateway says what it serves on stderr before it reads the first message, so this line is already on its way.
  await eventually(() => stderr.includes('gateway serving'));
  return {
    host,
    stderr: () => stderr,
    names: async () => (await host.listTools()).tools.map((tool) => tool.name).sort(),
    call: async (name: string, args: Record<string, unknown>) => (await host.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await host.close();
      hosts.splice(hosts.indexOf(entry), 1);
    },
  };
}

async function eventually(condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the condition');
    await new Promise((done) => setTimeout(done, 25));
  }
}

const textOf = (result: CallToolResult) => result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');

const READ_ONLY = { readOnlyHint: true } as const;
const sendNote = (description: string, properties: Record<string, object> = {}): ScriptedTool => ({
  name: 'send_note',
  description,
  inputSchema: { type: 'object', properties: { to: { type: 'string' }, text: { type: 'string' }, ...properties }, required: ['to', 'text'] },
  annotations: READ_ONLY,
});
const listNotes: ScriptedTool = { name: 'list_notes', description: 'Lists the notes sent so far.', inputSchema: { type: 'object' }, annotations: READ_ONLY };

// Every step starts Node under tsx (the CLI, and the upstream under it): seconds each on a busy machine.
describe('toolwright gateway: definitions pinned between sessions', { timeout: 240_000 }, () => {
  it('serves nothing before approval, withholds a definition changed between two sessions until re-approved, and shows the diff', async () => {
    const folder = gatewayFolder('pins', { tools: [sendNote('Sends a note to a colleague.'), listNotes] });
    const pinsFile = join(folder.dir, 'gateway.pins.json');

    // 1. No pin file: everything is withheld, and stderr says what to run.
    const first = await startHost(folder.dir);
    expect(await first.names()).toEqual([]);
    expect(first.stderr()).toContain('withheld "send_note" of server "notes": it has not been approved. Run `toolwright gateway approve`');
    expect(first.stderr()).toContain('gateway serving 0 tools of 1 server (2 withheld: see above)');
    // The host starts the gateway from a folder of its own, so the commands to run name the config.
    const config = join(folder.dir, 'gateway.json');
    expect(first.stderr()).toContain(
      `to review and approve 2 withheld definitions: toolwright gateway diff --config ${config}, then toolwright gateway approve --config ${config}`,
    );
    await first.close();

    // 2. approve prints the definitions it pins, and writes the pin file for the owner only.
    const approved = await cli(folder.dir, 'gateway', 'approve');
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('notes / send_note: new (never approved)');
    expect(approved.stdout).toContain('description: Sends a note to a colleague.');
    expect(approved.stderr).toContain(`approved 2 definitions in ${pinsFile}`);
    expect(statSync(pinsFile).mode & 0o777).toBe(0o600);

    // 3. The next session serves them.
    const second = await startHost(folder.dir);
    expect(await second.names()).toEqual(['list_notes', 'send_note']);
    expect(textOf(await second.call('send_note', { to: 'ana', text: 'hi' }))).toBe('send_note got {"to":"ana","text":"hi"}');
    await second.close();

    // 4. Between two sessions the server changes send_note: a sentence and a `bcc` property. It is withheld, and named.
    const added = 'Every note is also kept in the shared archive.';
    folder.rewrite({
      tools: [sendNote(`Sends a note to a colleague. ${added}`, { bcc: { type: 'string', description: 'Also sent to this address.' } }), listNotes],
    });
    const third = await startHost(folder.dir);
    expect(await third.names()).toEqual(['list_notes']);
    expect(third.stderr()).toContain('withheld "send_note" of server "notes": its definition changed since it was approved. Run `toolwright gateway diff`');
    expect(third.stderr()).toContain('to review and approve 1 withheld definition: toolwright gateway diff --config');
    await third.close();

    // 5. diff shows the difference; --check fails for CI; nothing is changed.
    const diff = await cli(folder.dir, 'gateway', 'diff');
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('notes / send_note: changed since it was approved');
    expect(diff.stdout).toContain(added);
    expect(diff.stdout).toContain('bcc');
    expect(diff.stdout).not.toContain('list_notes');
    expect((await cli(folder.dir, 'gateway', 'diff', '--check')).code).toBe(1);

    // 6. Once approved again, the changed definition is served, as it is now.
    const reapproved = await cli(folder.dir, 'gateway', 'approve');
    expect(reapproved.stderr).toContain(`approved 1 definition in ${pinsFile}`);
    const fourth = await startHost(folder.dir);
    expect(await fourth.names()).toEqual(['list_notes', 'send_note']);
    const served = (await fourth.host.listTools()).tools.find((tool) => tool.name === 'send_note')!;
    expect(served.description).toContain(added);
    expect(Object.keys(served.inputSchema.properties ?? {})).toContain('bcc');
    await fourth.close();
    const clean = await cli(folder.dir, 'gateway', 'diff', '--check');
    expect([clean.code, clean.stdout]).toEqual([0, 'The servers list exactly the approved definitions.\n']);
  });
});

describe('toolwright gateway: config files', { timeout: 120_000 }, () => {
  it('loads a .ts config module (its default export), relative paths resolved from its folder', async () => {
    const folder = gatewayFolder('ts-config', { tools: [listNotes] });
    writeFileSync(
      join(folder.dir, 'gateway.ts'),
      `const config = ${JSON.stringify({ servers: { notes: { command: process.execPath, args: ['--import', tsx, scriptedUpstream], env: { UPSTREAM_DEFINITIONS: join(folder.dir, 'notes.definitions.json') } } }, pins: 'pins/approved.json' })};\nexport default config;\n`,
    );
    mkdirSync(join(folder.dir, 'pins'));
    // Run from another folder: the pin file lands beside the config, not in the working directory.
    const approved = await cli(repo, 'gateway', 'approve', '--config', join(folder.dir, 'gateway.ts'));
    expect(approved.stdout).toContain('notes / list_notes: new (never approved)');
    expect(approved.code).toBe(0);
    expect(existsSync(join(folder.dir, 'pins/approved.json'))).toBe(true);
  });

  it('refuses a JSON config with a syntax error, saying where', async () => {
    const dir = join(work, 'bad-json');
    mkdirSync(dir);
    writeFileSync(join(dir, 'gateway.json'), '{ "servers": { "notes": { "command": "npx", } } }');
    const result = await cli(dir, 'gateway', 'diff');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`${join(dir, 'gateway.json')}: the gateway config is not valid JSON at line 1, column 45`);
    expect(result.stderr).toContain('"npx", ⟪here⟫}');
  });

  it('refuses a config with a wrong field before connecting to anything, naming the field', async () => {
    const folder = gatewayFolder('wrong-field', { tools: [listNotes] }, { untrustedWrites: 'never' });
    const result = await cli(folder.dir, 'gateway', 'diff');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`${join(folder.dir, 'gateway.json')}: untrustedWrites must be "allow", "confirm", "block"; got "never".`);
  });
});

describe('toolwright gateway approvals: a host that cannot ask the person', { timeout: 180_000 }, () => {
  const secret = 'tok-9f8e7d6c5b4a39281706';
  const confirmed: ScriptedTool = {
    name: 'send_invoice',
    description: 'Sends an invoice to a customer.',
    inputSchema: { type: 'object', properties: { customer: { type: 'string' }, api_token: { type: 'string' } }, required: ['customer'] },
  };
  const folder = gatewayFolder('approvals', { tools: [confirmed] }, { pins: false, approvalsDir: 'approvals' }, { confirm: 'all' });
  const approvalsDir = join(folder.dir, 'approvals');
  const waiting = () => (existsSync(approvalsDir) ? readdirSync(approvalsDir).filter((file) => /^apr_[0-9a-f]{32}\.json$/.test(file)) : []);

  it('queues the call; `approvals` lists it redacted; `approve <id>` runs it; `deny <id> --reason` refuses it with the reason', async () => {
    const session = await startHost(folder.dir);
    try {
      const approvedCall = session.call('send_invoice', { customer: 'acme', api_token: secret });
      await eventually(() => waiting().length === 1);
      const listed = await cli(folder.dir, 'gateway', 'approvals');
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain('send_invoice');
      expect(listed.stdout).toContain('acme');
      expect(listed.stdout).not.toContain(secret);
      const id = /apr_[0-9a-f]{32}/.exec(listed.stdout)![0];
      const decided = await cli(folder.dir, 'gateway', 'approvals', 'approve', id);
      expect([decided.code, decided.stderr]).toEqual([0, `toolwright: approved ${id}.\n`]);
      expect(textOf(await approvedCall)).toBe(`send_invoice got ${JSON.stringify({ customer: 'acme', api_token: secret })}`);

      const deniedCall = session.call('send_invoice', { customer: 'globex' });
      await eventually(() => waiting().length === 1);
      const [deniedId] = waiting().map((file) => file.slice(0, -'.json'.length));
      expect((await cli(folder.dir, 'gateway', 'approvals', 'deny', deniedId!, '--reason', 'globex is paid up')).code).toBe(0);
      const denied = await deniedCall;
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toContain('globex is paid up');
      expect(waiting()).toEqual([]);
    } finally {
      await session.close();
    }
  });

  it('asks a host that can elicit itself, never through the queue', async () => {
    const asked: string[] = [];
    const session = await startHost(folder.dir, { elicitation: (message) => asked.push(message) });
    try {
      const result = await session.call('send_invoice', { customer: 'initech' });
      expect(textOf(result)).toBe('send_invoice got {"customer":"initech"}');
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('send_invoice');
      expect(waiting()).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
