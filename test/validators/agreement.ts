/**
 * The interpreter's verdicts against Ajv's, as toolwright configures both (`compileSchema` under each
 * `useSchemaValidator` kind), on JSON-Schema-Test-Suite (draft 2020-12, the suite's instances) and on the vendored
 * JSONSchemaBench sample (instances near every constraint boundary, test/decoding/boundary-instances.ts). A verdict is
 * valid, invalid, or refused (the schema does not compile); a case agrees when both give the same one. The issue
 * lists (the recovery texts' source) are compared too. Shared by `src/tools/schema-interpreter.test.ts` and
 * `bench/validators/run.ts`.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { upgradeSchemaDialect } from '../../src/shared/json-schema/upgrade-schema-dialect.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { useSchemaValidator, type SchemaValidatorKind } from '../../src/tools/validator-kind.js';
import { boundaryInstances } from '../decoding/boundary-instances.js';
import { suiteRoot } from '../decoding/suite-runner.js';
import { readdirSync, statSync } from 'node:fs';

export interface AgreementCase {
  readonly source: 'JSON-Schema-Test-Suite' | 'JSONSchemaBench sample';
  readonly key: string;
  readonly schema: unknown;
  readonly instances: readonly unknown[];
}

/** `threw`: validating the instance threw (a bug to fix: validation returns issues). */
export type Verdict = 'valid' | 'invalid' | 'refused' | 'threw';

export interface Verdicts {
  readonly verdicts: Verdict[];
  /** The issues each instance got, as JSON (empty for a valid instance), or the refusal's message. */
  readonly details: string[];
}

export interface Disagreement {
  readonly key: string;
  readonly instance: number;
  readonly data: unknown;
  readonly ajv: Verdict;
  readonly other: Verdict;
  readonly detail: string;
}

export interface Agreement {
  readonly cases: number;
  readonly agreements: number;
  readonly disagreements: Disagreement[];
  /** Cases where both give the same verdict and the same issues (path, code and text). */
  readonly sameIssues: number;
}

function walk(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? walk(path) : name.endsWith('.json') ? [path] : [];
  });
}

export function suiteCases(repoRoot: string): AgreementCase[] {
  const folder = join(suiteRoot(repoRoot), 'tests/draft2020-12');
  return walk(folder)
    .sort()
    .flatMap((file) => {
      const name = file.slice(folder.length + 1);
      const groups = JSON.parse(readFileSync(file, 'utf8')) as { description: string; schema: unknown; tests: { data: unknown }[] }[];
      return groups.map((group, index) => ({
        source: 'JSON-Schema-Test-Suite' as const,
        key: `${name}#${index} ${group.description}`,
        schema: group.schema,
        instances: group.tests.map((test) => test.data),
      }));
    });
}

export function benchSampleCases(repoRoot: string, maxInstances = 40): AgreementCase[] {
  const schemas = JSON.parse(readFileSync(resolve(repoRoot, 'test/fixtures/jsonschemabench-sample/schemas.json'), 'utf8')) as Record<string, unknown>;
  return Object.entries(schemas).map(([key, raw]) => {
    // defineTool reads an older draft through the same rewrite
    let schema: unknown = raw;
    try {
      schema = upgradeSchemaDialect(raw).schema;
    } catch {
      // left as it is: both validators then judge the original
    }
    let instances: unknown[] = [];
    try {
      instances = boundaryInstances(schema, { seed: 1, maxInstances });
    } catch {
      instances = [{}];
    }
    return { source: 'JSONSchemaBench sample' as const, key, schema, instances };
  });
}

/** Verdicts and issues of `kind` for each instance of a case. */
export function verdictsOf(kind: SchemaValidatorKind, schema: unknown, instances: readonly unknown[]): Verdicts {
  const previous = useSchemaValidator(kind);
  try {
    let validate: ReturnType<typeof compileSchema>;
    try {
      validate = compileSchema(schema as never);
    } catch (error) {
      return { verdicts: instances.map(() => 'refused'), details: instances.map(() => (error as Error).message) };
    }
    const verdicts: Verdict[] = [];
    const details: string[] = [];
    for (const data of instances) {
      let result: ReturnType<typeof validate.validate>;
      try {
        result = validate.validate(data);
      } catch (error) {
        verdicts.push('threw');
        details.push(String(error));
        continue;
      }
      verdicts.push(result.success ? 'valid' : 'invalid');
      details.push(result.success ? '' : JSON.stringify(result.issues));
    }
    return { verdicts, details };
  } finally {
    useSchemaValidator(previous);
  }
}

/** Every case judged by Ajv and by `other` (the interpreter by default; the bench passes other candidates). */
export function compareWithAjv(
  cases: readonly AgreementCase[],
  other: (schema: unknown, instances: readonly unknown[]) => Verdicts = (schema, instances) => verdictsOf('interpreter', schema, instances),
): Agreement {
  let total = 0;
  let agreements = 0;
  let sameIssues = 0;
  const disagreements: Disagreement[] = [];
  for (const testCase of cases) {
    const ajv = verdictsOf('ajv', testCase.schema, testCase.instances);
    const candidate = other(testCase.schema, testCase.instances);
    testCase.instances.forEach((data, index) => {
      total++;
      if (ajv.verdicts[index] === candidate.verdicts[index]) {
        agreements++;
        if (ajv.verdicts[index] === 'refused' || ajv.details[index] === candidate.details[index]) sameIssues++;
      } else
        disagreements.push({
          key: testCase.key,
          instance: index,
          data,
          ajv: ajv.verdicts[index]!,
          other: candidate.verdicts[index]!,
          detail: `ajv: ${ajv.details[index]!.slice(0, 300)} | other: ${candidate.details[index]!.slice(0, 300)}`,
        });
    });
  }
  return { cases: total, agreements, disagreements, sameIssues };
}
