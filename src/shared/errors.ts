/**
 * One base class for every error toolwright raises to a developer, with a stable
 * `code` and a message that names the fix. Errors meant for the *model* are not
 * thrown: they are tool results (see `src/tools/model-messages.ts`).
 * @module
 */
import { isInstanceOfClass, lineageOf } from './class-lineage.js';

const BRAND = Symbol.for('toolwright.error');
/**
 * The class names from an error's own class up to `ToolwrightError`. Registry
 * symbols and names (not constructors) so that a check still works when two
 * copies of the package are loaded.
 */
const LINEAGE = Symbol.for('toolwright.error.lineage');

/**
 * Every stable error code, with what it means. A code is never reused for a
 * different meaning; `docs/errors.md` documents each (a test keeps them in step).
 */
export const ERROR_CODES = {
  TW_INVALID_TOOL_DEFINITION: 'A tool definition is malformed (name, description, schema or execute).',
  TW_INVALID_SCHEMA: 'A JSON Schema could not be compiled.',
  TW_SCHEMA_EVALUATION:
    'Checking a value against a compiled JSON Schema overflowed the stack (a schema that refers to itself without nesting, or a value nested too deep).',
  TW_UNSAFE_PATTERN: 'A schema `pattern` (or `patternProperties` key) uses a regex feature the linear-time pattern engine cannot run.',
  TW_DUPLICATE_TOOL: 'Two tools in one registry share a name.',
  TW_TOOL_NOT_FOUND: 'A tool name is not in the registry.',
  TW_INVALID_ARGUMENT: 'A function was called with an argument it cannot use.',
  TW_MODULE_LOAD: 'A tool module could not be loaded or exports no tools.',
  TW_MISSING_PEER: 'A feature needs an optional package (a provider SDK, the MCP SDK, better-sqlite3, zod) that is not installed.',
  TW_INVALID_STATE: 'A method was called on an object whose state does not allow it (started twice).',
  TW_SCRIPT_EXHAUSTED: 'A scripted test model was asked for a turn its script does not hold.',
  TW_INVALID_MODEL_SPEC: 'A model spec (`provider:model`) names no known provider or no model.',
  TW_MISSING_API_KEY: 'A provider needs an API key and none was given or found in its environment variable.',
  TW_PROVIDER_AUTH: 'The provider rejected the API key (401/403).',
  TW_PROVIDER_MODEL_NOT_FOUND: 'The provider does not know the model id, or the endpoint (404).',
  TW_PROVIDER_BAD_REQUEST: 'The provider rejected the request as invalid (400/422).',
  TW_PROVIDER_RATE_LIMITED: 'The provider kept answering 429 after every retry.',
  TW_PROVIDER_UNAVAILABLE: 'The provider failed (5xx) or could not be reached, after every retry.',
  TW_PROVIDER_TIMEOUT: 'A provider request took longer than its timeout.',
  TW_PROVIDER_RESPONSE: 'The provider answered with something toolwright cannot read.',
  TW_RUN_NOT_FOUND: 'No stored agent run has that id.',
  TW_RUN_NOT_RESUMABLE: 'An agent run cannot be resumed: it is finished, or the process continuing it stopped without finishing (resume it with takeOver).',
  TW_RUN_LEASED: 'Another live process holds the lease on an agent run (it is continuing it), or took it from this one.',
  TW_CONFIRMATION_REFUSED: 'A confirmation token or decision was refused (malformed, forged, expired, already used, or for other arguments).',
  TW_RUN_STORE: 'The store of pending agent runs could not be opened or used.',
  TW_STORED_SETTINGS_MISMATCH: 'A stored run names another model, base URL, tool module or MCP servers than the operator configured for its resume.',
  TW_RUN_STORE_UNAVAILABLE: "The run store's database went away while a run used it (the server refused or dropped the connection, or the file is gone).",
  TW_INVALID_ID: 'A run id or approval id holds characters no run store accepts (a NUL, a control character, a slash) or is empty or too long.',
  TW_UNSUPPORTED_SCHEMA: 'A JSON Schema keyword or regex feature that the token-mask engine cannot enforce exactly.',
  TW_VOCABULARY: 'A tokenizer vocabulary (tokenizer.json or GGUF) could not be read.',
  TW_DECODING_LIMIT: 'The token-mask engine ran past one of its budgets (automaton states, nesting depth, automaton-building work).',
  TW_INVALID_DECODING_LIMITS: 'The `limits` given to the token-mask compiler name an unknown limit or give one a value it cannot use.',
  TW_INVALID_TOOL_EXAMPLE: "One of a tool definition's `examples` is not a valid input for the tool's own input schema.",
  TW_INVALID_PIN_FILE:
    "The gateway's pin file (the approved upstream tool definitions) is not JSON of the pin file's shape, or a pin's definition does not match its digest.",
  TW_APPROVAL_NOT_PENDING: 'A decision named an approval id that is not waiting in the approval folder (unknown, malformed, or already decided).',
  TW_MCP_HTTP_RESPONSE:
    'An MCP server reached over Streamable HTTP answered with something the client cannot use (an HTTP error, a redirect, another content type, an oversized or malformed message) or closed its answer early.',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ToolwrightErrorOptions {
  cause?: unknown;
}

export class ToolwrightError extends Error {
  readonly code: ErrorCode;
  readonly [BRAND] = true;
  readonly [LINEAGE]: readonly string[];

  constructor(code: ErrorCode, message: string, options: ToolwrightErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = new.target.name;
    this[LINEAGE] = lineageOf(new.target, ToolwrightError);
  }

  /**
   * Whether `value` is an instance of the class this is called on (or of a subclass):
   * `ProviderAuthError.isInstance(error)` is false for a `ToolNotFoundError`.
   * Unlike `instanceof`, it also recognises errors thrown by another copy of the package.
   */
  static isInstance<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    return isInstanceOfClass(this, ToolwrightError, value, BRAND, LINEAGE);
  }
}

export class ToolDefinitionError extends ToolwrightError {
  readonly toolName: string | undefined;
  constructor(toolName: string | undefined, message: string, options: ToolwrightErrorOptions = {}) {
    super('TW_INVALID_TOOL_DEFINITION', toolName === undefined ? message : `Tool "${toolName}": ${message}`, options);
    this.toolName = toolName;
  }
}

/**
 * One of `defineTool({ examples })` does not fit the tool's input schema: providers are shown it as a model input to
 * imitate (Anthropic refuses the whole request with a 400), so it is refused where it is written.
 */
export class ToolExampleError extends ToolwrightError {
  readonly toolName: string;
  /** The example's position in `examples`, from 0. */
  readonly exampleIndex: number;
  /** What is wrong with it, one line per problem (`$.city must be a string; got the number 3`). */
  readonly problems: readonly string[];
  constructor(toolName: string, exampleIndex: number, problems: readonly string[], options: ToolwrightErrorOptions = {}) {
    super(
      'TW_INVALID_TOOL_EXAMPLE',
      `Tool "${toolName}": examples[${exampleIndex}] is not a valid input for the tool's inputSchema: ${problems.join('; ')}. ` +
        'Fix the example (or the schema) so that the example is an input the tool accepts, or remove it.',
      options,
    );
    this.toolName = toolName;
    this.exampleIndex = exampleIndex;
    this.problems = Object.freeze([...problems]);
  }
}

export class SchemaCompileError extends ToolwrightError {
  readonly toolName: string | undefined;
  constructor(toolName: string | undefined, message: string, options: ToolwrightErrorOptions = {}) {
    super(
      'TW_INVALID_SCHEMA',
      `${toolName === undefined ? 'Schema' : `Tool "${toolName}" schema`} does not compile: ${message}. Fix the schema so that it is valid JSON Schema 2020-12.`,
      options,
    );
    this.toolName = toolName;
  }
}

/**
 * A schema whose references loop back without entering a property or item: validation would follow them forever
 * (the specification leaves such a schema's behaviour undefined; Ajv overflows the stack on it).
 */
export class SchemaReferenceCycleError extends SchemaCompileError {
  /** JSON pointers of the schemas along the loop, the first repeated at the end (`['#/$defs/x', '#/$defs/y', '#/$defs/x']`). */
  readonly cycle: readonly string[];
  constructor(toolName: string | undefined, cycle: readonly string[], options: ToolwrightErrorOptions & { pointer?: string } = {}) {
    super(
      toolName,
      `its references${options.pointer ? ` in ${options.pointer}` : ''} loop back without entering a property or item, so validation would never end: ${describeCycle(cycle)}. ` +
        'A schema may refer to itself only under a keyword that descends into a property or item (properties, patternProperties, additionalProperties, items, prefixItems, contains); ' +
        'remove one reference on that loop, or move it under such a keyword',
      options,
    );
    this.cycle = cycle;
  }
}

/** A hostile schema's loop can be 100,000 schemas long and as deep: the message shows its ends, each pointer cut. */
function describeCycle(cycle: readonly string[]): string {
  const cut = (pointer: string) => (pointer.length > 120 ? `${pointer.slice(0, 119)}…` : pointer);
  const shown = cycle.length > 8 ? [...cycle.slice(0, 4).map(cut), `… ${cycle.length - 7} more …`, ...cycle.slice(-3).map(cut)] : cycle.map(cut);
  return shown.join(' → ');
}

/** Checking a value against a compiled schema overflowed the stack: thrown by a validator instead of the `RangeError`. */
export class SchemaEvaluationError extends ToolwrightError {
  readonly toolName: string | undefined;
  constructor(toolName: string | undefined, options: ToolwrightErrorOptions = {}) {
    super(
      'TW_SCHEMA_EVALUATION',
      `${toolName === undefined ? 'A schema' : `Tool "${toolName}" schema`} could not check a value: validation overflowed the stack. ` +
        'Either the schema refers to itself without entering a property or item (a loop that compiling it did not reveal, such as a $dynamicRef that Ajv resolves back to its own schema), ' +
        'or the value nests deeper than validation can follow. Remove the loop from the schema, or keep argumentLimits.maxDepth low (the default is 64).',
      options,
    );
    this.toolName = toolName;
  }
}

/** A pattern refused by the linear-time engine: toolwright never runs a pattern on arguments with a backtracking engine. */
export class UnsafePatternError extends ToolwrightError {
  readonly toolName: string | undefined;
  /** JSON Pointer to the keyword holding the pattern (`/inputSchema/properties/code/pattern`), or `undefined` when it could not be located. */
  readonly pointer: string | undefined;
  readonly pattern: string;
  /** Why the engine refused it. */
  readonly reason: string;
  constructor(toolName: string | undefined, pointer: string | undefined, pattern: string, reason: string, options: ToolwrightErrorOptions = {}) {
    super(
      'TW_UNSAFE_PATTERN',
      `${toolName === undefined ? 'Schema' : `Tool "${toolName}" schema`}: the pattern ${JSON.stringify(pattern)}${pointer === undefined ? '' : ` at ${pointer}`} cannot be checked in linear time: it uses ${reason}. ` +
        'toolwright validates patterns with a non-backtracking engine so that no argument can freeze the process. ' +
        'Rewrite the pattern without lookbehind, lookaheads anywhere but right after a leading ^, backreferences, \\b or \\p{…} (and with counts of at most 1000), or drop it from the schema and check the value inside execute.',
      options,
    );
    this.toolName = toolName;
    this.pointer = pointer;
    this.pattern = pattern;
    this.reason = reason;
  }
}

export class DuplicateToolError extends ToolwrightError {
  readonly toolName: string;
  constructor(toolName: string) {
    super('TW_DUPLICATE_TOOL', `Two tools are named "${toolName}". Tool names must be unique within a registry: rename one of them.`);
    this.toolName = toolName;
  }
}

export class ToolNotFoundError extends ToolwrightError {
  readonly toolName: string;
  readonly availableTools: readonly string[];
  constructor(toolName: string, availableTools: readonly string[]) {
    super('TW_TOOL_NOT_FOUND', `No tool named "${toolName}". Available tools: ${availableTools.length === 0 ? '(none)' : availableTools.join(', ')}.`);
    this.toolName = toolName;
    this.availableTools = availableTools;
  }
}

export class InvalidArgumentError extends ToolwrightError {
  constructor(message: string, options: ToolwrightErrorOptions = {}) {
    super('TW_INVALID_ARGUMENT', message, options);
  }
}

export class ModuleLoadError extends ToolwrightError {
  readonly modulePath: string;
  constructor(modulePath: string, message: string, options: ToolwrightErrorOptions = {}) {
    super('TW_MODULE_LOAD', `Cannot load tools from "${modulePath}": ${message}`, options);
    this.modulePath = modulePath;
  }
}

/**
 * An optional package that one feature needs is not installed. toolwright lists
 * provider SDKs, the MCP SDK, better-sqlite3 and zod as optional peers so that
 * an app installs only what it uses; `npm i <packageName>` fixes this.
 */
export class MissingPeerError extends ToolwrightError {
  readonly packageName: string;
  constructor(packageName: string, feature: string, options: ToolwrightErrorOptions = {}) {
    super('TW_MISSING_PEER', `${feature} needs the package "${packageName}", which is not installed. Install it in your app: npm i ${packageName}`, options);
    this.packageName = packageName;
  }
}

/** A method called at the wrong time: the object's state does not allow it (e.g. started twice). */
export class InvalidStateError extends ToolwrightError {
  constructor(message: string, options: ToolwrightErrorOptions = {}) {
    super('TW_INVALID_STATE', message, options);
  }
}
