import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { SchemaCompileError } from '../shared/errors.js';
import type { JsonSchema } from './types.js';
import { issuesFromAjv, type ValidationResult } from './validation-issues.js';

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

/** One Ajv per process: compiling is the expensive part, and each schema is compiled once. */
let sharedAjv: Ajv2020 | undefined;

export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false, allowUnionTypes: true, validateFormats: true });
  addFormats(ajv);
  return ajv;
}

function getAjv(): Ajv2020 {
  sharedAjv ??= createAjv();
  return sharedAjv;
}

/** A compiled JSON Schema; validation returns issues instead of throwing. */
export interface SchemaValidator<T = unknown> {
  readonly schema: JsonSchema;
  validate(value: unknown): ValidationResult<T>;
}

export function compileSchema<T = unknown>(schema: JsonSchema, owner?: string): SchemaValidator<T> {
  let validateFunction: ValidateFunction;
  try {
    const ajv = getAjv();
    const id = typeof schema === 'object' && typeof schema.$id === 'string' ? schema.$id : undefined;
    // Ajv refuses a second schema with the same $id; the same tool pack loaded twice must still work.
    validateFunction = (id !== undefined ? ajv.getSchema(id) : undefined) ?? ajv.compile(typeof schema === 'boolean' ? schema : { ...schema });
  } catch (error) {
    throw new SchemaCompileError(owner, (error as Error).message, { cause: error });
  }
  return {
    schema,
    validate(value: unknown): ValidationResult<T> {
      if (validateFunction(value)) return { success: true, data: value as T };
      return { success: false, issues: issuesFromAjv(validateFunction.errors ?? []) };
    },
  };
}
