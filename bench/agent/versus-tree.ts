/**
 * The agent loop's CPU per step on this tree against another checkout of the repository, in ONE process: both trees'
 * workloads (`workload.ts`, each importing its own `src/`, sharing `node_modules`) run the same 400-step toolwright run,
 * alternately, round by round, the order switching each round. Each round gives the ratio this tree / the other; the
 * median of the ratios is the figure. One process means one machine state for both sides, which makes a difference of a
 * few percent visible where separate processes on a busy machine (`bench/against-commit.sh`) are too noisy.
 *
 *   git worktree add --detach /tmp/base a8bea28 && ln -s "$PWD/node_modules" /tmp/base/node_modules
 *   npx tsx bench/agent/versus-tree.ts /tmp/base --rounds=20 --runs=4
 *   git worktree remove --force /tmp/base
 * @module
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import type * as WorkloadModule from './workload.js';

type Workload = typeof WorkloadModule;

const [other, ...flags] = process.argv.slice(2);
if (!other) {
  console.error('usage: npx tsx bench/agent/versus-tree.ts <other checkout> [--rounds=20] [--runs=4] [--steps=400]');
  process.exit(2);
}
const flag = (name: string, fallback: number): number => Number(flags.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const ROUNDS = flag('rounds', 20);
const RUNS = flag('runs', 4);
const STEPS = flag('steps', 400);
const READS = 2;

const sides: { name: string; workload: Workload }[] = [
  { name: 'this tree', workload: await import('./workload.js') },
  { name: other, workload: (await import(pathToFileURL(resolve(other, 'bench/agent/workload.ts')).href)) as Workload },
];
const tools = sides.map((side) => side.workload.toolwrightTools());

/** CPU microseconds per step over `RUNS` runs of one side. */
async function cpuPerStep(index: number): Promise<number> {
  const started = process.cpuUsage();
  for (let run = 0; run < RUNS; run++) await sides[index]!.workload.runToolwright(tools[index]!, STEPS, READS);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / RUNS / STEPS;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

for (let warm = 0; warm < 3; warm++) for (const index of [0, 1]) await cpuPerStep(index);
const mine: number[] = [];
const theirs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? [0, 1] : [1, 0];
  for (const index of order) (index === 0 ? mine : theirs).push(await cpuPerStep(index));
}
const ratios = mine.map((value, round) => value / theirs[round]!);
console.log(`agent loop, ${STEPS} steps of ${READS} reads, ${ROUNDS} interleaved rounds of ${RUNS} runs each, one process`);
console.log(`this tree: ${median(mine).toFixed(1)} CPU µs/step · ${other}: ${median(theirs).toFixed(1)} CPU µs/step`);
console.log(
  `this tree / other, median of the rounds' ratios: ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
);
