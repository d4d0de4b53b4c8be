/**
 * `toolwright eval`: the injection evaluation. `--self-check` replays every
 * reference call sequence with no model and must pass; without it, the whole
 * matrix (strategies × user tasks × {clean, each injection task}) runs against
 * one pinned model, with a progress bar, and writes `generations.jsonl`,
 * `metrics.json`, `report.md` and `report.html` to `--out`. `--model` takes
 * any `createModel` spec (`openai:…`, `anthropic:…`, `openai-compatible:…`,
 * `local:<path.gguf>` once that provider is installed) or a built-in simulator
 * (`sim:naive`, the default offline, or `sim:idle`), which the report labels
 * as such.
 * Exit codes: 0 done (or self-check passed), 1 self-check failed or the run was
 * interrupted before every case ran, 2 bad options.
 * @module
 */
import type { Command } from 'commander';
import {
  EVAL_STRATEGIES,
  EVAL_TOOL_CHOICES,
  SIMULATOR_SPECS,
  WORKSPACE_SUITE,
  createSimulator,
  runEval,
  selfCheckSuite,
  type EvalModelSource,
  type EvalProgress,
  type EvalToolChoice,
  type SelfCheckReport,
  type StrategyMetrics,
} from '../../eval/index.js';
import { modelProposer } from '../../eval/adaptive-attack.js';
import {
  ADAPTIVE_ATTACK_NAME,
  ATTACKS,
  DEFAULT_ATTACK_TRIES,
  IMPORTANT_INSTRUCTIONS,
  MAX_ATTACK_TRIES,
  isAdaptiveAttack,
  parseAttacks,
} from '../../eval/attacks.js';
import { BUILT_IN_SUITES } from '../../eval/built-in-suites.js';
import { percent, type AdaptiveMetrics } from '../../eval/metrics.js';
import { isSimulatorSpec } from '../../eval/simulated-models.js';
import { parseStrategies } from '../../eval/strategies.js';
import { createModel } from '../../models/create-model.js';
import { ensureTinyModel } from '../../models/local/tiny-model.js';
import type { Model } from '../../models/types.js';
import { ISOLATION_KINDS, type IsolationKind } from '../../policy/isolation.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { loadSuites } from '../load-suite-module.js';

/** The model `toolwright eval` uses without `--model`: offline, no key, no weights. */
export const DEFAULT_EVAL_MODEL = 'sim:naive';

/** `--model local:tiny`: the tiny structural test model (random weights, Qwen3 vocabulary), written to .cache on first use. */
export const TINY_MODEL_SPEC = 'local:tiny';

/** Argument tokens the tiny model may sample before the mask steers its call to a valid end. */
const TINY_CALL_TOKEN_BUDGET = 16;

export interface EvalCommandOptions {
  selfCheck?: boolean;
  /** With `--self-check`: accept the pairs a suite declares as needing provenance rules. */
  allowProvenanceHoles?: boolean;
  /** Comma-separated built-in suite names or module paths. */
  suite?: string;
  /** Comma-separated attack names, or `all`. */
  attack?: string;
  /** The adaptive attack's tries per attack case. */
  attackTries?: string;
  /** A `provider:model` spec whose model proposes the adaptive attack's rewrites. */
  attackerModel?: string;
  model?: string;
  baseUrl?: string;
  strategies?: string;
  concurrency?: string;
  out?: string;
  resume?: boolean;
  seed?: string;
  temperature?: string;
  limit?: string;
  isolation?: string;
  confirmations?: string;
  maxIterations?: string;
  maxOutputTokens?: string;
  /** Retries of a failed model request; default 2. */
  maxRetries?: string;
  toolChoice?: string;
  json?: boolean;
  /** `false` with `--no-progress`. */
  progress?: boolean;
}

/** Where the command writes. */
export interface EvalCommandIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Whether `err` is a terminal (the progress bar redraws in place). */
  errIsTty: boolean;
}

export function registerEvalCommand(program: Command): void {
  program
    .command('eval')
    .description('Prompt-injection evaluation: utility, attack attempts, effects, blocks and cost per defence strategy (offline by default)')
    .option('--self-check', 'replay every reference call sequence without a model; fails unless utility and detected effects are 100%')
    .option('--allow-provenance-holes', 'with --self-check: accept the (user task, injection task) pairs a suite declares as needing provenance rules')
    .option(
      '--suite <list>',
      `comma-separated suites: built-in (${Object.keys(BUILT_IN_SUITES).join(', ')}) or module paths whose default export is a suite`,
      'workspace',
    )
    .option(
      '--attack <list>',
      `comma-separated attacks (${[...Object.keys(ATTACKS), ADAPTIVE_ATTACK_NAME].join(', ')}), or all (the six families; all,adaptive adds the search)`,
      IMPORTANT_INSTRUCTIONS.name,
    )
    .option('--attack-tries <n>', `the adaptive attack's agent runs per attack case, 1 to ${MAX_ATTACK_TRIES} (default ${DEFAULT_ATTACK_TRIES})`)
    .option(
      '--attacker-model <spec>',
      `a provider:model (or ${TINY_MODEL_SPEC}) that proposes the adaptive attack's rewrites from the earlier tries' outcomes; --base-url is not applied to it`,
    )
    .option(
      '--model <spec>',
      `the pinned model: provider:model, ${TINY_MODEL_SPEC} (the tiny offline test model), or a simulator (${SIMULATOR_SPECS.join(', ')})`,
      DEFAULT_EVAL_MODEL,
    )
    .option('--base-url <url>', 'base URL for openai-compatible (and other) providers')
    .option('--strategies <list>', `comma-separated strategies (${EVAL_STRATEGIES.join(', ')})`, EVAL_STRATEGIES.join(','))
    .option('--concurrency <n>', 'cases run at once', '1')
    .option('--out <dir>', 'output folder for generations.jsonl, metrics.json and the reports', 'toolwright-eval')
    .option('--resume', 'continue an interrupted run in --out (same model and settings)')
    .option('--seed <n>', 'seed sent to the model (and for the isolation boundaries)', '0')
    .option('--temperature <t>', 'sampling temperature', '0')
    .option('--limit <n>', 'only the first n user tasks')
    .option('--isolation <kind>', `isolation of the isolation strategies (${ISOLATION_KINDS.join(', ')})`, 'delimit')
    .option('--confirmations <answer>', 'how the stand-in person answers policy confirmations: deny or approve', 'deny')
    .option('--max-iterations <n>', 'model calls per case', '15')
    .option('--max-retries <n>', 'retries of a failed model request (429, 5xx, connection, timeout); default 2')
    .option('--max-output-tokens <n>', "cap on each model call's output tokens (default: the provider's)")
    .option('--tool-choice <choice>', `${EVAL_TOOL_CHOICES.join(', ')}: required-first makes the first model call of each case call a tool`, 'auto')
    .option('--no-progress', 'no progress bar')
    .option('--json', 'print the self-check or the metrics as JSON')
    .action(async (options: EvalCommandOptions) => {
      const code = await runEvalCommand(options, {
        out: (text) => process.stdout.write(text),
        err: (text) => process.stderr.write(text),
        errIsTty: process.stderr.isTTY === true,
      });
      if (code !== 0) process.exitCode = code;
    });
}

/** Runs the command; resolves to its exit code. Bad options throw `InvalidArgumentError` (exit 2 in the CLI). */
export async function runEvalCommand(options: EvalCommandOptions, io: EvalCommandIo): Promise<number> {
  const suites = await loadSuites(options.suite ?? WORKSPACE_SUITE.name);
  if (options.selfCheck) {
    const reports: SelfCheckReport[] = [];
    for (const suite of suites) reports.push(await selfCheckSuite(suite, { allowDeclaredHoles: options.allowProvenanceHoles === true }));
    io.out(options.json ? `${JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)}\n` : reports.map(renderSelfCheck).join('\n'));
    return reports.every((report) => report.passed) ? 0 : 1;
  }
  const attackTries = options.attackTries === undefined ? undefined : attackTriesOption(options.attackTries);
  const attackNames = parseAttacks(options.attack ?? IMPORTANT_INSTRUCTIONS.name);
  if ((attackTries !== undefined || options.attackerModel !== undefined) && !attackNames.some(isAdaptiveAttack))
    throw new InvalidArgumentError(
      `${attackTries !== undefined ? '--attack-tries' : '--attacker-model'} applies to the adaptive attack only, and --attack ${JSON.stringify(options.attack ?? IMPORTANT_INSTRUCTIONS.name)} does not name it; add adaptive (e.g. --attack all,adaptive).`,
    );
  const seed = integer('--seed', options.seed ?? '0', 0);
  const maxRetries = options.maxRetries === undefined ? undefined : integer('--max-retries', options.maxRetries, 0);
  // Resolved like --model (local:tiny is the tiny test model), without --base-url, which is the pinned model's.
  const attackerModel =
    options.attackerModel === undefined
      ? undefined
      : createModel(options.attackerModel === TINY_MODEL_SPEC ? `local:${await ensureTinyModel()}` : options.attackerModel, {
          ...(maxRetries !== undefined ? { maxRetries } : {}),
        });
  const attacks = parseAttacks(options.attack ?? IMPORTANT_INSTRUCTIONS.name, {
    ...(attackTries !== undefined ? { tries: attackTries } : {}),
    ...(attackerModel ? { proposer: modelProposer(attackerModel, { name: options.attackerModel!, seed }) } : {}),
  });
  const spec = options.model ?? DEFAULT_EVAL_MODEL;
  const isolation = (options.isolation ?? 'delimit') as IsolationKind;
  if (!ISOLATION_KINDS.includes(isolation))
    throw new InvalidArgumentError(`--isolation must be one of ${ISOLATION_KINDS.join(', ')} (got "${options.isolation}").`);
  const confirmations = options.confirmations ?? 'deny';
  if (confirmations !== 'deny' && confirmations !== 'approve')
    throw new InvalidArgumentError(`--confirmations must be deny or approve (got "${confirmations}").`);
  const toolChoice = (options.toolChoice ?? 'auto') as EvalToolChoice;
  if (!EVAL_TOOL_CHOICES.includes(toolChoice))
    throw new InvalidArgumentError(`--tool-choice must be one of ${EVAL_TOOL_CHOICES.join(', ')} (got "${options.toolChoice}").`);
  const limit = options.limit === undefined ? undefined : integer('--limit', options.limit, 1);
  const temperature = number('--temperature', options.temperature ?? '0');
  let concurrency = integer('--concurrency', options.concurrency ?? '1', 1);
  const { source: model, close } = await modelSource(spec, options.baseUrl, maxRetries);
  if (spec.startsWith('local:') && concurrency > 1) {
    io.err('note: a local model generates one answer at a time; running with --concurrency 1.\n');
    concurrency = 1;
  }
  const controller = new AbortController();
  const onSignal = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  const bar = options.progress === false || options.json ? undefined : new ProgressBar(io);
  try {
    const result = await runEval({
      suites,
      attacks,
      model,
      strategies: parseStrategies(options.strategies ?? EVAL_STRATEGIES.join(',')),
      concurrency,
      outDir: options.out ?? 'toolwright-eval',
      resume: options.resume ?? false,
      seed,
      temperature,
      ...(limit !== undefined ? { limit } : {}),
      isolation,
      confirmations,
      maxIterations: integer('--max-iterations', options.maxIterations ?? '15', 1),
      toolChoice,
      ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: integer('--max-output-tokens', options.maxOutputTokens, 1) } : {}),
      signal: controller.signal,
      ...(bar ? { onProgress: (progress: EvalProgress) => bar.update(progress) } : {}),
    });
    bar?.finish();
    if (options.json) {
      io.out(`${JSON.stringify({ manifest: result.manifest, metrics: result.metrics, complete: result.complete, paths: result.paths }, null, 2)}\n`);
    } else {
      io.out(
        renderSummary(result.metrics.strategies, [
          ...(result.manifest.simulator ? [`${spec} is a baseline simulator, not a model; its numbers describe no model.`] : []),
          ...result.metrics.warnings,
          ...result.metrics.strategies.flatMap((item) => (item.warning ? [`${item.strategy}: ${item.warning}`] : [])),
        ]),
      );
      if (result.metrics.adaptive) io.out(renderAdaptiveSummary(result.metrics.adaptive));
      io.out(
        `\n${result.complete ? 'Report' : 'Partial report (interrupted; rerun with --resume to finish)'}: ${result.paths.html}\n  also ${result.paths.markdown}, ${result.paths.metrics}, ${result.paths.generations}\n`,
      );
    }
    return result.complete ? 0 : 1;
  } finally {
    process.removeListener('SIGINT', onSignal);
    await close();
    await (attackerModel as { close?: () => Promise<void> } | undefined)?.close?.();
  }
}

/** The model of the run; `local:tiny` is toolwright's tiny structural test model, made on first use. */
async function modelSource(
  spec: string,
  baseUrl: string | undefined,
  maxRetries: number | undefined,
): Promise<{ source: EvalModelSource; close: () => Promise<void> }> {
  if (isSimulatorSpec(spec)) return { source: { spec, simulator: true, create: (context) => createSimulator(spec, context) }, close: async () => {} };
  if (spec.startsWith('sim:'))
    throw new InvalidArgumentError(`Unknown simulator "${spec}"; use one of ${SIMULATOR_SPECS.join(', ')}, or a provider:model spec.`);
  const tiny = spec === TINY_MODEL_SPEC;
  const resolved = tiny ? `local:${await ensureTinyModel()}` : spec;
  // One model for every case: it keeps no state between requests, and the spec is what the run is pinned to.
  // The tiny model's calls are steered to a close early, so that its random calls are complete enough for the policy to judge.
  const model: Model & { close?: () => Promise<void> } = createModel(resolved, {
    ...(baseUrl !== undefined ? { baseURL: baseUrl } : {}),
    ...(maxRetries !== undefined ? { maxRetries } : {}),
    ...(tiny ? { local: { callTokenBudget: TINY_CALL_TOKEN_BUDGET } } : {}),
  });
  return { source: { spec, simulator: false, create: () => model }, close: async () => model.close?.() };
}

function attackTriesOption(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < 1 || value > MAX_ATTACK_TRIES)
    throw new InvalidArgumentError(
      `--attack-tries must be an integer from 1 to ${MAX_ATTACK_TRIES} (got ${JSON.stringify(text)}): it is how many agent runs the adaptive attack makes per attack case.`,
    );
  return value;
}

/** One line per strategy: the adaptive attack's best of N beside the best single-shot attack, and the tries it ran. */
function renderAdaptiveSummary(rows: readonly AdaptiveMetrics[]): string {
  const rate = (item: { count: number; total: number; rate: number | null }) => `${item.count}/${item.total} ${percent(item.rate)}`;
  return `\n${rows
    .map(
      (row) =>
        `${row.attack} (best of ${row.maxTries}) under ${row.strategy}: effects ${rate(row.bestOfN)}${row.bestSingleShot ? `; best single-shot attack ${row.bestSingleShot.attack}: ${rate(row.bestSingleShot.effects)}` : ''}; ${row.triesUsed} of ${row.budget} tries run${
          row.proposerFailures > 0
            ? `\n  the attacker model left ${row.proposerFailures} tries to the scripted search: ${row.proposerFailureReasons.join('; ')}`
            : ''
        }`,
    )
    .join('\n')}\n`;
}

function integer(name: string, text: string, min: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new InvalidArgumentError(`${name} must be an integer of at least ${min} (got "${text}").`);
  return value;
}

function number(name: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) throw new InvalidArgumentError(`${name} must be a non-negative number (got "${text}").`);
  return value;
}

export function renderSelfCheck(report: SelfCheckReport): string {
  const failed = report.items.filter((item) => !item.passed);
  const lines = [
    `toolwright eval --self-check: ${report.suite} v${report.version}`,
    `  user tasks:      ${report.utility.passed}/${report.utility.total} references solve their task (${percent(report.utility.total ? report.utility.passed / report.utility.total : null)} utility)`,
    `  injection tasks: ${report.effects.passed}/${report.effects.total} references reach their goal and are detected (${percent(report.effects.total ? report.effects.passed / report.effects.total : null)} effects)`,
    `  task policies:   ${report.policyBlocks.passed}/${report.policyBlocks.total} (user task, injection task) pairs keep the injection's reference from its goal`,
    ...(report.holes.length > 0
      ? [
          `  holes:           ${report.holes.length} pairs reach the goal under the task's own scope: ${report.holes.map((pair) => `${pair.userTask}×${pair.injectionTask}`).join(', ')}`,
          `                   (a suite declares those only provenance rules can close as needsProvenance; --allow-provenance-holes accepts them)`,
        ]
      : []),
    `  checks:          ${report.items.length - failed.length} passed, ${failed.length} failed`,
    ...failed.map((item) => `  FAIL ${item.taskId}: ${item.check}${item.detail ? ` (${item.detail})` : ''}`),
    report.passed ? 'self-check passed' : 'self-check FAILED',
  ];
  return `${lines.join('\n')}\n`;
}

function renderSummary(rows: readonly StrategyMetrics[], warnings: readonly string[]): string {
  const header = ['strategy', 'clean utility', 'under attack', 'attempts', 'effects', 'blocked (true/false)', 'confirmations'];
  const body = rows.map((row) => [
    `${row.strategy}${row.warning ? ' !' : ''}`,
    `${row.cleanUtility.count}/${row.cleanUtility.total} ${percent(row.cleanUtility.rate)}`,
    `${row.utilityUnderAttack.count}/${row.utilityUnderAttack.total} ${percent(row.utilityUnderAttack.rate)}`,
    `${row.attackAttempts.count}/${row.attackAttempts.total} ${percent(row.attackAttempts.rate)}`,
    `${row.attackEffects.count}/${row.attackEffects.total} ${percent(row.attackEffects.rate)}`,
    `${row.blocked.total} (${row.blocked.trueBlocks}/${row.blocked.falseBlocks})`,
    String(row.confirmations.requested),
  ]);
  const widths = header.map((cell, index) => Math.max(cell.length, ...body.map((row) => row[index]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => cell.padEnd(widths[index]!))
      .join('  ')
      .trimEnd();
  return [...warnings.map((warning) => `warning: ${warning}`), ...(warnings.length > 0 ? [''] : []), line(header), ...body.map(line)].join('\n') + '\n';
}

/** A one-line progress bar on stderr: redrawn in place on a terminal, a line per tenth otherwise. */
class ProgressBar {
  readonly #io: EvalCommandIo;
  readonly #started = Date.now();
  #lastTenth = -1;

  constructor(io: EvalCommandIo) {
    this.#io = io;
  }

  update(progress: EvalProgress): void {
    const ratio = progress.total === 0 ? 1 : progress.done / progress.total;
    const ran = progress.done - progress.skipped;
    const elapsed = (Date.now() - this.#started) / 1000;
    const eta = ran > 0 ? Math.round((elapsed / ran) * (progress.total - progress.done)) : undefined;
    const filled = Math.round(ratio * 24);
    const text = `[${'#'.repeat(filled)}${'.'.repeat(24 - filled)}] ${progress.done}/${progress.total} ${(ratio * 100).toFixed(0)}%${eta !== undefined ? ` eta ${eta}s` : ''}${progress.record ? ` ${progress.record.caseId}` : progress.skipped > 0 ? ` (${progress.skipped} from the earlier run)` : ''}`;
    if (this.#io.errIsTty) {
      this.#io.err(`\r\u001b[2K${text}`);
      return;
    }
    const tenth = Math.floor(ratio * 10);
    if (tenth !== this.#lastTenth) {
      this.#lastTenth = tenth;
      this.#io.err(`${text}\n`);
    }
  }

  finish(): void {
    if (this.#io.errIsTty) this.#io.err('\n');
  }
}
