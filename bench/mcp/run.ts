/**
 * `npm run bench:mcp`: `tools/call` throughput and latency over Streamable
 * HTTP on loopback, toolwright against a bare official-SDK server with the
 * same tool, in the same run, reported as a ratio.
 *
 * Bounded load: a fixed number of calls, a fixed number in flight, one
 * session per server, keep-alive connections; each result is consumed.
 * toolwright runs with every guard on (bearer token, Host and Origin checks,
 * body limit, argument validation). The two servers are interleaved round by
 * round, alternating which goes first, and each round yields its own ratio:
 * on a shared, noisy machine a slow moment hits both halves of a round, so
 * the median of the per-round ratios is the figure to read, not the ratio
 * of pooled numbers. Each server also reports the CPU time it spent in each
 * round (over IPC), so the report gives CPU µs per call: a figure that a busy
 * machine disturbs far less than throughput.
 *
 *   npm run bench:mcp                 # 8 rounds of 1500 calls, 8 in flight
 *   npm run bench:mcp -- --calls 5000 --concurrency 16 --rounds 6
 *   BENCH_MCP_CPU_PROF=/tmp/prof npm run bench:mcp   # also write a --cpu-prof profile of each server
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '1500' },
    concurrency: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '500' },
    json: { type: 'boolean', default: false },
  },
});
const CALLS = Number(values.calls);
const CONCURRENCY = Number(values.concurrency);
const ROUNDS = Number(values.rounds);
const WARMUP = Number(values.warmup);
const here = dirname(fileURLToPath(import.meta.url));
/** toolwright's bench server requires this bearer token, so the auth guard is measured too. */
const BENCH_TOKEN = 'bench-token-not-a-secret';

interface Target {
  name: 'toolwright' | 'sdk';
  process: ChildProcess;
  url: string;
  agent: Agent;
  headers: Record<string, string>;
}

/** The server's CPU time so far (user + system), in µs, asked over the IPC channel. */
function cpuMicros(target: Target): Promise<number> {
  return new Promise((resolveCpu, reject) => {
    const onMessage = (message: unknown) => {
      if (typeof message !== 'object' || message === null || !('cpu' in message)) return;
      target.process.off('message', onMessage);
      const { user, system } = (message as { cpu: { user: number; system: number } }).cpu;
      resolveCpu(user + system);
    };
    target.process.on('message', onMessage);
    if (!target.process.send('cpu')) reject(new Error(`${target.name}: the IPC channel is closed`));
  });
}

function startServer(name: Target['name']): Promise<Target> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_MCP_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_MCP_CPU_PROF}`] : []),
      '--import',
      'tsx',
      resolve(here, 'server.ts'),
      name,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      env: { ...process.env, BENCH_MCP_TOKEN: BENCH_TOKEN },
    },
  );
  return new Promise((resolveStart, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      const match = /^(http:\/\/\S+)\n/.exec(out);
      if (match)
        resolveStart({
          name,
          process: child,
          url: match[1]!,
          agent: new Agent({ keepAlive: true, maxSockets: CONCURRENCY }),
          headers: name === 'toolwright' ? { Authorization: `Bearer ${BENCH_TOKEN}` } : {},
        });
    });
    child.once('exit', (code) => reject(new Error(`${name} server exited with ${code}`)));
  });
}

function post(target: Target, body: string, extra: Record<string, string> = {}): Promise<{ status: number; text: string; session?: string }> {
  return new Promise((resolvePost, reject) => {
    const req = request(
      target.url,
      {
        method: 'POST',
        agent: target.agent,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...target.headers, ...extra },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const session = res.headers['mcp-session-id'];
          resolvePost({ status: res.statusCode ?? 0, text, ...(typeof session === 'string' ? { session } : {}) });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function openSession(target: Target): Promise<void> {
  const init = await post(
    target,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    }),
  );
  if (init.status !== 200 || !init.session) throw new Error(`${target.name}: initialize failed (${init.status})`);
  target.headers = { ...target.headers, 'mcp-session-id': init.session, 'mcp-protocol-version': '2025-11-25' };
  await post(target, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
}

let nextId = 1;
/** Runs `calls` tools/call requests, `CONCURRENCY` at a time; returns each latency in ms and the wall time. */
async function load(target: Target, calls: number): Promise<{ latencies: number[]; wallMs: number }> {
  const latencies: number[] = [];
  let issued = 0;
  let checksum = 0;
  const worker = async () => {
    while (issued < calls) {
      issued++;
      const id = nextId++;
      const body = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"message":"m${id}"}}}`;
      const started = performance.now();
      const response = await post(target, body);
      latencies.push(performance.now() - started);
      // Consume the result, so the work cannot be skipped, and check it is the right one.
      if (response.status !== 200 || !response.text.includes(`"text":"m${id}"`))
        throw new Error(`${target.name}: bad response ${response.status} ${response.text.slice(0, 200)}`);
      checksum += response.text.length;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const wallMs = performance.now() - started;
  if (checksum === 0) throw new Error('no bytes read');
  return { latencies, wallMs };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface RoundFigures {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** The server's own CPU time per call. */
  cpuUsPerCall: number;
}

function figures(calls: number, latencies: readonly number[], wallMs: number, cpuUs: number): RoundFigures {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { rps: (calls / wallMs) * 1000, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), cpuUsPerCall: cpuUs / calls };
}

const targets = [await startServer('toolwright'), await startServer('sdk')];
try {
  for (const target of targets) {
    await openSession(target);
    await load(target, WARMUP);
  }
  const rounds: Record<Target['name'], RoundFigures>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which server goes first, so neither always runs on a cooler machine.
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    const measured: Partial<Record<Target['name'], RoundFigures>> = {};
    for (const target of order) {
      const cpuBefore = await cpuMicros(target);
      const { latencies, wallMs } = await load(target, CALLS);
      measured[target.name] = figures(CALLS, latencies, wallMs, (await cpuMicros(target)) - cpuBefore);
    }
    rounds.push(measured as Record<Target['name'], RoundFigures>);
  }
  const perServer = (name: Target['name']): RoundFigures => ({
    rps: median(rounds.map((round) => round[name].rps)),
    p50Ms: median(rounds.map((round) => round[name].p50Ms)),
    p99Ms: median(rounds.map((round) => round[name].p99Ms)),
    cpuUsPerCall: median(rounds.map((round) => round[name].cpuUsPerCall)),
  });
  const summary = { toolwright: perServer('toolwright'), sdk: perServer('sdk') };
  const perRound = rounds.map((round) => ({
    rps: round.toolwright.rps / round.sdk.rps,
    p50: round.toolwright.p50Ms / round.sdk.p50Ms,
    p99: round.toolwright.p99Ms / round.sdk.p99Ms,
    cpu: round.toolwright.cpuUsPerCall / round.sdk.cpuUsPerCall,
  }));
  // The median of per-round ratios: each ratio compares two halves of one round, run back to back.
  const ratio = {
    rps: median(perRound.map((r) => r.rps)),
    p50: median(perRound.map((r) => r.p50)),
    p99: median(perRound.map((r) => r.p99)),
    cpu: median(perRound.map((r) => r.cpu)),
  };
  if (values.json) {
    process.stdout.write(JSON.stringify({ calls: CALLS, concurrency: CONCURRENCY, rounds: ROUNDS, node: process.version, summary, ratio, perRound }) + '\n');
  } else {
    const row = (name: string, value: RoundFigures) =>
      `${name.padEnd(12)} ${value.rps.toFixed(0).padStart(8)} ${value.p50Ms.toFixed(2).padStart(9)} ${value.p99Ms.toFixed(2).padStart(9)} ${value.cpuUsPerCall.toFixed(0).padStart(12)}`;
    process.stdout.write(
      [
        `tools/call over Streamable HTTP (loopback, SSE responses): ${ROUNDS} interleaved rounds x ${CALLS} calls, ${CONCURRENCY} in flight, Node ${process.version}`,
        `per-round throughput ratios toolwright/sdk: ${perRound.map((r) => r.rps.toFixed(2)).join(' ')}`,
        `${'server'.padEnd(12)} ${'calls/s'.padStart(8)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)} ${'CPU µs/call'.padStart(12)}   (medians over rounds)`,
        row('toolwright', summary.toolwright),
        row('sdk (bare)', summary.sdk),
        `median per-round ratio toolwright/sdk: throughput ${ratio.rps.toFixed(2)}x, p50 latency ${ratio.p50.toFixed(2)}x, p99 latency ${ratio.p99.toFixed(2)}x, server CPU per call ${ratio.cpu.toFixed(2)}x`,
        '',
      ].join('\n'),
    );
  }
} finally {
  for (const target of targets) {
    target.agent.destroy();
    target.process.kill('SIGTERM');
  }
}
