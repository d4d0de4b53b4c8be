import { MissingPeerError, SchemaReferenceCycleError, ToolDefinitionError } from '../shared/errors.js';
import { findReferenceCycle } from '../shared/json-schema/find-reference-cycle.js';
import { isMissingPackage } from '../shared/load-peer.js';
import { nodeBuiltin } from '../shared/node-builtin.js';
import { upgradeSchemaDialect, SCHEMA_DIALECTS, type SchemaDialect } from '../shared/json-schema/upgrade-schema-dialect.js';
import { isPlainObject } from '../shared/own.js';
import { DEFAULT_ARGUMENT_LIMITS, overlayArgumentLimits } from './argument-limits.js';
import { criticalArgumentsOf } from './critical-arguments.js';
import { checkToolExamples, type ToolExample } from './tool-examples.js';
import { describeGrammarProblem, grammarInputSchema, type GrammarToolArguments, type ToolGrammar } from './grammar-input.js';
import { describeToolNameProblem } from './tool-name.js';
import type { ArgumentLimits, JsonSchemaObject, ToolCallRuleInput, ToolCallerKind, ToolContext, ToolEffect } from './types.js';

/**
 * Whether a call needs a person's approval first: always, never, or decided from the arguments and the run's context (a function asks unless it
 * returns exactly `false`; see call-rules.ts).
 */
export type ConfirmRule<Args, Ctx = unknown> = boolean | ((args: Args, call: ToolCallRuleInput<Ctx>) => boolean);

/** MCP tool annotations beyond what `effect` already says. */
export interface ToolHints {
  /** Calling twice with the same arguments has no more effect than once (writes only). */
  idempotent?: boolean;
  /** The tool reaches outside systems (the web, other people's accounts). Defaults to true, as in MCP. */
  openWorld?: boolean;
  /** A write that only adds, never destroys (MCP `destructiveHint: false`). */
  additive?: boolean;
}

/**
 * Who wrote a tool's definition. `local` (the default): written here, so its author can change the schema and description.
 * `mcp`: listed by someone else's MCP server (`importMcpTools`); only its `confirm`, name prefix and selection are in the
 * importer's hands, which is what the linter's imported mode takes into account.
 */
export type ToolOrigin =
  | { readonly kind: 'local' }
  | {
      readonly kind: 'mcp';
      /** The server's name (from `initialize`) or the command line or URL it was reached at. */
      readonly server: string;
      /** Whether the server said what the tool does to the world (`readOnlyHint` or `destructiveHint`); without it `effect` is only the safe default. */
      readonly effectAnnotated: boolean;
      /** The tool's name on its server, before a prefix or a rewrite made it a name every provider accepts. */
      readonly remoteName?: string;
    };

interface ToolDefinitionBase<Args, Ctx> {
  /** Letters, digits, `_` and `-`, at most 64 characters: accepted by OpenAI, Anthropic and MCP alike. */
  name: string;
  /** A human-facing title (MCP `title`). */
  title?: string;
  /** What the tool does and when to call it: the model's only guide. */
  description: string;
  /** `read`: no side effects, safe to run in parallel. `write`: changes the world, runs alone and in order. */
  effect: ToolEffect;
  /** Ask a person before running (see the agent runtime's confirmations). Defaults to `false`. */
  confirm?: ConfirmRule<Args, Ctx>;
  /**
   * A one-line human-readable description of a call, shown when asking for confirmation and stored with it; it receives the arguments with secrets
   * redacted, and the run's context as it is (what it copies from the context into the line is shown and stored).
   */
  summarize?: (args: Args, call: ToolCallRuleInput<Ctx>) => string;
  /**
   * Top-level argument names that decide where the call's effect goes, beyond those toolwright finds by name and shape
   * (`to`, `url`, `amount`…, address- and URL-shaped values): shown first and whole (up to a cap) in the default summary
   * line, MCP elicitation and the framework bridges' prompts (docs/agent.md, "The arguments a person is shown").
   */
  decisiveArguments?: readonly string[];
  /**
   * Arguments whose value decides where money, data or messages go (`["iban", "amount"]`, dotted for nested ones), also
   * marked in the schema with `"x-toolwright-critical": true`. A policy lets a value of one that came from untrusted
   * content through only when the task pins it or a person confirms it (docs/policy.md, "Critical arguments").
   */
  critical?: readonly string[];
  /** Groups tools for two-stage routing ("billing", "support"…). */
  category?: string;
  /** Offered to the model whatever category routing picks. */
  alwaysAvailable?: boolean;
  /** Stop the call after this many milliseconds; the model is told it timed out. */
  timeoutMs?: number;
  /**
   * The tool dedupes on `context.idempotencyKey` (it passes the key to the system it changes, which applies a key once).
   * Only then does the agent runtime start a call again after a crash left it unfinished; a write without it is
   * reported `outcome_unknown` instead. Defaults to `false`.
   */
  acceptsIdempotencyKey?: boolean;
  /** Truncate results longer than this many characters, telling the model that it happened. */
  maxResultChars?: number;
  /** Tighter or looser bounds on this tool's arguments than the registry's (`DEFAULT_ARGUMENT_LIMITS` unless the registry sets others). */
  argumentLimits?: Partial<ArgumentLimits>;
  hints?: ToolHints;
  /** Who wrote the definition; set by `importMcpTools`. Default `{ kind: 'local' }`. */
  origin?: ToolOrigin;
  /**
   * How to read a JSON Schema input or output schema without a root `$schema` naming a dialect: `draft-04`, `draft-06`,
   * `draft-07` and `2019-09` are rewritten into 2020-12 (`upgradeSchemaDialect`). Default `2020-12`. A root `$schema` wins.
   */
  schemaDialect?: SchemaDialect;
  /**
   * Example inputs that show the model how to call the tool, each checked against the input schema here (a bad one throws
   * `ToolExampleError`). Sent as Anthropic `input_examples` and the AI SDK's `inputExamples`; elsewhere appended to the description.
   */
  examples?: readonly Record<string, unknown>[];
  /** Declare this tool strict (provider-side constrained decoding), whatever the model's `strictTools` says. Default: the model's `strictTools`. */
  strict?: boolean;
  /**
   * Who may call the tool: the model directly (`'direct'`), code the provider runs for the model (`'programmatic'`:
   * Anthropic's code execution, OpenAI's programmatic tool calling), or both. Default `['direct']`. Every call, whoever
   * makes it, passes the same registry, policy, confirmations and budgets.
   */
  allowedCallers?: readonly ToolCallerKind[];
  /**
   * The tool may run for minutes: an MCP server offers it as task-capable (`execution.taskSupport: 'optional'`), so a
   * client may call it as a task (answered at once, polled, its result fetched later, cancelled) or inline. Default `false`.
   */
  longRunning?: boolean;
}

/** A tool defined with plain JSON Schema 2020-12; `Args` is what `execute` receives (declare it yourself). */
export interface JsonToolDefinition<Args, Output, Ctx = unknown> extends ToolDefinitionBase<Args, Ctx> {
  inputSchema: JsonSchemaObject;
  outputSchema?: JsonSchemaObject;
  execute: (args: Args, context: ToolContext<Ctx>) => Output | Promise<Output>;
}

/**
 * A grammar tool: its input is free text in a grammar instead of a JSON object, and `execute`, `confirm` and
 * `summarize` receive that text. OpenAI Responses gets a `custom` tool with the grammar; the registry, the MCP server,
 * the token mask and the other providers (Chat Completions included: docs/providers.md) see the object
 * `{ input: string }` (see grammar-input.ts), so the tool's arguments as recorded and as policies read them are that object.
 */
export interface GrammarToolDefinition<Output, Ctx = unknown> extends ToolDefinitionBase<string, Ctx> {
  /** `regex`: enforced by toolwright (whole-text match, linear time) and declared to OpenAI; `lark`: declared to OpenAI only. */
  input: { grammar: ToolGrammar };
  execute: (input: string, context: ToolContext<Ctx>) => Output | Promise<Output>;
}

/**
 * Any Zod 4 schema (`zod` or `zod/mini`, any 4.x release, from whichever copy of
 * zod the app installed). Typed by shape rather than against one zod release, so
 * that an app's own zod never has to be the copy toolwright was built with.
 */
export interface ZodSchemaLike {
  readonly _zod: { readonly output: unknown };
}

/** What a Zod schema parses to: the same rule as zod's own `z.output<T>`. */
export type ZodSchemaOutput<Schema> = Schema extends { readonly _zod: { readonly output: infer Parsed } } ? Parsed : unknown;

/** A tool defined with a Zod v4 schema; it is converted with Zod's own JSON Schema export and `execute` receives Zod's parsed output. */
export interface ZodToolDefinition<Schema extends ZodSchemaLike, Output, Ctx = unknown> extends ToolDefinitionBase<ZodSchemaOutput<Schema>, Ctx> {
  inputSchema: Schema;
  outputSchema?: JsonSchemaObject | ZodSchemaLike;
  execute: (args: ZodSchemaOutput<Schema>, context: ToolContext<Ctx>) => Output | Promise<Output>;
}

/**
 * The seed's four-field tool, `{ name, description, input_schema, fn }` (the
 * provider-neutral shape MCP uses), accepted as is. Without `effect` the tool
 * counts as a write (run alone, in order), since nothing says it is safe to run
 * in parallel; the linter reports it (`tw/undeclared-effect`).
 */
export interface SeedToolDefinition<Args = Record<string, unknown>, Output = unknown, Ctx = unknown> {
  name: string;
  description: string;
  input_schema: JsonSchemaObject;
  fn: (args: Args, context: ToolContext<Ctx>) => Output | Promise<Output>;
  effect?: ToolEffect;
}

export type ArgumentRefinement = (
  value: unknown,
) => { success: true; data: unknown } | { success: false; issues: { path: (string | number)[]; message: string }[] };

/**
 * A checked, frozen tool. Create with {@link defineTool}. `Ctx` is the run context it needs (`unknown`: any, or none); a
 * tool that needs one fits only a run whose `context` is of that type.
 */
export interface Tool<Args = Record<string, unknown>, Output = unknown, Ctx = unknown> {
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string;
  /** Always JSON Schema, whatever the tool was defined with. */
  readonly inputSchema: JsonSchemaObject;
  readonly outputSchema: JsonSchemaObject | undefined;
  readonly effect: ToolEffect;
  /** False when the definition gave no `effect` (the seed's four-field shape) and `effect` is the conservative default, `write`. */
  readonly effectDeclared: boolean;
  /** The definition's rule; toolwright always passes the second argument (optional here so that existing direct calls still compile). */
  readonly confirm: boolean | ((args: Args, call?: ToolCallRuleInput<Ctx>) => boolean);
  readonly summarize: ((args: Args, call?: ToolCallRuleInput<Ctx>) => string) | undefined;
  /** The definition's `decisiveArguments`; absent on a tool object built by hand. */
  readonly decisiveArguments?: readonly string[] | undefined;
  /** The critical arguments' dotted paths (the definition's `critical` and the schema's marks); absent when there are none. */
  readonly critical?: readonly string[] | undefined;
  readonly category: string | undefined;
  readonly alwaysAvailable: boolean;
  readonly timeoutMs: number | undefined;
  /** Whether the tool dedupes on `context.idempotencyKey`; see the definition's field. */
  readonly acceptsIdempotencyKey: boolean;
  readonly maxResultChars: number | undefined;
  /** This tool's own bounds on its arguments, laid over the registry's. */
  readonly argumentLimits: Readonly<Partial<ArgumentLimits>> | undefined;
  readonly hints: Readonly<ToolHints>;
  /** Who wrote the definition: here (`local`), or an MCP server it was imported from. */
  readonly origin: ToolOrigin;
  /** For Zod-defined tools: runs Zod after JSON Schema validation, for refinements and transforms. */
  readonly refineArguments: ArgumentRefinement | undefined;
  /** The definition's `allowedCallers`; absent (direct calls only) on a tool object built by hand. */
  readonly allowedCallers?: readonly ToolCallerKind[] | undefined;
  readonly execute: (args: Args, context: ToolContext<Ctx>) => Output | Promise<Output>;
  /** The definition's `examples`, checked against the input schema and frozen; absent on a tool object built by hand. */
  readonly examples?: readonly ToolExample[] | undefined;
  /** The definition's `strict`; `undefined` follows the model's `strictTools`. */
  readonly strict?: boolean | undefined;
  /** A grammar tool's grammar (`defineTool({ input: { grammar } })`); its `inputSchema` is then the one-string-property object. */
  readonly grammar?: ToolGrammar | undefined;
  /** The definition's `longRunning`: an MCP server offers the tool as task-capable. Absent (not long-running) on a tool object built by hand. */
  readonly longRunning?: boolean | undefined;
}

/**
 * Any tool, whatever its argument type; what registries and adapters accept. `AnyTool<Ctx>` is any tool that a run
 * with a context of type `Ctx` can call (one that needs no context, or one that needs a `Ctx`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- `execute` is contravariant in Args and Ctx; `any` lets a Tool<{verb: string}> sit in a list.
export type AnyTool<Ctx = any> = Tool<any, unknown, Ctx>;

/** `defineTool` for tools that all need the same run context; see {@link defineTool.withContext}. */
export interface DefineToolWithContext<Ctx> {
  <Output = unknown>(definition: GrammarToolDefinition<Output, Ctx>): Tool<GrammarToolArguments, Output, Ctx>;
  <Schema extends ZodSchemaLike, Output = unknown>(definition: ZodToolDefinition<Schema, Output, Ctx>): Tool<ZodSchemaOutput<Schema>, Output, Ctx>;
  <Args = Record<string, unknown>, Output = unknown>(definition: JsonToolDefinition<Args, Output, Ctx>): Tool<Args, Output, Ctx>;
}

export function defineTool<Output = unknown, Ctx = unknown>(definition: GrammarToolDefinition<Output, Ctx>): Tool<GrammarToolArguments, Output, Ctx>;
export function defineTool<Schema extends ZodSchemaLike, Output = unknown, Ctx = unknown>(
  definition: ZodToolDefinition<Schema, Output, Ctx>,
): Tool<ZodSchemaOutput<Schema>, Output, Ctx>;
export function defineTool<Args = Record<string, unknown>, Output = unknown, Ctx = unknown>(
  definition: SeedToolDefinition<Args, Output, Ctx>,
): Tool<Args, Output, Ctx>;
export function defineTool<Args = Record<string, unknown>, Output = unknown, Ctx = unknown>(
  definition: JsonToolDefinition<Args, Output, Ctx>,
): Tool<Args, Output, Ctx>;
export function defineTool(
  given:
    | JsonToolDefinition<unknown, unknown>
    | ZodToolDefinition<ZodSchemaLike, unknown>
    | SeedToolDefinition<unknown, unknown>
    | GrammarToolDefinition<unknown, unknown>,
): Tool<unknown, unknown> {
  if (!isPlainObject(given)) throw new ToolDefinitionError(undefined, 'defineTool expects an object with name, description, inputSchema, effect and execute.');
  const grammarTool = fromGrammarShape(given);
  const { definition, effectDeclared } = fromSeedShape(grammarTool?.definition ?? given);
  const name: unknown = definition.name;
  if (typeof name !== 'string') throw new ToolDefinitionError(undefined, 'the tool has no `name` string. Give it a name such as "get_invoices".');
  const nameProblem = describeToolNameProblem(name);
  if (nameProblem) throw new ToolDefinitionError(name, `invalid name: ${nameProblem}.`);
  if (typeof definition.description !== 'string') {
    throw new ToolDefinitionError(name, '`description` must be a string saying what the tool does and when to call it.');
  }
  if (definition.effect !== 'read' && definition.effect !== 'write') {
    throw new ToolDefinitionError(
      name,
      `\`effect\` must be "read" or "write" (got ${JSON.stringify(definition.effect)}). Say "write" if the tool changes anything outside the process.`,
    );
  }
  if (typeof definition.execute !== 'function') throw new ToolDefinitionError(name, '`execute` must be a function (args, context) => result.');
  const confirm = definition.confirm ?? false;
  if (typeof confirm !== 'boolean' && typeof confirm !== 'function')
    throw new ToolDefinitionError(name, '`confirm` must be a boolean or a function of the arguments.');
  if (definition.acceptsIdempotencyKey !== undefined && typeof definition.acceptsIdempotencyKey !== 'boolean') {
    throw new ToolDefinitionError(
      name,
      `\`acceptsIdempotencyKey\` must be true or false (got ${JSON.stringify(definition.acceptsIdempotencyKey)}). Set it to true only if execute dedupes on context.idempotencyKey.`,
    );
  }
  const decisive: unknown = definition.decisiveArguments;
  if (decisive !== undefined && (!Array.isArray(decisive) || !decisive.every((item) => typeof item === 'string'))) {
    throw new ToolDefinitionError(name, '`decisiveArguments` must be an array of argument names, such as ["account_ref"].');
  }
  for (const key of ['timeoutMs', 'maxResultChars'] as const) {
    const value = definition[key];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
      throw new ToolDefinitionError(name, `\`${key}\` must be a positive number (got ${JSON.stringify(value)}).`);
    }
  }

  let argumentLimits: Readonly<Partial<ArgumentLimits>> | undefined;
  if (definition.argumentLimits !== undefined) {
    const overlaid = overlayArgumentLimits(DEFAULT_ARGUMENT_LIMITS, definition.argumentLimits);
    if ('problem' in overlaid) throw new ToolDefinitionError(name, `${overlaid.problem}.`);
    argumentLimits = Object.freeze({ ...definition.argumentLimits });
  }

  const origin: unknown = definition.origin;
  if (origin !== undefined && !(isPlainObject(origin) && (origin.kind === 'local' || (origin.kind === 'mcp' && typeof origin.server === 'string')))) {
    throw new ToolDefinitionError(
      name,
      '`origin` must be { kind: "local" } or { kind: "mcp", server, effectAnnotated }; leave it out for a tool written here.',
    );
  }
  const schemaDialect: unknown = definition.schemaDialect;
  if (schemaDialect !== undefined && !SCHEMA_DIALECTS.includes(schemaDialect as SchemaDialect)) {
    throw new ToolDefinitionError(
      name,
      `\`schemaDialect\` must be one of ${SCHEMA_DIALECTS.map((dialect) => `"${dialect}"`).join(', ')} (got ${JSON.stringify(schemaDialect)}).`,
    );
  }
  const allowedCallers = checkedAllowedCallers(name, definition.allowedCallers);
  const dialect = { dialect: schemaDialect as SchemaDialect | undefined };
  const input = toJsonSchema(name, 'inputSchema', definition.inputSchema, 'input', dialect);
  if (input.schema.type !== undefined && input.schema.type !== 'object') {
    throw new ToolDefinitionError(
      name,
      `\`inputSchema\` must describe an object (got type ${JSON.stringify(input.schema.type)}); wrap the value in an object property.`,
    );
  }
  const critical = criticalArgumentsOf(name, definition.critical, input.schema as Record<string, unknown>);
  const output = definition.outputSchema === undefined ? undefined : toJsonSchema(name, 'outputSchema', definition.outputSchema, 'output', dialect).schema;
  if (definition.strict !== undefined && typeof definition.strict !== 'boolean') {
    throw new ToolDefinitionError(
      name,
      `\`strict\` must be true or false (got ${JSON.stringify(definition.strict)}); leave it out to follow the model's strictTools.`,
    );
  }
  const examples = definition.examples === undefined ? undefined : checkToolExamples(name, definition.examples, input.schema, input.refine);
  if (definition.longRunning !== undefined && typeof definition.longRunning !== 'boolean') {
    throw new ToolDefinitionError(name, `\`longRunning\` must be true or false (got ${JSON.stringify(definition.longRunning)}).`);
  }

  const tool: { -readonly [Key in keyof Tool<unknown, unknown>]: Tool<unknown, unknown>[Key] } = {
    name,
    title: definition.title,
    description: definition.description,
    inputSchema: input.schema,
    outputSchema: output,
    effect: definition.effect,
    effectDeclared,
    confirm: confirm as Tool<unknown, unknown>['confirm'],
    summarize: definition.summarize as Tool<unknown, unknown>['summarize'],
    decisiveArguments: decisive === undefined ? undefined : Object.freeze([...(decisive as string[])]),
    ...(critical === undefined ? {} : { critical }),
    category: definition.category,
    alwaysAvailable: definition.alwaysAvailable ?? false,
    timeoutMs: definition.timeoutMs,
    acceptsIdempotencyKey: definition.acceptsIdempotencyKey ?? false,
    maxResultChars: definition.maxResultChars,
    argumentLimits,
    hints: Object.freeze({ ...definition.hints }),
    origin: Object.freeze(definition.origin === undefined ? { kind: 'local' as const } : { ...definition.origin }),
    refineArguments: input.refine,
    ...(allowedCallers === undefined ? {} : { allowedCallers }),
    execute: definition.execute as (args: unknown, context: ToolContext) => unknown,
    ...(examples === undefined ? {} : { examples }),
    ...(definition.strict === undefined ? {} : { strict: definition.strict }),
    ...(definition.longRunning ? { longRunning: true } : {}),
  };
  if (grammarTool) tool.grammar = grammarTool.grammar;
  return Object.freeze(tool);
}

const CALLER_KINDS: readonly ToolCallerKind[] = ['direct', 'programmatic'];

function checkedAllowedCallers(name: string, given: unknown): readonly ToolCallerKind[] | undefined {
  if (given === undefined) return undefined;
  if (!Array.isArray(given) || given.length === 0 || !given.every((kind) => CALLER_KINDS.includes(kind as ToolCallerKind))) {
    throw new ToolDefinitionError(name, '`allowedCallers` must be a non-empty array of "direct" and "programmatic", such as ["direct", "programmatic"].');
  }
  return Object.freeze([...new Set(given as ToolCallerKind[])]);
}

/** Whether the tool takes calls of this kind (`allowedCallers`, default direct only). */
export function toolAllowsCaller(tool: Pick<AnyTool, 'allowedCallers'>, kind: ToolCallerKind): boolean {
  return (tool.allowedCallers ?? ['direct']).includes(kind);
}

/**
 * `defineTool` with the run context fixed: `const defineAppTool = defineTool.withContext<AppContext>()`, then each
 * `defineAppTool({ …, execute(args, { context }) { … } })` gets `context` typed as `AppContext`, and so do its
 * `confirm` and `summarize` functions. Only types change: it is `defineTool` itself.
 */
defineTool.withContext = function withContext<Ctx>(): DefineToolWithContext<Ctx> {
  return defineTool as DefineToolWithContext<Ctx>;
};

/** Whether a value has the seed's shape: `input_schema` and `fn` where toolwright's shape has `inputSchema` and `execute`. */
export function isSeedToolDefinition(value: unknown): value is SeedToolDefinition<unknown, unknown> {
  return isPlainObject(value) && ('input_schema' in value || 'fn' in value) && !('inputSchema' in value) && !('execute' in value);
}

/**
 * Maps a grammar tool onto a JSON Schema tool over `{ input: string }` whose functions unwrap the text; `undefined` for
 * any other shape. The grammar is checked here, so a regex the linear-time engine cannot run is a definition error.
 */
function fromGrammarShape(given: Record<string, unknown>): { definition: Record<string, unknown>; grammar: ToolGrammar } | undefined {
  if (!('input' in given)) return undefined;
  const name = typeof given.name === 'string' ? given.name : undefined;
  if ('inputSchema' in given || 'input_schema' in given) {
    throw new ToolDefinitionError(name, 'has both `input` (a grammar tool) and an input schema. Give one: { input: { grammar } } or inputSchema.');
  }
  const input = given.input;
  const problem = describeGrammarProblem(isPlainObject(input) ? input.grammar : undefined);
  if (problem !== undefined) throw new ToolDefinitionError(name, `${problem}.`);
  const raw = (input as { grammar: ToolGrammar }).grammar;
  const grammar: ToolGrammar = Object.freeze({ syntax: raw.syntax, definition: raw.definition });
  const { input: _grammarInput, execute, confirm, summarize, ...rest } = given;
  const text = (args: unknown): string => (args as GrammarToolArguments).input;
  const definition: Record<string, unknown> = { ...rest, inputSchema: grammarInputSchema(grammar) };
  if (typeof execute === 'function')
    definition.execute = (args: unknown, context: unknown) => (execute as (input: string, context: unknown) => unknown)(text(args), context);
  else definition.execute = execute;
  if (typeof confirm === 'function')
    definition.confirm = (args: unknown, call: unknown) => (confirm as (input: string, call: unknown) => unknown)(text(args), call);
  else if (confirm !== undefined) definition.confirm = confirm;
  if (typeof summarize === 'function')
    definition.summarize = (args: unknown, call: unknown) => (summarize as (input: string, call: unknown) => unknown)(text(args), call);
  else if (summarize !== undefined) definition.summarize = summarize;
  return { definition, grammar };
}

/** Maps the seed's shape onto toolwright's; anything else passes through unchanged. */
function fromSeedShape(given: Record<string, unknown>): {
  definition: JsonToolDefinition<unknown, unknown> | ZodToolDefinition<ZodSchemaLike, unknown>;
  effectDeclared: boolean;
} {
  const normal = given as unknown as JsonToolDefinition<unknown, unknown>;
  if (!isSeedToolDefinition(given)) {
    if (('input_schema' in given || 'fn' in given) && typeof given.name === 'string') {
      throw new ToolDefinitionError(
        given.name,
        "mixes the seed's shape (input_schema, fn) with toolwright's (inputSchema, execute). Use one: { name, description, input_schema, fn } or { name, description, inputSchema, effect, execute }.",
      );
    }
    return { definition: normal, effectDeclared: true };
  }
  const { input_schema: inputSchema, fn: execute, effect, ...rest } = given;
  if (inputSchema === undefined)
    throw new ToolDefinitionError(
      typeof given.name === 'string' ? given.name : undefined,
      "the seed's shape needs `input_schema`, the JSON Schema of the arguments.",
    );
  if (typeof execute !== 'function')
    throw new ToolDefinitionError(
      typeof given.name === 'string' ? given.name : undefined,
      "the seed's shape needs `fn`, a function (args, context) => result.",
    );
  const effectDeclared = effect !== undefined;
  return { definition: { ...rest, inputSchema, execute, effect: effect ?? 'write' }, effectDeclared };
}

interface ZodLike {
  _zod: unknown;
  safeParse?: (value: unknown) => { success: true; data: unknown } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  toJSONSchema?: (options: object) => JsonSchemaObject;
}

function isZodSchema(value: unknown): value is ZodLike {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

type ZodCoreToJsonSchema = (schema: unknown, options: object) => JsonSchemaObject;
let zodCoreConverter: ZodCoreToJsonSchema | undefined;

/**
 * zod/mini schemas, and classic ones of older 4.x releases, have no
 * `toJSONSchema()` method: their converter is `toJSONSchema` in `zod/v4/core`. zod is an
 * optional peer, so it is required here, synchronously (defineTool is sync) and
 * only for such a schema: an app using JSON Schema tools needs no zod at all.
 * `require` comes from `node:module` where the runtime has it (Node, Bun, Deno);
 * elsewhere such a schema is refused with what to do instead.
 */
function zodCoreToJsonSchema(toolName: string, key: string): ZodCoreToJsonSchema {
  if (zodCoreConverter) return zodCoreConverter;
  try {
    const createRequire = nodeBuiltin('node:module')?.createRequire;
    if (createRequire === undefined) {
      throw new ToolDefinitionError(
        toolName,
        `the Zod \`${key}\` has no \`toJSONSchema()\` method, and this runtime cannot load zod's converter by itself. Convert it with \`z.toJSONSchema(schema)\` and pass the JSON Schema, or use a classic zod 4 schema.`,
      );
    }
    const core = createRequire(import.meta.url)('zod/v4/core') as { toJSONSchema: ZodCoreToJsonSchema };
    zodCoreConverter = core.toJSONSchema;
    return zodCoreConverter;
  } catch (error) {
    if (isMissingPackage(error, 'zod')) throw new MissingPeerError('zod', `Tool "${toolName}": converting the Zod \`${key}\``, { cause: error });
    throw error;
  }
}

/**
 * A Zod v4 schema or a JSON Schema object as JSON Schema (2020-12), with Zod's own parse as a refinement; also used for
 * run outputs (define-output.ts). A JSON Schema whose root `$schema` names an older draft (or, untagged, `options.dialect`)
 * is rewritten into 2020-12 here, so that the registry's Ajv and the token mask compile the same schema.
 */
export function toJsonSchema(
  toolName: string,
  key: string,
  schema: unknown,
  io: 'input' | 'output' = key === 'inputSchema' ? 'input' : 'output',
  options: { dialect?: SchemaDialect | undefined } = {},
): { schema: JsonSchemaObject; refine: ArgumentRefinement | undefined } {
  if (isZodSchema(schema)) {
    let converted: JsonSchemaObject;
    try {
      const options = { target: 'draft-2020-12', io, unrepresentable: 'throw' };
      converted = schema.toJSONSchema ? schema.toJSONSchema(options) : zodCoreToJsonSchema(toolName, key)(schema, options);
    } catch (error) {
      throw new ToolDefinitionError(
        toolName,
        `\`${key}\` is a Zod schema that has no JSON Schema form (${(error as Error).message}). Use only Zod types that JSON Schema can express, or pass JSON Schema.`,
        { cause: error },
      );
    }
    const { $schema: _ignored, ...rest } = converted;
    const safeParse = schema.safeParse?.bind(schema);
    const refine: ArgumentRefinement | undefined = safeParse
      ? (value) => {
          const result = safeParse(value);
          return result.success
            ? { success: true, data: result.data }
            : {
                success: false,
                issues: result.error.issues.map((issue) => ({
                  path: issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment))),
                  message: issue.message,
                })),
              };
        }
      : undefined;
    refuseReferenceCycle(toolName, key, rest);
    return { schema: rest, refine };
  }
  if (typeof schema === 'object' && schema !== null && '_def' in schema) {
    throw new ToolDefinitionError(
      toolName,
      `\`${key}\` looks like a Zod 3 schema. toolwright accepts Zod v4 schemas (import { z } from "zod" with zod@4) or plain JSON Schema.`,
    );
  }
  if (!isPlainObject(schema)) {
    throw new ToolDefinitionError(toolName, `\`${key}\` must be a JSON Schema object or a Zod v4 schema (got ${schema === null ? 'null' : typeof schema}).`);
  }
  const upgraded = upgradeSchemaDialect(schema, { toolName, pointer: `/${key}`, ...(options.dialect === undefined ? {} : { dialect: options.dialect }) });
  // A rewritten older draft reads as 2020-12 without a tag, as every untagged schema does; the tag the rewrite adds would
  // only travel to the providers in the tool's parameters.
  const { $schema: _addedTag, ...untagged } = upgraded.schema as JsonSchemaObject;
  const result = upgraded.dialect === '2020-12' ? upgraded.schema : untagged;
  refuseReferenceCycle(toolName, key, result);
  // the tool must share nothing with the caller's object (a rewritten schema still holds its enum and default values)
  return { schema: structuredClone(result) as JsonSchemaObject, refine: undefined };
}

/** Refused at definition rather than at registration: such a schema can never validate anything (Ajv overflows the stack on it). */
function refuseReferenceCycle(toolName: string | undefined, key: string, schema: unknown): void {
  const cycle = findReferenceCycle(schema);
  if (cycle !== undefined) throw new SchemaReferenceCycleError(toolName, cycle, { pointer: `/${key}` });
}
