/**
 * `npm run bench:agent`: the agent loop's own cost, against the Vercel AI SDK's `generateText` loop.
 *
 * 1. Per-step overhead. Both loops run the same scripted model behaviour (each step: `--reads` parallel read calls,
 *    arguments differing per step; then a final answer) over the same two tools (the same Zod schemas), for 50, 200
 *    and 400 steps. The model answers are built before each timed run and carry their usage, so neither model does any
 *    work worth timing: what is timed is the loop. Per step, toolwright: estimates the input tokens, plans the call
 *    against the budgets, emits the model-request and -response events, screens argument limits, looks up, parses and
 *    validates each call (Ajv, then the Zod refinement), runs the loop breaker's duplicate check, asks the call policy,
 *    schedules the reads together, runs them, normalizes the results, appends the turn and counts calls for the loop
 *    breaker. The AI SDK: converts the prompt to its provider format, parses and validates each call (Zod), runs the
 *    calls concurrently, and builds its step result. Neither writes a record; toolwright keeps its default process-local
 *    memory store (untouched: nothing pauses). The loops are interleaved round by round, the order alternating; each
 *    round gives its own ratio, and the median of those ratios is the figure to read (a busy moment of a shared machine
 *    hits both halves of a round). CPU time (process.cpuUsage) is reported beside wall time: contention disturbs it less.
 * 2. Parallel reads: one step of reads that each sleep a different time; the run's wall time over the slowest read.
 * 3. Heap: many short runs of `runAgent({ tools: [array] })` with the same tool objects; heap after a full GC at
 *    several counts (run with --expose-gc, as the npm script does), and how many schemas Ajv compiled meanwhile.
 *
 *   npm run bench:agent
 *   npm run bench:agent -- --steps=200 --rounds=9 --reads=2
 *   npm run bench:agent -- --json          # the figures as JSON on stdout
 * @module
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { runAgent } from '../../src/agent/index.js';
import { createScriptedModel } from '../../src/models/index.js';
import { generateText, stepCountIs, tool as aiTool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { aiSdkScript, aiSdkTools, runAiSdk, runToolwright, sleep, toolwrightScript, toolwrightTools } from './workload.js';

const args = new Map<string, string | undefined>(
  process.argv.slice(2).map((arg): [string, string | undefined] => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key!, value];
  }),
);
const STEPS = (args.get('steps') ?? '50,200,400').split(',').map(Number);
const ROUNDS = Number(args.get('rounds') ?? 7);
const READS = Number(args.get('reads') ?? 2);
/** Each measurement covers at least this many steps (short runs are repeated), so a 50-step figure is not one 10 ms sample. */
const MIN_STEPS_PER_SAMPLE = Number(args.get('min-steps') ?? 400);
const PARALLEL_SLEEPS_MS = (args.get('sleeps') ?? '20,35,50,30').split(',').map(Number);
const HEAP_COUNTS = (args.get('heap-runs') ?? '100,1000,2000,5000,10000').split(',').map(Number);
const JSON_ONLY = args.has('json');

const gc = (globalThis as { gc?: () => void }).gc;
const log = (line = ''): void => {
  if (!JSON_ONLY) console.log(line);
};

interface Sample {
  wallMs: number;
  cpuMs: number;
}

/** Runs `once` `repeat` times; the wall and CPU time of all of them. */
async function measure(once: () => Promise<unknown>, repeat: number): Promise<Sample> {
  gc?.();
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < repeat; index++) await once();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000 };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const spread = (values: readonly number[], digits: number): string => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

interface StepFigures {
  steps: number;
  reads: number;
  rounds: number;
  runsPerSample: number;
  toolwright: { wallUsPerStep: number[]; cpuUsPerStep: number[] };
  aiSdk: { wallUsPerStep: number[]; cpuUsPerStep: number[] };
  ratio: { wall: number[]; cpu: number[] };
}

async function perStep(steps: number): Promise<StepFigures> {
  const twTools = toolwrightTools();
  const aiTools = aiSdkTools();
  const repeat = Math.max(1, Math.ceil(MIN_STEPS_PER_SAMPLE / steps));
  const sides = {
    toolwright: () => runToolwright(twTools, steps, READS),
    aiSdk: () => runAiSdk(aiTools, steps, READS),
  };
  // Warm both loops (JIT, module state, caches) before anything is timed.
  for (let index = 0; index < 2; index++) {
    await measure(sides.toolwright, repeat);
    await measure(sides.aiSdk, repeat);
  }
  const figures: StepFigures = {
    steps,
    reads: READS,
    rounds: ROUNDS,
    runsPerSample: repeat,
    toolwright: { wallUsPerStep: [], cpuUsPerStep: [] },
    aiSdk: { wallUsPerStep: [], cpuUsPerStep: [] },
    ratio: { wall: [], cpu: [] },
  };
  const perStepUs = (ms: number) => (ms * 1000) / (steps * repeat);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['toolwright', 'aiSdk'] as const) : (['aiSdk', 'toolwright'] as const);
    const samples: Partial<Record<'toolwright' | 'aiSdk', Sample>> = {};
    for (const side of order) samples[side] = await measure(sides[side], repeat);
    const tw = samples.toolwright!;
    const ai = samples.aiSdk!;
    figures.toolwright.wallUsPerStep.push(perStepUs(tw.wallMs));
    figures.toolwright.cpuUsPerStep.push(perStepUs(tw.cpuMs));
    figures.aiSdk.wallUsPerStep.push(perStepUs(ai.wallMs));
    figures.aiSdk.cpuUsPerStep.push(perStepUs(ai.cpuMs));
    figures.ratio.wall.push(tw.wallMs / ai.wallMs);
    figures.ratio.cpu.push(tw.cpuMs / ai.cpuMs);
  }
  return figures;
}

interface ParallelFigures {
  sleepsMs: number[];
  slowestMs: number;
  toolwrightWallMs: number[];
  aiSdkWallMs: number[];
  toolwrightRatio: number[];
  aiSdkRatio: number[];
}

/** One step of reads that sleep `PARALLEL_SLEEPS_MS` each (call `i` sleeps the `i`-th figure), then the answer. */
async function parallelReads(): Promise<ParallelFigures> {
  const reads = PARALLEL_SLEEPS_MS.length;
  const sleepFor = (args: unknown): number => {
    const record = args as { city?: string; symbol?: string };
    return PARALLEL_SLEEPS_MS[Number((record.city ?? record.symbol ?? '').split('-').at(-1)?.replace(/^S/, ''))] ?? 0;
  };
  const twTools = toolwrightTools((_name, callArgs) => sleepFor(callArgs));
  const aiTools = {
    get_weather: aiTool({
      description: 'Current weather in a city.',
      inputSchema: z.object({ city: z.string().min(1), unit: z.enum(['c', 'f']).optional() }),
      execute: async ({ city }) => {
        await sleep(sleepFor({ city }));
        return { city };
      },
    }),
    get_stock: aiTool({
      description: 'Closing price of a stock on a day.',
      inputSchema: z.object({ symbol: z.string().regex(/^[A-Z0-9]{1,8}$/), day: z.number().int().min(0) }),
      execute: async ({ symbol, day }) => {
        await sleep(sleepFor({ symbol }));
        return { symbol, day };
      },
    }),
  };
  const figures: ParallelFigures = {
    sleepsMs: PARALLEL_SLEEPS_MS,
    slowestMs: Math.max(...PARALLEL_SLEEPS_MS),
    toolwrightWallMs: [],
    aiSdkWallMs: [],
    toolwrightRatio: [],
    aiSdkRatio: [],
  };
  for (let round = 0; round < ROUNDS + 1; round++) {
    const toolwright = async () => {
      const model = createScriptedModel(toolwrightScript(1, reads));
      const started = performance.now();
      const result = await runAgent({ model, tools: twTools, prompt: 'Look up every city and stock.', limits: { maxParallelReads: reads } });
      if (result.status !== 'completed') throw new Error(`parallel toolwright run ended ${result.status}`);
      return performance.now() - started;
    };
    const aiSdk = async () => {
      const script = aiSdkScript(1, reads);
      let next = 0;
      const model = new MockLanguageModelV4({ doGenerate: async () => script[next++]! });
      const started = performance.now();
      await generateText({ model, tools: aiTools, prompt: 'Look up every city and stock.', stopWhen: stepCountIs(2) });
      return performance.now() - started;
    };
    const tw = await toolwright();
    const ai = await aiSdk();
    if (round === 0) continue; // warm-up
    figures.toolwrightWallMs.push(tw);
    figures.aiSdkWallMs.push(ai);
    figures.toolwrightRatio.push(tw / figures.slowestMs);
    figures.aiSdkRatio.push(ai / figures.slowestMs);
  }
  return figures;
}

interface HeapFigures {
  gcAvailable: boolean;
  points: { runs: number; heapUsedMb: number }[];
  ajvCompilations: number;
  firstRunMs: number;
  laterRunMs: number;
}

/** Short runs (one step of `READS` reads) with the same tool objects, heap after a full GC at each count. */
async function heapOverRuns(): Promise<HeapFigures> {
  const tools = toolwrightTools();
  let compilations = 0;
  const compile = Ajv2020.prototype.compile;
  Ajv2020.prototype.compile = function (this: Ajv2020, ...rest: Parameters<typeof compile>) {
    compilations++;
    return compile.apply(this, rest);
  } as typeof compile;
  const heapMb = () => {
    gc?.();
    gc?.();
    return process.memoryUsage().heapUsed / 2 ** 20;
  };
  try {
    const first = performance.now();
    await runToolwright(tools, 1, READS);
    const firstRunMs = performance.now() - first;
    const points = [{ runs: 1, heapUsedMb: heapMb() }];
    const compilationsAfterFirst = compilations;
    const times: number[] = [];
    let done = 1;
    for (const target of HEAP_COUNTS) {
      for (; done < target; done++) times.push(await runToolwright(tools, 1, READS));
      points.push({ runs: target, heapUsedMb: heapMb() });
    }
    return { gcAvailable: gc !== undefined, points, ajvCompilations: compilations - compilationsAfterFirst, firstRunMs, laterRunMs: median(times) };
  } finally {
    Ajv2020.prototype.compile = compile;
  }
}

const stepFigures: StepFigures[] = [];
for (const steps of STEPS) stepFigures.push(await perStep(steps));
const parallel = await parallelReads();
const heap = await heapOverRuns();

if (JSON_ONLY) {
  console.log(JSON.stringify({ node: process.version, steps: stepFigures, parallel, heap }, null, 2));
} else {
  log(`bench:agent — node ${process.version}, ${READS} parallel reads per step, ${ROUNDS} interleaved rounds`);
  log('toolwright: runAgent + createScriptedModel (no record, memory store, default limits but maxIterations = steps + 1)');
  log('AI SDK:     generateText + MockLanguageModelV4 (ai/test), stopWhen: stepCountIs(steps + 1)');
  log('same tools (Zod schemas), same calls and answers; ratio = toolwright / AI SDK per round, median (min–max)');
  log();
  log('| steps | toolwright CPU µs/step | AI SDK CPU µs/step | CPU ratio | toolwright wall µs/step | AI SDK wall µs/step | wall ratio |');
  log('|---:|---:|---:|---:|---:|---:|---:|');
  for (const figure of stepFigures) {
    const cell = (values: number[], digits = 0) => `${median(values).toFixed(digits)} (${spread(values, digits)})`;
    log(
      `| ${figure.steps} | ${cell(figure.toolwright.cpuUsPerStep)} | ${cell(figure.aiSdk.cpuUsPerStep)} | ${cell(figure.ratio.cpu, 2)} | ${cell(figure.toolwright.wallUsPerStep)} | ${cell(figure.aiSdk.wallUsPerStep)} | ${cell(figure.ratio.wall, 2)} |`,
    );
  }
  const first = stepFigures[0];
  const last = stepFigures.at(-1);
  if (first && last && first !== last) {
    const growth = (side: 'toolwright' | 'aiSdk') => (median(last[side].cpuUsPerStep) / median(first[side].cpuUsPerStep)).toFixed(2);
    log(`per-step CPU at ${last.steps} steps over ${first.steps} steps: toolwright ${growth('toolwright')}×, AI SDK ${growth('aiSdk')}×`);
  }
  log();
  log(
    `parallel reads: ${parallel.sleepsMs.length} reads sleeping ${parallel.sleepsMs.join(', ')} ms in one step (slowest ${parallel.slowestMs} ms), whole run`,
  );
  log(
    `  toolwright ${median(parallel.toolwrightWallMs).toFixed(1)} ms = ${median(parallel.toolwrightRatio).toFixed(3)}× the slowest read (${spread(parallel.toolwrightRatio, 3)}); goal ≤ 1.1×`,
  );
  log(
    `  AI SDK     ${median(parallel.aiSdkWallMs).toFixed(1)} ms = ${median(parallel.aiSdkRatio).toFixed(3)}× the slowest read (${spread(parallel.aiSdkRatio, 3)})`,
  );
  log();
  log(
    `heap after runAgent({ tools: [same 2 tool objects] }), one step of ${READS} reads per run${heap.gcAvailable ? ', after a full GC' : ' (no --expose-gc: figures include garbage)'}:`,
  );
  log(`  ${heap.points.map((point) => `${point.runs} runs: ${point.heapUsedMb.toFixed(1)} MB`).join(' · ')}`);
  log(
    `  Ajv compilations after the first run: ${heap.ajvCompilations}; first run ${heap.firstRunMs.toFixed(2)} ms, later runs ${heap.laterRunMs.toFixed(2)} ms (median)`,
  );
}
