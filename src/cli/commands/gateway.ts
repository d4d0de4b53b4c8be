/**
 * `toolwright gateway --config gateway.json`: toolwright between an MCP host (Claude Desktop, Cursor, VS Code…) and the
 * MCP servers it uses. The host starts this command in place of the servers; it connects to them, and serves their
 * tools over stdio (or Streamable HTTP with `--http`) through the call pipeline: validation, the policy, confirmations,
 * limits and the redacted record. Subcommands: `approve` pins the definitions the servers list now, `diff` shows what
 * changed since, `approvals` answers calls waiting for a person when the host cannot ask.
 *
 * Everything the command says goes to stderr; over stdio, stdout carries only JSON-RPC.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import type { Command } from 'commander';
import { Option } from 'commander';
import { InvalidArgumentError, ModuleLoadError } from '../../shared/errors.js';
import { getOwn, isPlainObject } from '../../shared/own.js';
import { safeParseJson } from '../../shared/safe-json.js';
import type { McpGateway, McpGatewayOptions } from '../../mcp/gateway/create-mcp-gateway.js';
import type { GatewayConfig } from '../../mcp/gateway/gateway-config.js';
import { loadMcpModule } from '../load-mcp.js';
import { importUserModule } from '../load-tool-module.js';
import { httpServeOptions, parseHostPort, type ServeOptions } from './serve.js';

const DEFAULT_CONFIG = 'gateway.json';

interface GatewayCommandOptions {
  config: string;
  http?: { host: string; port: number } | true;
  authToken?: string;
  allowedHost?: string[];
  allowedOrigin?: string[];
}

export function registerGatewayCommand(program: Command): void {
  const gateway = program
    .command('gateway')
    // Its subcommands take --config too: without this, `gateway approve --config x` would give x to `gateway` and the default to `approve`.
    .enablePositionalOptions()
    .description("Stand between an MCP host and the MCP servers it uses: their tools served through toolwright's guards (see `gateway approve`).")
    .option('-c, --config <file>', `the gateway's configuration, JSON or a .ts/.js module (default ./${DEFAULT_CONFIG})`, DEFAULT_CONFIG)
    .option('--http [host:port]', 'serve Streamable HTTP at /mcp instead of stdio (default 127.0.0.1:3000; port 0 picks a free one)', parseHostPort)
    .addOption(new Option('--auth-token <token>', 'require "Authorization: Bearer <token>" on every HTTP request').env('TOOLWRIGHT_MCP_TOKEN'))
    .option('--allowed-host <host...>', 'accept more Host header values (name:port), for a reverse proxy')
    .option('--allowed-origin <origin...>', 'accept requests from these browser origins')
    .addHelpText(
      'after',
      [
        '',
        'First review and pin what the servers offer, then put the gateway in the host in place of the servers:',
        '  npx toolwright gateway approve --config gateway.json',
        '  npx toolwright gateway --config gateway.json',
        '',
        'A host config entry (Claude Desktop, Cursor): { "command": "npx", "args": ["toolwright", "gateway", "--config", "/abs/path/gateway.json"] }',
      ].join('\n'),
    )
    .action(async (options: GatewayCommandOptions) => {
      await serveGateway(options);
    });

  gateway
    .command('approve')
    .description('Connect to the servers, show what is new or changed since the last approval, and pin the definitions they list now.')
    .option('-c, --config <file>', `the gateway's configuration (default ./${DEFAULT_CONFIG})`, DEFAULT_CONFIG)
    .option('--server <name...>', 'approve only these servers')
    .option('--tool <name...>', 'approve only these tools (their names on the server)')
    .action(async (options: { config: string; server?: string[]; tool?: string[] }) => {
      const opened = await openGateway(options.config);
      try {
        const review = reviewText(opened, { onlyUnapproved: true });
        if (review !== '') process.stdout.write(`${review}\n`);
        const approved = await opened.approve({ ...(options.server ? { servers: options.server } : {}), ...(options.tool ? { tools: options.tool } : {}) });
        say(
          approved.length === 0
            ? `nothing new to approve; the pins in ${opened.pinsPath} match what the servers list.`
            : `approved ${plural(approved.length, 'definition')} in ${opened.pinsPath}; the gateway serves them from its next start.`,
        );
        const poisoned = opened.status.filter((entry) => entry.withheld === 'poisoned');
        if (poisoned.length > 0) say(`${plural(poisoned.length, 'tool')} stay withheld for the poisoning checks whatever is approved (see above).`);
      } finally {
        await opened.close();
      }
    });

  gateway
    .command('diff')
    .description('Show how the definitions the servers list now differ from the approved ones (new, changed, removed), without changing anything.')
    .option('-c, --config <file>', `the gateway's configuration (default ./${DEFAULT_CONFIG})`, DEFAULT_CONFIG)
    .option('--check', 'exit with status 1 when anything differs (for CI)')
    .action(async (options: { config: string; check?: boolean }) => {
      const opened = await openGateway(options.config);
      try {
        const review = reviewText(opened, { onlyUnapproved: true });
        process.stdout.write(review === '' ? 'The servers list exactly the approved definitions.\n' : `${review}\n`);
        if (options.check && review !== '') process.exitCode = 1;
      } finally {
        await opened.close();
      }
    });

  const approvals = gateway.command('approvals').description('Calls waiting for a person, when the host cannot ask (the config\'s "approvalsDir").');
  approvals
    .command('list', { isDefault: true })
    .option('-c, --config <file>', `the gateway's configuration (default ./${DEFAULT_CONFIG})`, DEFAULT_CONFIG)
    .action(async (options: { config: string }) => {
      const queue = await gatewayApprovalQueue(options.config);
      const pending = queue.list();
      if (pending.length === 0) process.stdout.write('No call is waiting for approval.\n');
      for (const entry of pending) process.stdout.write(`${entry.id}  ${entry.createdAt}  ${entry.tool}\n${indent(entry.prompt)}\n\n`);
    });
  for (const verdict of ['approve', 'deny'] as const) {
    approvals
      .command(`${verdict} <id>`)
      .description(verdict === 'approve' ? 'let the waiting call run once' : 'refuse the waiting call (the model reads the reason)')
      .option('-c, --config <file>', `the gateway's configuration (default ./${DEFAULT_CONFIG})`, DEFAULT_CONFIG)
      .option('--reason <text>', 'why, for the model (deny)')
      .action(async (id: string, options: { config: string; reason?: string }) => {
        const queue = await gatewayApprovalQueue(options.config);
        queue.decide(id, { approved: verdict === 'approve', ...(options.reason ? { reason: options.reason } : {}), by: 'a person at the command line' });
        say(`${verdict === 'approve' ? 'approved' : 'denied'} ${id}.`);
      });
  }
}

async function serveGateway(options: GatewayCommandOptions): Promise<void> {
  const gateway = await openGateway(options.config);
  const withheld = gateway.status.filter((entry) => entry.withheld !== undefined);
  const servers = new Set(gateway.status.map((entry) => entry.server)).size;
  const what = `${plural(gateway.tools.length, 'tool')} of ${plural(servers, 'server')}${withheld.length > 0 ? ` (${withheld.length} withheld: see above)` : ''}`;
  // The host started this command from a folder of its own: the review commands name the config, so they work from anywhere.
  const pending = withheld.filter((entry) => entry.withheld === 'unapproved' || entry.withheld === 'changed');
  if (pending.length > 0) {
    const path = resolve(options.config);
    const config = /^[\w./:@+-]+$/.test(path) ? path : JSON.stringify(path);
    say(
      `to review and approve ${plural(pending.length, 'withheld definition')}: toolwright gateway diff --config ${config}, then toolwright gateway approve --config ${config}`,
    );
  }
  let close: () => Promise<void>;
  if (options.http === undefined) {
    const handle = await gateway.serveStdio();
    close = async () => {
      await handle.close();
      await gateway.close();
    };
    say(`gateway serving ${what} over stdio`);
    void handle.closed.then(() => gateway.close().finally(() => process.exit(0)));
  } else {
    const { host, port, authToken, allowedHosts, allowedOrigins } = httpServeOptions({ ...options, tools: options.config } satisfies ServeOptions);
    const handle = await gateway.serveHttp({
      host,
      port,
      ...(authToken ? { authToken } : {}),
      ...(allowedHosts ? { allowedHosts } : {}),
      ...(allowedOrigins ? { allowedOrigins } : {}),
    });
    close = async () => {
      await handle.close();
      await gateway.close();
    };
    say(`gateway serving ${what} at ${handle.url}`);
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    say(`${signal}: closing the sessions and the upstream servers...`);
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** Reads the config (JSON, or a module's default export or `config` export) and connects the gateway. */
export async function openGateway(path: string, cwd: string = process.cwd()): Promise<McpGateway> {
  const { config, baseDir } = await loadGatewayConfig(path, cwd);
  const { createMcpGateway } = await loadMcpModule('toolwright gateway');
  const options: McpGatewayOptions = { ...config, baseDir, log: (line) => say(line) };
  return createMcpGateway(options);
}

export async function loadGatewayConfig(path: string, cwd: string = process.cwd()): Promise<{ config: GatewayConfig; baseDir: string }> {
  const file = resolve(cwd, path);
  // Checked here, so that a mistake is reported with the file's name; loaded with the MCP module (an optional peer).
  const { checkGatewayConfig } = await loadMcpModule('toolwright gateway');
  if (extname(file).toLowerCase() === '.json') {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new ModuleLoadError(
        file,
        `the gateway config cannot be read (${(error as Error).message}). Pass --config with its path, or write ./${DEFAULT_CONFIG}.`,
        {
          cause: error,
        },
      );
    }
    const parsed = safeParseJson(text);
    if (!parsed.success) {
      const { message, line, column, excerpt } = parsed.error;
      const where = line === undefined ? '' : ` at line ${line}, column ${column}${excerpt ? `, near ${excerpt.replace(/\s+/g, ' ')}` : ''}`;
      throw new InvalidArgumentError(
        `${file}: the gateway config is not valid JSON${where}: ${message}. Fix it there (a JSON file allows no comments or trailing commas).`,
      );
    }
    return { config: checkGatewayConfig(parsed.value, file), baseDir: dirname(file) };
  }
  const { namespace, display } = await importUserModule(file, cwd);
  const config = getOwn(namespace, 'default') ?? getOwn(namespace, 'config');
  if (!isPlainObject(config))
    throw new ModuleLoadError(display, 'export the gateway config as the default export (or as `config`): `export default { servers: { … } }`.');
  return { config: checkGatewayConfig(config, display), baseDir: dirname(file) };
}

/** The approvals folder a gateway config names, as a queue (for `gateway approvals` and `console --gateway`). */
export async function gatewayApprovalQueue(configPath: string, cwd: string = process.cwd()) {
  const { config, baseDir } = await loadGatewayConfig(configPath, cwd);
  if (config.approvalsDir === undefined) {
    throw new InvalidArgumentError(
      `${resolve(cwd, configPath)} has no "approvalsDir"; add one (e.g. "approvalsDir": "approvals") so that calls a host cannot confirm wait there.`,
    );
  }
  const { createFileApprovalQueue } = await import('../../mcp/gateway/approval-queue.js');
  return createFileApprovalQueue(resolve(baseDir, config.approvalsDir));
}

/** What a person reviews before approving: each new or changed definition (with its diff), each removed one, and the poisoning findings. */
export function reviewText(gateway: Pick<McpGateway, 'status' | 'removed' | 'unavailable'>, options: { onlyUnapproved: boolean }): string {
  const blocks: string[] = [];
  const { describeDefinitionChange } = definitionPins;
  for (const entry of gateway.status) {
    if (options.onlyUnapproved && entry.pin === 'approved' && entry.findings.length === 0) continue;
    const lines = [
      `${entry.server} / ${entry.remoteName}: ${entry.pin === 'new' ? 'new (never approved)' : entry.pin === 'changed' ? 'changed since it was approved' : 'approved'}`,
    ];
    if (entry.pin === 'changed' && entry.pinned) lines.push(indent(describeDefinitionChange(entry.pinned.definition, entry.descriptor)));
    if (entry.pin === 'new') lines.push(indent(`description: ${(entry.descriptor.description ?? '').slice(0, 400)}`));
    for (const finding of entry.findings) lines.push(indent(`${finding.severity} ${finding.rule}: ${finding.message}`));
    blocks.push(lines.join('\n'));
  }
  for (const entry of gateway.removed) blocks.push(`${entry.server} / ${entry.remoteName}: no longer listed (approved ${entry.pin.approvedAt})`);
  for (const entry of gateway.unavailable) blocks.push(`${entry.server}: not reached (${entry.error})`);
  return blocks.join('\n\n');
}

// Loaded with the MCP module (an optional peer): imported statically it is only types and pure functions.
import * as definitionPins from '../../mcp/gateway/definition-pins.js';

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function say(message: string): void {
  process.stderr.write(`toolwright: ${message}\n`);
}
