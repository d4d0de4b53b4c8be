/**
 * The registry: looks tools up by exact name, validates arguments with Ajv
 * (compiled once per tool), executes, and always returns an MCP-shaped result.
 * Nothing the model does wrong makes it throw; each failure becomes a result
 * whose text tells the model how to recover, and a `failure` record for the log.
 * @module
 */
import { DuplicateToolError, InvalidArgumentError, ToolDefinitionError, ToolNotFoundError } from '../shared/errors.js';
import { isPlainObject } from '../shared/own.js';
import { checkJsonText, inspectJsonValue, safeParseJson, type JsonLimitExceeded } from '../shared/safe-json.js';
import { DEFAULT_ARGUMENT_LIMITS, overlayArgumentLimits } from './argument-limits.js';
import { closestName } from './closest-name.js';
import { defineTool, isSeedToolDefinition, type AnyTool, type SeedToolDefinition } from './define-tool.js';
import {
  abortedMessage,
  argumentsNotObjectMessage,
  argumentsTooDeepMessage,
  argumentsTooLargeMessage,
  forbiddenKeyMessage,
  internalErrorMessage,
  schemaFailureMessage,
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
import type { ArgumentLimits, ToolCallRequest, ToolContext, ToolResult } from './types.js';
import { describeValue, type ValidationIssue, type ValidationResult } from './validation-issues.js';

/** Why a call failed; stable, for logs, metrics and retry decisions. */
export type ToolFailureCode =
  | 'unknown_tool'
  | 'invalid_json'
  | 'arguments_too_large'
  | 'invalid_arguments'
  | 'tool_error'
  | 'internal_error'
  | 'invalid_output'
  | 'timeout'
  | 'aborted';

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
}

/** The outcome of resolving and validating a call without running it. */
export type PreparedCall =
  | { success: true; tool: AnyTool; arguments: unknown }
  | { success: false; failure: ToolFailure; tool?: AnyTool };

export interface ToolLogger {
  error(message: string, details: Record<string, unknown>): void;
}

/** Writes internal tool failures to stderr, stack included: they must reach a person, never the model. */
export const stderrLogger: ToolLogger = {
  error(message, details) {
    const error = details.error;
    process.stderr.write(`[toolwright] ${message}${error instanceof Error && error.stack ? `\n${error.stack}` : error !== undefined ? ` ${String(error)}` : ''}\n`);
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
      throw new ToolDefinitionError(undefined, 'the registry was given something that is not a tool; create tools with defineTool(), or pass { name, description, input_schema, fn }.');
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

  /** Validates arguments against the tool's input schema (and its Zod schema, if it has one). The argument limits are not checked here: give untrusted input to {@link prepare} or {@link call}. */
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
    const exceeded = typeof text === 'string' ? checkJsonText(text, limits) : request.arguments === undefined ? undefined : inspectJsonValue(request.arguments, limits).exceeded;
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
      return { success: false, failure: { code: 'unknown_tool', message: unknownToolMessage(request.name, names, closestName(request.name, names)), retryable: false } };
    }
    const { tool, limits } = entry;
    let args: unknown = request.arguments;
    // The limits come before everything else that reads the arguments (JSON.parse, Ajv, the run record), so none of them meets an unbounded value.
    if (request.argumentsText !== undefined) {
      const text: unknown = request.argumentsText;
      // A misbehaving OpenAI-compatible server can send a non-string here; the model is told, nothing throws.
      if (typeof text !== 'string') return { success: false, tool, failure: { code: 'invalid_json', message: invalidJsonMessage(tool.name, { message: `expected the arguments as JSON text, got ${describeValue(text)}` }), retryable: false } };
      const parsed = safeParseJson(text, limits);
      if (parsed.success) args = parsed.value;
      else if (parsed.error.limit) return { success: false, tool, failure: limitFailure(tool.name, parsed.error.limit) };
      // OpenAI sends "" for a call without arguments.
      else if (text.trim() === '') args = {};
      else if (parsed.error.forbiddenKey) return { success: false, tool, failure: { code: 'invalid_arguments', message: forbiddenKeyMessage(tool.name, parsed.error.forbiddenKey), retryable: false } };
      else return { success: false, tool, failure: { code: 'invalid_json', message: invalidJsonMessage(tool.name, parsed.error), retryable: false } };
    } else if (args === undefined) {
      args = {};
    } else {
      const inspection = inspectJsonValue(args, limits);
      if (inspection.exceeded) return { success: false, tool, failure: limitFailure(tool.name, inspection.exceeded) };
      if (inspection.forbiddenKey) return { success: false, tool, failure: { code: 'invalid_arguments', message: forbiddenKeyMessage(tool.name, inspection.forbiddenKey), retryable: false } };
    }
    if (!isPlainObject(args)) {
      return { success: false, tool, failure: { code: 'invalid_arguments', message: argumentsNotObjectMessage(tool.name, describeValue(args)), retryable: false } };
    }
    let validation: ValidationResult;
    try {
      validation = this.validate(tool.name, args);
    } catch (thrown) {
      // Ajv can compile a schema whose validator then recurses without end (a `$dynamicRef` back to its own scope); a hostile or broken schema must not turn a call into an exception.
      return { success: false, tool, failure: { code: 'internal_error', message: schemaFailureMessage(tool.name), retryable: false, error: thrown } };
    }
    if (!validation.success) {
      return {
        success: false,
        tool,
        failure: { code: 'invalid_arguments', message: invalidArgumentsMessage(tool.name, validation.issues, tool.inputSchema), retryable: false, issues: validation.issues },
      };
    }
    return { success: true, tool, arguments: validation.data };
  }

  /** Validates and runs one call. Never rejects for anything the model or the tool did; the result says what happened. */
  async call(request: ToolCallRequest, options: CallOptions = {}): Promise<ToolExecution> {
    const started = performance.now();
    const prepared = this.prepare(request);
    if (!prepared.success) return this.#failed(request, started, prepared.failure);
    return this.execute(request.id, prepared.tool, prepared.arguments, options, started);
  }

  /** Runs a call whose arguments {@link prepare} already validated (the agent runtime uses this after confirmation). */
  async execute(callId: string, tool: AnyTool, args: unknown, options: CallOptions = {}, started = performance.now()): Promise<ToolExecution> {
    const request = { id: callId, name: tool.name };
    const entry = this.#entries.get(tool.name);
    if (!entry || entry.tool !== tool) throw new ToolNotFoundError(tool.name, this.names());
    const timeoutMs = options.timeoutMs ?? tool.timeoutMs ?? this.#defaultTimeoutMs;
    if (options.signal?.aborted) return this.#failed(request, started, { code: 'aborted', message: abortedMessage(tool.name), retryable: false }, args);

    const controller = new AbortController();
    let timedOut = false;
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const stopped = new Promise<'stopped'>((resolve) => {
      controller.signal.addEventListener('abort', () => resolve('stopped'), { once: true });
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          timedOut = true;
          controller.abort(new Error(`timed out after ${timeoutMs} ms`));
        }, timeoutMs);
      }
    });
    const context: ToolContext = {
      toolCallId: callId,
      toolName: tool.name,
      signal: controller.signal,
      reportProgress: options.onProgress ?? (() => {}),
      ...(options.idempotencyKey !== undefined ? { idempotencyKey: options.idempotencyKey } : {}),
    };

    let outcome: { value: unknown } | { thrown: unknown } | 'stopped';
    try {
      const running = Promise.resolve()
        .then(() => tool.execute(args, context))
        .then(
          (value) => ({ value }),
          (thrown: unknown) => ({ thrown }),
        );
      outcome = await Promise.race([running, stopped]);
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }

    if (outcome === 'stopped') {
      const failure: ToolFailure = timedOut
        ? { code: 'timeout', message: timeoutMessage(tool.name, timeoutMs ?? 0), retryable: true }
        : { code: 'aborted', message: abortedMessage(tool.name), retryable: false };
      return this.#failed(request, started, failure, args);
    }
    if ('thrown' in outcome) {
      const thrown = outcome.thrown;
      if (ToolError.isInstance(thrown)) {
        return this.#failed(request, started, { code: 'tool_error', message: toolErrorMessage(tool.name, thrown), retryable: thrown.retryable, kind: thrown.kind, error: thrown }, args);
      }
      this.#logger.error(`tool "${tool.name}" (call ${callId}) threw`, { toolName: tool.name, callId, error: thrown });
      return this.#failed(request, started, { code: 'internal_error', message: internalErrorMessage(tool.name), retryable: false, error: thrown }, args);
    }

    const normalized = normalizeToolOutput(outcome.value);
    if (!normalized.success) {
      this.#logger.error(`tool "${tool.name}" (call ${callId}) returned an unusable value: ${normalized.reason}`, { toolName: tool.name, callId });
      return this.#failed(request, started, { code: 'invalid_output', message: internalErrorMessage(tool.name), retryable: false, error: new Error(normalized.reason) }, args);
    }
    let result = normalized.result;
    if (entry.output) {
      const check = result.structuredContent === undefined ? undefined : entry.output.validate(result.structuredContent);
      if (!check || !check.success) {
        const reason = check ? check.issues.map((issue) => `${issue.path.join('.') || '(root)'} ${issue.message}`).join('; ') : 'it returned no object';
        this.#logger.error(`tool "${tool.name}" (call ${callId}) returned output that breaks its outputSchema: ${reason}`, { toolName: tool.name, callId });
        return this.#failed(request, started, { code: 'invalid_output', message: internalErrorMessage(tool.name), retryable: false, error: new Error(`output does not match outputSchema: ${reason}`) }, args);
      }
    }
    let truncated = false;
    if (tool.maxResultChars !== undefined) ({ result, truncated } = truncateResult(result, tool.maxResultChars, truncationNotice));
    return { callId, toolName: tool.name, arguments: args, result, durationMs: performance.now() - started, truncated };
  }

  #failed(request: { id: string; name: string }, started: number, failure: ToolFailure, args?: unknown): ToolExecution {
    const execution: ToolExecution = {
      callId: request.id,
      toolName: request.name,
      result: { content: [{ type: 'text', text: failure.message }], isError: true },
      durationMs: performance.now() - started,
      failure,
      truncated: false,
    };
    if (args !== undefined) execution.arguments = args;
    return execution;
  }
}

function limitFailure(toolName: string, exceeded: JsonLimitExceeded): ToolFailure {
  const message = exceeded.limit === 'maxDepth' ? argumentsTooDeepMessage(toolName, exceeded) : argumentsTooLargeMessage(toolName, exceeded);
  return { code: 'arguments_too_large', message, retryable: false };
}
