/**
 * `toolwright serve --tools <module> [--http [host:port]]`: a tool pack as an
 * MCP server, over stdio (the default: for desktop assistants and IDEs that
 * start the server themselves) or Streamable HTTP at `/mcp`.
 *
 * Everything the command says goes to stderr; over stdio, stdout carries only
 * JSON-RPC.
 * @module
 */
import type { Command } from 'commander';
import { InvalidArgumentError as CommanderArgumentError, Option } from 'commander';
import { toMcpTools } from '../../formats/mcp/to-mcp-tools.js';
import { isLoopbackHost } from '../../mcp/http-request-guard.js';
import { loadMcpModule } from '../load-mcp.js';
import type { McpHttpOptions, McpServerOptions } from '../../mcp/index.js';
import type { McpTaskStore } from '../../stores/mcp-task-store.js';
import { serverOf } from '../../stores/postgres-pool.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { ToolRegistry } from '../../tools/index.js';
import { loadToolModule } from '../load-tool-module.js';
import { toolModuleFrom } from '../tool-module-argument.js';

export interface ServeOptions {
  tools: string;
  http?: { host: string; port: number } | true;
  approve?: string[];
  authToken?: string;
  allowedHost?: string[];
  allowedOrigin?: string[];
  maxBody?: number;
  maxSessions?: number;
  maxStreams?: number;
  maxStreamsPerSession?: number;
  maxPendingCalls?: number;
  stoppedCallGraceMs?: number;
  maxToolCalls?: number;
  maxIdenticalCalls?: number;
  maxRepeatedFailures?: number;
  recordDir?: string;
  name?: string;
  /** `--oauth-issuer`: OAuth 2.1 access tokens from this authorization server (the `auth` option). */
  oauthIssuer?: string;
  /** `--oauth-audience`: this server's public URL, the audience its tokens must name. */
  oauthAudience?: string;
  /** `--oauth-jwks-url`: the issuer's signing keys, when its metadata does not say where they are. */
  oauthJwksUrl?: string;
  /** `--task-store`: a SQLite file or a `postgres://` URL that keeps the long-running tools' tasks across sessions and restarts. */
  taskStore?: string;
}

const DEFAULT_HTTP = { host: '127.0.0.1', port: 3000 };

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Serve a tool pack as an MCP server, over stdio (default) or Streamable HTTP at /mcp.')
    .argument('[module]', 'the module that exports the tools (the same as --tools)')
    // Checked in serve() rather than by requiredOption, whose check would pre-empt an unknown option's report (--tols).
    .option('-t, --tools <module>', 'the module that exports the tools (and, optionally, resources, resourceTemplates and prompts)')
    .option(
      '--http [host:port]',
      `speak Streamable HTTP instead of stdio (default ${DEFAULT_HTTP.host}:${DEFAULT_HTTP.port}; port 0 picks a free one)`,
      parseHostPort,
    )
    .option('--approve <tool...>', 'let these tools run without asking for confirmation')
    .addOption(new Option('--auth-token <token>', 'require "Authorization: Bearer <token>" on every HTTP request').env('TOOLWRIGHT_MCP_TOKEN'))
    .option('--allowed-host <host...>', 'accept more Host header values (name:port), for a reverse proxy')
    .option('--allowed-origin <origin...>', 'accept requests from these browser origins')
    .option('--max-body <bytes>', 'largest HTTP request body, in bytes (default 4194304)', parsePositiveInteger)
    .option('--max-sessions <count>', 'most HTTP sessions held at once; a new client closes the least recently active one (default 1000)', parsePositiveInteger)
    .option('--max-streams <count>', 'most open SSE streams over all sessions; a new one closes the idlest (default 500)', parsePositiveInteger)
    .option('--max-streams-per-session <count>', 'most open SSE streams of one session; a new one closes its idlest (default 32)', parsePositiveInteger)
    .option('--max-pending-calls <count>', 'most tool calls of one session waiting or running; one more is refused (default 64)', parsePositiveInteger)
    .option(
      '--stopped-call-grace-ms <ms>',
      "how long a cancelled or timed-out call's tool may take to end; a write still running then is reported unknown (default 5000)",
      parsePositiveInteger,
    )
    .option('--max-tool-calls <count>', 'most tool calls one session may run; later calls are refused (default: no limit)', parsePositiveInteger)
    .option('--max-identical-calls <count>', "the same call this many times ends the session's tool use (default: no limit)", parsePositiveInteger)
    .option('--max-repeated-failures <count>', "the same call failing this many times ends the session's tool use (default: no limit)", parsePositiveInteger)
    .option('--record-dir <dir>', 'write one JSONL record of the tool calls per session into this folder, secrets redacted (default: no record)')
    .option('--name <name>', 'the server name clients see (default "toolwright")')
    .option('--oauth-issuer <url>', 'require OAuth 2.1 access tokens (JWTs) from this authorization server on every HTTP request')
    .option('--oauth-audience <url>', "this server's public URL, which the tokens' audience must name (default: the address it listens on)")
    .option('--oauth-jwks-url <url>', "the issuer's signing keys (default: jwks_uri from the issuer's metadata)")
    .option(
      '--task-store <file|url>',
      "keep long-running tools' tasks in this SQLite file or postgres:// database, across sessions and restarts (default: in each session)",
    )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  toolwright serve ./tools.ts',
        '  toolwright serve ./tools.ts --http 127.0.0.1:3000',
        '  npx @modelcontextprotocol/inspector --cli http://127.0.0.1:3000/mcp --method tools/list',
      ].join('\n'),
    )
    .action(async (module: string | undefined, options: ServeOptions) => {
      await serve({ ...options, tools: toolModuleFrom('serve', module, options.tools, './tools.ts') });
    });
}

async function serve(options: ServeOptions): Promise<void> {
  const loaded = await loadToolModule(options.tools);
  const { readMcpExtras, serveHttp, serveStdio } = await loadMcpModule('toolwright serve');
  const extras = readMcpExtras(loaded.exports, loaded.source);
  const registry = new ToolRegistry(loaded.tools);
  for (const name of options.approve ?? []) {
    if (!registry.has(name)) throw new InvalidArgumentError(`--approve ${name}: the pack has no tool of that name (it has ${registry.names().join(', ')}).`);
  }
  for (const warning of toMcpTools(registry).warnings) say(`warning: tool "${warning.tool}": ${warning.details}`);

  const serverOptions: McpServerOptions = { ...extras, ...sessionLimits(options), ...sessionRecord(options) };
  if (options.approve) serverOptions.preapproved = options.approve;
  if (options.name !== undefined) serverOptions.name = options.name;
  const taskStore = options.taskStore === undefined ? undefined : await openTaskStore(options.taskStore);
  if (taskStore) {
    serverOptions.taskStore = taskStore.store;
    say(`keeping tasks in ${taskStore.where}`);
  }
  const what = `${plural(registry.size, 'tool')}${extras.resources.length + extras.resourceTemplates.length > 0 ? `, ${plural(extras.resources.length + extras.resourceTemplates.length, 'resource')}` : ''}${extras.prompts.length > 0 ? `, ${plural(extras.prompts.length, 'prompt')}` : ''}`;

  let close: () => Promise<void>;
  if (options.http === undefined) {
    const handle = await serveStdio(registry, serverOptions);
    close = closingStore(handle.close, taskStore?.store);
    say(`serving ${what} from ${loaded.source} over stdio`);
    void handle.closed.then(() => process.exit(0));
  } else {
    const httpOptions = httpServeOptions(options, serverOptions);
    const { host } = httpOptions;
    if (!isLoopbackHost(host) && options.authToken === undefined && options.oauthIssuer === undefined) {
      say(`warning: listening on ${host} exposes these tools to the network without authentication; set --auth-token (or TOOLWRIGHT_MCP_TOKEN).`);
    }
    const handle = await serveHttp(registry, httpOptions);
    close = closingStore(handle.close, taskStore?.store);
    say(`serving ${what} from ${loaded.source} at ${handle.url}`);
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      say(`${signal} again: exiting now.`);
      process.exit(1);
    }
    stopping = true;
    say(`${signal}: closing sessions...`);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        say(`error while closing: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** The store `--task-store` names: a `postgres://` (or `postgresql://`) URL, else a SQLite file; and where it is, without a password. */
export async function openTaskStore(value: string): Promise<{ store: McpTaskStore; where: string }> {
  const { createPostgresTaskStore, openSqliteTaskStore } = await import('../../stores/index.js');
  if (/^postgres(ql)?:\/\//i.test(value))
    return { store: await createPostgresTaskStore({ connectionString: value }), where: `PostgreSQL at ${serverOf(value)}` };
  return { store: await openSqliteTaskStore({ path: value }), where: value };
}

function closingStore(close: () => Promise<void>, store: McpTaskStore | undefined): () => Promise<void> {
  return async () => {
    await close();
    await store?.close();
  };
}

/** The per-session bounds of either transport, from the command line (absent: the server's defaults). */
export function sessionLimits(options: ServeOptions): Pick<McpServerOptions, 'maxPendingCalls' | 'stoppedCallGraceMs' | 'limits'> {
  const limits: Pick<McpServerOptions, 'maxPendingCalls' | 'stoppedCallGraceMs' | 'limits'> = {};
  if (options.maxPendingCalls !== undefined) limits.maxPendingCalls = options.maxPendingCalls;
  if (options.stoppedCallGraceMs !== undefined) limits.stoppedCallGraceMs = options.stoppedCallGraceMs;
  const callLimits: NonNullable<McpServerOptions['limits']> = {};
  if (options.maxToolCalls !== undefined) callLimits.maxToolCalls = options.maxToolCalls;
  if (options.maxIdenticalCalls !== undefined) callLimits.maxIdenticalCalls = options.maxIdenticalCalls;
  if (options.maxRepeatedFailures !== undefined) callLimits.maxRepeatedFailures = options.maxRepeatedFailures;
  if (Object.keys(callLimits).length > 0) limits.limits = callLimits;
  return limits;
}

/** Where each session's record goes (`--record-dir`); absent: no record. */
export function sessionRecord(options: ServeOptions): Pick<McpServerOptions, 'recordDir'> {
  return options.recordDir === undefined ? {} : { recordDir: options.recordDir };
}

/** What `serveHttp` gets from the command line (`--http` given or not: stdio callers never ask). */
export function httpServeOptions(options: ServeOptions, serverOptions: McpServerOptions = {}): McpHttpOptions & { host: string; port: number } {
  const { host, port } = options.http === undefined || options.http === true ? DEFAULT_HTTP : options.http;
  const httpOptions: McpHttpOptions & { host: string; port: number } = { ...serverOptions, host, port };
  if (options.authToken !== undefined) httpOptions.authToken = options.authToken;
  if (options.allowedHost) httpOptions.allowedHosts = options.allowedHost;
  if (options.allowedOrigin) httpOptions.allowedOrigins = options.allowedOrigin;
  if (options.maxBody !== undefined) httpOptions.maxBodyBytes = options.maxBody;
  if (options.maxSessions !== undefined) httpOptions.maxSessions = options.maxSessions;
  if (options.maxStreams !== undefined) httpOptions.maxStreams = options.maxStreams;
  if (options.maxStreamsPerSession !== undefined) httpOptions.maxStreamsPerSession = options.maxStreamsPerSession;
  if (options.oauthIssuer !== undefined) httpOptions.auth = oauthOptions(options, options.oauthIssuer);
  else if (options.oauthAudience !== undefined || options.oauthJwksUrl !== undefined)
    throw new InvalidArgumentError('--oauth-audience and --oauth-jwks-url need --oauth-issuer, the authorization server whose tokens to accept.');
  return httpOptions;
}

function oauthOptions(options: ServeOptions, issuer: string): NonNullable<McpHttpOptions['auth']> {
  return {
    issuer,
    ...(options.oauthAudience === undefined ? {} : { audience: options.oauthAudience }),
    ...(options.oauthJwksUrl === undefined ? {} : { jwksUrl: options.oauthJwksUrl }),
  };
}

/** `host:port`, `[::1]:port`, `:port` or `port`. */
export function parseHostPort(value: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]+)?:)?(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) {
    throw new CommanderArgumentError(`expected host:port, such as 127.0.0.1:3000 (or a bare port).`);
  }
  const host = match[1] === undefined ? DEFAULT_HTTP.host : match[1].replace(/^\[(.*)\]$/, '$1');
  return { host, port };
}

function parsePositiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number <= 0) throw new CommanderArgumentError(`expected a positive whole number, got "${value}".`);
  return number;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function say(message: string): void {
  process.stderr.write(`toolwright: ${message}\n`);
}
