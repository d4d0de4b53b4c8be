/**
 * Runs one turn's calls by side effect: consecutive reads run together (at
 * most `maxParallelReads` at once), each write runs alone, after everything
 * before it and before everything after it. Results come back in the model's
 * order whatever order they finished in. A job holds its slot until its `run`
 * settles: the agent loop's job for a call stopped early settles only once the
 * tool's own work has ended, or its grace period has passed (src/tools/stopped-calls.ts).
 * @module
 */

export interface ScheduledJob<T> {
  /** `read` may overlap other reads; `write` runs alone; `none` is bookkeeping that needs no slot (it never blocks or is blocked). */
  effect: 'read' | 'write' | 'none';
  run: () => Promise<T>;
}

/** Runs the jobs as described; a job's rejection rejects the whole schedule, so jobs should settle their own failures. */
export async function scheduleByEffect<T>(jobs: readonly ScheduledJob<T>[], maxParallelReads: number): Promise<T[]> {
  const results = new Array<T>(jobs.length);
  let group: number[] = [];
  const flush = async () => {
    await runPool(group, maxParallelReads, async (index) => {
      results[index] = await jobs[index]!.run();
    });
    group = [];
  };
  for (let index = 0; index < jobs.length; index++) {
    const job = jobs[index]!;
    if (job.effect === 'write') {
      await flush();
      results[index] = await job.run();
    } else {
      group.push(index);
    }
  }
  await flush();
  return results;
}

async function runPool(indexes: readonly number[], limit: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < indexes.length) {
      const index = indexes[next++]!;
      await work(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), indexes.length) }, worker));
}
