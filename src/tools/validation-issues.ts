/**
 * Ajv's errors, turned into a flat list of issues with stable codes and paths.
 * Rendering into sentences happens late, for a person or for the model.
 * @module
 */
import type { ErrorObject } from 'ajv';
import { decodePointer, decodePointerFragment, encodePointer } from '../shared/json-schema/json-pointer.js';

export type ValidationIssueCode =
  | 'invalid_type'
  | 'missing_property'
  | 'unknown_property'
  | 'invalid_enum'
  | 'invalid_const'
  | 'pattern_mismatch'
  | 'invalid_format'
  | 'too_small'
  | 'too_big'
  | 'too_short'
  | 'too_long'
  | 'too_few_items'
  | 'too_many_items'
  | 'too_few_properties'
  | 'too_many_properties'
  | 'not_unique'
  | 'not_multiple_of'
  | 'no_matching_alternative'
  | 'not_allowed'
  | 'custom';

export interface ValidationIssue {
  code: ValidationIssueCode;
  /** Where the problem is, as path segments from the arguments' root. */
  path: (string | number)[];
  /** What is wrong, as a sentence fragment that reads after the path ("must be one of …"). */
  message: string;
  /** The value found there, when there is one. */
  received?: unknown;
  /** Allowed values for enum and const problems. */
  allowed?: unknown[];
  /** The expected type, pattern, format or bound. */
  expected?: string;
}

export type ValidationResult<T = unknown> = { success: true; data: T } | { success: false; issues: ValidationIssue[] };

/** `$.items[0].name` style: readable for a model and a person alike. */
export function formatIssuePath(path: readonly (string | number)[]): string {
  let text = '$';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) text += `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

export function toJsonPointer(path: readonly (string | number)[]): string {
  return encodePointer(path);
}

const FORMAT_EXAMPLES: Record<string, string> = {
  date: '2026-01-31',
  time: '14:30:00Z',
  'date-time': '2026-01-31T14:30:00Z',
  email: 'name@example.com',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
  uri: 'https://example.com/path',
  'uri-reference': '/path?q=1',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  hostname: 'example.com',
  duration: 'P3DT4H',
};

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'object') return 'an object';
  // Not JSON: Ajv reads a property missing from the arguments through the prototype (`toString`, `constructor`…).
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return `a ${typeof value}`;
  const json = JSON.stringify(value);
  const shown = json.length > 80 ? json.slice(0, 77) + '…' : json;
  return `${typeof value === 'string' ? 'the string' : `the ${typeof value}`} ${shown}`;
}

function listValues(values: readonly unknown[]): string {
  const shown = values.slice(0, 30).map((value) => JSON.stringify(value));
  return shown.join(', ') + (values.length > 30 ? `, … (${values.length - 30} more)` : '');
}

/** Ajv's instance path as segments; an index-looking segment becomes a number (Ajv writes array indices that way). */
function pointerToPath(pointer: string): (string | number)[] {
  return (decodePointer(pointer) ?? [pointer]).map((segment) => (/^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment));
}

/** The name a `$ref` ends with (`#/$defs/a~1b` → `a/b`), for a short description of the schema it names. */
function referenceName(reference: string): string {
  const hash = reference.indexOf('#');
  const segments = hash >= 0 ? decodePointerFragment(reference.slice(hash)) : undefined;
  return segments !== undefined && segments.length > 0 ? segments[segments.length - 1]! : (reference.split('/').pop() ?? reference);
}

function summarizeAlternative(schema: unknown): string {
  if (schema === true) return 'anything';
  if (schema === false) return 'nothing';
  if (typeof schema !== 'object' || schema === null) return 'a value';
  const record = schema as Record<string, unknown>;
  if ('const' in record) return JSON.stringify(record.const);
  if (Array.isArray(record.enum)) return `one of ${listValues(record.enum)}`;
  if (typeof record.$ref === 'string') return `a ${referenceName(record.$ref)}`;
  const type = Array.isArray(record.type) ? record.type.join(' or ') : typeof record.type === 'string' ? record.type : undefined;
  if (type === 'object' && typeof record.properties === 'object' && record.properties !== null) {
    const required = Array.isArray(record.required) ? (record.required as string[]) : [];
    return `an object with ${
      required.length > 0
        ? `required ${required.map((key) => `"${key}"`).join(', ')}`
        : `properties ${Object.keys(record.properties)
            .map((key) => `"${key}"`)
            .join(', ')}`
    }`;
  }
  return type ? `a ${type}` : 'a value matching its schema';
}

/** Turns Ajv errors (compiled with `allErrors` and `verbose`) into issues; nested branch errors of a failed anyOf/oneOf fold into one issue. */
export function issuesFromAjv(errors: readonly ErrorObject[]): ValidationIssue[] {
  const alternativeRoots = errors.filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf').map((error) => error.schemaPath);
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    if (alternativeRoots.some((root) => error.schemaPath !== root && error.schemaPath.startsWith(root + '/'))) continue;
    const issue = issueFromAjvError(error);
    const key = `${issue.code}|${toJsonPointer(issue.path)}|${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

function issueFromAjvError(error: ErrorObject): ValidationIssue {
  const path = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const data: unknown = error.data;
  const got = `; got ${describeValue(data)}`;
  switch (error.keyword) {
    case 'required': {
      const property = String(params.missingProperty);
      const parent = error.parentSchema as Record<string, unknown> | undefined;
      const properties = parent && typeof parent.properties === 'object' && parent.properties !== null ? (parent.properties as Record<string, unknown>) : {};
      const shape = Object.prototype.hasOwnProperty.call(properties, property) ? ` (${summarizeAlternative(properties[property])})` : '';
      return { code: 'missing_property', path, message: `missing required property "${property}"${shape}`, expected: property };
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const property = String(params.additionalProperty ?? params.unevaluatedProperty);
      const parent = error.parentSchema as Record<string, unknown> | undefined;
      const known = parent && typeof parent.properties === 'object' && parent.properties !== null ? Object.keys(parent.properties) : [];
      const allowed = known.length > 0 ? ` (allowed properties: ${known.map((key) => `"${key}"`).join(', ')})` : '';
      return { code: 'unknown_property', path, message: `has the unknown property "${property}"; remove it${allowed}`, received: property };
    }
    case 'type': {
      const expected = String(params.type).replace(/,/g, ' or ');
      return { code: 'invalid_type', path, message: `must be ${article(expected)}${got}`, expected, received: data };
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]) ?? [];
      return { code: 'invalid_enum', path, message: `must be one of ${listValues(allowed)}${got}`, allowed, received: data };
    }
    case 'const':
      return {
        code: 'invalid_const',
        path,
        message: `must be exactly ${JSON.stringify(params.allowedValue)}${got}`,
        allowed: [params.allowedValue],
        received: data,
      };
    case 'pattern':
      return {
        code: 'pattern_mismatch',
        path,
        message: `must match the pattern ${String(params.pattern)}${got}`,
        expected: String(params.pattern),
        received: data,
      };
    case 'format': {
      const format = String(params.format);
      const example = FORMAT_EXAMPLES[format];
      return {
        code: 'invalid_format',
        path,
        message: `must be a valid ${format}${example ? ` (for example ${JSON.stringify(example)})` : ''}${got}`,
        expected: format,
        received: data,
      };
    }
    case 'minLength':
      return {
        code: 'too_short',
        path,
        message: `must have at least ${String(params.limit)} character${params.limit === 1 ? '' : 's'}${got}`,
        expected: String(params.limit),
        received: data,
      };
    case 'maxLength':
      return {
        code: 'too_long',
        path,
        message: `must have at most ${String(params.limit)} characters; got ${typeof data === 'string' ? data.length : '?'} characters`,
        expected: String(params.limit),
        received: data,
      };
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum': {
      const comparison = String(params.comparison);
      const words: Record<string, string> = { '>=': 'at least', '>': 'greater than', '<=': 'at most', '<': 'less than' };
      return {
        code: comparison.startsWith('>') ? 'too_small' : 'too_big',
        path,
        message: `must be ${words[comparison] ?? comparison} ${String(params.limit)}${got}`,
        expected: `${comparison} ${String(params.limit)}`,
        received: data,
      };
    }
    case 'multipleOf':
      return {
        code: 'not_multiple_of',
        path,
        message: `must be a multiple of ${String(params.multipleOf)}${got}`,
        expected: String(params.multipleOf),
        received: data,
      };
    case 'minItems':
      return {
        code: 'too_few_items',
        path,
        message: `must have at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}${got}`,
        expected: String(params.limit),
      };
    case 'maxItems':
      return { code: 'too_many_items', path, message: `must have at most ${String(params.limit)} items${got}`, expected: String(params.limit) };
    case 'minProperties':
      return {
        code: 'too_few_properties',
        path,
        message: `must have at least ${String(params.limit)} propert${params.limit === 1 ? 'y' : 'ies'}`,
        expected: String(params.limit),
      };
    case 'maxProperties':
      return { code: 'too_many_properties', path, message: `must have at most ${String(params.limit)} properties`, expected: String(params.limit) };
    case 'uniqueItems':
      return {
        code: 'not_unique',
        path,
        message: `must not repeat items (items ${Math.min(Number(params.i), Number(params.j))} and ${Math.max(Number(params.i), Number(params.j))} are equal)`,
      };
    case 'anyOf':
    case 'oneOf': {
      const alternatives = Array.isArray(error.schema) ? (error.schema as unknown[]) : [];
      const passing = params.passingSchemas as number[] | null | undefined;
      if (error.keyword === 'oneOf' && Array.isArray(passing)) {
        return {
          code: 'no_matching_alternative',
          path,
          message: `must match exactly one alternative, but matches alternatives ${passing.join(' and ')}${got}`,
          received: data,
        };
      }
      return {
        code: 'no_matching_alternative',
        path,
        message: `must be ${alternatives.map(summarizeAlternative).join(', or ')}${got}`,
        received: data,
      };
    }
    case 'false schema':
      return { code: 'not_allowed', path, message: 'is not allowed here; remove it', received: data };
    case 'not':
      return { code: 'not_allowed', path, message: `must not match the excluded schema ${JSON.stringify(error.schema)}${got}`, received: data };
    case 'dependentRequired':
      return {
        code: 'missing_property',
        path,
        message: `must have "${String(params.missingProperty)}" when "${String(params.property)}" is present`,
        expected: String(params.missingProperty),
      };
    default:
      return { code: 'custom', path, message: `${error.message ?? 'is invalid'} (keyword "${error.keyword}")${got}`, received: data };
  }
}

function article(typeName: string): string {
  if (typeName.includes(' or ')) return typeName;
  return `${/^[aeiou]/.test(typeName) ? 'an' : 'a'} ${typeName}`;
}
