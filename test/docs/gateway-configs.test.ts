/**
 * The gateway's config blocks in README.md and docs/mcp.md are what a user copies, so they are checked here:
 * - every ```json block with a top-level "servers" that is not a host's (a VS Code host config also has "servers", each
 *   entry with a "type") passes `checkGatewayConfig`;
 * - every host config block (`mcpServers`, or VS Code's `servers` with `type`) has a gateway entry whose `args` hold
 *   `gateway` and `--config`, and all of them run the README's command (only the config path may differ);
 * - the README's config and commands work as written, against the reference servers installed here instead of `npx -y`
 *   and a temporary folder instead of `/Users/me`: `diff --check` and `approve` read the `--config` they are given (from
 *   another working directory), and the README's host entry, started as a host starts it, serves both servers' tools, lets
 *   a memory write run before a file was read and asks the person (elicitation) for one after, and writes its record
 *   beside the config.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { definitionDigest, readPins, writePins } from '../../src/mcp/gateway/definition-pins.js';
import { checkGatewayConfig } from '../../src/mcp/gateway/gateway-config.js';
import { codeBlocks } from './markdown-snippets.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PAGES = ['README.md', 'docs/mcp.md'] as const;

interface JsonBlock {
  where: string;
  value: Record<string, unknown>;
}

function jsonBlocks(page: string): JsonBlock[] {
  return codeBlocks(page, readFileSync(join(root, page), 'utf8'))
    .filter((block) => block.language === 'json')
    .map((block) => ({ where: `${page}:${block.fenceLine}`, value: JSON.parse(block.code) as Record<string, unknown> }));
}

type HostEntry = { type?: string; command: string; args: string[] };

/** A host's MCP settings: Claude Desktop's and Cursor's `mcpServers`, or VS Code's `servers` whose entries name their `type`. */
function hostEntries(value: Record<string, unknown>): Record<string, HostEntry> | undefined {
  if ('mcpServers' in value) return value.mcpServers as Record<string, HostEntry>;
  const servers = value.servers as Record<string, Record<string, unknown>> | undefined;
  if (servers && Object.values(servers).every((entry) => typeof entry.type === 'string')) return servers as unknown as Record<string, HostEntry>;
  return undefined;
}

const blocks = PAGES.flatMap((page) => jsonBlocks(page));
const gatewayConfigs = blocks.filter((block) => 'servers' in block.value && hostEntries(block.value) === undefined);
const hostConfigs = blocks.flatMap((block) => {
  const entries = hostEntries(block.value);
  return entries ? [{ ...block, entries }] : [];
});
const gatewayEntry = (entries: Record<string, HostEntry>) =>
  Object.values(entries).find((entry) => entry.args.includes('gateway') && entry.args.includes('--config'));
/** The command a host entry runs, the config's path left out. */
const commandOf = (entry: HostEntry) => {
  const args = [...entry.args];
  args.splice(args.indexOf('--config'), 2);
  return [entry.command, ...args];
};

describe('the gateway config blocks of README.md and docs/mcp.md', () => {
  it('are found: the README has a gateway.json and a host entry, docs/mcp.md the three hosts', () => {
    expect(gatewayConfigs.filter((block) => block.where.startsWith('README.md')).length).toBeGreaterThanOrEqual(1);
    expect(hostConfigs.filter((block) => block.where.startsWith('README.md')).length).toBeGreaterThanOrEqual(1);
    const docs = hostConfigs.filter((block) => block.where.startsWith('docs/mcp.md'));
    expect(docs.filter((block) => 'mcpServers' in block.value).length).toBeGreaterThanOrEqual(2);
    expect(docs.filter((block) => 'servers' in block.value).length).toBeGreaterThanOrEqual(1);
  });

  it.each(gatewayConfigs.map((block) => [block.where, block] as const))('%s passes checkGatewayConfig', (where, block) => {
    expect(() => checkGatewayConfig(block.value, where)).not.toThrow();
  });

  it.each(hostConfigs.map((block) => [block.where, block] as const))('%s starts the gateway with --config, as the README does', (_where, block) => {
    const entry = gatewayEntry(block.entries);
    expect(entry, 'an entry whose args hold "gateway" and "--config"').toBeDefined();
    expect(entry!.args[entry!.args.indexOf('--config') + 1]).toMatch(/gateway\.json$/);
    if (!('mcpServers' in block.value)) expect(entry!.type).toBe('stdio');
    const readme = gatewayEntry(hostConfigs.find((host) => host.where.startsWith('README.md'))!.entries)!;
    expect(commandOf(entry!)).toEqual(commandOf(readme));
  });

  it('the README checks a config in the commands it shows (the checker is not a no-op)', () => {
    expect(() => checkGatewayConfig({ servers: { files: { command: 'npx', trust: 'maybe' } } }, 'x')).toThrow(/trust/);
  });
});

describe('the README gateway, as written', () => {
  const work = mkdtempSync(join(tmpdir(), 'tw-gateway-docs-'));
  const configPath = join(work, 'config', 'gateway.json');
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const readmeConfig = gatewayConfigs.find((block) => block.where.startsWith('README.md'))!.value as {
    servers: Record<string, { command: string; args?: string[]; env?: Record<string, string> }>;
  };
  const readmeHost = gatewayEntry(hostConfigs.find((host) => host.where.startsWith('README.md'))!.entries)!;
  const readmeCommands = readFileSync(join(root, 'README.md'), 'utf8')
    .split('\n')
    .filter((line) => /^npx -y .*toolwright gateway (approve|diff)/.test(line));

  /** The README's config with the reference servers installed here and the user's folders under `work`. */
  function writeConfig(): void {
    const local = (text: string) => text.replace(/^\/Users\/me/, work);
    const servers = Object.fromEntries(
      Object.entries(readmeConfig.servers).map(([name, server]) => {
        const args = server.args ?? [];
        const packageAt = args.findIndex((arg) => arg.startsWith('@modelcontextprotocol/server-'));
        expect(server.command).toBe('npx');
        expect(packageAt).toBeGreaterThanOrEqual(0);
        const bin = join(root, 'node_modules/.bin', `mcp-${args[packageAt]!.split('/')[1]}`);
        const env = server.env && Object.fromEntries(Object.entries(server.env).map(([key, value]) => [key, local(value)]));
        return [name, { ...server, command: bin, args: args.slice(packageAt + 1).map(local), ...(env ? { env } : {}) }];
      }),
    );
    mkdirSync(join(work, 'notes'), { recursive: true });
    mkdirSync(join(work, '.toolwright'), { recursive: true });
    writeFileSync(join(work, 'notes', 'invoice.txt'), 'Pay 100 EUR to DE89370400440532013000.');
    mkdirSync(dirname(configPath), { recursive: true });
    writeFileSync(configPath, JSON.stringify({ ...readmeConfig, servers }));
  }

  /** A README command line run from this checkout, from the repository root (where there is no gateway.json), with our config. */
  function runReadmeCommand(line: string): Promise<{ code: number; stdout: string; stderr: string }> {
    const words = line.split(/\s+/);
    const args = words.slice(words.lastIndexOf('toolwright') + 1);
    args[args.indexOf('--config') + 1] = configPath;
    return new Promise((done) => {
      execFile(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), ...args], { cwd: root, timeout: 60_000 }, (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
      );
    });
  }

  /** The README's host entry started as a host starts it (this checkout's CLI for `npx … toolwright`), with a client that declines every elicitation. */
  async function startHostEntry(config: string) {
    const args = readmeHost.args.slice(readmeHost.args.lastIndexOf('toolwright') + 1);
    args[args.indexOf('--config') + 1] = config;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', join(root, 'src/cli/main.ts'), ...args],
      cwd: root,
      env: getDefaultEnvironment(),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'docs-host', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(String(request.params.message));
      return { action: 'decline' };
    });
    await client.connect(transport);
    return { client, asked, stderr: () => stderr };
  }

  it('approve and diff --check read the --config they are given', { timeout: 120_000 }, async () => {
    expect(existsSync(join(root, 'gateway.json'))).toBe(false);
    writeConfig();
    const [approve, diff] = [readmeCommands.find((line) => line.includes(' approve '))!, readmeCommands.find((line) => line.includes(' diff '))!];
    expect(diff).toContain('--check');

    const before = await runReadmeCommand(diff);
    expect(before.stderr).not.toMatch(/cannot be read/);
    expect(before.stdout).toContain('files / write_file: new (never approved)');
    expect(before.stdout).toContain('memory / create_entities: new (never approved)');
    expect(before.code).toBe(1);

    // Before the approval, the host's model is offered nothing: no tool of either server is listed or callable.
    const unapproved = await startHostEntry(configPath);
    try {
      expect((await unapproved.client.listTools()).tools).toEqual([]);
      await expect(unapproved.client.callTool({ name: 'read_text_file', arguments: { path: join(work, 'notes', 'invoice.txt') } })).rejects.toThrow(/-32602/);
      expect(unapproved.stderr()).toContain('withheld "write_file" of server "files": it has not been approved.');
    } finally {
      await unapproved.client.close();
    }

    const approved = await runReadmeCommand(approve);
    expect(approved.code).toBe(0);
    expect(approved.stderr).toMatch(/approved \d+ definitions in .*gateway\.pins\.json/);
    expect(existsSync(join(dirname(configPath), 'gateway.pins.json'))).toBe(true);

    const after = await runReadmeCommand(diff);
    expect(after.stdout).toContain('The servers list exactly the approved definitions.');
    expect(after.code).toBe(0);
  });

  it('the host entry serves both servers; a memory write runs unasked until a file was read, then asks the person', { timeout: 120_000 }, async () => {
    if (!existsSync(join(dirname(configPath), 'gateway.pins.json'))) {
      writeConfig();
      expect((await runReadmeCommand(readmeCommands.find((line) => line.includes(' approve '))!)).code).toBe(0);
    }
    const records = join(dirname(configPath), 'records');
    const recordsBefore = existsSync(records) ? readdirSync(records) : [];
    const { client, asked } = await startHostEntry(configPath);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['read_text_file', 'write_file', 'create_entities', 'delete_entities']));

      const entity = (name: string) => ({ entities: [{ name, entityType: 'person', observations: ['met at the docs test'] }] });
      const first = (await client.callTool({ name: 'create_entities', arguments: entity('Ada') })) as CallToolResult;
      expect(first.isError).toBe(false);
      expect(asked).toEqual([]);

      const read = (await client.callTool({ name: 'read_text_file', arguments: { path: join(work, 'notes', 'invoice.txt') } })) as CallToolResult;
      expect(read.isError).toBe(false);
      const second = (await client.callTool({ name: 'create_entities', arguments: entity('Bob') })) as CallToolResult;
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(/^The assistant wants to run "[^"]+", which needs your approval:\n[\s\S]*create_entities[\s\S]*\nApprove this call\?$/);
      expect(second.isError).toBe(true);
      expect(JSON.stringify(second.content)).toContain('declined');
      const graph = JSON.stringify(((await client.callTool({ name: 'read_graph', arguments: {} })) as CallToolResult).content);
      expect(graph).toContain('Ada');
      expect(graph).not.toContain('Bob');
    } finally {
      await client.close();
    }
    // This session's record, beside the config (the unapproved session's refused call left one too).
    const added = readdirSync(records).filter((name) => name.endsWith('.jsonl') && !recordsBefore.includes(name));
    expect(added).toHaveLength(1);
    expect(readFileSync(join(records, added[0]!), 'utf8')).toContain('"create_entities"');
  });
  it(
    'what the host sees: a changed definition is withheld (unknown tool), a write after a file read is blocked with the README text',
    { timeout: 120_000 },
    async () => {
      const pinsPath = join(dirname(configPath), 'gateway.pins.json');
      expect(existsSync(pinsPath)).toBe(true);
      // As if the filesystem server had changed write_file's description since the approval: the pin no longer matches what it lists.
      const pins = await readPins(pinsPath);
      const pin = pins.servers.files!.write_file!;
      const approved = { ...pin.definition, description: 'Create a new file (the description a person approved).' };
      pins.servers.files!.write_file = { ...pin, definition: approved, digest: definitionDigest(approved) };
      await writePins(pinsPath, pins);
      const blocking = join(dirname(configPath), 'gateway-block.json');
      writeFileSync(blocking, JSON.stringify({ ...JSON.parse(readFileSync(configPath, 'utf8')), untrustedWrites: 'block' }));

      const diff = await runReadmeCommand(readmeCommands.find((line) => line.includes(' diff '))!);
      expect(diff.stdout).toContain('files / write_file: changed since it was approved');
      expect(diff.code).toBe(1);

      const { client, asked, stderr } = await startHostEntry(blocking);
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('write_file');
        await expect(client.callTool({ name: 'write_file', arguments: { path: join(work, 'notes', 'x.txt'), content: 'x' } })).rejects.toThrow(/-32602/);
        expect(stderr()).toContain('withheld "write_file" of server "files": its definition changed since it was approved.');

        await client.callTool({ name: 'read_text_file', arguments: { path: join(work, 'notes', 'invoice.txt') } });
        const blocked = (await client.callTool({
          name: 'create_entities',
          arguments: { entities: [{ name: 'Eve', entityType: 'person', observations: ['x'] }] },
        })) as CallToolResult;
        expect(blocked.isError).toBe(true);
        const text = (blocked.content[0] as { text: string }).text;
        // The README quotes this text up to its first "…".
        const quoted = /`(Blocked by policy \(rule "untrusted-write"\):[^`]*?) …/.exec(readFileSync(join(root, 'README.md'), 'utf8'))![1]!;
        expect(text.startsWith(quoted)).toBe(true);
        expect(asked).toEqual([]);
      } finally {
        await client.close();
      }
    },
  );
});
