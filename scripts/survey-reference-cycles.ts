/**
 * `npx tsx scripts/survey-reference-cycles.ts <folder> [<folder>...]` — how often `findReferenceCycle` refuses a
 * real-world schema, and whether each refusal is a schema Ajv cannot run (it overflows the stack compiling it or
 * on a probe value), so that false refusals and misses show up as counts.
 *
 * Every `*.json` under a folder is one schema (JSONSchemaBench layout); a folder holding `tests/draft2020-12` is read as
 * JSON-Schema-Test-Suite (one schema per test group, probed with the suite's own instances). Older drafts are rewritten
 * first (`upgradeSchemaDialect`), as `defineTool` does. Probes elsewhere: a few plain values, and an object holding each
 * root property set to each of them. It also prints the time `findReferenceCycle` took in all, beside Ajv's compiles of
 * the same schemas (one pass, not a benchmark: a rough share of what the check adds to a compile).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { findReferenceCycle } from '../src/shared/json-schema/find-reference-cycle.js';
import { upgradeSchemaDialect } from '../src/shared/json-schema/upgrade-schema-dialect.js';
import { isPlainObject } from '../src/shared/own.js';

interface Case {
  readonly name: string;
  readonly schema: unknown;
  readonly instances: readonly unknown[] | undefined;
}

const PLAIN_PROBES: readonly unknown[] = [{}, [], 0, 'x', null, true, { a: {} }, [[]], [{}]];

function* cases(folder: string): Generator<Case> {
  const suite = join(folder, 'tests', 'draft2020-12');
  if (exists(suite)) {
    for (const file of readdirSync(suite).filter((name) => name.endsWith('.json'))) {
      const groups = JSON.parse(readFileSync(join(suite, file), 'utf8')) as { description: string; schema: unknown; tests: { data: unknown }[] }[];
      for (const group of groups) yield { name: `${file}: ${group.description}`, schema: group.schema, instances: group.tests.map((test) => test.data) };
    }
    return;
  }
  for (const entry of readdirSync(folder)) {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) yield* cases(path);
    else if (entry.endsWith('.json')) yield { name: path, schema: JSON.parse(readFileSync(path, 'utf8')), instances: undefined };
  }
}

function exists(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function probesFor(schema: unknown): unknown[] {
  const probes = [...PLAIN_PROBES];
  if (isPlainObject(schema) && isPlainObject(schema.properties))
    for (const probe of PLAIN_PROBES) probes.push(Object.fromEntries(Object.keys(schema.properties).map((key) => [key, probe])));
  return probes;
}

/** `overflow` when Ajv's stack overflows compiling the schema or checking a probe, `error` when it refuses the schema, else `runs`. */
function ajvVerdict(schema: unknown, instances: readonly unknown[]): 'overflow' | 'error' | 'runs' {
  let validate;
  const started = performance.now();
  try {
    validate = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, logger: false }).compile(schema as object);
  } catch (error) {
    return error instanceof RangeError ? 'overflow' : 'error';
  } finally {
    timings.ajvCompileMs += performance.now() - started;
  }
  for (const instance of instances) {
    try {
      const result: unknown = validate(instance);
      // a schema with `$async: true` answers with a promise; its rejection is a validation failure, not an overflow
      if (result instanceof Promise) result.catch(() => undefined);
    } catch (error) {
      if (error instanceof RangeError) return 'overflow';
    }
  }
  return 'runs';
}

const folders = process.argv.slice(2);
if (folders.length === 0) {
  console.error('usage: npx tsx scripts/survey-reference-cycles.ts <folder> [<folder>...]');
  process.exit(2);
}
const timings = { findReferenceCycleMs: 0, ajvCompileMs: 0 };
const counts = { schemas: 0, unreadable: 0, refusedAndOverflows: 0, refusedButRuns: 0, refusedAjvError: 0, missedOverflow: 0, passedAndRuns: 0 };
const notable: string[] = [];
for (const folder of folders) {
  for (const { name, schema, instances } of cases(folder)) {
    counts.schemas++;
    let upgraded: unknown;
    try {
      upgraded = upgradeSchemaDialect(schema as object).schema;
    } catch {
      counts.unreadable++;
      continue;
    }
    const started = performance.now();
    const cycle = findReferenceCycle(upgraded);
    timings.findReferenceCycleMs += performance.now() - started;
    const verdict = ajvVerdict(upgraded, instances ?? probesFor(upgraded));
    if (cycle !== undefined) {
      if (verdict === 'overflow') counts.refusedAndOverflows++;
      else if (verdict === 'error') counts.refusedAjvError++;
      else counts.refusedButRuns++;
      if (verdict !== 'overflow') notable.push(`refused, Ajv ${verdict}: ${name}: ${cycle.join(' → ')}`);
    } else if (verdict === 'overflow') {
      counts.missedOverflow++;
      notable.push(`not refused, Ajv overflows: ${name}`);
    } else counts.passedAndRuns++;
  }
}
const rounded = { findReferenceCycleMs: Math.round(timings.findReferenceCycleMs), ajvCompileMs: Math.round(timings.ajvCompileMs) };
console.log(JSON.stringify({ ...counts, ...rounded }, null, 2));
for (const line of notable) console.log(line);
