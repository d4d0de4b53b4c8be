/**
 * Other people's MCP servers as toolwright tools: connect (a command over
 * stdio, or a Streamable HTTP URL), list the tools, and return frozen tools
 * that forward each call. Arguments are validated locally against the
 * remote schema before anything is sent, and the tools carry `effect` and
 * `confirm` derived from the server's annotations, so the registry and the
 * agent runtime's guards, confirmations and policies treat them like local
 * tools.
 *
 * Annotations come from the server and are hints: the default confirms every
 * call a server does not declare read-only or non-destructive.
 *
 * The client declares elicitation, and answers a toolwright server's request
 * to confirm a call with the approval the person gave here (a call that ran
 * with `context.approval`); every other elicitation is declined
 * (answer-confirmations.ts says exactly what is answered).
 * @module
 */
import { context as otelContext, trace, type Context, type Tracer } from '@opentelemetry/api';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Progress, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { upgradeSchemaDialect, type UpgradedSchema } from '../shared/json-schema/upgrade-schema-dialect.js';
import { isPlainObject } from '../shared/own.js';
import { ToolError, compileSchema, defineTool, describeToolNameProblem, suggestToolName, toolResult } from '../tools/index.js';
import { RETRY_FAILS_ADVICE, RETRY_LATER_ADVICE } from '../tools/model-messages.js';
import { listSchemaPatterns, unsupportedPatternReason } from '../tools/schema-patterns.js';
import type { AnyTool, ContentPart, JsonSchemaObject, JsonToolDefinition } from '../tools/index.js';
import { ConfirmationAnswerer } from './answer-confirmations.js';
import { UNUSABLE_TASK_TOOL, callRemoteTask, remoteCallMode } from './call-remote-task.js';
import { listAllPages } from './list-all-pages.js';
import { splitCommandLine } from './split-command-line.js';
import { mcpCallTraceContext } from './mcp-call-context.js';
import { defaultSpanRedactor, startClientCallSpan, type McpNetworkTransport } from './mcp-telemetry.js';

/** A server started as a child process, speaking MCP over its stdin/stdout. */
export interface McpStdioServerSpec {
  command: string;
  args?: readonly string[];
  /** The child's environment. Default: the SDK's safe subset of this process's environment. */
  env?: Record<string, string>;
  cwd?: string;
  /** What to do with the child's stderr. Default `inherit`. */
  stderr?: 'inherit' | 'ignore' | 'pipe';
}

/** A server reached over Streamable HTTP. */
export interface McpHttpServerSpec {
  url: string | URL;
  /** Sent as `Authorization: Bearer <token>`. */
  authToken?: string;
  headers?: Record<string, string>;
}

export interface ImportMcpToolsOptions {
  /** An `http(s)://` URL, a command line to spawn (`"node server.js --stdio"`), or a spec object. */
  server: string | McpStdioServerSpec | McpHttpServerSpec;
  /** Prepended to every imported name (`"gh_"` → `gh_create_issue`), to keep names unique beside other tools. */
  prefix?: string;
  /** Import only these remote tool names. */
  include?: readonly string[];
  /** Whether calls to a remote tool need a person's confirmation. Default: unless the server marks it read-only or non-destructive. */
  confirm?: (tool: McpTool) => boolean;
  /** Per-call limit on waiting for the server, in ms; progress notifications restart it. Default 60 000. */
  requestTimeoutMs?: number;
  /** `clientInfo.name` sent to the server. Default `"toolwright"`. */
  clientName?: string;
  /**
   * The tracer for a CLIENT span per forwarded call (docs/mcp.md, "Traces"), whose context the request carries in
   * `_meta`. Default: the global OpenTelemetry tracer, a no-op unless the application registered an SDK.
   */
  tracer?: Tracer;
}

/** Something about a remote tool that was changed or left out on import. */
export interface McpImportWarning {
  type: 'rewritten' | 'skipped';
  /** The remote tool's name. */
  tool: string;
  /** Stable label: `name`, `description`, `schema-dialect`, `schema`, `pattern`, `duplicate-name`, `task-support`. */
  feature: string;
  details: string;
}

export interface ImportedMcpTools {
  tools: AnyTool[];
  warnings: McpImportWarning[];
  /** What the server said about itself at `initialize`. */
  serverInfo: { name: string; version: string } | undefined;
  /** The connected SDK client, for resources, prompts and anything else the server offers. */
  client: Client;
  /** Disconnects (and stops a stdio server's process). The tools fail after this. */
  close(): Promise<void>;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** Connects to an MCP server and returns its tools as toolwright tools that forward to it. */
export async function importMcpTools(options: ImportMcpToolsOptions): Promise<ImportedMcpTools> {
  const connection = await openMcpConnection(options.server, options.clientName);
  let descriptors: McpTool[];
  try {
    descriptors = await connection.listTools();
  } catch (error) {
    await connection.close();
    throw error;
  }
  const include = options.include ? new Set(options.include) : undefined;
  const { tools, warnings } = forwardingTools(
    connection,
    descriptors.filter((descriptor) => !include || include.has(descriptor.name)),
    {
      nameOf: (remoteName) => (options.prefix ?? '') + remoteName,
      confirm: options.confirm ?? defaultConfirm,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      ...(options.tracer ? { tracer: options.tracer } : {}),
    },
  );
  return { tools, warnings, serverInfo: connection.serverInfo, client: connection.client, close: () => connection.close() };
}

/** One connected MCP server, as `importMcpTools` and the gateway hold it. */
export interface McpConnection {
  client: Client;
  /** How messages name the server: `at <url>` or the quoted command line. */
  label: string;
  /** What the server said about itself at `initialize`, or `label`. */
  serverName: string;
  serverInfo: { name: string; version: string } | undefined;
  /** Whether the connection has closed (a stdio server's process ended, the HTTP session was lost, `close()`). */
  readonly closed: boolean;
  /** `pipe` for a stdio server, `tcp` for Streamable HTTP (spans' `network.transport`). */
  readonly networkTransport: McpNetworkTransport;
  /** The protocol version agreed at `initialize`. */
  readonly protocolVersion: string | undefined;
  /** The Streamable HTTP session id the server gave, when it gave one. */
  readonly sessionId: string | undefined;
  /** The server's whole `tools/list` (every page). */
  listTools(): Promise<McpTool[]>;
  close(): Promise<void>;
  /** @internal Answers a toolwright server's confirmation requests for calls a person approved here. */
  readonly answerer: ConfirmationAnswerer;
}

/** Connects to one MCP server; throws {@link InvalidArgumentError} saying what to check when it cannot. */
export async function openMcpConnection(server: ImportMcpToolsOptions['server'], clientName?: string): Promise<McpConnection> {
  const { transport, label, networkTransport } = await openTransport(server);
  // The client hands the agreed version only to a transport that asks for it (HTTP's does): kept here for every transport.
  let protocolVersion: string | undefined;
  const setProtocolVersion = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (version) => {
    protocolVersion = version;
    setProtocolVersion?.(version);
  };
  // Elicitation is declared so that a toolwright server can ask to confirm a call a person already approved here; the
  // handler answers only that, and declines every other request (answer-confirmations.ts).
  const client = new Client({ name: clientName ?? 'toolwright', version: '0' }, { capabilities: { elicitation: { form: {} } } });
  const answerer = new ConfirmationAnswerer();
  client.setRequestHandler(ElicitRequestSchema, (request) => answerer.answer(request));
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => {});
    throw new InvalidArgumentError(
      `Cannot connect to the MCP server ${label}: ${(error as Error).message}. Check the command or URL, and that the server speaks MCP.`,
      { cause: error },
    );
  }
  const serverVersion = client.getServerVersion();
  const serverName = serverVersion?.name ?? label;
  return {
    client,
    label,
    serverName,
    serverInfo: serverVersion ? { name: serverVersion.name, version: serverVersion.version } : undefined,
    answerer,
    get closed() {
      return closed;
    },
    networkTransport,
    get protocolVersion() {
      return protocolVersion;
    },
    get sessionId() {
      return transport.sessionId;
    },
    async listTools() {
      try {
        return await listAllPages<McpTool>(async (cursor) => {
          const listed = await client.listTools(cursor === undefined ? {} : { cursor });
          return { items: listed.tools, nextCursor: listed.nextCursor };
        });
      } catch (error) {
        throw new InvalidArgumentError(`The MCP server ${label} connected but did not list its tools: ${(error as Error).message}.`, { cause: error });
      }
    },
    close: () => client.close().catch(() => {}),
  };
}

/** How {@link forwardingTools} names, confirms and waits for each remote tool. */
export interface ForwardingOptions {
  /** The name the tool is served or offered under. */
  nameOf: (remoteName: string) => string;
  confirm: (tool: McpTool) => boolean;
  requestTimeoutMs: number;
  /** What the tools' `category` and messages call the server. Default: the name it gave at `initialize`. */
  serverName?: string;
  /** Refuses a call before it is sent (the gateway's withheld definitions): the refusal, or `undefined` to send it. */
  refuse?: (remoteName: string) => ToolError | undefined;
  /** As in {@link ImportMcpToolsOptions.tracer}. */
  tracer?: Tracer;
}

/** The remote tools of a connection as toolwright tools that forward each call to it (converted as `importMcpTools` does). */
export function forwardingTools(
  connection: McpConnection,
  descriptors: readonly McpTool[],
  options: ForwardingOptions,
): { tools: AnyTool[]; warnings: McpImportWarning[] } {
  const { client, answerer } = connection;
  const serverName = options.serverName ?? connection.serverName;
  const warnings: McpImportWarning[] = [];
  const tools: AnyTool[] = [];
  const taken = new Set<string>();
  for (const descriptor of descriptors) {
    const callMode = remoteCallMode(descriptor, client.getServerCapabilities());
    if (callMode === 'unusable') {
      warnings.push({ type: 'skipped', tool: descriptor.name, feature: 'task-support', details: UNUSABLE_TASK_TOOL });
      continue;
    }
    const converted = convertTool(descriptor, { nameOf: options.nameOf, serverName, warnings, taken });
    if (!converted) continue;
    const remoteName = descriptor.name;
    const labels = [...new Set([descriptor.title, descriptor.annotations?.title, remoteName].filter((label): label is string => typeof label === 'string'))];
    const asTask = callMode === 'task';
    tools.push(
      defineTool({
        ...converted,
        ...(asTask ? { longRunning: true } : {}),
        confirm: options.confirm(descriptor),
        execute: async (args: Record<string, unknown>, context) => {
          const refused = options.refuse?.(remoteName);
          if (refused) throw refused;
          if (connection.closed) throw closedConnection(serverName, 'before');
          let result: CallToolResult;
          const span = startClientCallSpan(
            options.tracer,
            {
              toolName: remoteName,
              knownTool: true,
              sessionId: connection.sessionId,
              protocolVersion: connection.protocolVersion,
              transport: connection.networkTransport,
            },
            callerTraceContext(context),
            defaultSpanRedactor,
          );
          const inFlight = answerer.begin(labels, context.approval?.approvedBy === 'person');
          try {
            const requestOptions = {
              signal: context.signal,
              timeout: options.requestTimeoutMs,
              resetTimeoutOnProgress: true,
              onprogress: (progress: Progress) => context.reportProgress(progress.progress, progress.total, progress.message),
            };
            const meta = span.meta && { _meta: span.meta };
            result = asTask
              ? await callRemoteTask(client, remoteName, args, requestOptions, meta)
              : ((await client.callTool({ name: remoteName, arguments: args, ...meta }, undefined, requestOptions)) as CallToolResult);
          } catch (error) {
            span.end({ error });
            throw remoteFailure(serverName, error, connection.closed);
          } finally {
            answerer.end(inFlight);
          }
          span.end({ result });
          const content = (Array.isArray(result.content) ? result.content : []) as ContentPart[];
          if (result.isError === true) throw remoteToolError(serverName, content);
          return toolResult(isPlainObject(result.structuredContent) ? { content, structuredContent: result.structuredContent } : { content });
        },
      }),
    );
  }
  return { tools, warnings };
}

/**
 * The parent of a forwarded call's span: the active span where an OpenTelemetry context manager carries one; else, for a
 * tool served by a toolwright MCP server (the gateway), that call's server span.
 */
function callerTraceContext(context: Parameters<typeof mcpCallTraceContext>[0]): Context {
  const active = otelContext.active();
  if (trace.getSpan(active) !== undefined) return active;
  return mcpCallTraceContext(context) ?? active;
}

/** Options of {@link mcpToolsFromList}. */
export interface McpToolListOptions {
  /** The server's name, for categories, messages and `origin.server`. */
  server: string;
  /** As in {@link ImportMcpToolsOptions.prefix}. */
  prefix?: string;
  /** As in {@link ImportMcpToolsOptions.confirm}. */
  confirm?: (tool: McpTool) => boolean;
}

/**
 * Tools from a saved `tools/list` result (the `tools` array, or the whole result), converted exactly as
 * {@link importMcpTools} converts a live server's, without connecting: for linting someone else's tools.
 * Calling one fails with a message that says to import it from the running server. Entries that are not
 * tool descriptors (no string `name`, no object `inputSchema`) are skipped with a warning: the file is as
 * untrusted as the server that wrote it.
 */
export function mcpToolsFromList(list: unknown, options: McpToolListOptions): { tools: AnyTool[]; warnings: McpImportWarning[] } {
  const entries = isPlainObject(list) && Array.isArray(list.tools) ? (list.tools as unknown[]) : list;
  if (!Array.isArray(entries)) {
    throw new InvalidArgumentError('mcpToolsFromList: expected a tools/list result ({ "tools": [...] }) or its array of tool descriptors.');
  }
  const warnings: McpImportWarning[] = [];
  const tools: AnyTool[] = [];
  const taken = new Set<string>();
  const confirm = options.confirm ?? defaultConfirm;
  entries.forEach((entry, index) => {
    if (!isPlainObject(entry) || typeof entry.name !== 'string' || !isPlainObject(entry.inputSchema)) {
      const label = isPlainObject(entry) && typeof entry.name === 'string' ? entry.name : `#${index}`;
      warnings.push({
        type: 'skipped',
        tool: label,
        feature: 'schema',
        details: 'it is not a tool descriptor with a string "name" and an object "inputSchema".',
      });
      return;
    }
    const descriptor = entry as unknown as McpTool;
    const converted = convertTool(descriptor, { nameOf: (remoteName) => (options.prefix ?? '') + remoteName, serverName: options.server, warnings, taken });
    if (!converted) return;
    tools.push(
      defineTool({
        ...converted,
        confirm: confirm(descriptor),
        execute: () => {
          throw new ToolError(`"${descriptor.name}" was read from a saved tool list of "${options.server}"; import it from the running server to call it`, {
            kind: 'unavailable',
            retryable: false,
          });
        },
      }),
    );
  });
  return { tools, warnings };
}

async function openTransport(server: ImportMcpToolsOptions['server']): Promise<{ transport: Transport; label: string; networkTransport: McpNetworkTransport }> {
  const spec = typeof server === 'string' ? parseServerString(server) : server;
  if ('url' in spec) {
    const url = new URL(spec.url);
    const headers: Record<string, string> = { ...spec.headers };
    if (spec.authToken !== undefined) headers.Authorization = `Bearer ${spec.authToken}`;
    return { transport: await httpClientTransport(url, headers), label: `at ${url.href}`, networkTransport: 'tcp' };
  }
  const parameters: StdioServerParameters = {
    command: spec.command,
    args: [...(spec.args ?? [])],
    stderr: spec.stderr ?? 'inherit',
  };
  if (spec.env) parameters.env = spec.env;
  if (spec.cwd) parameters.cwd = spec.cwd;
  const label = `"${[spec.command, ...(spec.args ?? [])].join(' ')}"`;
  // Imported here, not at the top: the stdio client spawns a process (Node only), and an HTTP server needs none of it.
  // On Windows the SDK's transport stays: its cross-spawn finds `npx` and other `.cmd` shims that a plain spawn does not.
  if (process.platform === 'win32') {
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    return { transport: new StdioClientTransport(parameters), label, networkTransport: 'pipe' };
  }
  const { StdioChildTransport } = await import('./stdio-child-transport.js');
  return { transport: new StdioChildTransport(parameters), label, networkTransport: 'pipe' };
}

/**
 * `HttpClientTransport` (`node:http`; the SDK's `fetch` transport was most of the gateway's CPU per HTTP call in
 * bench:gateway) where the runtime has `node:http` (Node, Bun, Deno); elsewhere (a web runtime) the SDK's transport.
 * Imported on use, so that loading `toolwright/mcp` needs neither.
 */
async function httpClientTransport(url: URL, headers: Record<string, string>): Promise<Transport> {
  try {
    const { HttpClientTransport } = await import('./http-client-transport.js');
    return new HttpClientTransport(url, { headers });
  } catch {
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  }
}

function parseServerString(server: string): McpStdioServerSpec | McpHttpServerSpec {
  if (/^https?:\/\//i.test(server.trim())) return { url: server.trim() };
  const words = splitCommandLine(server);
  if (words.length === 0)
    throw new InvalidArgumentError(
      'importMcpTools: `server` is empty. Give a command line such as "node server.js" or a URL such as http://127.0.0.1:3000/mcp.',
    );
  return { command: words[0]!, args: words.slice(1) };
}

/** Confirms every call a server does not declare read-only or non-destructive (annotations are hints, so the default is cautious). */
export function defaultConfirm(tool: McpTool): boolean {
  const annotations = tool.annotations;
  return !(annotations?.readOnlyHint === true || annotations?.destructiveHint === false);
}

function convertTool(
  descriptor: McpTool,
  context: { nameOf: (remoteName: string) => string; serverName: string; warnings: McpImportWarning[]; taken: Set<string> },
): Omit<JsonToolDefinition<Record<string, unknown>, unknown>, 'execute' | 'confirm'> | undefined {
  const remoteName = descriptor.name;
  const warn = (type: McpImportWarning['type'], feature: string, details: string) => context.warnings.push({ type, tool: remoteName, feature, details });

  let name = context.nameOf(remoteName);
  if (describeToolNameProblem(name) !== undefined) {
    const rewritten = suggestToolName(name);
    warn('rewritten', 'name', `"${name}" is not a name every model provider accepts; it is imported as "${rewritten}".`);
    name = rewritten;
  }
  if (context.taken.has(name)) {
    warn('skipped', 'duplicate-name', `another imported tool is already named "${name}"; give a prefix to keep both.`);
    return undefined;
  }

  let description = typeof descriptor.description === 'string' ? descriptor.description.trim() : '';
  if (description === '') {
    description = `The "${remoteName}" tool of the MCP server "${context.serverName}".`;
    warn('rewritten', 'description', 'the server gave no description; a generic one was used, so the model may not know when to call it.');
  }

  const normalInput = normalizeSchema(descriptor.inputSchema as JsonSchemaObject, 'inputSchema', warn);
  const normalOutput = descriptor.outputSchema === undefined ? undefined : normalizeSchema(descriptor.outputSchema as JsonSchemaObject, 'outputSchema', warn);
  if (normalInput === null || normalOutput === null) return undefined;
  const inputSchema = dropUnsupportedPatterns(normalInput, 'inputSchema', warn);
  const outputSchema = normalOutput === undefined ? undefined : dropUnsupportedPatterns(normalOutput, 'outputSchema', warn);
  if (inputSchema === null || outputSchema === null) return undefined;
  for (const [key, schema] of [
    ['inputSchema', inputSchema],
    ['outputSchema', outputSchema],
  ] as const) {
    if (schema === undefined) continue;
    try {
      compileSchema(schema, name, { pointer: `/${key}` });
    } catch (error) {
      warn(
        'skipped',
        'schema',
        `its ${key} does not compile as JSON Schema (${(error as Error).message}); arguments could not be checked, so it was left out.`,
      );
      return undefined;
    }
  }
  context.taken.add(name);

  const annotations = descriptor.annotations;
  const readOnly = annotations?.readOnlyHint === true;
  const hints: { idempotent?: boolean; openWorld?: boolean; additive?: boolean } = {};
  if (annotations?.idempotentHint !== undefined) hints.idempotent = annotations.idempotentHint;
  if (annotations?.openWorldHint !== undefined) hints.openWorld = annotations.openWorldHint;
  if (annotations?.destructiveHint === false && !readOnly) hints.additive = true;
  const title = descriptor.title ?? annotations?.title;
  return {
    name,
    description,
    ...(title === undefined ? {} : { title }),
    effect: readOnly ? 'read' : 'write',
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    hints,
    category: context.serverName,
    origin: {
      kind: 'mcp',
      server: context.serverName,
      effectAnnotated: annotations?.readOnlyHint !== undefined || annotations?.destructiveHint !== undefined,
      remoteName,
    },
  };
}

function normalizeSchema(
  schema: JsonSchemaObject,
  key: string,
  warn: (type: McpImportWarning['type'], feature: string, details: string) => void,
): JsonSchemaObject | null {
  const declared: unknown = isPlainObject(schema) ? schema.$schema : undefined;
  let upgraded: UpgradedSchema;
  try {
    upgraded = upgradeSchemaDialect(schema, { pointer: `/${key}` });
  } catch (error) {
    warn('skipped', 'schema', `its ${key} cannot be read as JSON Schema (${(error as Error).message}); arguments could not be checked, so it was left out.`);
    return null;
  }
  const copy: JsonSchemaObject = { ...(upgraded.schema as JsonSchemaObject) };
  if (upgraded.dialect !== '2020-12') {
    const ignored =
      upgraded.ignored.length === 0
        ? ''
        : ` Keywords that ${upgraded.dialect} ignores were removed: ${upgraded.ignored.slice(0, 5).join(', ')}${upgraded.ignored.length > 5 ? ` and ${upgraded.ignored.length - 5} more` : ''}.`;
    warn(
      'rewritten',
      'schema-dialect',
      `its ${key} declares ${String(declared)}; it was rewritten into JSON Schema 2020-12 with the same meaning (upgradeSchemaDialect).${ignored}`,
    );
  }
  if (copy.type === undefined) copy.type = 'object';
  return copy;
}

/**
 * A remote schema may hold patterns the linear-time engine refuses (backreferences, lookbehind…).
 * Such a `pattern` is dropped, with a warning: running it with the backtracking RegExp would let
 * the server choose a pattern that freezes this process, and refusing the tool would punish a
 * common, harmless schema; the server still receives the value and may check it itself. A refused
 * `patternProperties` key cannot be dropped without changing which properties other keywords
 * see, so that tool is left out. Returns `null` (for the warning already given) when left out.
 */
function dropUnsupportedPatterns(
  schema: JsonSchemaObject,
  key: string,
  warn: (type: McpImportWarning['type'], feature: string, details: string) => void,
): JsonSchemaObject | null {
  const refused = listSchemaPatterns(schema).flatMap((site) => {
    const reason = unsupportedPatternReason(site.pattern);
    return reason === undefined ? [] : [{ site, reason }];
  });
  if (refused.length === 0) return schema;
  const keyed = refused.find(({ site }) => site.keyword === 'patternProperties');
  if (keyed) {
    warn(
      'skipped',
      'pattern',
      `its ${key} has the patternProperties key ${JSON.stringify(keyed.site.pattern)} at /${key}${keyed.site.pointer}, which toolwright cannot check in linear time (it uses ${keyed.reason}); the properties it covers could not be validated, so the tool was left out.`,
    );
    return null;
  }
  const copy = structuredClone(schema);
  for (const site of listSchemaPatterns(copy)) {
    const found = refused.find((entry) => entry.site.pointer === site.pointer);
    if (!found) continue;
    delete site.holder.pattern;
    warn(
      'rewritten',
      'pattern',
      `its ${key} pattern ${JSON.stringify(site.pattern)} at /${key}${site.pointer} cannot be checked in linear time (it uses ${found.reason}); it was dropped, so toolwright does not check that value against it before the call, and the model is not shown it.`,
    );
  }
  return copy;
}

function remoteFailure(serverName: string, error: unknown, connectionClosed: boolean): ToolError {
  // Already written for the model (a remote task that ended without a result, call-remote-task.ts).
  if (ToolError.isInstance(error)) return error;
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) {
      return new ToolError(`the MCP server "${serverName}" did not answer in time`, { kind: 'unavailable', cause: error });
    }
    if (error.code === ErrorCode.ConnectionClosed || connectionClosed) return closedConnection(serverName, 'during', error);
    return new ToolError(`the MCP server "${serverName}" refused the call: ${error.message.replace(/^MCP error -?\d+: /, '')}`, {
      kind: 'invalid_request',
      cause: error,
    });
  }
  // The SDK rejects a call on a closed transport with a plain Error ("Not connected"); retrying cannot reopen it.
  if (connectionClosed) return closedConnection(serverName, 'during', error);
  return new ToolError(`the MCP server "${serverName}" could not be reached`, { kind: 'unavailable', cause: error });
}

/** The connection is gone for good (a stdio server's process ended): no retry can succeed until it is started again. */
function closedConnection(serverName: string, when: 'before' | 'during', cause?: unknown): ToolError {
  return new ToolError(
    when === 'before'
      ? `the connection to the MCP server "${serverName}" is closed (its process ended or its session was lost), so the call was not sent`
      : `the connection to the MCP server "${serverName}" closed before it answered, so whether the call took effect is unknown`,
    {
      kind: 'unavailable',
      retryable: false,
      suggestion: 'Do not call its tools again in this session; tell the user the server has stopped and must be restarted.',
      ...(cause === undefined ? {} : { cause }),
    },
  );
}

/**
 * A remote tool's `isError` result as a tool error. A toolwright server (or gateway) upstream already wrote its text for a
 * model (`Tool "x" failed: … Retrying …`): that frame is taken off, so the model does not read it twice, and its retry
 * advice is kept.
 */
function remoteToolError(serverName: string, content: readonly ContentPart[]): ToolError {
  let text = content
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n')
    .trim();
  if (text === '') return new ToolError(`the MCP server "${serverName}" reported a failure without a message`, { kind: 'failed' });
  let retryable: boolean | undefined;
  const framed = REMOTE_FRAME.exec(text);
  if (framed) {
    text = framed[1]!.trim();
    if (text.endsWith(RETRY_LATER_ADVICE)) [text, retryable] = [text.slice(0, -RETRY_LATER_ADVICE.length).trim(), true];
    else if (text.endsWith(RETRY_FAILS_ADVICE)) [text, retryable] = [text.slice(0, -RETRY_FAILS_ADVICE.length).trim(), false];
  }
  return new ToolError(text, { kind: 'failed', ...(retryable === undefined ? {} : { retryable }) });
}

// The frame of toolErrorMessage (src/tools/model-messages.ts), as a toolwright server sends it.
const REMOTE_FRAME = /^Tool "[^"\n]{1,200}" failed: ([\s\S]*)$/;
