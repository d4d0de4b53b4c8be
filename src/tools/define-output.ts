/**
 * The schema a run's final answer must follow (`runAgent({ output })`): a Zod v4
 * schema or a JSON Schema object, converted and compiled once, the same way a
 * tool's input schema is (`define-tool.ts`, `schema-validator.ts`). The value is
 * checked with Ajv and then, for a Zod schema, by Zod itself, whose parsed value
 * (transforms applied) is what the run returns.
 * @module
 */
import { InvalidArgumentError, ToolwrightError } from '../shared/errors.js';
import { isPlainObject } from '../shared/own.js';
import { toJsonSchema, type ArgumentRefinement, type ZodSchemaLike, type ZodSchemaOutput } from './define-tool.js';
import { compileSchema, type SchemaValidator } from './schema-validator.js';
import { describeToolNameProblem } from './tool-name.js';
import type { JsonSchemaObject } from './types.js';
import type { ValidationResult } from './validation-issues.js';

const OUTPUT_BRAND = Symbol.for('toolwright.output');

/** The name a final answer goes by when none is given (OpenAI's `json_schema.name`, Anthropic's final tool). */
export const DEFAULT_OUTPUT_NAME = 'final_answer';

export interface OutputOptions {
  /** The answer's name on the wire (`[a-zA-Z0-9_-]{1,64}`); it must differ from every tool's name. Default `final_answer`. */
  name?: string;
  /** What the answer is, for the model (OpenAI's `json_schema.description`, the final tool's description). */
  description?: string;
}

/** A compiled output schema; `Value` is what `result.output` holds. Create with {@link defineOutput}. */
export interface OutputDefinition<Value = unknown> {
  readonly [OUTPUT_BRAND]: true;
  readonly name: string;
  readonly description: string | undefined;
  /** Always JSON Schema, with an object at the root. */
  readonly schema: JsonSchemaObject;
  /** Ajv, then Zod for a Zod schema; the data is Zod's parsed value, else the value itself. */
  validate(value: unknown): ValidationResult<Value>;
  /** Phantom: carries `Value` for type inference only; always `undefined`. */
  readonly __value?: Value;
}

/** What `runAgent({ output })` takes: a definition, a Zod v4 schema or a JSON Schema object. */
export type OutputOption = OutputDefinition<unknown> | ZodSchemaLike | JsonSchemaObject;

/** The type of `result.output` for an `output` option: Zod's output type, a definition's type, `unknown` for plain JSON Schema, `undefined` without one. */
export type OutputOf<Option> = [Option] extends [undefined]
  ? undefined
  : Option extends OutputDefinition<infer Value>
    ? Value
    : Option extends ZodSchemaLike
      ? ZodSchemaOutput<Option>
      : unknown;

/**
 * Compiles an output schema once; pass the result as `runAgent({ output })` to reuse it across runs, or to give a JSON
 * Schema its TypeScript type: `defineOutput<{ city: string }>({ type: 'object', … })`. The root must be an object (OpenAI
 * strict mode and Anthropic's tool input both require one): wrap a list or a single value in an object property.
 */
export function defineOutput<Schema extends ZodSchemaLike>(schema: Schema, options?: OutputOptions): OutputDefinition<ZodSchemaOutput<Schema>>;
export function defineOutput<Value = unknown>(schema: JsonSchemaObject, options?: OutputOptions): OutputDefinition<Value>;
export function defineOutput(schema: ZodSchemaLike | JsonSchemaObject, options: OutputOptions = {}): OutputDefinition<unknown> {
  const name = options.name ?? DEFAULT_OUTPUT_NAME;
  if (typeof name !== 'string') throw new InvalidArgumentError('output `name` must be a string such as "final_answer".');
  const problem = describeToolNameProblem(name);
  if (problem) throw new InvalidArgumentError(`output name ${JSON.stringify(name)} is not accepted: ${problem}.`);
  if (options.description !== undefined && typeof options.description !== 'string') {
    throw new InvalidArgumentError('output `description` must be a string saying what the answer is.');
  }
  let converted: { schema: JsonSchemaObject; refine: ArgumentRefinement | undefined };
  try {
    // What the model writes is what Zod parses: the schema's input side (transforms run after).
    converted = toJsonSchema(name, 'output', schema, 'input');
  } catch (error) {
    if (!ToolwrightError.isInstance(error) || error.code !== 'TW_INVALID_TOOL_DEFINITION') throw error;
    throw new InvalidArgumentError(`The output schema ${error.message.replace(/^Tool "[^"]*": /, '')}`, { cause: error });
  }
  let jsonSchema = converted.schema;
  if (jsonSchema.type === undefined) jsonSchema = { type: 'object', ...jsonSchema };
  if (jsonSchema.type !== 'object') {
    throw new InvalidArgumentError(
      `The output schema must describe an object (got type ${JSON.stringify(jsonSchema.type)}): wrap the value in an object property, such as { type: "object", properties: { items: … }, required: ["items"] }.`,
    );
  }
  const validator: SchemaValidator = compileSchema(jsonSchema, `output "${name}"`);
  const refine = converted.refine;
  const definition: OutputDefinition<unknown> = {
    [OUTPUT_BRAND]: true,
    name,
    description: options.description,
    schema: jsonSchema,
    validate(value) {
      const checked = validator.validate(value);
      if (!checked.success || !refine) return checked;
      const refined = refine(value);
      return refined.success ? refined : { success: false, issues: refined.issues.map((issue) => ({ code: 'custom', ...issue })) };
    },
  };
  return Object.freeze(definition);
}

/** Whether a value is an {@link OutputDefinition} (from any copy of the package). */
export function isOutputDefinition(value: unknown): value is OutputDefinition<unknown> {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[OUTPUT_BRAND] === true;
}

/** The definition for an `output` option: given, or compiled now. */
export function resolveOutput(option: OutputOption): OutputDefinition<unknown> {
  if (isOutputDefinition(option)) return option;
  if (typeof option === 'object' && option !== null && ('_zod' in option || isPlainObject(option))) return defineOutput(option as JsonSchemaObject);
  throw new InvalidArgumentError('`output` must be a Zod v4 schema, a JSON Schema object, or defineOutput(…).');
}
