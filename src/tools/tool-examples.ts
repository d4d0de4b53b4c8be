/**
 * `defineTool({ examples })`: each example is checked against the tool's own input schema (and, for a Zod tool, its
 * Zod parse) when the tool is defined. Providers show examples to the model as inputs to imitate, and Anthropic refuses
 * a request whose example breaks the schema, so a bad one is a definition error, worded as the registry words a bad call.
 * @module
 */
import { ToolDefinitionError, ToolExampleError } from '../shared/errors.js';
import { isPlainObject } from '../shared/own.js';
import { compileSchema } from './schema-validator.js';
import type { JsonSchemaObject } from './types.js';
import { formatIssuePath } from './validation-issues.js';

/** A Zod tool's own parse (define-tool.ts `ArgumentRefinement`), run after the schema as the registry does. */
type ExampleRefinement = (value: unknown) => { success: true } | { success: false; issues: { path: (string | number)[]; message: string }[] };

/** An example input of a tool: the arguments a model could send. */
export type ToolExample = Readonly<Record<string, unknown>>;

/**
 * The examples, checked and deep-copied (frozen, so a caller's later change cannot reach the tool). Throws
 * {@link ToolExampleError} naming the first example that fails and every problem with it.
 */
export function checkToolExamples(
  toolName: string,
  examples: unknown,
  inputSchema: JsonSchemaObject,
  refine: ExampleRefinement | undefined,
): readonly ToolExample[] {
  if (!Array.isArray(examples)) {
    throw new ToolDefinitionError(toolName, '`examples` must be an array of example inputs, such as [{ "city": "Paris" }].');
  }
  // compileSchema keeps the validator by schema object, so the registry reuses this one.
  const validator = compileSchema(inputSchema, toolName, { pointer: '/inputSchema' });
  return Object.freeze(
    examples.map((example: unknown, index) => {
      if (!isPlainObject(example)) {
        throw new ToolExampleError(toolName, index, [
          `$ must be an object (the arguments of one call); got ${example === null ? 'null' : Array.isArray(example) ? 'an array' : typeof example}`,
        ]);
      }
      const checked = validator.validate(example);
      if (!checked.success)
        throw new ToolExampleError(
          toolName,
          index,
          checked.issues.map((issue) => `${formatIssuePath(issue.path)} ${issue.message}`),
        );
      const refined = refine?.(example);
      if (refined !== undefined && !refined.success) {
        throw new ToolExampleError(
          toolName,
          index,
          refined.issues.map((issue) => `${formatIssuePath(issue.path)} ${issue.message}`),
        );
      }
      return deepFreeze(structuredClone(example));
    }),
  );
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
