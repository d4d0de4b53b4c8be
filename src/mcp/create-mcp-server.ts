/**
 * A toolwright registry as an MCP server (the SDK's low-level `Server`, so
 * tool schemas stay the raw JSON Schema the tools declare). One server serves
 * one client connection; the HTTP transport makes one per session.
 *
 * Error channels (see docs/mcp.md): anything the model can fix or reason
 * about is a tool result with `isError: true` (invalid arguments, a tool that
 * failed, a refused confirmation); a request the server cannot even route is
 * a JSON-RPC error (unknown tool -32602, unknown method -32601, malformed
 * params -32602, internal failures -32603).
 * @module
 */
import { context as otelContext, type Context, type Tracer } from '@opentelemetry/api';
import { randomHex } from '../shared/bytes.js';
import { nodeBuiltin } from '../shared/node-builtin.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  ListToolsRequestSchema,
  LoggingLevelSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolRequest, CallToolResult, LoggingLevel, ServerCapabilities, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallGuard } from '../agent/calls/call-policy.js';
import { runRedactor } from '../agent/redact.js';
import { RunRecorder } from '../agent/run-recorder.js';
import { notePreparedCall, type GuardDecision, type GuardedCall, type ToolGuardLimits, type ToolGuards } from '../agent/tool-guards.js';
import { toMcpCallToolResult } from '../formats/mcp/to-mcp-call-tool-result.js';
import type { Policy } from '../policy/types.js';
import { toMcpTools } from '../formats/mcp/to-mcp-tools.js';
import type { Redactor } from '../shared/redaction/index.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { safeParseJson } from '../shared/safe-json.js';
import { needsConfirmation, schedulingEffect, summarizeCall } from '../tools/call-rules.js';
import { approvalText } from '../tools/call-summary.js';
import { ToolError, ToolRegistry, stderrLogger } from '../tools/index.js';
import { blockedByStillRunningMessage, stillRunningMessage } from '../tools/model-messages.js';
import { StoppedCalls } from '../tools/stopped-calls.js';
import type { AnyTool, ToolCallApproval, ToolCallRequest, ToolEffect, ToolExecution, ToolLogger, ToolResult } from '../tools/index.js';
import { runWithMcpCall } from './mcp-call-context.js';
import { EffectGate } from './effect-gate.js';
import { elicitationFailedLogLine, elicitationFailedMessage, elicitationFailure } from './elicitation-failure.js';
import type { McpCallContext, McpCallHandle } from './mcp-call-context.js';
import {
  CONFIRMATION_SCHEMA,
  confirmationFailedMessage,
  confirmationMessage,
  confirmationRefusedMessage,
  confirmationUnavailableMessage,
  decisionFromElicitation,
} from './mcp-confirmation.js';
import type { McpConfirmationDecision, McpConfirmationHandler } from './mcp-confirmation.js';
import type { McpPrompt } from './mcp-prompt.js';
import type { McpResource, McpResourceTemplate } from './mcp-resource.js';
import { installCompletionHandler, installPromptHandlers } from './install-prompt-handlers.js';
import { compileTemplates, installResourceHandlers } from './install-resource-handlers.js';
import { paginate } from './paginate.js';
import { authIdentityOf, sessionOwnerOf } from './auth/mcp-auth-gate.js';
import type { McpAuthIdentity, McpAuthOptions } from './auth/mcp-auth-options.js';
import { grantedScopes, toolScopes } from './auth/tool-scopes.js';
import { checkedCallLimits, createSessionGuards } from './session-guards.js';
import { startSessionRecord, type SessionRecord } from './session-record.js';
import { ProtocolError } from './protocol-error.js';
import { StrictParamsServer } from './strict-params-server.js';
import { StdioLineTransport } from './stdio-line-transport.js';
import { startServerCallSpan, type McpNetworkTransport } from './mcp-telemetry.js';
import type { McpTaskStore } from '../stores/mcp-task-store.js';
import { TOOL_TASK_CAPABILITIES, ToolTasks, askClient, notTaskCapableMessage, withoutTaskSupport } from './tool-tasks.js';

/** Tools to serve: a registry (validators already compiled) or a list of tools. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as AnyTool: a source written without a context type takes any tool.
export type McpToolSource<Ctx = any> = ToolRegistry | readonly AnyTool<Ctx>[];

/** What a server's `context` factory is told about one `tools/call`. */
export interface McpCallInfo {
  /** The tool called (it exists and its arguments are valid). */
  toolName: string;
  /** The JSON-RPC request id, also the tool's `context.toolCallId`. */
  requestId: string;
  /** The transport's session id (Streamable HTTP); `undefined` on stdio. */
  sessionId: string | undefined;
  /** What an authenticating HTTP layer attached to the request (the MCP SDK's `AuthInfo`: token, client id, scopes…), when any. */
  authInfo: Readonly<Record<string, unknown>> | undefined;
  /** The HTTP request's headers (Streamable HTTP); `undefined` on stdio. */
  headers: Readonly<Record<string, string | string[] | undefined>> | undefined;
  /** Who the request's access token speaks for (subject, client id, scopes), when the server's `auth` option checked one; never the token. */
  auth?: McpAuthIdentity;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as McpToolSource.
export interface McpServerOptions<Ctx = any> {
  /**
   * Makes the run context for each `tools/call` (from its session, auth info or headers), given to the tool's `confirm`,
   * `summarize` and `execute` as `context`, as `runAgent({ context })` does. Called once per valid call, before the
   * confirmation. A factory that throws or rejects fails that call only (the client reads a neutral error; the error
   * goes to the logger). Default: none, `context` is `undefined`.
   */
  context?: (call: McpCallInfo) => Ctx | Promise<Ctx>;
  /** `serverInfo.name`. Default `"toolwright"`. */
  name?: string;
  /** `serverInfo.version`. Default: toolwright's own version. */
  version?: string;
  /** Sent in the `initialize` result; clients may add it to the model's system prompt. */
  instructions?: string;
  resources?: readonly McpResource[];
  resourceTemplates?: readonly McpResourceTemplate[];
  prompts?: readonly McpPrompt[];
  /** Items per page of `tools/list`, `resources/list`… Default 100. */
  pageSize?: number;
  /** Tool names that run without confirmation even though their `confirm` rule says yes (`serve --approve`). */
  preapproved?: readonly string[];
  /** Decides confirmations instead of asking through elicitation. */
  confirmation?: McpConfirmationHandler;
  /**
   * Decides confirmations only for a client that did not declare elicitation (and, in `createMcpHandler`'s stateless
   * mode, where no client's capabilities are known): a queue a person answers elsewhere, such as the gateway's
   * approval folder. A client that declared elicitation is asked through it, and this is never called. Ignored when
   * `confirmation` is given, which decides every confirmation. Default: none, such a call is refused with a text that
   * says how to get it approved.
   */
  confirmationFallback?: McpConfirmationHandler;
  /**
   * The other ways a person can let a call run, told to the model when the client cannot ask them (no elicitation, or
   * asking failed): the end of "To approve it they can …", given the tool and whether lifting the tool's own `confirm`
   * rule would do (`false` when the policy or the guard asked). Default: an MCP client that supports elicitation, or
   * `toolwright serve --approve <tool>` when that would do. The gateway names its own ways.
   */
  approvalHint?: (toolName: string, preapprovable: boolean) => string;
  /** How long to wait for a person's answer to a confirmation, in ms. Default 10 minutes. */
  confirmationTimeoutMs?: number;
  /** Where internal failures go (tool crashes, resource readers that throw). Default: stderr. Never sent to the client. */
  logger?: ToolLogger;
  /** Log level used until the client sends `logging/setLevel`. Default `"info"`. */
  defaultLogLevel?: LoggingLevel;
  /**
   * How one session's concurrent `tools/call`s run. `by-effect` (default): reads overlap, each write runs alone, in the
   * order the calls arrived (after its confirmation, which is asked first). `concurrent`: every call starts at once.
   */
  callScheduling?: 'by-effect' | 'concurrent';
  /**
   * With `by-effect` scheduling: how long a call that was cancelled or timed out may take to end when its tool ignores
   * the abort, in ms. Its slot stays held until its tool's work ends: a write stopped by the client keeps the session's
   * other calls waiting meanwhile. One still running past this answers "whether it took effect is unknown" (a write),
   * and until it ends the session's calls it must not overlap (every call, for a write; writes, for a read) are
   * refused at once with an `isError` result. Default 5000.
   */
  stoppedCallGraceMs?: number;
  /**
   * Most `tools/call` requests of one session unanswered at once (being confirmed, waiting for their turn, running);
   * one more is answered at once with an `isError` result that names this limit. Default 64.
   */
  maxPendingCalls?: number;
  /**
   * The policy (`createPolicy`), as `runAgent({ policy })` takes it: each session starts its own policy session, which
   * decides every valid call (block, ask a person, allow) and screens every result. Default: none.
   */
  policy?: Policy;
  /**
   * The caller's hook, consulted after the policy for every valid call, as `runAgent({ guardToolCall })`; its `context` is
   * the call's (from the `context` factory). `block` answers the call with an `isError` result carrying the message;
   * `confirm` asks the person as the tool's own `confirm` rule does. Default: none.
   */
  guardToolCall?: ToolCallGuard<Ctx>;
  /**
   * Per session: `maxToolCalls` (tool calls run; one more is answered with an `isError` result, and so is every later
   * call of the session), the loop breaker's `maxRepeatedFailures` and `maxIdenticalCalls` (the same tool and arguments
   * failing or called this many times stops the session's tool use), and `toolTimeoutMs` (for tools that set none).
   * Default: none of them (unlike `runAgent`, the loop breaker is off unless one of its limits is given).
   */
  limits?: Pick<ToolGuardLimits, 'maxToolCalls' | 'maxRepeatedFailures' | 'maxIdenticalCalls' | 'toolTimeoutMs'>;
  /**
   * A folder for one JSONL record per session (`<runId>.jsonl`, a fresh `mcp_…` run id per session, file mode 0600), as
   * `runAgent({ recordDir })` writes a run's: each call's `tool_call`, the policy's `policy_decision`s and its
   * `tool_result`, redacted as a run's record is (the tools' `writeOnly` fields, known secret shapes), between a
   * `run_started` line on the session's first call and a `stop` line when it closes (docs/mcp.md, "A record per session").
   * No confirmation events: the person's answer is asked through elicitation. Default: none, no record.
   */
  recordDir?: string;
  /**
   * OAuth 2.1 as a resource server (docs/mcp.md, "OAuth"): over Streamable HTTP, every request needs a bearer JWT from
   * `issuer` for this server's audience, and each tool needs its scopes (`tools:read` for reads, `tools:write` for writes,
   * or `scopes[tool]`): a tool the token's scopes do not cover is not listed, and calling it is refused. A transport that
   * carries no verified token (stdio) lists and runs no tool. Default: none.
   */
  auth?: McpAuthOptions;
  /**
   * Offer the long-running tools (`defineTool({ longRunning: true })`) as tasks (docs/mcp.md, "Tasks"). Default `true`;
   * `false` lists them without `execution.taskSupport` and answers a task call -32601, as `createMcpHandler`'s stateless
   * mode does, where no session would keep the task.
   */
  tasks?: boolean;
  /**
   * Where tasks are kept (docs/mcp.md, "Tasks that outlive a session or a restart"): a store shared by every session of
   * the server (`createMemoryTaskStore()`), or kept across restarts and instances (`openSqliteTaskStore`,
   * `createPostgresTaskStore` from `toolwright/stores`). Default: each session keeps its tasks in memory, and its end
   * ends them.
   */
  taskStore?: McpTaskStore;
  /**
   * The tracer for a SERVER span per `tools/call` (docs/mcp.md, "Traces"), the child of the trace context the request's
   * `_meta` carries. Default: the global OpenTelemetry tracer, a no-op unless the application registered an SDK.
   */
  tracer?: Tracer;
}

const DEFAULT_PAGE_SIZE = 100;
const DEFAULT_CONFIRMATION_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_MAX_PENDING_CALLS = 64;
const LOG_LEVELS = LoggingLevelSchema.options;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The resource URIs each server's client subscribed to (read by the transports to route `notifications/resources/updated`). */
export const resourceSubscriptions = new WeakMap<Server, Set<string>>();

/** Builds an MCP server over `tools`, ready to `connect` to one transport. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as McpToolSource.
export function createMcpServer<Ctx = any>(tools: McpToolSource<Ctx>, options: McpServerOptions<Ctx> = {}): Server {
  return createStrictMcpServer(tools, options);
}

/** {@link createMcpServer}, typed as the subclass the transports use (it can cancel a request). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as McpToolSource.
export function createStrictMcpServer<Ctx = any>(tools: McpToolSource<Ctx>, options: McpServerOptions<Ctx> = {}): StrictParamsServer {
  const logger = options.logger ?? stderrLogger;
  const registry = tools instanceof ToolRegistry ? tools : new ToolRegistry(tools, { logger });
  const resources = options.resources ?? [];
  const templates = compileTemplates(options.resourceTemplates ?? []);
  const prompts = options.prompts ?? [];
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;

  const capabilities: ServerCapabilities = { tools: { listChanged: false }, logging: {} };
  if (resources.length > 0 || templates.length > 0) capabilities.resources = { subscribe: true, listChanged: false };
  if (prompts.length > 0) capabilities.prompts = { listChanged: false };
  if (prompts.length > 0 || templates.length > 0) capabilities.completions = {};
  const longRunning = new Set(options.tasks === false ? [] : registry.list().flatMap((tool) => (tool.longRunning === true ? [tool.name] : [])));
  if (longRunning.size > 0) capabilities.tasks = TOOL_TASK_CAPABILITIES;

  // Strict: never send the client a request (sampling, elicitation) it did not declare it can answer; it would hang until timeout.
  const serverOptions: ConstructorParameters<typeof StrictParamsServer>[1] = { capabilities, enforceStrictCapabilities: true };
  if (options.instructions !== undefined) serverOptions.instructions = options.instructions;
  // Made before the server, which answers tasks/get, tasks/result, tasks/list and tasks/cancel from its store; it reads the server when a task starts.
  const tasks =
    longRunning.size > 0
      ? new ToolTasks({
          server: () => server,
          logger,
          shared: options.taskStore,
          requester: { identity: () => sessionOwnerOf(server.sessionAuthInfo) },
          redactor: () => summaryRedactor(),
          effectOf: (toolName) => registry.get(toolName)?.effect,
        })
      : undefined;
  if (tasks) [serverOptions.taskStore, serverOptions.taskMessageQueue] = [tasks.store, tasks.queue];
  const server = new StrictParamsServer({ name: options.name ?? 'toolwright', version: options.version ?? toolwrightVersion() }, serverOptions);

  let logLevel: LoggingLevel = options.defaultLogLevel ?? 'info';
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    logLevel = request.params.level;
    return {};
  });
  const logThreshold = () => logLevel;

  const described = toMcpTools(registry).tools.map((tool) => (tool.execution === undefined || longRunning.has(tool.name) ? tool : withoutTaskSupport(tool)));
  const scopes = options.auth && toolScopes(registry, options.auth);
  server.setRequestHandler(ListToolsRequestSchema, (request, extra) => {
    const granted = scopes && grantedScopes(extra.authInfo);
    const visible = scopes ? described.filter((tool) => scopes.covers(tool.name, granted)) : described;
    const { page, nextCursor } = paginate(visible, request.params?.cursor, pageSize);
    return nextCursor === undefined ? { tools: page } : { tools: page, nextCursor };
  });

  const preapproved = new Set(options.preapproved ?? []);
  // One gate per server, and a server serves one session (stdio, or one Streamable HTTP session).
  const slots = options.callScheduling === 'concurrent' ? undefined : { gate: new EffectGate(), stoppedCalls: new StoppedCalls(options.stoppedCallGraceMs) };
  const maxPendingCalls = options.maxPendingCalls ?? DEFAULT_MAX_PENDING_CALLS;
  if (!Number.isInteger(maxPendingCalls) || maxPendingCalls < 1) {
    throw new InvalidArgumentError(`createMcpServer: \`maxPendingCalls\` must be a positive integer (got ${String(options.maxPendingCalls)}).`);
  }
  const limits = checkedCallLimits(options.limits);
  const recordDir = options.recordDir;
  // A recorded session's calls go through its guards, so that the record's events are the pipeline's own.
  const guarded = options.policy !== undefined || options.guardToolCall !== undefined || limits !== undefined || recordDir !== undefined;
  let guards: ToolGuards | undefined;
  let record: SessionRecord | undefined;
  // Who the session's first call came from, for its record.
  let sessionAuth: McpAuthIdentity | undefined;
  // Made on the session's first call: the policy session starts with it, and most sessions of a server without these options never need it.
  const sessionGuards = () => {
    if (guards) return guards;
    const runId = `mcp_${Date.now().toString(36)}${randomHex(5)}`;
    if (recordDir !== undefined)
      record = startSessionRecord(server, registry, runId, RunRecorder.pathFor(recordDir, runId), summaryRedactor(), limits, sessionAuth);
    const recorder = record?.recorder;
    return (guards = createSessionGuards(registry, {
      policy: options.policy,
      guardToolCall: options.guardToolCall,
      limits,
      preapproved: options.preapproved,
      runId,
      onEvent: recorder && ((event) => recorder.write(event)),
    }));
  };
  let pendingCalls = 0;
  let redactor: Redactor | undefined;
  // Built on the first confirmation or record: most servers do neither, and the tools' schemas are read once. The run's redactor, as a record needs.
  const summaryRedactor = () => (redactor ??= runRedactor({ tools: registry }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    // Answered at once with the task; the call itself runs through this same handler, under the task's signal.
    if (request.params.task !== undefined) return (await startTask(request, extra)) as CallToolResult;
    return traced(request, extra, (traceContext) => answerCounted(request, extra, traceContext));
  });

  /** Runs one call inside its SERVER span (under the span's context when it records, so that the tool's own spans nest in it). */
  async function traced(request: CallToolRequest, extra: Extra, run: (traceContext: Context | undefined) => Promise<CallToolResult>): Promise<CallToolResult> {
    const span = startServerCallSpan(
      options.tracer,
      {
        toolName: request.params.name,
        knownTool: registry.has(request.params.name),
        requestId: extra.requestId,
        sessionId: extra.sessionId,
        protocolVersion: server.protocolVersion ?? headerValue(extra, 'mcp-protocol-version'),
        transport: networkTransport(server, extra),
      },
      request.params._meta,
      summaryRedactor,
    );
    let result: CallToolResult;
    try {
      result = span.context === undefined ? await run(undefined) : await otelContext.with(span.context, () => run(span.context));
    } catch (error) {
      span.end({ error });
      throw error;
    }
    span.end({ result });
    return result;
  }

  async function startTask(request: CallToolRequest, extra: Extra) {
    const name = request.params.name;
    if (!registry.has(name)) return answerCall(request, extra);
    if (!tasks || !longRunning.has(name)) throw new ProtocolError(ErrorCode.MethodNotFound, notTaskCapableMessage(name));
    // Refused now, as inline, rather than as a failed task.
    refuseUncoveredScope(name, extra);
    return tasks.start(extra, name, (taskExtra) => traced(request, taskExtra, (traceContext) => answerCounted(request, taskExtra, traceContext)));
  }

  async function answerCounted(request: CallToolRequest, extra: Extra, traceContext: Context | undefined): Promise<CallToolResult> {
    // A tool result, not a JSON-RPC error: the call was well formed, and the model can act on "wait, then fewer at once".
    if (pendingCalls >= maxPendingCalls) return errorResult(tooManyPendingCallsMessage(String(request.params.name).slice(0, 80), maxPendingCalls));
    pendingCalls++;
    sessionAuth ??= authIdentityOf(extra.authInfo);
    try {
      return await answerCall(request, extra, traceContext);
    } finally {
      pendingCalls--;
    }
  }

  /** The HTTP layer answers this with 403 first; here for a transport that does not (the tool is not listed to this token either). */
  function refuseUncoveredScope(toolName: string, extra: Extra): void {
    if (scopes && registry.has(toolName) && !scopes.covers(toolName, grantedScopes(extra.authInfo))) {
      throw new ProtocolError(ErrorCode.InvalidRequest, insufficientScopeMessage(toolName, scopes.required(toolName) ?? []));
    }
  }

  async function answerCall(request: CallToolRequest, extra: Extra, traceContext?: Context): Promise<CallToolResult> {
    const callId = String(extra.requestId);
    const toolCall = { id: callId, name: request.params.name, arguments: request.params.arguments ?? {} };
    refuseUncoveredScope(toolCall.name, extra);
    const prepared = registry.prepare(toolCall);
    if (!prepared.success) {
      // SEP-1303: arguments that fail validation are a tool error the model can correct; a tool that does not exist is a protocol error.
      if (prepared.failure.code === 'unknown_tool') {
        // The record holds the call as runAgent's would (refused, unknown tool); the client still gets the protocol error.
        if (recordDir !== undefined) await sessionGuards().run(toolCall);
        throw new ProtocolError(ErrorCode.InvalidParams, prepared.failure.message);
      }
      // The guards answer it with the same text, and count it for the loop breaker as runAgent does.
      return guarded ? toMcpCallToolResult((await sessionGuards().run(toolCall)).result) : errorResult(prepared.failure.message);
    }
    const { tool } = prepared;

    const call = new ServerCall(server, extra, logThreshold, traceContext);

    let context: unknown;
    if (options.context) {
      try {
        context = await options.context(callInfo(tool.name, callId, extra));
      } catch (error) {
        logger.error(`the context factory failed for "${tool.name}"`, { toolName: tool.name, error });
        return errorResult(contextFailedMessage(tool.name));
      }
    }
    if (!guarded) return runCall(request, extra, call, tool, prepared.arguments, context, undefined, toolCall);
    // The guards check and run this same call object, validated here once.
    notePreparedCall(toolCall, registry, prepared);
    const decision = await sessionGuards().check(toolCall, { context });
    // A refused call goes through `run` too: a blocked one counts for the loop breaker, and the text is the guards' own.
    if (decision.action === 'refuse') return toMcpCallToolResult((await sessionGuards().run(toolCall, { context })).result);
    return await runCall(request, extra, call, tool, decision.arguments, context, decision, toolCall);
  }

  /**
   * Asks a person when the call needs one (the guards decided it, the tool's rule among them; without guards, the tool's
   * rule and `preapproved`), then runs the call in its slot (through the guards when the session has them).
   */
  async function runCall(
    request: CallToolRequest,
    extra: Extra,
    call: ServerCall,
    tool: AnyTool,
    args: unknown,
    context: unknown,
    decision: Exclude<GuardDecision, { action: 'refuse' }> | undefined,
    /** The call as the guards check, run or decline it: the object `decision` was made for. */
    toolCall: ToolCallRequest,
  ): Promise<CallToolResult> {
    const callId = String(extra.requestId);
    // A call a person approved here carries that approval to its tool (`context.approval`): an imported tool forwarding
    // it to another toolwright server answers that server's confirmation with it. `--approve` is no person's approval.
    let approval: ToolCallApproval | undefined;
    const asks = decision ? decision.action === 'confirm' : !preapproved.has(tool.name) && needsConfirmation(tool, args, context);
    if (asks) {
      const summary = decision?.action === 'confirm' ? decision.summary : summarizeCall(tool, args, { redactor: summaryRedactor(), context });
      // `--approve` lifts only the tool's own rule: it would not help a call the policy or the guard wants asked about.
      const preapprovable = decision?.action !== 'confirm' || decision.askedBy === 'tool';
      const refusal = await confirm(server, extra, tool, args, summary, summaryRedactor(), options, preapprovable);
      if (refusal !== undefined) {
        // The guards end a call the person said no to, so that the record says `declined` as a run's does.
        if (refusal.declined && guards) guards.decline(toolCall, refusal.text);
        return errorResult(refusal.text);
      }
      approval = { approvedBy: 'person', summary };
    }

    const progressToken = request.params._meta?.progressToken;
    // Made for this call alone, even when nobody listens: currentMcpCall(context) finds the call by it.
    const onProgress = (progress: number, total?: number, message?: string) => {
      if (progressToken === undefined) return;
      void call.notify({
        method: 'notifications/progress',
        params: { progressToken, progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) },
      });
    };
    const checkedBy = decision && guards;
    const execute = (): Promise<ToolExecution | GuardedCall> =>
      checkedBy
        ? runWithMcpCall(call, onProgress, () =>
            // The guards asked for the person (the tool's own rule included), so they hand the approval to the tool (`context.approval`).
            checkedBy.run(toolCall, {
              signal: extra.signal,
              onProgress,
              context,
              ...(decision.action === 'confirm' ? { approved: true } : {}),
            }),
          )
        : runWithMcpCall(call, onProgress, () =>
            registry.execute(callId, tool, args, { signal: extra.signal, onProgress, context, ...(approval ? { approval } : {}) }),
          );
    const effect = schedulingEffect(tool);
    const result = slots
      ? await slots.gate.run(effect, extra.signal, () => runHoldingSlot(slots.stoppedCalls, effect, tool.name, callId, logger, execute))
      : (await execute()).result;
    await call.notificationsSent();
    return toWireResult(result, tool, logger);
  }

  server.onSessionClosed(() => record?.finish(guards));
  if (tasks) server.onSessionClosed(() => tasks.close());

  const subscriptions = new Set<string>();
  resourceSubscriptions.set(server, subscriptions);
  if (capabilities.resources) installResourceHandlers(server, { resources, templates, pageSize, logger, subscriptions });
  if (capabilities.prompts) installPromptHandlers(server, { prompts, pageSize, logger });
  if (capabilities.completions) installCompletionHandler(server, { prompts, templates, logger });
  return server;
}

/** What the context factory is told: copies, so that it cannot change what the transport holds. */
function callInfo(toolName: string, requestId: string, extra: Extra): McpCallInfo {
  const auth = authIdentityOf(extra.authInfo);
  const headers = extra.requestInfo?.headers && { ...extra.requestInfo.headers };
  // The `auth` option checked the token: the factory is told who it speaks for, never the token itself.
  if (auth && headers) delete headers.authorization;
  return {
    toolName,
    requestId,
    sessionId: extra.sessionId,
    authInfo: extra.authInfo ? { ...extra.authInfo } : undefined,
    headers,
    ...(auth ? { auth } : {}),
  };
}

/**
 * Runs a call inside its gate slot, which it keeps until its tool's work has ended: a call stopped early waits here for
 * its tool, up to the grace period; one still running after it keeps blocking the calls it must not overlap.
 */
async function runHoldingSlot(
  stoppedCalls: StoppedCalls,
  effect: ToolEffect,
  toolName: string,
  callId: string,
  logger: ToolLogger,
  execute: () => Promise<ToolExecution | GuardedCall>,
): Promise<ToolResult> {
  const blocker = stoppedCalls.blockerFor(effect);
  if (blocker !== undefined) return errorResult(blockedByStillRunningMessage(toolName, blocker));
  const ran = await execute();
  // A guarded call's result is the guards' (screened by the policy); its execution, when its tool ran, is what may outlive it.
  const { result } = ran;
  const execution = 'status' in ran ? ran.execution : ran;
  // No execution: the guards refused the call (its budget, say), so no tool work can outlive it.
  if (execution === undefined || (await stoppedCalls.awaitEnd(execution, effect))) return result;
  logger.error(`tool "${toolName}" (call ${callId}) was stopped but is still running after ${stoppedCalls.graceMs} ms`, { toolName, callId });
  return effect === 'write' ? errorResult(stillRunningMessage(toolName, stoppedCalls.graceMs)) : result;
}

/** `network.transport`: `tcp` for a request that came over HTTP, `pipe` on toolwright's stdio transport; unknown otherwise (an in-memory pair, say). */
function networkTransport(server: Server, extra: Extra): McpNetworkTransport | undefined {
  if (extra.requestInfo !== undefined) return 'tcp';
  return server.transport instanceof StdioLineTransport ? 'pipe' : undefined;
}

function headerValue(extra: Extra, name: string): string | undefined {
  const value = extra.requestInfo?.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function tooManyPendingCallsMessage(toolName: string, limit: number): string {
  return `The call to "${toolName}" was not run: this session already has ${limit} tool calls waiting or running (maxPendingCalls), the most it takes at once. Wait for some of them to finish, then make this call again, with fewer calls in flight.`;
}

function insufficientScopeMessage(toolName: string, scopes: readonly string[]): string {
  return `Forbidden: calling "${toolName}" needs the scope ${scopes.map((scope) => `"${scope}"`).join(' and ')}, which this request's access token does not carry. Get a token with that scope and call again.`;
}

function contextFailedMessage(toolName: string): string {
  return `The server could not set up the call to "${toolName}" (its context could not be made), so it did not run. Try again later, or tell the user.`;
}

/**
 * One `tools/call`'s link to its session. Its {@link McpCallContext} (five closures) is built only when a tool asks
 * for it, which most never do; notifications are sent in the background, and the result waits for them so that they
 * reach the client first.
 */
class ServerCall implements McpCallHandle {
  #context: McpCallContext | undefined;
  #pending: Promise<void>[] | undefined;

  constructor(
    readonly server: Server,
    readonly extra: Extra,
    readonly logThreshold: () => LoggingLevel,
    readonly traceContext: Context | undefined,
  ) {}

  get context(): McpCallContext {
    return (this.#context ??= callContext(this));
  }

  notify(notification: ServerNotification): Promise<void> {
    const sent = this.extra.sendNotification(notification).catch(() => {});
    (this.#pending ??= []).push(sent);
    return sent;
  }

  /** Settles once every notification sent so far has gone out (or failed to). */
  async notificationsSent(): Promise<void> {
    if (this.#pending !== undefined) await Promise.all(this.#pending);
  }
}

function callContext(call: ServerCall): McpCallContext {
  const { server, extra } = call;
  return {
    get clientCapabilities() {
      return server.getClientCapabilities();
    },
    signal: extra.signal,
    get auth() {
      return authIdentityOf(extra.authInfo);
    },
    log(messageLevel, data, loggerName) {
      if (LOG_LEVELS.indexOf(messageLevel) < LOG_LEVELS.indexOf(call.logThreshold())) return Promise.resolve();
      return call.notify({
        method: 'notifications/message',
        params: { level: messageLevel, data, ...(loggerName === undefined ? {} : { logger: loggerName }) },
      });
    },
    async sample(params) {
      if (!server.getClientCapabilities()?.sampling) throw missingCapability('sampling', 'ask its model for a completion');
      return askClient(extra, (route) => server.createMessage(params, { ...route, signal: extra.signal }));
    },
    async elicit(params) {
      if (!server.getClientCapabilities()?.elicitation?.form) throw missingCapability('elicitation', 'ask the person for input');
      return askClient(extra, (route) => server.elicitInput({ ...params, mode: 'form' }, { ...route, signal: extra.signal }));
    },
  };
}

function missingCapability(capability: string, what: string): ToolError {
  return new ToolError(`this MCP client cannot ${what}: it did not declare the "${capability}" capability`, {
    kind: 'unavailable',
    retryable: false,
    suggestion: 'Do the task without this tool, or tell the user that their MCP client does not support it.',
  });
}

/** Asks for approval; returns the refusal (its text, and whether the person said no), or `undefined` when the call may run. */
async function confirm(
  server: Server,
  extra: Extra,
  tool: AnyTool,
  args: unknown,
  summary: string,
  redactor: Redactor,
  options: McpServerOptions,
  preapprovable: boolean,
): Promise<{ text: string; declined: boolean } | undefined> {
  let decision: McpConfirmationDecision;
  const prompt = approvalText(summary, redactor.toolArguments(tool.name, args), tool.decisiveArguments);
  const logger = options.logger ?? stderrLogger;
  const canElicit = Boolean(server.getClientCapabilities()?.elicitation?.form);
  // A client that can elicit is asked itself: the fallback is for hosts that cannot show a person the question.
  const handler = options.confirmation ?? (canElicit ? undefined : options.confirmationFallback);
  if (handler) {
    try {
      decision = await handler({ tool, arguments: args, summary, prompt, callId: String(extra.requestId), signal: extra.signal });
    } catch (error) {
      // The server's own handler threw: a bug to fix, logged with its stack; unless the client cancelled the call, which
      // a handler that waits for a person (an approval queue) ends by rejecting, and nobody reads the answer then.
      if (!extra.signal.aborted) logger.error(`asking to confirm "${tool.name}" failed`, { toolName: tool.name, error });
      return { text: confirmationFailedMessage(tool), declined: false };
    }
  } else {
    if (!canElicit) return { text: confirmationUnavailableMessage(tool, summary, { preapprovable, hint: options.approvalHint }), declined: false };
    const timeoutMs = options.confirmationTimeoutMs ?? DEFAULT_CONFIRMATION_TIMEOUT_MS;
    try {
      const answer = await askClient(extra, (route) =>
        server.elicitInput(
          {
            mode: 'form',
            message: confirmationMessage(tool, prompt),
            requestedSchema: structuredClone(CONFIRMATION_SCHEMA) as never,
          },
          { ...route, signal: extra.signal, timeout: timeoutMs },
        ),
      );
      decision = decisionFromElicitation(answer);
    } catch (error) {
      const failure = elicitationFailure(error, timeoutMs, extra.signal);
      logger.error(elicitationFailedLogLine(tool, failure), { toolName: tool.name, ...(failure.code === undefined ? {} : { errorCode: failure.code }) });
      return { text: elicitationFailedMessage(tool, summary, failure, { preapprovable, hint: options.approvalHint }), declined: false };
    }
  }
  return decision.approved ? undefined : { text: confirmationRefusedMessage(tool, decision.reason), declined: true };
}

function errorResult(text: string): ToolResult & CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** Checks the result against the wire schema, so a tool that returns malformed content parts yields a tool error rather than a protocol error. */
function toWireResult(result: ToolResult, tool: AnyTool, logger: ToolLogger): CallToolResult {
  const wire = toMcpCallToolResult(result);
  if (isPlainTextResult(wire)) return wire;
  const checked = CallToolResultSchema.safeParse(wire);
  if (checked.success) return wire;
  logger.error(`tool "${tool.name}" returned content that is not valid MCP content`, { toolName: tool.name, error: checked.error });
  return errorResult(
    `Tool "${tool.name}" failed inside the server; its result could not be sent. This is not something you can fix by changing the arguments.`,
  );
}

/** Whether `wire` is certainly valid as it is: text parts only, nothing else but `isError` (the common case, checked without a Zod parse). */
function isPlainTextResult(wire: CallToolResult): boolean {
  for (const key in wire) if (key !== 'content' && key !== 'isError') return false;
  if (typeof wire.isError !== 'boolean' && wire.isError !== undefined) return false;
  if (!Array.isArray(wire.content)) return false;
  for (const part of wire.content as unknown[]) {
    if (typeof part !== 'object' || part === null) return false;
    let keys = 0;
    for (const key in part) {
      if (key !== 'type' && key !== 'text') return false;
      keys++;
    }
    const { type, text } = part as { type?: unknown; text?: unknown };
    if (keys !== 2 || type !== 'text' || typeof text !== 'string') return false;
  }
  return true;
}

let cachedVersion: string | undefined;
function toolwrightVersion(): string {
  if (cachedVersion !== undefined) return cachedVersion;
  cachedVersion = '0.0.0';
  try {
    // Two levels up from both src/mcp and dist/mcp.
    const fs = nodeBuiltin('node:fs');
    if (fs === undefined) return cachedVersion;
    const parsed = safeParseJson(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const version = parsed.success && typeof parsed.value === 'object' && parsed.value !== null ? (parsed.value as { version?: unknown }).version : undefined;
    if (typeof version === 'string') cachedVersion = version;
  } catch {
    // A bundled copy may have no package.json beside it, a runtime no file system; the version is informational.
  }
  return cachedVersion;
}
