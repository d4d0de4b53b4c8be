/**
 * A tool's critical arguments: the ones whose value decides where money, data or messages go (a recipient, an account,
 * an amount, a destination URL, a file to share). Declared in `defineTool({ critical })` or with
 * `"x-toolwright-critical": true` on a property of the input schema; a policy (`toolwright/policy`, docs/policy.md
 * "Critical arguments") then lets a value that came from untrusted content reach the tool only when the task pins it or
 * a person confirms it.
 * @module
 */
import { getOwn, isPlainObject } from '../shared/own.js';
import { ToolDefinitionError } from '../shared/errors.js';

/** The schema keyword that marks a property critical. */
export const CRITICAL_KEYWORD = 'x-toolwright-critical';
/** The output-schema keyword that marks a field of a result trusted (`"x-toolwright-trust": "trusted"`). */
export const TRUST_KEYWORD = 'x-toolwright-trust';

/** Whether `value` is a dotted path of property names (`iban`, `payment.iban`), as critical arguments and trusted fields are written. */
export function isDottedPath(value: unknown): value is string {
  return typeof value === 'string' && /^[^.\s]+(\.[^.\s]+)*$/.test(value);
}

/**
 * The dotted paths of a tool's critical arguments (`payment.iban`; an array on the way is crossed, as policy paths are:
 * `payees.iban` is every payee's), from the definition's list and the schema's marks, in that order, each once;
 * `undefined` when there are none. Throws {@link ToolDefinitionError} for a list that is not dotted argument names, or
 * that names an argument the schema does not declare (when it declares its properties).
 */
export function criticalArgumentsOf(toolName: string, declared: unknown, inputSchema: Record<string, unknown>): readonly string[] | undefined {
  if (declared !== undefined && (!Array.isArray(declared) || !declared.every(isDottedPath))) {
    throw new ToolDefinitionError(toolName, '`critical` must be an array of argument names or dotted paths, such as ["iban", "amount"] or ["payment.iban"].');
  }
  const paths = [...((declared as string[] | undefined) ?? [])];
  for (const path of paths) {
    if (!declaresPath(inputSchema, path.split('.'))) {
      throw new ToolDefinitionError(
        toolName,
        `\`critical\` names "${path}", which the input schema does not declare. Name the argument as the schema's properties spell it, or add it to the schema.`,
      );
    }
  }
  paths.push(...schemaPathsMarked(inputSchema, CRITICAL_KEYWORD, true));
  const unique = [...new Set(paths)];
  return unique.length === 0 ? undefined : Object.freeze(unique);
}

/** Whether the schema declares the path; a schema that declares no properties on the way (free-form) is taken at its word. */
function declaresPath(schema: unknown, segments: readonly string[]): boolean {
  let current: unknown = itemsOf(schema);
  for (const segment of segments) {
    if (!isPlainObject(current)) return true;
    const properties = getOwn(current, 'properties');
    if (!isPlainObject(properties)) return true;
    const next = getOwn(properties, segment);
    if (next === undefined) return false;
    current = itemsOf(next);
  }
  return true;
}

/** An array schema's item schema (arrays are crossed, as policy paths cross them); any other schema as it is. */
function itemsOf(schema: unknown): unknown {
  return isPlainObject(schema) && schema.type === 'array' && isPlainObject(getOwn(schema, 'items')) ? getOwn(schema, 'items') : schema;
}

/** Deep enough for any real tool schema; a schema nested deeper is not searched for marks below this. */
const MAX_MARK_DEPTH = 16;

/**
 * The dotted paths (arrays crossed) of the properties of `schema` on which `keyword` is `value`, in document order:
 * `x-toolwright-critical: true` on an input schema, `x-toolwright-trust: "trusted"` on an output schema.
 */
export function schemaPathsMarked(schema: unknown, keyword: string, value: unknown): string[] {
  const out: string[] = [];
  const visit = (node: unknown, at: string, depth: number): void => {
    const object = itemsOf(node);
    if (!isPlainObject(object) || depth > MAX_MARK_DEPTH) return;
    const properties = getOwn(object, 'properties');
    if (!isPlainObject(properties)) return;
    for (const key of Object.keys(properties)) {
      const property = getOwn(properties, key);
      const path = at === '' ? key : `${at}.${key}`;
      if (isPlainObject(property) && getOwn(property, keyword) === value) out.push(path);
      visit(property, path, depth + 1);
    }
  };
  visit(schema, '', 0);
  return out;
}
