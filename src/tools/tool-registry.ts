/**
 * The registry: looks tools up by exact name, validates arguments with Ajv
 * (compiled once per tool), executes, and always returns an MCP-shaped result.
 * Nothing the model does wrong makes it throw; each failure becomes a result
 * whose text tells the model how to recover, and a `failure` record for the log.
 * @module
 */
import { grammarMismatchMessage } from './grammar-input.js';
import { DuplicateToolError, InvalidArgumentError, SchemaEvaluationError, ToolDefinitionError, ToolNotFoundError } from '../shared/errors.js';
import { isPlainObject } from '../shared/own.js';
import { checkJsonText, inspectJsonValue, safeParseJson, type JsonLimitExceeded, type JsonParseResult } from '../shared/safe-json.js';
import { DEFAULT_ARGUMENT_LIMITS, overlayArgumentLimits } from './argument-limits.js';
import { closestName } from './closest-name.js';
import { defineTool, isSeedToolDefinition, toolAllowsCaller, type AnyTool, type SeedToolDefinition } from './define-tool.js';
import {
  abortedMessage,
  callerNotAllowedMessage,
  argumentsNotObjectMessage,
  argumentsTooDeepMessage,
  argumentsTooLargeMessage,
  forbiddenKeyMessage,
  internalErrorMessage,
  schemaFailureMessage,
  argumentsTooDeepToCheckMessage,
  invalidArgumentsMessage,
  invalidJsonMessage,
  timeoutMessage,
  toolErrorMessage,
  truncationNotice,
  unknownToolMessage,
} from './model-messages.js';
import { compileSchema, type SchemaValidator } from './schema-validator.js';
import { ToolError, type ToolErrorKind } from './tool-error.js';
import { normalizeToolOutput, truncateResult } from './tool-output.js';
import type { ArgumentLimits, ToolCallApproval, ToolCallRequest, ToolContext, ToolResult } from './types.js';
import { describeValue, type ValidationIssue, type ValidationResult } from './validation-issues.js';

/** Why a call failed; stable, for logs, metrics and retry decisions. */
export type ToolFailureCode =
  | 'unknown_tool'
  | 'invalid_json'
  | 'arguments_too_large'
  | 'invalid_arguments'
  | 'invalid_schema'
  | 'tool_error'
  | 'internal_error'
  | 'invalid_output'
  | 'timeout'
  | 'aborted'
  | 'caller_not_allowed';

export interface ToolFailure {
  code: ToolFailureCode;
  /** The text the model sees (also the result's content). */
  message: string;
  /** Whether the same call may succeed if made again. */
  retryable: boolean;
  /** For `invalid_arguments`. */
  issues?: ValidationIssue[];
  /** For `tool_error`: the kind the tool gave. */
  kind?: ToolErrorKind;
  /** The thrown value, for the log only; never shown to the model. */
  error?: unknown;
}

/** Everything about one call: the result for the model, and the facts for the record. */
export interface ToolExecution {
  callId: string;
  toolName: string;
  /** The validated arguments; absent when the call failed before validation passed. */
  arguments?: unknown;
  result: ToolResult;
  durationMs: number;
  /** Present when `result.isError` is true. */
  failure?: ToolFailure;
  /** True when the result was cut to the tool's `maxResultChars`. */
  truncated: boolean;
  /**
   * Present only when the call was stopped (its caller's signal aborted, or it timed out) before the tool's own work
   * ended, as with a tool that ignores `context.signal`: resolves, never rejects, when that work ends. Until then the
   * tool may still be acting, so a scheduler that runs writes alone keeps this call's slot until then (`StoppedCalls`, src/tools/stopped-calls.ts).
   */
  workEnded?: Promise<void>;
}

/** The outcome of resolving and validating a call without running it. */
export type PreparedCall = { success: true; tool: AnyTool; arguments: unknown } | { success: false; failure: ToolFailure; tool?: AnyTool };

export interface ToolLogger {
  error(message: string, details: Record<string, unknown>): void;
}

/** Writes internal tool failures to stderr, stack included: they must reach a person, never the model. */
export const stderrLogger: ToolLogger = {
  error(message, details) {
    const error = details.error;
    const text = `[toolwright] ${message}${error instanceof Error && error.stack ? `\n${error.stack}` : error !== undefined ? ` ${String(error)}` : ''}`;
    // Where there is no process (workerd, an edge runtime, a browser), the console is the runtime's log.
    const stderr = (globalThis as { process?: { stderr?: { write(text: string): unknown } } }).process?.stderr;
    if (stderr) stderr.write(`${text}\n`);
    else console.error(text);
  },
};

export const silentLogger: ToolLogger = { error() {} };

export interface ToolRegistryOptions {
  /** Where internal failures (tools that throw, invalid output) are logged. Defaults to stderr. */
  logger?: ToolLogger;
  /** A timeout for tools that set none. Default: none. */
  defaultTimeoutMs?: number;
  /** Bounds on every call's arguments, checked before anything reads them; a tool's own `argumentLimits` win. Default: {@link DEFAULT_ARGUMENT_LIMITS}. */
  argumentLimits?: Partial<ArgumentLimits>;
}

/** What a registry holds: tools from {@link defineTool}, or the seed's four-field objects, which it passes through `defineTool` itself. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as for AnyTool: `fn` is contravariant in its arguments.
export type RegistrableTool = AnyTool | SeedToolDefinition<any, unknown>;

export interface CallOptions {
  /** Aborts the call; the tool's `context.signal` fires. */
  signal?: AbortSignal;
  /** Overrides the tool's own timeout. */
  timeoutMs?: number;
  /** Passed to the tool as `context.idempotencyKey`. */
  idempotencyKey?: string;
  /** Passed to the tool as `context.approval`: give it only for a call a person approved (the agent runtime and the MCP server do). */
  approval?: ToolCallApproval;
  /** The caller's run context, passed to the tool as `context.context` as it is (`undefined` when absent). */
  context?: unknown;
  onProgress?: (progress: number, total?: number, message?: string) => void;
}

interface Entry {
  tool: AnyTool;
  limits: ArgumentLimits;
  input: SchemaValidator;
  output: SchemaValidator | undefined;
}

export class ToolRegistry {
  readonly #entries: Map<string, Entry>;
  readonly #logger: ToolLogger;
  readonly #defaultTimeoutMs: number | undefined;
  readonly #argumentLimits: ArgumentLimits;

  constructor(tools: Iterable<RegistrableTool> = [], options: ToolRegistryOptions = {}) {
    this.#logger = options.logger ?? stderrLogger;
    this.#defaultTimeoutMs = options.defaultTimeoutMs;
    const limits = overlayArgumentLimits(DEFAULT_ARGUMENT_LIMITS, options.argumentLimits);
    if ('problem' in limits) throw new InvalidArgumentError(`ToolRegistry: ${limits.problem}.`);
    this.#argumentLimits = limits.limits;
    this.#entries = new Map();
    for (const tool of tools) this.#add(tool);
  }

  #add(given: RegistrableTool): void {
    const tool: AnyTool = isSeedToolDefinition(given) ? defineTool(given) : (given as AnyTool);
    if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string' || typeof tool.execute !== 'function') {
      throw new ToolDefinitionError(
        undefined,
        'the registry was given something that is not a tool; create tools with defineTool(), or pass { name, description, input_schema, fn }.',
      );
    }
    if (this.#entries.has(tool.name)) throw new DuplicateToolError(tool.name);
    const limits = overlayArgumentLimits(this.#argumentLimits, tool.argumentLimits);
    if ('problem' in limits) throw new ToolDefinitionError(tool.name, `${limits.problem}.`);
    this.#entries.set(tool.name, {
      tool,
      limits: limits.limits,
      input: compileSchema(tool.inputSchema, tool.name, { pointer: '/inputSchema' }),
      output: tool.outputSchema ? compileSchema(tool.outputSchema, tool.name, { pointer: '/outputSchema' }) : undefined,
    });
  }

  /** A new registry with more tools; compiled validators are shared. */
  with(tools: Iterable<RegistrableTool>): ToolRegistry {
    const next = this.subset(this.names());
    for (const tool of tools) next.#add(tool);
    return next;
  }

  /** A registry holding only the named tools (for routing and policies); compiled validators are shared. */
  subset(names: Iterable<string>): ToolRegistry {
    const next = new ToolRegistry([], { logger: this.#logger, defaultTimeoutMs: this.#defaultTimeoutMs, argumentLimits: this.#argumentLimits });
    for (const name of names) {
      const entry = this.#entries.get(name);
      if (!entry) throw new ToolNotFoundError(name, this.names());
      next.#entries.set(name, entry);
    }
    return next;
  }

  get size(): number {
    return this.#entries.size;
  }

  names(): string[] {
    return [...this.#entries.keys()];
  }

  list(): AnyTool[] {
    return [...this.#entries.values()].map((entry) => entry.tool);
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  get(name: string): AnyTool | undefined {
    return this.#entries.get(name)?.tool;
  }

  /** Like {@link get}, but throws {@link ToolNotFoundError} (for code paths where a missing tool is a developer error). */
  require(name: string): AnyTool {
    const entry = this.#entries.get(name);
    if (!entry) throw new ToolNotFoundError(name, this.names());
    return entry.tool;
  }

  /**
   * Validates arguments against the tool's input schema (and its Zod schema, if it has one). The argument limits are not checked here: give untrusted
   * input to {@link prepare} or {@link call}.
   */
  validate(name: string, args: unknown): ValidationResult {
    const entry = this.#entries.get(name);
    if (!entry) throw new ToolNotFoundError(name, this.names());
    const result = entry.input.validate(args);
    if (!result.success || !entry.tool.refineArguments) return result;
    const refined = entry.tool.refineArguments(args);
    if (refined.success) return refined;
    return { success: false, issues: refined.issues.map((issue) => ({ code: 'custom', path: issue.path, message: issue.message.replace(/\.$/, '') })) };
  }

  /**
   * Checks only the argument limits (the tool's, else the registry's for a name it
   * does not hold): no parsing, no validation, work bounded by the limits. For
   * callers that store or log a call before preparing it, as the agent loop does.
   */
  checkArgumentLimits(request: ToolCallRequest): ToolFailure | undefined {
    const entry = this.#entries.get(request.name);
    const limits = entry?.limits ?? this.#argumentLimits;
    const text: unknown = request.argumentsText;
    const exceeded =
      typeof text === 'string'
        ? checkJsonText(text, limits)
        : request.arguments === undefined
          ? undefined
          : inspectJsonValue(request.arguments, limits).exceeded;
    if (!exceeded) return undefined;
    // A name the registry does not hold came from the model, and may be as long as it liked.
    const name = entry?.tool.name ?? String(request.name).slice(0, 80);
    return limitFailure(name, exceeded);
  }

  /** Resolves the tool and parses and validates the arguments, without running anything. */
  prepare(request: ToolCallRequest): PreparedCall {
    if (typeof request !== 'object' || request === null || typeof request.name !== 'string') {
      throw new InvalidArgumentError('prepare/call expects { id, name, arguments | argumentsText }.');
    }
    const entry = this.#entries.get(request.name);
    if (!entry) {
      const names = this.names();
      return {
        success: false,
        failure: { code: 'unknown_tool', message: unknownToolMessage(request.name, names, closestName(request.name, names)), retryable: false },
      };
    }
    const { tool, limits } = entry;
    // Only calls from code are checked: the providers that run code keep a code-only tool from being called directly, and on
    // the others (no code runner) such a tool must stay directly callable.
    if (request.caller !== undefined && !toolAllowsCaller(tool, 'programmatic')) {
      return { success: false, tool, failure: { code: 'caller_not_allowed', message: callerNotAllowedMessage(tool.name), retryable: false } };
    }
    const read = readArguments(tool.name, request, limits);
    if ('failure' in read) return { success: false, tool, failure: read.failure };
    const args = read.value;
    if (!isPlainObject(args)) {
      return {
        success: false,
        tool,
        failure: { code: 'invalid_arguments', message: argumentsNotObjectMessage(tool.name, describeValue(args)), retryable: false },
      };
    }
    let validation: ValidationResult;
    try {
      validation = this.validate(tool.name, args);
    } catch (thrown) {
      // Ajv can compile a schema whose validator then recurses without end (a `$dynamicRef` back to its own scope); a hostile or broken schema must not
      // turn a call into an exception.
      return { success: false, tool, failure: validatorFailure(tool.name, args, thrown) };
    }
    if (!validation.success) {
      return {
        success: false,
        tool,
        failure: {
          code: 'invalid_arguments',
          message:
            (tool.grammar && grammarMismatchMessage(tool.name, tool.grammar, validation.issues)) ??
            invalidArgumentsMessage(tool.name, validation.issues, tool.inputSchema),
          retryable: false,
          issues: validation.issues,
        },
      };
    }
    return { success: true, tool, arguments: validation.data };
  }

  /** Validates and runs one call. Never rejects for anything the model or the tool did; the result says what happened. */
  async call(request: ToolCallRequest, options: CallOptions = {}): Promise<ToolExecution> {
    const started = performance.now();
    const prepared = this.prepare(request);
    if (!prepared.success) return this.#failed(request.id, request.name, started, prepared.failure);
    return this.execute(request.id, prepared.tool, prepared.arguments, options, started);
  }

  /** Runs a call whose arguments {@link prepare} already validated (the agent runtime uses this after confirmation). */
  async execute(callId: string, tool: AnyTool, args: unknown, options: CallOptions = {}, started = performance.now()): Promise<ToolExecution> {
    const entry = this.#entries.get(tool.name);
    if (!entry || entry.tool !== tool) throw new ToolNotFoundError(tool.name, this.names());
    const timeoutMs = options.timeoutMs ?? tool.timeoutMs ?? this.#defaultTimeoutMs;
    const callerSignal = options.signal;
    if (callerSignal?.aborted) return this.#failed(callId, tool.name, started, { code: 'aborted', message: abortedMessage(tool.name), retryable: false }, args);

    const stop = new CallStop();
    // A getter, not a signal made up front: most tools never read it, and an AbortController per call is a measurable
    // share of an MCP call's cost (bench:mcp). An object literal, so that `{ ...context }` still carries the signal.
    const context: ToolContext = {
      toolCallId: callId,
      toolName: tool.name,
      get signal() {
        return stop.signal();
      },
      reportProgress: options.onProgress ?? ignoreProgress,
      context: options.context,
    };
    if (options.idempotencyKey !== undefined) context.idempotencyKey = options.idempotencyKey;
    if (options.approval !== undefined) context.approval = { approvedBy: 'person', summary: options.approval.summary };

    const toolStarted = performance.now();
    let outcome: Outcome;
    try {
      const returned = tool.execute(args, context);
      if (isPending(returned)) outcome = await settle(returned, stop, callerSignal, timeoutMs, toolStarted);
      // A synchronous tool cannot be interrupted by a timer; only its caller's signal, aborted while it ran, can stop it.
      else if (callerSignal?.aborted) outcome = stop.stop(callerSignal.reason, false);
      else outcome = { value: returned };
    } catch (thrown) {
      outcome = { thrown };
    }

    if (outcome === STOPPED) {
      const failure: ToolFailure = stop.timedOut
        ? { code: 'timeout', message: timeoutMessage(tool.name, timeoutMs ?? 0), retryable: true }
        : { code: 'aborted', message: abortedMessage(tool.name), retryable: false };
      const execution = this.#failed(callId, tool.name, started, failure, args);
      if (stop.workEnded !== undefined) execution.workEnded = stop.workEnded;
      return execution;
    }
    if ('thrown' in outcome) {
      const thrown = outcome.thrown;
      if (ToolError.isInstance(thrown)) {
        return this.#failed(
          callId,
          tool.name,
          started,
          { code: 'tool_error', message: toolErrorMessage(tool.name, thrown), retryable: thrown.retryable, kind: thrown.kind, error: thrown },
          args,
        );
      }
      this.#logger.error(`tool "${tool.name}" (call ${callId}) threw`, { toolName: tool.name, callId, error: thrown });
      return this.#failed(
        callId,
        tool.name,
        started,
        { code: 'internal_error', message: internalErrorMessage(tool.name), retryable: false, error: thrown },
        args,
      );
    }

    const normalized = normalizeToolOutput(outcome.value);
    if (!normalized.success) {
      this.#logger.error(`tool "${tool.name}" (call ${callId}) returned an unusable value: ${normalized.reason}`, { toolName: tool.name, callId });
      return this.#failed(
        callId,
        tool.name,
        started,
        { code: 'invalid_output', message: internalErrorMessage(tool.name), retryable: false, error: new Error(normalized.reason) },
        args,
      );
    }
    let result = normalized.result;
    if (entry.output) {
      const check = result.structuredContent === undefined ? undefined : entry.output.validate(result.structuredContent);
      if (!check || !check.success) {
        const reason = check ? check.issues.map((issue) => `${issue.path.join('.') || '(root)'} ${issue.message}`).join('; ') : 'it returned no object';
        this.#logger.error(`tool "${tool.name}" (call ${callId}) returned output that breaks its outputSchema: ${reason}`, { toolName: tool.name, callId });
        return this.#failed(
          callId,
          tool.name,
          started,
          {
            code: 'invalid_output',
            message: internalErrorMessage(tool.name),
            retryable: false,
            error: new Error(`output does not match outputSchema: ${reason}`),
          },
          args,
        );
      }
    }
    let truncated = false;
    if (tool.maxResultChars !== undefined) ({ result, truncated } = truncateResult(result, tool.maxResultChars, truncationNotice));
    return { callId, toolName: tool.name, arguments: args, result, durationMs: performance.now() - started, truncated };
  }

  #failed(callId: string, toolName: string, started: number, failure: ToolFailure, args?: unknown): ToolExecution {
    const execution: ToolExecution = {
      callId,
      toolName,
      result: { content: [{ type: 'text', text: failure.message }], isError: true },
      durationMs: performance.now() - started,
      failure,
      truncated: false,
    };
    if (args !== undefined) execution.arguments = args;
    return execution;
  }
}

const STOPPED = 'stopped';
type Outcome = { value: unknown } | { thrown: unknown } | typeof STOPPED;

function ignoreProgress(): void {}
function ignoreOutcome(): void {}

/**
 * Whether a tool's return value must be awaited. Reading `then` runs code of the tool's choosing (a getter), so a
 * throw there counts as pending too: awaiting it turns the throw into the call's failure, as for any rejection.
 */
function isPending(value: unknown): value is PromiseLike<unknown> {
  if (value instanceof Promise) return true;
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  try {
    return typeof (value as { then?: unknown }).then === 'function';
  } catch {
    return true;
  }
}

/**
 * Why a call stopped, and the tool's signal, made only if the tool asks for it (then already aborted when the call
 * stopped first). Once stopped, the reason never changes.
 */
class CallStop {
  timedOut = false;
  /** Set when the call stopped while the tool's promise was still pending: settles when it does. */
  workEnded: Promise<void> | undefined;
  #stopped = false;
  #reason: unknown;
  #controller: AbortController | undefined;

  signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#stopped) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  stop(reason: unknown, timedOut: boolean): typeof STOPPED {
    if (!this.#stopped) {
      this.#stopped = true;
      this.#reason = reason;
      this.timedOut = timedOut;
      this.#controller?.abort(reason);
    }
    return STOPPED;
  }
}

/** Waits for a tool's promise, or for the caller's abort or the timeout, whichever comes first; a stopped tool's promise is left to settle unobserved. */
async function settle(
  running: PromiseLike<unknown>,
  stop: CallStop,
  callerSignal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  toolStarted: number,
): Promise<Outcome> {
  const outcome = Promise.resolve(running).then(
    (value) => ({ value }),
    (thrown: unknown) => ({ thrown }),
  );
  if (callerSignal === undefined && timeoutMs === undefined) return outcome;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<typeof STOPPED>((resolve) => {
    if (callerSignal !== undefined) {
      // The caller may have aborted while the tool's synchronous part ran.
      if (callerSignal.aborted) return resolve(stop.stop(callerSignal.reason, false));
      onAbort = () => resolve(stop.stop(callerSignal.reason, false));
      callerSignal.addEventListener('abort', onAbort, { once: true });
    }
    if (timeoutMs !== undefined) {
      // Counted from the tool's start: a long synchronous part uses up its time too.
      const remainingMs = Math.max(0, timeoutMs - (performance.now() - toolStarted));
      timer = setTimeout(() => resolve(stop.stop(new Error(`timed out after ${timeoutMs} ms`), true)), remainingMs);
    }
  });
  try {
    const first = await Promise.race([outcome, stopped]);
    if (first === STOPPED) stop.workEnded = outcome.then(ignoreOutcome);
    return first;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (onAbort !== undefined) callerSignal!.removeEventListener('abort', onAbort);
  }
}

/**
 * A call's arguments, read under the limits, which come before everything else that reads them (JSON.parse, Ajv, the
 * run record), so that none of them meets an unbounded value. A model response's call part was parsed once, by its
 * adapter: its value (checked like any value given parsed) or its parse failure is used, and the text is only measured.
 */
function readArguments(toolName: string, request: ToolCallRequest, limits: ArgumentLimits): { value: unknown } | { failure: ToolFailure } {
  const text: unknown = request.argumentsText;
  if (text === undefined) return request.arguments === undefined ? { value: {} } : inspectedValue(toolName, request.arguments, limits);
  // A misbehaving OpenAI-compatible server can send a non-string here; the model is told, nothing throws.
  if (typeof text !== 'string')
    return {
      failure: {
        code: 'invalid_json',
        message: invalidJsonMessage(toolName, { message: `expected the arguments as JSON text, got ${describeValue(text)}` }),
        retryable: false,
      },
    };
  const exceeded = checkJsonText(text, limits);
  if (exceeded) return { failure: limitFailure(toolName, exceeded) };
  if (request.arguments !== undefined) return inspectedValue(toolName, request.arguments, limits);
  const parsed: JsonParseResult = request.argumentsError !== undefined ? { success: false, error: request.argumentsError } : safeParseJson(text);
  if (parsed.success) return { value: parsed.value };
  if (parsed.error.limit) return { failure: limitFailure(toolName, parsed.error.limit) };
  // OpenAI sends "" for a call without arguments.
  if (text.trim() === '') return { value: {} };
  if (parsed.error.forbiddenKey)
    return { failure: { code: 'invalid_arguments', message: forbiddenKeyMessage(toolName, parsed.error.forbiddenKey), retryable: false } };
  return { failure: { code: 'invalid_json', message: invalidJsonMessage(toolName, parsed.error), retryable: false } };
}

function inspectedValue(toolName: string, value: unknown, limits: ArgumentLimits): { value: unknown } | { failure: ToolFailure } {
  const inspection = inspectJsonValue(value, limits);
  if (inspection.exceeded) return { failure: limitFailure(toolName, inspection.exceeded) };
  if (inspection.forbiddenKey)
    return { failure: { code: 'invalid_arguments', message: forbiddenKeyMessage(toolName, inspection.forbiddenKey), retryable: false } };
  return { value };
}

/**
 * A validator that threw. A stack overflow on arguments deeper than the default limit (which Ajv always survives) is
 * blamed on their depth, since a registry whose limits were raised lets them through; any other is the schema's fault.
 */
function validatorFailure(toolName: string, args: unknown, thrown: unknown): ToolFailure {
  if (!SchemaEvaluationError.isInstance(thrown)) return { code: 'internal_error', message: schemaFailureMessage(toolName), retryable: false, error: thrown };
  const exceeded = inspectJsonValue(args, { maxDepth: DEFAULT_ARGUMENT_LIMITS.maxDepth, maxChars: Number.MAX_SAFE_INTEGER }).exceeded;
  if (exceeded?.limit === 'maxDepth')
    return { code: 'arguments_too_large', message: argumentsTooDeepToCheckMessage(toolName, exceeded), retryable: false, error: thrown };
  return { code: 'invalid_schema', message: schemaFailureMessage(toolName), retryable: false, error: thrown };
}

function limitFailure(toolName: string, exceeded: JsonLimitExceeded): ToolFailure {
  const message = exceeded.limit === 'maxDepth' ? argumentsTooDeepMessage(toolName, exceeded) : argumentsTooLargeMessage(toolName, exceeded);
  return { code: 'arguments_too_large', message, retryable: false };
}
