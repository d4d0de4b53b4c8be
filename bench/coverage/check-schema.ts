/**
 * One schema through the mask engine, for `bench:coverage`: compile it (strictly, then
 * leniently to list every keyword it would need), time compile + first mask, then check
 * instances labelled by the registry's validator: each valid one must be accepted in the
 * grammar's layout, no invalid one may be accepted in any serialization tried.
 */
import { compileJsonSchema, DecodingLimitError, UnsupportedSchemaError, type CompiledGrammar, type Vocabulary } from '../../src/decoding/index.js';
import { SchemaCompileError } from '../../src/shared/errors.js';
import { upgradeSchemaDialect } from '../../src/shared/json-schema/upgrade-schema-dialect.js';
import { compileSchema, type SchemaValidator } from '../../src/tools/schema-validator.js';
import { boundaryInstances } from '../../test/decoding/boundary-instances.js';

export type Outcome = 'compiled' | 'refused' | 'schema-error' | 'limit' | 'error' | 'timeout';

export interface SchemaJob {
  readonly name: string;
  readonly schema: unknown;
  readonly remotes?: Readonly<Record<string, unknown>>;
  /** Instances to check (the suite's own); generated from the schema when absent. */
  readonly instances?: readonly unknown[];
  readonly layout: 'compact' | 'flexible';
  readonly maxInstances: number;
  readonly seed: number;
}

export interface InstanceCounts {
  valid: number;
  validAccepted: number;
  invalid: number;
  invalidAccepted: number;
  /** Instances the registry's validator could not judge (it cannot compile the schema) or that hit an engine budget. */
  unlabeled: number;
}

export interface SchemaResult {
  readonly name: string;
  readonly outcome: Outcome;
  /** Refusal reason (keyword, or `format "x"`, or the regex feature) or the error's first line. */
  readonly reason?: string;
  /** The first refusal as the engine reported it, for `--list-refused`. */
  readonly refusal?: { readonly keyword: string; readonly pointer: string; readonly details: string };
  /** Under `lenient`, every reason the engine would have to relax (empty when it compiles strictly). */
  readonly relaxed?: readonly string[];
  /** Names of the formats unknown to ajv-formats that the schema uses, when that is a reason. */
  readonly unknownFormats?: readonly string[];
  readonly compileMs?: number;
  readonly firstMaskMs?: number;
  readonly instances?: InstanceCounts;
  /** Up to three instances the mask got wrong, for the report. */
  readonly failures?: readonly string[];
}

/**
 * The reason a refusal is grouped under: the keyword; for a format, `format "name"` when
 * ajv-formats knows it and `format (unknown to ajv-formats)` otherwise (its name goes to
 * `unknownFormat`); for a regex feature the keyword and the feature.
 */
export function refusalReason(error: UnsupportedSchemaError): { reason: string; unknownFormat?: string } {
  if (error.keyword === 'format') {
    const name = /format "([^"]*)"/.exec(error.details)?.[1] ?? '?';
    return /unknown to ajv-formats/.test(error.details) ? { reason: 'format (unknown to ajv-formats)', unknownFormat: name } : { reason: `format "${name}"` };
  }
  if ((error.keyword === 'pattern' || error.keyword === 'patternProperties') && /regex/.test(error.details)) {
    const feature = error.details.replace(/\s*\(at offset.*$/s, '').replace(/\/.*\//s, '/…/');
    return { reason: `${error.keyword} (regex: ${feature.slice(0, 70)})` };
  }
  return { reason: error.keyword };
}

function errorReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // group "no schema with key or ref http://json-schema.org/draft-04/schema#" and similar messages by their shape, not their data
  return message
    .split('\n')[0]!
    .replace(/"[^"\s]{24,200}"/g, '"…"')
    .replace(/\bat #\S*/g, 'at #…')
    .replace(/https?:\/\/\S+/g, '<uri>')
    .slice(0, 120);
}

/** The serializations an instance is offered in: the grammar's own layout when it has one, compact JSON in insertion order and with keys sorted. */
function texts(grammar: CompiledGrammar, value: unknown): string[] {
  const out = new Set<string>();
  const layout = grammar.format(value);
  if (layout !== undefined) out.add(layout);
  const plain = JSON.stringify(value);
  if (plain !== undefined) out.add(plain);
  const sorted = JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)))
      : inner,
  );
  if (sorted !== undefined) out.add(sorted);
  return [...out];
}

function accepts(grammar: CompiledGrammar, text: string): boolean {
  const matcher = grammar.matcher();
  return matcher.acceptString(text) && matcher.canTerminate();
}

export function checkSchema(job: SchemaJob, vocabulary: Vocabulary): SchemaResult {
  const options = { layout: job.layout, schemas: job.remotes ?? {} };
  let grammar: CompiledGrammar;
  let compileMs: number;
  let firstMaskMs: number;
  try {
    const start = performance.now();
    grammar = compileJsonSchema(job.schema, vocabulary, options);
    compileMs = performance.now() - start;
    const maskStart = performance.now();
    grammar.matcher().fillMask(new Uint32Array(vocabulary.maskWords));
    firstMaskMs = performance.now() - maskStart;
  } catch (error) {
    if (UnsupportedSchemaError.isInstance(error) && error instanceof UnsupportedSchemaError) {
      let relaxed = [refusalReason(error)];
      try {
        const lenient = compileJsonSchema(job.schema, vocabulary, { ...options, lenient: true });
        relaxed = lenient.relaxed.map((entry) => refusalReason(new UnsupportedSchemaError(entry.keyword, entry.pointer, entry.details)));
      } catch {
        // the lenient compile failing too leaves the first reason as the only one known
      }
      const unknownFormats = [...new Set(relaxed.flatMap((entry) => (entry.unknownFormat === undefined ? [] : [entry.unknownFormat])))];
      return {
        name: job.name,
        outcome: 'refused',
        reason: refusalReason(error).reason,
        refusal: { keyword: error.keyword, pointer: error.pointer, details: error.details },
        relaxed: [...new Set(relaxed.map((entry) => entry.reason))],
        unknownFormats,
      };
    }
    if (error instanceof SchemaCompileError) return { name: job.name, outcome: 'schema-error', reason: errorReason(error) };
    if (error instanceof DecodingLimitError) return { name: job.name, outcome: 'limit', reason: error.limit };
    return { name: job.name, outcome: 'error', reason: errorReason(error) };
  }

  // compileJsonSchema read an older draft through upgradeSchemaDialect; the validator and the instance generator read the same rewrite
  // (it cannot throw here: the compile above already ran it)
  const schema = upgradeSchemaDialect(job.schema).schema;
  const counts: InstanceCounts = { valid: 0, validAccepted: 0, invalid: 0, invalidAccepted: 0, unlabeled: 0 };
  const failures: string[] = [];
  let validator: SchemaValidator | undefined;
  try {
    // Ajv compiles a root "$async": true schema to a function returning a Promise, which the registry reads as "valid":
    // such a schema labels nothing
    const asynchronous = schema !== null && typeof schema === 'object' && (schema as Record<string, unknown>).$async === true;
    validator = asynchronous ? undefined : compileSchema(schema as never);
  } catch {
    validator = undefined;
  }
  const generate = (): unknown[] => boundaryInstances(schema, { seed: job.seed, maxInstances: job.maxInstances, schemas: job.remotes ?? {} });
  const instances = job.instances ?? (job.maxInstances === 0 ? [] : generate());
  for (const value of instances) {
    let valid: boolean;
    try {
      if (validator === undefined) throw new Error('no validator');
      valid = validator.validate(value).success;
    } catch {
      counts.unlabeled++;
      continue;
    }
    try {
      if (valid) {
        counts.valid++;
        const text = grammar.format(value);
        if (text !== undefined && accepts(grammar, text)) counts.validAccepted++;
        else if (failures.length < 3) failures.push(`valid rejected: ${(text ?? JSON.stringify(value)).slice(0, 160)}`);
      } else {
        counts.invalid++;
        const accepted = texts(grammar, value).find((text) => accepts(grammar, text));
        if (accepted !== undefined) {
          counts.invalidAccepted++;
          if (failures.length < 3) failures.push(`INVALID ACCEPTED: ${accepted.slice(0, 160)}`);
        }
      }
    } catch (error) {
      if (!(error instanceof DecodingLimitError)) throw error;
      counts.unlabeled++;
    }
  }
  return { name: job.name, outcome: 'compiled', compileMs, firstMaskMs, instances: counts, failures };
}
