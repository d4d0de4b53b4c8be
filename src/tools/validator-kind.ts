/**
 * Which JSON Schema validator the registry uses: Ajv, which compiles each schema into a function with `new Function`,
 * or the interpreter (`schema-interpreter.ts`), which needs no code generation. `'auto'` (the default) picks Ajv
 * where `new Function` works and the interpreter where the runtime forbids it (Cloudflare Workers, Vercel's edge
 * runtime, a page whose Content Security Policy has no `unsafe-eval`), found out once, at the first schema compiled.
 * @module
 */

export type SchemaValidatorKind = 'ajv' | 'interpreter';

let chosen: SchemaValidatorKind | 'auto' = 'auto';
let detected: SchemaValidatorKind | undefined;

function codeGenerationWorks(): boolean {
  try {
    // the one probe Ajv's compile depends on; a runtime that forbids it throws an EvalError here
    return (new Function('return 1') as () => number)() === 1;
  } catch {
    return false;
  }
}

/**
 * Sets the validator for schemas compiled from now on (those compiled before keep theirs): `'interpreter'` for a
 * process that must not generate code even where it could (a CSP that forbids eval), `'ajv'` to insist on Ajv,
 * `'auto'` to detect. Returns the kind now in use.
 */
export function useSchemaValidator(kind: SchemaValidatorKind | 'auto'): SchemaValidatorKind {
  if (kind !== 'auto' && kind !== 'ajv' && kind !== 'interpreter')
    throw new TypeError(`useSchemaValidator: expected 'auto', 'ajv' or 'interpreter', got ${String(kind)}`);
  chosen = kind;
  return schemaValidatorKind();
}

/** The validator schemas compile with now: `'ajv'` or `'interpreter'`. */
export function schemaValidatorKind(): SchemaValidatorKind {
  if (chosen !== 'auto') return chosen;
  detected ??= codeGenerationWorks() ? 'ajv' : 'interpreter';
  return detected;
}
