/**
 * toolwright between an MCP host and the MCP servers it uses: one connection per upstream server, its tools served
 * downstream through one `createMcpServer` per host session, so every call takes the same pipeline as a local tool's
 * (validation against the upstream schema, the policy session with provenance across servers, confirmations through
 * the host's elicitation or an approval queue, limits, the redacted record). Before anything is served, each upstream
 * definition is compared with the one a person approved (`toolwright gateway approve`) and checked for instructions
 * hidden in its text; a definition that changed, was never approved, or is poisoned is withheld.
 * @module
 */
import type { Tracer } from '@opentelemetry/api';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { checkImportedDefinitions } from '../../formats/lint/definition-checks.js';
import type { LintFinding } from '../../formats/lint/index.js';
import type { PolicySpec } from '../../policy/policy-spec.js';
import type { Policy } from '../../policy/types.js';
import { walkSubschemas } from '../../shared/json-schema/walk-schema.js';
import { isPlainObject } from '../../shared/own.js';
import { showInvisible } from '../../shared/visible-text.js';
import { ToolError, ToolRegistry } from '../../tools/index.js';
import type { AnyTool } from '../../tools/index.js';
import { createMcpHandler, type McpHandler, type McpHandlerOptions } from '../web-handler.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createMcpServer, type McpServerOptions } from '../create-mcp-server.js';
import type { McpPrompt } from '../mcp-prompt.js';
import {
  defaultConfirm,
  forwardingTools,
  openMcpConnection,
  type McpConnection,
  type McpHttpServerSpec,
  type McpImportWarning,
  type McpStdioServerSpec,
} from '../import-mcp-tools.js';
import { serveHttp } from '../serve-http-on-call.js';
import type { McpHttpHandle, McpHttpOptions } from '../serve-http.js';
import { serveStdio, type McpStdioHandle, type McpStdioOptions } from '../serve-stdio.js';
import { createFileApprovalQueue } from './approval-queue.js';
import { checkGatewayConfig, expandEnvironment, type GatewayConfig, type GatewayServerConfig } from './gateway-config.js';
import {
  approveDefinitions,
  comparePins,
  definitionDigest,
  emptyPins,
  readPins,
  writePins,
  type DefinitionPin,
  type DefinitionPins,
  type DefinitionState,
} from './definition-pins.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { nodeFileSystem } from '../../shared/node-file-system.js';
import { forwardedPrompts, forwardedResources } from './forward-extras.js';

/** Options of {@link createMcpGateway}: the configuration, and where it came from. */
export interface McpGatewayOptions extends GatewayConfig {
  /** The folder relative paths (`pins`, `recordDir`, `approvalsDir`, a server's `cwd`) are resolved from. Default: the working directory. */
  baseDir?: string;
  /** Where `${env:NAME}` is read from. Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** The gateway's notices (a withheld tool, a server that did not connect, a definition that changed); never a secret. Default: stderr. */
  log?: (line: string) => void;
  /** The tracer for the host's calls (SERVER spans) and the upstream calls (CLIENT spans) (docs/mcp.md, "Traces"). Default: the global tracer. */
  tracer?: Tracer;
}

/** Why an upstream tool is not served. */
export type WithheldReason = 'unapproved' | 'changed' | 'poisoned' | 'unusable';

/** One upstream tool as the gateway sees it. */
export interface GatewayToolStatus {
  server: string;
  /** Its name on the server. */
  remoteName: string;
  /** The name it is served under (when served). */
  name: string | undefined;
  /** Against the pin file: `approved`, `changed`, `new`; `approved` when pinning is off. */
  pin: DefinitionState;
  /** The definition as the server lists it now. */
  descriptor: McpTool;
  /** What a person approved, when the pin file has it. */
  pinned: DefinitionPin | undefined;
  /** The poisoning checks' findings on it. */
  findings: LintFinding[];
  /** Served with its descriptions taken out (`poisoning: "strip"`). */
  stripped: boolean;
  withheld: WithheldReason | undefined;
}

/** A running gateway: its upstream connections and what it serves. */
export interface McpGateway {
  /** The tools served to the host. */
  readonly tools: readonly AnyTool[];
  /** Every upstream tool, served or withheld, with why. */
  readonly status: readonly GatewayToolStatus[];
  /** Upstream servers that could not be reached at start, with the reason. */
  readonly unavailable: readonly { server: string; error: string }[];
  /** What was changed or left out while converting the upstream definitions. */
  readonly warnings: readonly (McpImportWarning & { server: string })[];
  /** Tools the pin file holds for a connected server that it no longer lists. */
  readonly removed: readonly { server: string; remoteName: string; pin: DefinitionPin }[];
  /** The pin file in use, or `undefined` with `pins: false`. */
  readonly pinsPath: string | undefined;
  /**
   * Pins the definitions the servers list now (every connected server's, or the named servers' or remote tools'), in the
   * pin file; they are served from the next start. Returns the tools newly approved.
   */
  approve(options?: { servers?: readonly string[]; tools?: readonly string[] }): Promise<GatewayToolStatus[]>;
  /** The options every downstream session's `createMcpServer` gets (tools aside). */
  readonly serverOptions: McpServerOptions;
  /** A server for one host session over a transport of your own (`server.connect(transport)`), as `createMcpServer` makes it. */
  createServer(): Server;
  serveStdio(options?: Omit<McpStdioOptions, keyof McpServerOptions>): Promise<McpStdioHandle>;
  serveHttp(options?: Omit<McpHttpOptions, keyof McpServerOptions>): Promise<McpHttpHandle>;
  /** The gateway as a web-standard `(Request) => Promise<Response>` handler. */
  createHandler(options?: Omit<McpHandlerOptions, keyof McpServerOptions>): McpHandler;
  /** Disconnects every upstream server (a stdio server's process ends). */
  close(): Promise<void>;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** Connects to every configured upstream server and returns the gateway, ready to serve. */
export async function createMcpGateway(options: McpGatewayOptions): Promise<McpGateway> {
  const config = checkGatewayConfig(stripLocalOptions(options), 'createMcpGateway');
  const baseDir = options.baseDir ?? process.cwd();
  const environment = options.environment ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`[toolwright gateway] ${line}\n`));
  // Upstream processes, the pin file and the folders need a file system: reached here, so that loading toolwright/mcp needs none.
  const { path } = nodeFileSystem('The MCP gateway', 'Run the gateway on Node, Bun or Deno; a web runtime can serve createMcpServer over tools of its own.');
  const at = (file: string) => path.resolve(baseDir, file);
  // Loaded on use, as the file system: the policy session reaches node:crypto.
  const { createPolicy } = await import('../../policy/create-policy.js');

  const names = Object.keys(config.servers);
  const connected = await Promise.all(
    names.map(async (server) => {
      // Values read from ${env:NAME} (a token in an argument, a header, a URL) are put back as ${env:NAME} in any message
      // that quotes the command line or URL: they are secrets, and these messages reach the terminal.
      const substituted = new Map<string, string>();
      try {
        const spec = upstreamSpec(server, config.servers[server]!, environment, at, (name, value) => substituted.set(value, name));
        const connection = await openMcpConnection(spec, `toolwright-gateway`);
        try {
          const listed = await connection.listTools();
          for (const line of unlistedNames(server, config.servers[server]!, listed)) log(line);
          return { server, connection, descriptors: selected(listed, config.servers[server]!) };
        } catch (error) {
          await connection.close();
          throw error;
        }
      } catch (error) {
        return { server, error: withoutSubstitutedValues((error as Error).message, substituted) };
      }
    }),
  );
  const unavailable = connected.flatMap((entry) => ('error' in entry ? [{ server: entry.server, error: entry.error! }] : []));
  for (const { server, error } of unavailable) log(`server "${server}" is not served: ${error}`);
  const upstreams = connected.flatMap((entry) =>
    'connection' in entry ? [entry as { server: string; connection: McpConnection; descriptors: McpTool[] }] : [],
  );

  const pinsPath = config.pins === false ? undefined : at(config.pins ?? 'gateway.pins.json');
  const pins: DefinitionPins = pinsPath === undefined ? emptyPins() : await readPins(pinsPath);
  const nameOf = servedNames(upstreams, config.namespace ?? 'on-collision');

  // Calls to a tool whose definition changed upstream after the gateway started are refused (listed below, per server).
  const changedSinceStart = new Map<string, Set<string>>();
  const refuseChanged = (server: string) => (remoteName: string) =>
    changedSinceStart.get(server)?.has(remoteName) ? changedDefinitionRefusal(server, remoteName) : undefined;

  const convert = (upstream: (typeof upstreams)[number], descriptors: readonly McpTool[]) => {
    const settings = config.servers[upstream.server]!;
    return forwardingTools(upstream.connection, descriptors, {
      nameOf: (remoteName) => nameOf(upstream.server, remoteName),
      confirm: confirmRule(settings),
      requestTimeoutMs: settings.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      serverName: upstream.server,
      refuse: refuseChanged(upstream.server),
      ...(options.tracer ? { tracer: options.tracer } : {}),
    });
  };

  const warnings: (McpImportWarning & { server: string })[] = [];
  const status: GatewayToolStatus[] = [];
  const removed: { server: string; remoteName: string; pin: DefinitionPin }[] = [];
  const candidates: { upstream: (typeof upstreams)[number]; descriptor: McpTool; tool: AnyTool; entry: GatewayToolStatus }[] = [];
  for (const upstream of upstreams) {
    const comparison = pinsPath === undefined ? undefined : comparePins(upstream.server, upstream.descriptors, pins);
    removed.push(...(comparison?.removed ?? []).map(({ name, pin }) => ({ server: upstream.server, remoteName: name, pin })));
    const converted = convert(upstream, upstream.descriptors);
    warnings.push(...converted.warnings.map((warning) => ({ ...warning, server: upstream.server })));
    const byRemote = new Map(converted.tools.map((tool) => [remoteNameOf(tool), tool]));
    upstream.descriptors.forEach((descriptor, index) => {
      const tool = byRemote.get(descriptor.name);
      const entry: GatewayToolStatus = {
        server: upstream.server,
        remoteName: descriptor.name,
        name: tool?.name,
        pin: comparison?.tools[index]?.state ?? 'approved',
        descriptor,
        pinned: comparison?.tools[index]?.pin,
        findings: [],
        stripped: false,
        withheld: tool === undefined ? 'unusable' : undefined,
      };
      status.push(entry);
      if (tool) candidates.push({ upstream, descriptor, tool, entry });
    });
  }

  // Two servers' tools may still end up with one served name: a server that lists "github_search" beside a "search" of
  // its own, when "github" also lists "search". The tool whose name is its own server's prefix keeps it (else the first
  // in config order); the other is left out, so that no server can squat a name or stop the gateway from starting.
  const byServedName = new Map<string, (typeof candidates)[number]>();
  for (const candidate of [...candidates].sort((a, b) => Number(ownPrefix(b)) - Number(ownPrefix(a)))) {
    const holder = byServedName.get(candidate.tool.name);
    if (holder === undefined) {
      byServedName.set(candidate.tool.name, candidate);
      continue;
    }
    candidate.entry.withheld = 'unusable';
    const details = `it would be served as "${candidate.tool.name}", the name "${holder.descriptor.name}" of server "${holder.upstream.server}" is served under; it is left out.`;
    warnings.push({ type: 'skipped', tool: candidate.descriptor.name, feature: 'duplicate-name', details, server: candidate.upstream.server });
  }
  candidates.splice(0, candidates.length, ...candidates.filter((candidate) => candidate.entry.withheld === undefined));

  // Poisoning and shadowing are judged over every server's tools at once (a tool may claim another server's).
  const findings = checkImportedDefinitions(candidates.map((candidate) => candidate.tool));
  const served: AnyTool[] = [];
  for (const candidate of candidates) {
    const { entry, upstream } = candidate;
    entry.findings = findings.filter((finding) => finding.tool === candidate.tool.name);
    let tool: AnyTool | undefined = candidate.tool;
    const blocking = entry.findings.filter((finding) => finding.severity === 'error');
    const action = config.servers[upstream.server]!.poisoning ?? 'block';
    if (blocking.length > 0 && action === 'block') tool = undefined;
    else if (blocking.length > 0 && action === 'strip') {
      const stripped = convert(upstream, [withoutDescriptions(candidate.descriptor)]).tools[0];
      // Judged beside every other server's tools again: stripping leaves the name, and a lookalike name is a finding of the set.
      const others = candidates.filter((other) => other !== candidate).map((other) => other.tool);
      const left =
        stripped && checkImportedDefinitions([...others, stripped]).filter((finding) => finding.tool === stripped.name && finding.severity === 'error');
      tool = stripped && left!.length === 0 ? stripped : undefined;
      entry.stripped = tool !== undefined;
    }
    if (tool === undefined) entry.withheld = 'poisoned';
    else if (entry.pin !== 'approved') entry.withheld = entry.pin === 'new' ? 'unapproved' : 'changed';
    if (entry.withheld === undefined && tool) served.push(tool);
  }
  for (const entry of status) if (entry.withheld !== undefined || entry.findings.length > 0) log(describeStatus(entry, pinsPath, warnings));

  for (const upstream of upstreams) watchDefinitions(upstream, status, changedSinceStart, log);

  const registry = new ToolRegistry(served);
  // A server whose resources or prompts cannot be listed still has its tools served: its extras are left out, and said so.
  const extras = await Promise.all(
    upstreams.map((upstream) =>
      Promise.all([
        forwardedResources(upstream).catch((error: unknown) => {
          log(`server "${upstream.server}": its resources are not served, they could not be listed: ${(error as Error).message}`);
          return { resources: [], templates: [] };
        }),
        forwardedPrompts(upstream).catch((error: unknown) => {
          log(`server "${upstream.server}": its prompts are not served, they could not be listed: ${(error as Error).message}`);
          return [];
        }),
      ]),
    ),
  );
  const resources = firstOfEach(
    extras.flatMap(([forwarded], index) => forwarded.resources.map((resource) => ({ server: upstreams[index]!.server, item: resource, key: resource.uri }))),
    'resource',
    log,
  );
  const resourceTemplates = firstOfEach(
    extras.flatMap(([forwarded], index) =>
      forwarded.templates.map((template) => ({ server: upstreams[index]!.server, item: template, key: template.uriTemplate })),
    ),
    'resource template',
    log,
  );
  const prompts = namespacedPrompts(
    upstreams.map((upstream, index) => ({ server: upstream.server, prompts: extras[index]![1] })),
    config.namespace ?? 'on-collision',
    log,
  );

  const approvals = config.approvalsDir === undefined ? undefined : createFileApprovalQueue(at(config.approvalsDir));
  const serverOptions: McpServerOptions = {
    name: config.name ?? 'toolwright-gateway',
    policy: config.policy ?? gatewayPolicy(config, status, createPolicy),
    ...(config.limits ? { limits: config.limits } : {}),
    ...(config.recordDir ? { recordDir: at(config.recordDir) } : {}),
    ...(config.confirmationTimeoutMs ? { confirmationTimeoutMs: config.confirmationTimeoutMs } : {}),
    ...(approvals ? { confirmationFallback: approvals.handler } : {}),
    approvalHint: gatewayApprovalHint(status),
    ...(options.tracer ? { tracer: options.tracer } : {}),
    resources,
    resourceTemplates,
    prompts,
  };

  return {
    tools: served,
    status,
    unavailable,
    warnings,
    serverOptions,
    removed,
    pinsPath,
    approve: async ({ servers, tools } = {}) => {
      if (pinsPath === undefined)
        throw new InvalidArgumentError('This gateway has pinning off ("pins": false); there is nothing to approve. Remove "pins": false to pin definitions.');
      const unknown = (servers ?? []).filter((server) => !upstreams.some((upstream) => upstream.server === server));
      if (unknown.length > 0) {
        throw new InvalidArgumentError(
          `No connected server is named ${unknown.map((name) => `"${name}"`).join(', ')}; the connected servers are ${upstreams.map((upstream) => `"${upstream.server}"`).join(', ') || 'none'}.`,
        );
      }
      const inScope = upstreams.filter((upstream) => !servers || servers.includes(upstream.server));
      const unlisted = (tools ?? []).filter((name) => !inScope.some((upstream) => upstream.descriptors.some((descriptor) => descriptor.name === name)));
      if (unlisted.length > 0) {
        // Refused rather than skipped: a typo would otherwise approve nothing and say "nothing new to approve".
        throw new InvalidArgumentError(
          `No ${servers ? 'chosen' : 'connected'} server lists a tool named ${unlisted.map((name) => `"${name}"`).join(', ')}. Give each tool's name on its server (not its served <server>_<tool> name); \`toolwright gateway diff\` lists what is waiting for approval.`,
        );
      }
      let next = await readPins(pinsPath);
      const approved: GatewayToolStatus[] = [];
      for (const upstream of upstreams) {
        if (servers && !servers.includes(upstream.server)) continue;
        const chosen = upstream.descriptors.filter((descriptor) => !tools || tools.includes(descriptor.name));
        next = approveDefinitions(next, upstream.server, chosen, tools ? { only: chosen.map((descriptor) => descriptor.name) } : {});
        approved.push(...status.filter((entry) => entry.server === upstream.server && entry.pin !== 'approved' && chosen.includes(entry.descriptor)));
      }
      await writePins(pinsPath, next);
      return approved;
    },
    createServer: () => createMcpServer(registry, serverOptions),
    serveStdio: (serve = {}) => serveStdio(registry, { ...serve, ...serverOptions }),
    serveHttp: (serve = {}) => serveHttp(registry, { ...serve, ...serverOptions }),
    createHandler: (serve = {}) => createMcpHandler(registry, { ...serve, ...serverOptions }),
    close: async () => {
      await Promise.all(upstreams.map((upstream) => upstream.connection.close()));
    },
  };
}

function stripLocalOptions(options: McpGatewayOptions): GatewayConfig {
  const { baseDir: _baseDir, environment: _environment, log: _log, tracer: _tracer, ...config } = options;
  return config;
}

/** The connection spec of one configured server, its `${env:NAME}` references read now. */
function upstreamSpec(
  server: string,
  settings: GatewayServerConfig,
  environment: Readonly<Record<string, string | undefined>>,
  at: (path: string) => string,
  onSubstitute: (name: string, value: string) => void,
): McpStdioServerSpec | McpHttpServerSpec {
  const expand = (value: string, field: string) => expandEnvironment(value, environment, `servers.${server}.${field}`, onSubstitute);
  const expandAll = (map: Readonly<Record<string, string>> | undefined, field: string) =>
    map && Object.fromEntries(Object.entries(map).map(([key, value]) => [key, expand(value, `${field}.${key}`)]));
  if (settings.url !== undefined) {
    const headers = expandAll(settings.headers, 'headers');
    return { url: expand(settings.url, 'url'), ...(headers ? { headers } : {}) };
  }
  const env = expandAll(settings.env, 'env');
  const command = expand(settings.command!, 'command');
  return {
    // A command written as a relative path (`./server.sh`) is the config's, like its other paths: the host picks the working directory.
    command: relativePath(command) ? at(command) : command,
    args: (settings.args ?? []).map((arg, index) => expand(arg, `args[${index}]`)),
    // The SDK's safe subset (PATH, HOME…) plus the configured variables: a server gets no secret it was not given.
    ...(env ? { env: { ...safeEnvironment(environment), ...env } } : {}),
    ...(settings.cwd ? { cwd: at(settings.cwd) } : {}),
    stderr: 'inherit',
  };
}

/** Shorter values are left as they are: hiding every "1" or "on" would garble the message and protect nothing. */
const MIN_HIDDEN_VALUE_LENGTH = 4;
function withoutSubstitutedValues(message: string, substituted: ReadonlyMap<string, string>): string {
  let hidden = message;
  // Longest first, so that a value holding another is hidden whole.
  for (const [value, name] of [...substituted].sort(([a], [b]) => b.length - a.length)) {
    if (value.length < MIN_HIDDEN_VALUE_LENGTH) continue;
    // As written, and as a URL spells it (`href` percent-encodes).
    for (const form of new Set([value, encodeURI(value), encodeURIComponent(value)])) hidden = hidden.split(form).join(`\${env:${name}}`);
  }
  return hidden;
}

const INHERITED_VARIABLES = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'APPDATA', 'SYSTEMROOT', 'TEMP', 'TMP', 'USERPROFILE'];
function safeEnvironment(environment: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(INHERITED_VARIABLES.flatMap((key) => (environment[key] === undefined ? [] : [[key, environment[key]!]])));
}

function selected(descriptors: McpTool[], settings: GatewayServerConfig): McpTool[] {
  const include = settings.include && new Set(settings.include);
  const exclude = new Set(settings.exclude ?? []);
  return descriptors.filter((descriptor) => (!include || include.has(descriptor.name)) && !exclude.has(descriptor.name));
}

/**
 * The config's tool names (include, exclude, deny, confirm, callLimits) that the server does not list: a misspelt `deny`
 * would otherwise leave the tool it meant callable without a word.
 */
function unlistedNames(server: string, settings: GatewayServerConfig, listed: readonly McpTool[]): string[] {
  const names = new Set(listed.map((descriptor) => descriptor.name));
  const fields: [string, readonly string[] | undefined][] = [
    ['include', settings.include],
    ['exclude', settings.exclude],
    ['deny', settings.deny],
    ['confirm', Array.isArray(settings.confirm) ? (settings.confirm as readonly string[]) : undefined],
    ['callLimits', settings.callLimits && Object.keys(settings.callLimits)],
  ];
  return fields.flatMap(([field, given]) => {
    const missing = (given ?? []).filter((name) => !names.has(name));
    return missing.length === 0
      ? []
      : [
          `servers.${server}.${field} names ${missing.map((name) => JSON.stringify(name)).join(', ')}, which the server does not list, so it has no effect; use the tool's name on the server (it lists ${[...names].slice(0, 20).map(showInvisible).join(', ') || 'no tools'}${names.size > 20 ? ', …' : ''}).`,
        ];
  });
}

/** `<server>_<tool>` for every tool (`always`), or only for names more than one server lists (`on-collision`). */
function servedNames(upstreams: readonly { server: string; descriptors: readonly McpTool[] }[], namespace: 'on-collision' | 'always') {
  const servers = new Map<string, number>();
  for (const upstream of upstreams) for (const name of new Set(upstream.descriptors.map((d) => d.name))) servers.set(name, (servers.get(name) ?? 0) + 1);
  return (server: string, remoteName: string) => (namespace === 'always' || (servers.get(remoteName) ?? 0) > 1 ? `${server}_${remoteName}` : remoteName);
}

function confirmRule(settings: GatewayServerConfig): (tool: McpTool) => boolean {
  const setting = settings.confirm ?? 'writes';
  if (setting === 'all') return () => true;
  if (setting === 'none') return () => false;
  if (setting === 'writes') return defaultConfirm;
  const listed = new Set(setting);
  return (tool) => listed.has(tool.name);
}

/** Whether a tool is served under its own server's prefix (`<server>_<remote name>`), the name the gateway gave it. */
function ownPrefix(candidate: { upstream: { server: string }; descriptor: McpTool; tool: AnyTool }): boolean {
  return candidate.tool.name !== candidate.descriptor.name && candidate.tool.name === `${candidate.upstream.server}_${candidate.descriptor.name}`;
}

function remoteNameOf(tool: AnyTool): string {
  return tool.origin.kind === 'mcp' ? (tool.origin.remoteName ?? tool.name) : tool.name;
}

/** The policy a JSON config describes: each server's trust label, its denied tools and call limits, and the flow rule. */
function gatewayPolicy(config: GatewayConfig, status: readonly GatewayToolStatus[], createPolicy: (spec: PolicySpec) => Policy): Policy {
  const servedName = (server: string, remoteName: string) => status.find((entry) => entry.server === server && entry.remoteName === remoteName)?.name;
  const trustedTools: string[] = [];
  const denyTools: string[] = [];
  const callLimits: Record<string, number> = {};
  for (const [server, settings] of Object.entries(config.servers)) {
    if (settings.trust === 'trusted') trustedTools.push(...status.flatMap((entry) => (entry.server === server && entry.name ? [entry.name] : [])));
    for (const remoteName of settings.deny ?? []) {
      const name = servedName(server, remoteName);
      if (name) denyTools.push(name);
    }
    for (const [remoteName, limit] of Object.entries(settings.callLimits ?? {})) {
      const name = servedName(server, remoteName);
      if (name) callLimits[name] = limit;
    }
  }
  return createPolicy({
    name: 'gateway',
    ...(denyTools.length > 0 ? { denyTools } : {}),
    ...(Object.keys(callLimits).length > 0 ? { callLimits } : {}),
    trust: { default: 'untrusted', trustedTools },
    flow: { untrustedWrites: config.untrustedWrites ?? 'confirm' },
  });
}

/** The definition as the host would get it with every description and title taken out (`poisoning: "strip"`). */
function withoutDescriptions(descriptor: McpTool): McpTool {
  const copy = structuredClone(descriptor) as McpTool & Record<string, unknown>;
  delete copy.description;
  delete copy.title;
  if (isPlainObject(copy.annotations)) delete (copy.annotations as Record<string, unknown>).title;
  for (const schema of [copy.inputSchema, copy.outputSchema]) {
    walkSubschemas(schema, ({ schema: node }) => {
      for (const key of ['description', 'title', 'examples', '$comment']) delete node[key];
    });
  }
  return copy;
}

function changedDefinitionRefusal(server: string, remoteName: string): ToolError {
  return new ToolError(
    `the definition of "${remoteName}" on the MCP server "${server}" changed after it was approved, so the gateway no longer sends calls to it`,
    {
      kind: 'unavailable',
      retryable: false,
      suggestion: 'Do not call it again in this session; tell the user that its new definition must be reviewed and approved first.',
    },
  );
}

/**
 * Re-lists a server's tools when it says its list changed: a served tool whose definition now differs from the one the
 * gateway started with is refused from then on (its calls never reach the server), and the change is logged.
 */
function watchDefinitions(
  upstream: { server: string; connection: McpConnection; descriptors: readonly McpTool[] },
  status: readonly GatewayToolStatus[],
  changed: Map<string, Set<string>>,
  log: (line: string) => void,
): void {
  const startDigests = new Map(upstream.descriptors.map((descriptor) => [descriptor.name, definitionDigest(descriptor)]));
  const served = new Set(status.flatMap((entry) => (entry.server === upstream.server && entry.withheld === undefined ? [entry.remoteName] : [])));
  upstream.connection.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    let listed: McpTool[];
    try {
      listed = await upstream.connection.listTools();
    } catch (error) {
      log(`server "${upstream.server}" said its tools changed but could not list them: ${(error as Error).message}`);
      return;
    }
    const now = new Map(listed.map((descriptor) => [descriptor.name, definitionDigest(descriptor)]));
    for (const remoteName of served) {
      if (now.get(remoteName) === startDigests.get(remoteName)) continue;
      const set = changed.get(upstream.server) ?? new Set<string>();
      if (set.has(remoteName)) continue;
      set.add(remoteName);
      changed.set(upstream.server, set);
      log(
        `server "${upstream.server}" ${now.has(remoteName) ? 'changed the definition of' : 'no longer lists'} "${remoteName}"; its calls are refused until it is approved again (toolwright gateway diff, then approve) and the gateway restarted.`,
      );
    }
  });
}

function describeStatus(entry: GatewayToolStatus, pinsPath: string | undefined, warnings: readonly (McpImportWarning & { server: string })[]): string {
  const tool = `"${entry.remoteName}" of server "${entry.server}"`;
  const found = entry.findings.map((finding) => `${finding.rule}: ${finding.message}`).join(' ');
  switch (entry.withheld) {
    case 'poisoned':
      return `withheld ${tool}: its definition holds text addressed to the model (${found}). Review it with \`toolwright lint --imported\`; to serve it anyway set the server's "poisoning" to "strip" or "warn".`;
    case 'unapproved':
      return `withheld ${tool}: it has not been approved. Run \`toolwright gateway approve\` to review and pin it${pinsPath ? ` (in ${pinsPath})` : ''}.`;
    case 'changed':
      return `withheld ${tool}: its definition changed since it was approved. Run \`toolwright gateway diff\` to see how, then \`toolwright gateway approve\`.`;
    case 'unusable': {
      // The import warnings are not printed by the CLI: the reason goes on this line.
      const why = warnings.filter((warning) => warning.server === entry.server && warning.tool === entry.remoteName && warning.type === 'skipped');
      return `left out ${tool}: ${why.map((warning) => warning.details).join(' ') || 'it could not be converted.'}`;
    }
    default:
      return `${entry.stripped ? 'serving without its descriptions' : 'serving, with a warning,'} ${tool}: ${found}`;
  }
}

/** Prompts are named as tools are: `<server>_<name>` when two servers have one of the same name, or always with `namespace: "always"`. */
function namespacedPrompts(
  byServer: readonly { server: string; prompts: readonly McpPrompt[] }[],
  namespace: 'on-collision' | 'always',
  log: (line: string) => void,
): McpPrompt[] {
  const count = new Map<string, number>();
  for (const { prompts } of byServer) for (const prompt of prompts) count.set(prompt.name, (count.get(prompt.name) ?? 0) + 1);
  const named = byServer.flatMap(({ server, prompts }) =>
    prompts.map((prompt) => {
      const prefixed = namespace === 'always' || (count.get(prompt.name) ?? 0) > 1;
      return { server, prefixed, prompt: prefixed ? { ...prompt, name: `${server}_${prompt.name}` } : prompt };
    }),
  );
  // As with tools: a server's own "alpha_summarize" must not take the name of alpha's namespaced "summarize" (the later of
  // two prompts of one name would answer every get), so a prompt under its own server's prefix keeps the name.
  const ordered = [...named].sort((a, b) => Number(b.prefixed) - Number(a.prefixed));
  const kept = new Set(
    firstOfEach(
      ordered.map(({ server, prompt }) => ({ server, item: prompt, key: prompt.name })),
      'prompt',
      log,
    ),
  );
  return named.flatMap(({ prompt }) => (kept.has(prompt) ? [prompt] : []));
}

/**
 * A URI (or URI template) is one address, so it is served once, from the first server that lists it (servers in config
 * order); a later server's copy is left out, and said so, instead of listing the address twice for the host.
 */
function firstOfEach<T>(entries: readonly { server: string; item: T; key: string }[], what: string, log: (line: string) => void): T[] {
  const owner = new Map<string, string>();
  const kept: T[] = [];
  for (const { server, item, key } of entries) {
    const first = owner.get(key);
    if (first === undefined) {
      owner.set(key, server);
      kept.push(item);
    } else if (first !== server) {
      log(`server "${server}" also lists the ${what} ${JSON.stringify(key)}; it is served from server "${first}" only.`);
    }
  }
  return kept;
}

/** What a person can do when the host cannot ask them: the gateway's own ways, never `toolwright serve --approve`, which does not serve it. */
function gatewayApprovalHint(status: readonly GatewayToolStatus[]): (toolName: string, preapprovable: boolean) => string {
  return (toolName, preapprovable) => {
    const entry = status.find((candidate) => candidate.name === toolName);
    const confirm =
      preapprovable && entry
        ? `, or set "confirm" of the server "${entry.server}" in the gateway config so that "${entry.remoteName}" needs nobody ("none", or a list of the tools that do)`
        : '';
    return `use an MCP host that supports elicitation, or add an "approvalsDir" to the gateway config and approve the call with \`toolwright gateway approvals\` or \`toolwright console --gateway\`${confirm}.`;
  };
}

/** `./x` or `../x` (either separator): a path relative to the config's folder, not a command looked up on PATH. */
function relativePath(command: string): boolean {
  return /^\.\.?[\\/]/.test(command);
}
