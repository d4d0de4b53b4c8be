/**
 * `runEval`: the whole matrix (strategies × user tasks × {clean, each
 * injection task}) against one pinned model, with bounded concurrency. Each
 * finished case is appended to `generations.jsonl` at once, so an interrupted
 * run resumes where it stopped (`resume: true`) against the same pinned
 * settings, which `manifest.json` holds. The report is computed from the file,
 * not from memory, so a resumed run reports on every case.
 * @module
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Model } from '../models/types.js';
import type { IsolationKind } from '../policy/isolation.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { safeParseJson } from '../shared/safe-json.js';
import { ToolRegistry, silentLogger } from '../tools/tool-registry.js';
import { runAdaptiveCase } from './adaptive-attack.js';
import { IMPORTANT_INSTRUCTIONS, getAttack, isAdaptiveAttack, type Attack } from './attacks.js';
import type { CaseRecord } from './case-record.js';
import { computeMetrics, type EvalMetrics } from './metrics.js';
import { renderHtmlReport } from './report-html.js';
import { renderMarkdownReport } from './report-markdown.js';
import { caseId, runCase, type EvalCase, type EvalCaseContext, type RunCaseOptions } from './run-case.js';
import { inScopePairs } from './self-check.js';
import type { EvalManifest, EvalToolChoice } from './eval-manifest.js';
import { EVAL_STRATEGIES, type EvalStrategy } from './strategies.js';
import type { AnyEvalSuite } from './suite-types.js';
import { WORKSPACE_SUITE } from './workspace/workspace-suite.js';

/** Where the model comes from: a spec for the record, and a factory called once per case. */
export interface EvalModelSource {
  spec: string;
  /** True for the built-in simulators; the report says the numbers describe no model. */
  simulator?: boolean;
  create: (context: EvalCaseContext) => Model;
}

/** Progress after each case. */
export interface EvalProgress {
  /** Cases finished in this run, plus those found on resume. */
  done: number;
  total: number;
  /** Cases found in the file on resume. */
  skipped: number;
  record: CaseRecord | undefined;
}

export interface RunEvalOptions {
  /** The suite. Default: the built-in workspace suite. */
  suite?: AnyEvalSuite;
  /** Several suites in one run (wins over `suite`); case ids and the report then name each case's suite. */
  suites?: readonly AnyEvalSuite[];
  model: EvalModelSource;
  /** Default: all four. */
  strategies?: readonly EvalStrategy[];
  /** Cases run at once. Default: 1. */
  concurrency?: number;
  /** The output folder: `manifest.json`, `generations.jsonl`, `metrics.json`, `report.md`, `report.html`. */
  outDir: string;
  /** Continue a run in `outDir`; without it, an existing `generations.jsonl` is refused. */
  resume?: boolean;
  seed?: number;
  /** Default: 0. */
  temperature?: number;
  /** Only the first N user tasks. */
  limit?: number;
  /** Default: `important_instructions`. */
  attack?: string;
  /**
   * Several attacks in one run (wins over `attack`): each attack case runs once per attack; clean cases run once. `adaptive`
   * (or `createAdaptiveAttack({ tries })`) runs each of its cases up to `tries` times (src/eval/adaptive-attack.ts).
   */
  attacks?: readonly (string | Attack)[];
  /** The isolation of the isolation strategies. Default: `delimit`. */
  isolation?: IsolationKind;
  /** How the stand-in person answers policy confirmations. Default: `deny`. */
  confirmations?: 'deny' | 'approve';
  /** Model calls per case. Default: 15. */
  maxIterations?: number;
  /** Cap on each model call's output tokens. Default: none (the provider's). */
  maxOutputTokens?: number;
  /** Default: `auto`. `required-first` gets a weak model to call at least one tool per case. */
  toolChoice?: EvalToolChoice;
  onProgress?: (progress: EvalProgress) => void;
  /** Stops taking new cases; cases in flight are stopped and not recorded (a resume runs them again). */
  signal?: AbortSignal;
}

export interface EvalRunResult {
  manifest: EvalManifest;
  records: CaseRecord[];
  metrics: EvalMetrics;
  /** Whether every case of the matrix has a record (false after an abort). */
  complete: boolean;
  paths: { manifest: string; generations: string; metrics: string; markdown: string; html: string };
}

const PINNED: readonly (keyof EvalManifest)[] = [
  'suite',
  'suiteVersion',
  'model',
  'seed',
  'temperature',
  'attack',
  'attacks',
  'adaptive',
  'suites',
  'isolation',
  'confirmations',
  'maxIterations',
  'toolChoice',
  'maxOutputTokens',
];

/** Runs the matrix and writes the report; see the module comment. */
export async function runEval(options: RunEvalOptions): Promise<EvalRunResult> {
  const suites = options.suites && options.suites.length > 0 ? [...options.suites] : [options.suite ?? WORKSPACE_SUITE];
  if (new Set(suites.map((item) => item.name)).size !== suites.length)
    throw new InvalidArgumentError(`Two suites share a name (${suites.map((item) => item.name).join(', ')}); give each suite its own name.`);
  const multiSuite = suites.length > 1;
  const strategies = [...(options.strategies ?? EVAL_STRATEGIES)];
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new InvalidArgumentError(`concurrency must be a positive integer (got ${JSON.stringify(options.concurrency)}).`);
  const maxIterations = options.maxIterations ?? 15;
  if (options.limit !== undefined && !(Number.isInteger(options.limit) && options.limit >= 1))
    throw new InvalidArgumentError(`limit must be a positive integer (got ${JSON.stringify(options.limit)}).`);
  const attacks = (options.attacks && options.attacks.length > 0 ? options.attacks : [options.attack ?? IMPORTANT_INSTRUCTIONS.name]).map((item) =>
    typeof item === 'string' ? getAttack(item) : item,
  );
  if (new Set(attacks.map((item) => item.name)).size !== attacks.length)
    throw new InvalidArgumentError(`Two attacks share a name (${attacks.map((item) => item.name).join(', ')}); give each attack its own name.`);
  const multiAttack = attacks.length > 1;
  const adaptive = attacks.find(isAdaptiveAttack);
  if (attacks.filter(isAdaptiveAttack).length > 1)
    throw new InvalidArgumentError('A run takes one adaptive attack; give it the largest number of tries you want (each try is one more agent run per case).');
  const manifest: EvalManifest = {
    suite: suites.map((item) => item.name).join('+'),
    suiteVersion: suites.map((item) => item.version).join('+'),
    ...(multiSuite ? { suites: suites.map((item) => ({ name: item.name, version: item.version })) } : {}),
    model: options.model.spec,
    simulator: options.model.simulator ?? false,
    seed: options.seed,
    temperature: options.temperature ?? 0,
    attack: attacks.map((item) => item.name).join(','),
    ...(multiAttack ? { attacks: attacks.map((item) => item.name) } : {}),
    ...(adaptive ? { adaptive: { tries: adaptive.adaptive.tries, proposer: adaptive.adaptive.proposer?.name ?? null } } : {}),
    isolation: options.isolation ?? 'delimit',
    confirmations: options.confirmations ?? 'deny',
    maxIterations,
    toolChoice: options.toolChoice ?? 'auto',
    maxOutputTokens: options.maxOutputTokens ?? null,
    strategies,
    limit: options.limit ?? null,
    startedAt: new Date().toISOString(),
  };

  mkdirSync(options.outDir, { recursive: true });
  const paths = {
    manifest: join(options.outDir, 'manifest.json'),
    generations: join(options.outDir, 'generations.jsonl'),
    metrics: join(options.outDir, 'metrics.json'),
    markdown: join(options.outDir, 'report.md'),
    html: join(options.outDir, 'report.html'),
  };
  if (existsSync(paths.generations)) {
    if (!options.resume)
      throw new InvalidArgumentError(`${paths.generations} already exists. Pass --resume to continue that run, or choose another --out folder.`);
    checkResumable(paths.manifest, manifest);
    // A write cut short leaves a torn last line; end it, so the next record starts on a line of its own.
    const text = readFileSync(paths.generations, 'utf8');
    if (text !== '' && !text.endsWith('\n')) appendFileSync(paths.generations, '\n');
  }
  writeFileSync(paths.manifest, `${JSON.stringify(manifest, null, 2)}\n`);

  const userTasksOf = (suite: AnyEvalSuite) => suite.userTasks.slice(0, options.limit ?? suite.userTasks.length);
  const cases: EvalCase[] = suites.flatMap((suite) =>
    strategies.flatMap((strategy) =>
      userTasksOf(suite).flatMap((task) => [
        caseOf(strategy, task.id, undefined, undefined, multiSuite ? suite.name : undefined),
        ...suite.injectionTasks.flatMap((injection) =>
          attacks.map((attack) => caseOf(strategy, task.id, injection.id, multiAttack ? attack.name : undefined, multiSuite ? suite.name : undefined)),
        ),
      ]),
    ),
  );
  const suiteOf = (evalCase: EvalCase) => suites.find((item) => item.name === evalCase.suite) ?? suites[0]!;
  const attackOf = (evalCase: EvalCase) => attacks.find((item) => item.name === evalCase.attack) ?? attacks[0]!;
  const done = new Set(readRecords(paths.generations).map((record) => record.caseId));
  const pending = cases.filter((item) => !done.has(item.id));
  // Which pairs' goals the user task's scope alone lets through (only provenance rules can keep them out), plus those the suite
  // declares: the report's in-scope column. Replayed once per suite, with no model.
  const inScope = new Map<string, Set<string>>();
  for (const suite of suites) {
    const computed = pending.some((item) => suiteOf(item) === suite) ? await inScopePairs(suite).catch(() => []) : [];
    inScope.set(suite.name, new Set([...computed, ...(suite.needsProvenance ?? [])].map((pair) => `${pair.userTask}\u0000${pair.injectionTask}`)));
  }
  const skipped = cases.length - pending.length;
  let finished = skipped;
  options.onProgress?.({ done: finished, total: cases.length, skipped, record: undefined });

  let next = 0;
  const worker = async () => {
    // One environment and registry per worker and suite: schemas compile once, and a worker's cases run one at a time.
    const bound = new Map<string, { env: { state: unknown }; registry: ToolRegistry }>();
    while (next < pending.length && !options.signal?.aborted) {
      const evalCase = pending[next++]!;
      const suite = suiteOf(evalCase);
      let tools = bound.get(suite.name);
      if (!tools) {
        const env: { state: unknown } = { state: undefined };
        tools = { env, registry: new ToolRegistry(suite.createTools(env), { logger: silentLogger }) };
        bound.set(suite.name, tools);
      }
      const { env, registry } = tools;
      const attack = attackOf(evalCase);
      const run =
        evalCase.injectionTask !== undefined && isAdaptiveAttack(attack)
          ? (caseOptions: RunCaseOptions) => runAdaptiveCase({ ...caseOptions, attack })
          : runCase;
      const record = await run({
        suite,
        evalCase,
        modelSpec: options.model.spec,
        model: options.model.create,
        registry,
        env,
        attack,
        isolation: manifest.isolation,
        seed: manifest.seed,
        temperature: manifest.temperature,
        maxIterations,
        ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: options.maxOutputTokens } : {}),
        confirmations: manifest.confirmations,
        toolChoice: manifest.toolChoice,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (options.signal?.aborted) break;
      if (record.injectionTask !== null) record.inScope = inScope.get(suite.name)?.has(`${record.userTask}\u0000${record.injectionTask}`) === true;
      appendFileSync(paths.generations, `${JSON.stringify(record)}\n`);
      finished++;
      options.onProgress?.({ done: finished, total: cases.length, skipped, record });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, pending.length)) }, worker));

  const wanted = new Set(cases.map((item) => item.id));
  const records = latestRecords(readRecords(paths.generations)).filter((record) => wanted.has(record.caseId));
  const qualify = (suite: AnyEvalSuite, id: string) => (multiSuite ? `${suite.name}/${id}` : id);
  const metrics = computeMetrics(records, {
    strategies,
    userTasks: suites.flatMap((suite) => userTasksOf(suite).map((task) => qualify(suite, task.id))),
    injectionTasks: suites.flatMap((suite) => suite.injectionTasks.map((task) => qualify(suite, task.id))),
    attacks: attacks.map((item) => item.name),
    suites: suites.map((item) => item.name),
    expectedCases: {
      clean: suites.reduce((total, suite) => total + userTasksOf(suite).length, 0),
      attack: suites.reduce((total, suite) => total + userTasksOf(suite).length * suite.injectionTasks.length * attacks.length, 0),
    },
  });
  writeFileSync(paths.metrics, `${JSON.stringify(metrics, null, 2)}\n`);
  const reportInput = {
    manifest,
    metrics,
    suite: {
      vectors: suites.reduce((total, suite) => total + suite.vectors.length, 0),
      tools: suites.reduce((total, suite) => total + suite.createTools({ state: undefined }).length, 0),
    },
    attackSource: attacks.map((item) => (multiAttack ? `${item.name}: ${item.source}` : item.source)).join('; '),
    complete: records.length === cases.length,
    totalCases: cases.length,
  };
  writeFileSync(paths.markdown, renderMarkdownReport(reportInput));
  writeFileSync(paths.html, renderHtmlReport(reportInput));
  return { manifest, records, metrics, complete: records.length === cases.length, paths };
}

function caseOf(strategy: EvalStrategy, userTask: string, injectionTask: string | undefined, attack: string | undefined, suite: string | undefined): EvalCase {
  return {
    id: caseId(strategy, userTask, injectionTask, { ...(attack !== undefined ? { attack } : {}), ...(suite !== undefined ? { suite } : {}) }),
    strategy,
    userTask,
    injectionTask,
    ...(attack !== undefined ? { attack } : {}),
    ...(suite !== undefined ? { suite } : {}),
  };
}

/** Reads the case records of a generations file; a torn last line (an interrupted write) is skipped. */
export function readRecords(path: string): CaseRecord[] {
  if (!existsSync(path)) return [];
  const records: CaseRecord[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const parsed = safeParseJson(line);
    if (parsed.success && typeof parsed.value === 'object' && parsed.value !== null && (parsed.value as { type?: unknown }).type === 'case')
      records.push(parsed.value as CaseRecord);
  }
  return records;
}

/** The last record of each case (a case appears twice only if two runs raced on one folder). */
function latestRecords(records: readonly CaseRecord[]): CaseRecord[] {
  const byId = new Map<string, CaseRecord>();
  for (const record of records) byId.set(record.caseId, record);
  return [...byId.values()];
}

function checkResumable(path: string, manifest: EvalManifest): void {
  const parsed = existsSync(path) ? safeParseJson(readFileSync(path, 'utf8')) : undefined;
  if (!parsed?.success || typeof parsed.value !== 'object' || parsed.value === null) {
    throw new InvalidArgumentError(
      `Cannot resume: ${path} is missing or unreadable, so the pinned settings of the earlier run are unknown. Start again in another --out folder.`,
    );
  }
  const earlier = parsed.value as Partial<EvalManifest>;
  for (const key of PINNED) {
    if (JSON.stringify(earlier[key] ?? null) !== JSON.stringify(manifest[key] ?? null)) {
      throw new InvalidArgumentError(
        `Cannot resume: the earlier run used ${key} ${JSON.stringify(earlier[key] ?? null)}, this one ${JSON.stringify(manifest[key] ?? null)}. Resume with the same settings, or start again in another --out folder.`,
      );
    }
  }
}
