/**
 * `npm run bench:coverage -- <folder> [<folder>...]` — how much of real-world JSON Schema the
 * mask engine enforces, and whether it is sound there.
 *
 * Every `*.json` under a folder is one schema (JSONSchemaBench layout; a `{ "schema": … }`
 * wrapper is unwrapped). A folder holding `tests/draft2020-12` is read as
 * JSON-Schema-Test-Suite instead (one schema per test group, the suite's own instances;
 * `--suite` adds the vendored copy). Each schema is compiled over a real vocabulary in a
 * worker thread and counted as compiled, refused (grouped by reason), SchemaCompileError,
 * budget hit, other error or timeout; compile + first mask is timed; then instances near
 * every constraint boundary (test/decoding/boundary-instances.ts), labelled by the
 * registry's validator, are checked: valid ones must be accepted in the grammar's layout,
 * invalid ones never (in the layout, compact insertion order, or sorted keys).
 *
 * A schema whose root `$schema` names draft 4, 6, 7 or 2019-09 is counted and given as it is:
 * `compileJsonSchema` rewrites it into 2020-12 (`upgradeSchemaDialect`) and the validator gets
 * the same rewrite. `--strip-dialect` removes such a tag instead (the behaviour before the
 * rewrite existed, to compare).
 *
 * Flags: --vocab=qwen3|llama3|gemma3|byte  --limit=N (first N per folder)  --sample=N (N per
 * folder at random)  --seed=1  --instances=200 (per schema)  --timeout-ms=20000 (per schema,
 * the worker is replaced when it runs past)  --layout=compact|flexible  --suite  --json
 * --list-refused (every refused schema with its keyword, JSON pointer and the engine's reason)
 * --many-tools (before the corpus, in this process: every tool of test/fixtures/third-party compiled with its first
 * mask, one after another over one vocabulary; runs with no folder given)  --precompute-work=N (the many-tools
 * row's compile option `precomputeWork`, to compare with the lazy compile)  --rule-schemas (after the folders, two more
 * rows: the option schemas of ESLint's core rules and of typescript-eslint's rules, bench/coverage/rule-schemas.ts;
 * runs with no folder given)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { schemaDialectOf } from '../../src/shared/json-schema/upgrade-schema-dialect.js';
import { createRandom } from '../../test/decoding/generation.js';
import type { InstanceCounts, SchemaJob, SchemaResult } from './check-schema.js';
import { loadVocabulary } from './load-vocabulary.js';
import { manyToolsTable, measureManyTools, type ManyToolsRow } from './many-tools.js';
import { ruleSchemaSources, type RuleSchemaSource } from './rule-schemas.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const flags = new Map<string, string>();
const folders: string[] = [];
for (const arg of process.argv.slice(2)) {
  if (arg.startsWith('--')) {
    const [name, value] = arg.slice(2).split('=');
    flags.set(name!, value ?? 'true');
  } else folders.push(arg);
}
const VOCAB = flags.get('vocab') ?? 'qwen3';
const LIMIT = flags.has('limit') ? Number(flags.get('limit')) : Infinity;
const SAMPLE = flags.has('sample') ? Number(flags.get('sample')) : undefined;
const SEED = Number(flags.get('seed') ?? 1);
const MAX_INSTANCES = Number(flags.get('instances') ?? 200);
const TIMEOUT_MS = Number(flags.get('timeout-ms') ?? 20_000);
const LAYOUT = (flags.get('layout') ?? 'compact') as 'compact' | 'flexible';
const JSON_OUTPUT = flags.has('json');
const LIST_REFUSED = flags.has('list-refused');
const MANY_TOOLS = flags.has('many-tools');
const RULE_SCHEMAS = flags.has('rule-schemas');
const PRECOMPUTE_WORK = flags.has('precompute-work') ? Number(flags.get('precompute-work')) : undefined;
if (flags.has('suite')) folders.push(resolve(root, 'test/fixtures/json-schema-test-suite'));
if (
  (folders.length === 0 && !MANY_TOOLS && !RULE_SCHEMAS) ||
  !['qwen3', 'llama3', 'gemma3', 'byte'].includes(VOCAB) ||
  !['compact', 'flexible'].includes(LAYOUT)
) {
  console.error(
    'usage: npm run bench:coverage -- <folder>... [--suite] [--many-tools] [--precompute-work=N] [--rule-schemas] [--vocab=qwen3|llama3|gemma3|byte] [--limit=N] [--sample=N] [--seed=1] [--instances=200] [--timeout-ms=20000] [--layout=compact|flexible] [--json] [--list-refused]',
  );
  process.exit(2);
}

interface Dataset {
  readonly name: string;
  readonly jobs: SchemaJob[];
  /** Files that are not JSON at all. */
  readonly unreadable: SchemaResult[];
  /** Schemas whose root `$schema` names an older draft (rewritten, or with `--strip-dialect` removed). */
  readonly olderDialects: number;
}

function walk(folder: string): string[] {
  return readdirSync(folder)
    .sort()
    .flatMap((name) => {
      const path = join(folder, name);
      return statSync(path).isDirectory() ? walk(path) : name.endsWith('.json') ? [path] : [];
    });
}

/** The first `LIMIT` items, or `SAMPLE` of them chosen with the seed. */
function select<T>(items: T[]): T[] {
  if (SAMPLE === undefined) return items.slice(0, LIMIT);
  const random = createRandom(SEED);
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const swap = Math.floor(random() * (index + 1));
    [copy[index], copy[swap]] = [copy[swap]!, copy[index]!];
  }
  return copy.slice(0, Math.min(SAMPLE, LIMIT));
}

function job(name: string, schema: unknown, extra: Partial<SchemaJob> = {}): SchemaJob {
  return { name, schema, layout: LAYOUT, maxInstances: MAX_INSTANCES, seed: SEED, ...extra };
}

function readSuite(folder: string): Dataset {
  const testsFolder = join(folder, 'tests/draft2020-12');
  const remotes: Record<string, unknown> = {};
  const remotesFolder = join(folder, 'remotes');
  try {
    for (const file of walk(remotesFolder))
      remotes[`http://localhost:1234/${relative(remotesFolder, file).split('\\').join('/')}`] = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    // a suite without remotes: $refs to them stay unresolved and are counted as errors
  }
  const groups: SchemaJob[] = [];
  for (const file of walk(testsFolder)) {
    const name = relative(testsFolder, file).split('\\').join('/');
    const content = JSON.parse(readFileSync(file, 'utf8')) as { description: string; schema: unknown; tests: { data: unknown }[] }[];
    content.forEach((group, index) =>
      groups.push(job(`${name}#${index} ${group.description}`, group.schema, { remotes, instances: group.tests.map((test) => test.data) })),
    );
  }
  return { name: 'JSON-Schema-Test-Suite', jobs: select(groups), unreadable: [], olderDialects: 0 };
}

function readFolder(folder: string): Dataset {
  const jobs: SchemaJob[] = [];
  const unreadable: SchemaResult[] = [];
  let olderDialects = 0;
  for (const file of select(walk(folder))) {
    const name = relative(folder, file);
    let schema: unknown;
    try {
      schema = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    } catch (error) {
      unreadable.push({ name, outcome: 'error', reason: `not JSON: ${(error as Error).message.slice(0, 80)}` });
      continue;
    }
    if (schema !== null && typeof schema === 'object' && !Array.isArray(schema)) {
      const record = schema as Record<string, unknown>;
      const wrapped = record.schema ?? record.json_schema;
      if (wrapped !== null && typeof wrapped === 'object' && !('type' in record) && !('properties' in record)) schema = wrapped;
    }
    const given = asGivenDialect(schema);
    if (given.older) olderDialects++;
    jobs.push(job(name, given.schema));
  }
  return { name: basename(folder), jobs, unreadable, olderDialects };
}

/** Whether the root `$schema` names an older draft; with `--strip-dialect`, the schema without it. */
function asGivenDialect(schema: unknown): { schema: unknown; older: boolean } {
  const dialect = schemaDialectOf(schema);
  if (dialect === undefined || dialect === '2020-12') return { schema, older: false };
  if (!flags.has('strip-dialect')) return { schema, older: true };
  const { $schema: _uri, ...rest } = schema as Record<string, unknown>;
  return { schema: rest, older: true };
}

function readRuleSchemas(source: RuleSchemaSource): Dataset {
  const jobs = select([...source.schemas]).map(({ rule, schema }) => job(rule, asGivenDialect(schema).schema));
  return { name: source.name, jobs, unreadable: [], olderDialects: jobs.length };
}

/** Runs jobs one at a time in a worker, replacing it after a timeout or a crash. */
class WorkerPool {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;

  private start(): Promise<void> {
    const target = new URL('./worker.ts', import.meta.url).href;
    // tsx's loader is registered inside the worker: Node 20 does not pass --import hooks to workers
    const code = `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(target)}); });`;
    const worker = new Worker(code, { eval: true, workerData: { vocab: VOCAB }, resourceLimits: { maxOldGenerationSizeMb: 3072 } });
    this.worker = worker;
    return new Promise((resolveReady, reject) => {
      const onMessage = (message: { ready?: boolean }): void => {
        if (message.ready === true) {
          worker.off('message', onMessage);
          worker.off('error', reject);
          resolveReady();
        }
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
  }

  async run(job: SchemaJob): Promise<SchemaResult> {
    this.ready ??= this.start();
    await this.ready;
    const worker = this.worker!;
    return new Promise((resolveResult) => {
      let settled = false;
      const finish = (result: SchemaResult, replace: boolean): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (replace) {
          void worker.terminate();
          this.ready = undefined;
        }
        resolveResult(result);
      };
      const onMessage = (result: SchemaResult): void => finish(result, false);
      const onError = (error: Error): void => finish({ name: job.name, outcome: 'error', reason: `worker crashed: ${error.message.slice(0, 100)}` }, true);
      const onExit = (code: number): void => finish({ name: job.name, outcome: 'error', reason: `worker exited (${code})` }, true);
      const timer = setTimeout(() => finish({ name: job.name, outcome: 'timeout', reason: `over ${TIMEOUT_MS} ms` }, true), TIMEOUT_MS);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(job);
    });
  }

  async close(): Promise<void> {
    if (this.ready !== undefined) await this.ready.catch(() => undefined);
    await this.worker?.terminate();
  }
}

interface Summary {
  dataset: string;
  schemas: number;
  compiled: number;
  refused: number;
  schemaError: number;
  limit: number;
  error: number;
  timeout: number;
  olderDialects: number;
  compilePlusFirstMaskMs: { p50: number; p99: number; max: number; maxSchema: string };
  instances: InstanceCounts;
  /** First refusal reason of each refused schema. */
  refusedBy: Record<string, number>;
  /** Refused schemas that would compile if only this reason were enforced (the lenient compile relaxes nothing else). */
  refusedOnlyBy: Record<string, number>;
  /** Refused schemas that need this reason among others. */
  refusedInvolving: Record<string, number>;
  /** Formats unknown to ajv-formats, by the number of refused schemas using each. */
  unknownFormats: Record<string, number>;
  /** The slowest compile + first mask, for a look at what costs. */
  slowest: string[];
  schemaErrors: Record<string, number>;
  errors: Record<string, number>;
  failures: string[];
  seconds: number;
}

const increment = (table: Record<string, number>, name: string): void => {
  table[name] = (table[name] ?? 0) + 1;
};

function summarize(dataset: string, results: readonly SchemaResult[], olderDialects: number, seconds: number): Summary {
  const times = results
    .filter((result) => result.compileMs !== undefined)
    .map((result): [number, string] => [result.compileMs! + result.firstMaskMs!, result.name])
    .sort((left, right) => left[0] - right[0]);
  const at = (quantile: number): number => times[Math.min(times.length - 1, Math.floor(quantile * times.length))]?.[0] ?? NaN;
  const summary: Summary = {
    dataset,
    schemas: results.length,
    compiled: 0,
    refused: 0,
    schemaError: 0,
    limit: 0,
    error: 0,
    timeout: 0,
    olderDialects,
    compilePlusFirstMaskMs: { p50: at(0.5), p99: at(0.99), max: times[times.length - 1]?.[0] ?? NaN, maxSchema: times[times.length - 1]?.[1] ?? '' },
    instances: { valid: 0, validAccepted: 0, invalid: 0, invalidAccepted: 0, unlabeled: 0 },
    refusedBy: {},
    refusedOnlyBy: {},
    refusedInvolving: {},
    unknownFormats: {},
    slowest: times
      .slice(-5)
      .reverse()
      .map(([time, name]) => `${name} ${time.toFixed(0)} ms`),
    schemaErrors: {},
    errors: {},
    failures: [],
    seconds,
  };
  for (const result of results) {
    switch (result.outcome) {
      case 'compiled':
        summary.compiled++;
        break;
      case 'refused':
        summary.refused++;
        increment(summary.refusedBy, result.reason!);
        for (const reason of result.relaxed ?? []) increment(summary.refusedInvolving, reason);
        if (result.relaxed?.length === 1) increment(summary.refusedOnlyBy, result.relaxed[0]!);
        for (const name of result.unknownFormats ?? []) increment(summary.unknownFormats, name);
        break;
      case 'schema-error':
        summary.schemaError++;
        increment(summary.schemaErrors, result.reason!);
        break;
      case 'limit':
        summary.limit++;
        increment(summary.errors, `budget ${result.reason!}`);
        break;
      case 'timeout':
        summary.timeout++;
        break;
      default:
        summary.error++;
        increment(summary.errors, result.reason!);
    }
    if (result.instances !== undefined)
      for (const name of Object.keys(summary.instances) as (keyof InstanceCounts)[]) summary.instances[name] += result.instances[name];
    for (const failure of result.failures ?? []) if (summary.failures.length < 40) summary.failures.push(`${result.name}: ${failure}`);
  }
  return summary;
}

function merge(summaries: readonly Summary[], results: readonly SchemaResult[], seconds: number): Summary {
  return summarize(
    'total',
    results,
    summaries.reduce((sum, summary) => sum + summary.olderDialects, 0),
    seconds,
  );
}

const percent = (part: number, whole: number): string => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`);
const ms = (value: number): string => (Number.isNaN(value) ? '–' : value < 10 ? value.toFixed(2) : value.toFixed(1));

function table(summaries: readonly Summary[]): string {
  const lines = [
    '| dataset | schemas | compiled | refused | SchemaCompileError | budget / other error / timeout | compile + first mask p50 / p99 / max (ms) | valid accepted | invalid accepted |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const summary of summaries) {
    const { instances } = summary;
    lines.push(
      `| ${summary.dataset} | ${summary.schemas} | ${summary.compiled} (${percent(summary.compiled, summary.schemas)}) | ${summary.refused} (${percent(summary.refused, summary.schemas)}) | ${summary.schemaError} | ${summary.limit} / ${summary.error} / ${summary.timeout} | ${ms(summary.compilePlusFirstMaskMs.p50)} / ${ms(summary.compilePlusFirstMaskMs.p99)} / ${ms(summary.compilePlusFirstMaskMs.max)} | ${instances.validAccepted} / ${instances.valid} | ${instances.invalidAccepted} / ${instances.invalid} |`,
    );
  }
  return lines.join('\n');
}

function reasonTable(
  summaries: readonly Summary[],
  field: 'refusedBy' | 'refusedOnlyBy' | 'refusedInvolving' | 'unknownFormats' | 'schemaErrors' | 'errors',
  top: number,
): string {
  const total = summaries[summaries.length - 1]!;
  const reasons = Object.entries(total[field])
    .sort((left, right) => right[1] - left[1])
    .slice(0, top);
  if (reasons.length === 0) return '(none)';
  const datasets = summaries.length > 1 ? summaries.slice(0, -1) : summaries;
  const lines = [`| reason | ${datasets.map((summary) => summary.dataset).join(' | ')}${summaries.length > 1 ? ' | total' : ''} |`];
  lines.push(`| --- |${' ---: |'.repeat(datasets.length + (summaries.length > 1 ? 1 : 0))}`);
  for (const [reason, count] of reasons)
    lines.push(
      `| ${reason.replace(/\|/g, '\\|')} | ${datasets.map((summary) => summary[field][reason] ?? 0).join(' | ')}${summaries.length > 1 ? ` | ${count}` : ''} |`,
    );
  return lines.join('\n');
}

/**
 * The many-tools rows, measured in this thread before any worker starts: nothing was compiled in this
 * process before, so the first tool pays the first-in-process costs.
 */
function manyToolsRows(): { rows: ManyToolsRow[]; vocabularyMs: number } {
  const loadStarted = performance.now();
  const vocabulary = loadVocabulary(VOCAB);
  const vocabularyMs = performance.now() - loadStarted;
  return { rows: measureManyTools(vocabulary, PRECOMPUTE_WORK === undefined ? {} : { precomputeWork: PRECOMPUTE_WORK }), vocabularyMs };
}

async function main(): Promise<void> {
  const manyTools = MANY_TOOLS ? manyToolsRows() : undefined;
  if (manyTools !== undefined) {
    console.log(
      `## Many tools (vocabulary ${VOCAB}, loaded from its tokenizer.json in ${manyTools.vocabularyMs.toFixed(0)} ms, not counted; compile + first mask${PRECOMPUTE_WORK === undefined ? '' : `, precomputeWork ${PRECOMPUTE_WORK}`})\n`,
    );
    console.log(manyToolsTable(manyTools.rows));
    if (folders.length === 0 && !RULE_SCHEMAS) {
      if (JSON_OUTPUT) console.log(`\n${JSON.stringify({ vocabulary: VOCAB, manyTools }, null, 2)}`);
      return;
    }
    console.log('');
  }
  const started = performance.now();
  const ruleSources = RULE_SCHEMAS ? ruleSchemaSources() : [];
  const datasets = [
    ...folders.map((folder) => {
      const path = resolve(folder);
      try {
        statSync(join(path, 'tests/draft2020-12'));
        return readSuite(path);
      } catch {
        return readFolder(path);
      }
    }),
    ...ruleSources.map(readRuleSchemas),
  ];
  const pool = new WorkerPool();
  const summaries: Summary[] = [];
  const all: SchemaResult[] = [];
  const refusedSchemas: { dataset: string; result: SchemaResult }[] = [];
  try {
    for (const dataset of datasets) {
      const datasetStart = performance.now();
      const results: SchemaResult[] = [...dataset.unreadable];
      for (const [index, schemaJob] of dataset.jobs.entries()) {
        results.push(await pool.run(schemaJob));
        if (index % 250 === 249)
          process.stderr.write(`${dataset.name}: ${index + 1}/${dataset.jobs.length} (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
      }
      all.push(...results);
      for (const result of results) if (result.outcome === 'refused') refusedSchemas.push({ dataset: dataset.name, result });
      summaries.push(summarize(dataset.name, results, dataset.olderDialects, (performance.now() - datasetStart) / 1000));
    }
  } finally {
    await pool.close();
  }
  const seconds = (performance.now() - started) / 1000;
  if (summaries.length > 1) summaries.push(merge(summaries, all, seconds));
  else summaries[0]!.seconds = seconds;

  const total = summaries[summaries.length - 1]!;
  console.log(`## bench:coverage (vocabulary ${VOCAB}, layout ${LAYOUT}, up to ${MAX_INSTANCES} instances per schema, seed ${SEED})\n`);
  console.log(table(summaries));
  console.log(
    `\n${total.schemas} schemas in ${seconds.toFixed(0)} s (${summaries.map((summary) => `${summary.dataset} ${summary.seconds.toFixed(0)} s`).join(', ')}); root $schema of an older draft in ${total.olderDialects} (${flags.has('strip-dialect') ? 'removed' : 'rewritten into 2020-12'}).`,
  );
  for (const source of ruleSources)
    console.log(
      `${source.name}: ${source.rules} rules, ${source.schemas.length} with an options schema (as ESLint wraps it, read as draft 4); ${source.withoutOptions} take no options, ${source.unvalidated} opt out of validation (not compiled).`,
    );
  console.log('\n### Refused: first reason the engine met\n');
  console.log(reasonTable(summaries, 'refusedBy', 40));
  console.log('\n### Refused schemas that need only this to compile (lenient relaxes nothing else)\n');
  console.log(reasonTable(summaries, 'refusedOnlyBy', 25));
  console.log('\n### Refused schemas that need this (among others)\n');
  console.log(reasonTable(summaries, 'refusedInvolving', 25));
  console.log('\n### Formats unknown to ajv-formats (refused schemas using each)\n');
  console.log(reasonTable(summaries, 'unknownFormats', 15));
  console.log(`\nSlowest compile + first mask: ${total.slowest.join('; ')}`);
  console.log('\n### SchemaCompileError (the engine, like Ajv 2020-12, rejects the schema)\n');
  console.log(reasonTable(summaries, 'schemaErrors', 15));
  console.log('\n### Budget hits and other errors\n');
  console.log(reasonTable(summaries, 'errors', 15));
  if (total.failures.length > 0)
    console.log(`\n### Disagreements with the validator (first ${total.failures.length})\n\n${total.failures.map((line) => `- ${line}`).join('\n')}`);
  if (LIST_REFUSED) {
    console.log(`\n### Refused schemas (${refusedSchemas.length})\n\n| schema | keyword | at | reason |\n| --- | --- | --- | --- |`);
    for (const { dataset, result } of refusedSchemas) {
      const { keyword, pointer, details } = result.refusal ?? { keyword: result.reason ?? '?', pointer: '?', details: '' };
      const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
      console.log(`| ${cell(`${dataset}/${result.name}`)} | ${cell(keyword)} | ${cell(pointer)} | ${cell(details)} |`);
    }
  }
  if (JSON_OUTPUT)
    console.log(`\n${JSON.stringify({ vocabulary: VOCAB, layout: LAYOUT, seed: SEED, maxInstances: MAX_INSTANCES, seconds, summaries, manyTools }, null, 2)}`);
  process.exitCode = total.instances.invalidAccepted > 0 ? 1 : 0;
}

await main();
