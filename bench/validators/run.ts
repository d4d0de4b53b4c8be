/**
 * `npm run bench:validators`: which validator the registry should use where `new Function` is forbidden, by measurement.
 *
 * Agreement first: every case of JSON-Schema-Test-Suite (draft 2020-12) and of the vendored JSONSchemaBench sample
 * (120 schemas, instances at every constraint boundary) judged by Ajv as toolwright configures it and by each candidate:
 * toolwright's interpreter (`src/tools/schema-interpreter.ts`, through `compileSchema` with the interpreter forced) and
 * `@cfworker/json-schema` (draft 2020-12, all errors). A verdict is valid, invalid or refused (the schema does not
 * compile); cases / agreements / disagreements, and for the interpreter how many disagreements are its refusals at
 * definition. Then speed: a good and a bad call for each of the 22 tools in test/fixtures/third-party/mcp-tools.json
 * (chosen from the boundary instances, labelled by Ajv), validated by each validator in interleaved rounds; the median
 * round per validator and its ratio to Ajv; and compiling each tool's schema (a fresh copy each round, the meta-schema
 * check included for toolwright's two), median per schema and its ratio to Ajv. The calls are checked as the registry
 * checks them (issues built from the errors); `@cfworker/json-schema` returns its own error list, unconverted.
 *
 * Flags: --rounds=15  --repeat=200 (validations of every call per round)  --json
 */
import { Validator } from '@cfworker/json-schema';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { useSchemaValidator } from '../../src/tools/validator-kind.js';
import { boundaryInstances } from '../../test/decoding/boundary-instances.js';
import {
  benchSampleCases,
  compareWithAjv,
  suiteCases,
  type Agreement,
  type AgreementCase,
  type Verdict,
  type Verdicts,
} from '../../test/validators/agreement.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const flags = new Map(
  process.argv
    .slice(2)
    .filter((arg) => arg.startsWith('--'))
    .map((arg) => {
      const [name, value] = arg.slice(2).split('=');
      return [name!, value ?? 'true'] as const;
    }),
);
const ROUNDS = Number(flags.get('rounds') ?? 15);
const REPEAT = Number(flags.get('repeat') ?? 200);

function cfworkerVerdicts(schema: unknown, instances: readonly unknown[]): Verdicts {
  let validator: Validator;
  try {
    validator = new Validator(schema as never, '2020-12', false);
  } catch (error) {
    return { verdicts: instances.map(() => 'refused'), details: instances.map(() => String(error)) };
  }
  const verdicts: Verdict[] = [];
  for (const data of instances) {
    try {
      verdicts.push(validator.validate(data).valid ? 'valid' : 'invalid');
    } catch {
      verdicts.push('threw');
    }
  }
  return { verdicts, details: instances.map(() => '') };
}

function summarize(name: string, agreement: Agreement) {
  const refusedByCandidate = agreement.disagreements.filter((disagreement) => disagreement.other === 'refused').length;
  return {
    name,
    cases: agreement.cases,
    agreements: agreement.agreements,
    disagreements: agreement.disagreements.length,
    refusedByCandidate,
    otherDisagreements: agreement.disagreements.length - refusedByCandidate,
  };
}

const corpora: [string, AgreementCase[]][] = [
  ['JSON-Schema-Test-Suite 2020-12', suiteCases(root)],
  ['JSONSchemaBench sample', benchSampleCases(root)],
];
const agreementRows = corpora.flatMap(([corpus, cases]) => [
  { corpus, ...summarize('interpreter', compareWithAjv(cases)) },
  { corpus, ...summarize('@cfworker/json-schema', compareWithAjv(cases, cfworkerVerdicts)) },
]);

// Speed on the repository's tool schemas: one call Ajv accepts and one it rejects per tool.
interface McpToolsFixture {
  servers: { server: string; tools: { name: string; inputSchema: Record<string, unknown> }[] }[];
}
const fixture = JSON.parse(readFileSync(resolve(root, 'test/fixtures/third-party/mcp-tools.json'), 'utf8')) as McpToolsFixture;
const calls: { schema: Record<string, unknown>; good: unknown; bad: unknown }[] = [];
for (const tool of fixture.servers.flatMap((server) => server.tools)) {
  useSchemaValidator('ajv');
  const ajv = compileSchema(tool.inputSchema);
  const instances = boundaryInstances(tool.inputSchema, { seed: 1, maxInstances: 60 });
  const good = instances.find((instance) => ajv.validate(instance).success);
  const bad = instances.find((instance) => !ajv.validate(instance).success && typeof instance === 'object' && instance !== null);
  if (good !== undefined && bad !== undefined) calls.push({ schema: tool.inputSchema, good, bad });
}
useSchemaValidator('auto');

type Check = (value: unknown) => unknown;
function checksFor(kind: 'ajv' | 'interpreter' | 'cfworker'): { good: Check; bad: Check; schema: unknown }[] {
  return calls.map((call) => {
    if (kind === 'cfworker') {
      const validator = new Validator(call.schema as never, '2020-12', false);
      return { schema: call.schema, good: (value) => validator.validate(value), bad: (value) => validator.validate(value) };
    }
    useSchemaValidator(kind);
    // a copy, so that each kind compiles its own (compileSchema keeps one validator per schema object)
    const validator = compileSchema(structuredClone(call.schema));
    useSchemaValidator('auto');
    return { schema: call.schema, good: (value) => validator.validate(value), bad: (value) => validator.validate(value) };
  });
}
const validators = { ajv: checksFor('ajv'), interpreter: checksFor('interpreter'), '@cfworker/json-schema': checksFor('cfworker') };
const timings = new Map<string, number[]>(Object.keys(validators).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, checks] of Object.entries(validators)) {
    const started = performance.now();
    for (let repeat = 0; repeat < REPEAT; repeat++) {
      checks.forEach((check, index) => {
        check.good(calls[index]!.good);
        check.bad(calls[index]!.bad);
      });
    }
    timings.get(name)!.push((performance.now() - started) / (REPEAT * calls.length * 2));
  }
}
// Compiling: every tool's schema, a fresh copy each time (compileSchema keeps one validator per schema object), meta-schema check included.
const compileTimings = new Map<string, number[]>(Object.keys(validators).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const name of Object.keys(validators)) {
    const copies = calls.map((call) => structuredClone(call.schema));
    const started = performance.now();
    for (const copy of copies) {
      if (name === '@cfworker/json-schema') new Validator(copy as never, '2020-12', false);
      else {
        useSchemaValidator(name as 'ajv' | 'interpreter');
        compileSchema(copy);
      }
    }
    useSchemaValidator('auto');
    compileTimings.get(name)!.push((performance.now() - started) / calls.length);
  }
}
const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)]!;
const ajvMedian = median(timings.get('ajv')!);
const ajvCompileMedian = median(compileTimings.get('ajv')!);
const speedRows = [...timings].map(([name, values]) => ({
  validator: name,
  microsecondsPerCall: Number((median(values) * 1000).toFixed(2)),
  callRatioToAjv: Number((median(values) / ajvMedian).toFixed(2)),
  microsecondsPerCompile: Number((median(compileTimings.get(name)!) * 1000).toFixed(0)),
  compileRatioToAjv: Number((median(compileTimings.get(name)!) / ajvCompileMedian).toFixed(2)),
}));

if (flags.has('json')) {
  console.log(JSON.stringify({ agreement: agreementRows, speed: { tools: calls.length, rounds: ROUNDS, repeat: REPEAT, rows: speedRows } }, null, 2));
} else {
  console.log('Agreement with Ajv (as toolwright configures it), verdict per case (valid / invalid / refused):');
  console.table(agreementRows);
  console.log(
    `Speed: a good and a bad call for each of ${calls.length} tools (test/fixtures/third-party/mcp-tools.json), median of ${ROUNDS} interleaved rounds:`,
  );
  console.table(speedRows);
}
