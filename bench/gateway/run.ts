/**
 * `npm run bench:gateway`: what `toolwright gateway` adds to a host's `tools/call`, against the host calling the same
 * upstream server directly, over stdio and over Streamable HTTP on loopback, in the same run, reported as ratios.
 *
 * The host is the official SDK client (in this process). The upstream is the bare SDK `McpServer` with one read-only
 * `echo` tool (`upstream.ts`). Per transport, four peers:
 *   direct           the host talks to the upstream (stdio: spawns it; HTTP: connects to it)
 *   sdk relay        the host talks to the official SDK alone forwarding each call to the upstream (`relay.ts`): the
 *                    least a gateway process adds (a second hop), so the gateway's figures against it are toolwright's own
 *   gateway          the host talks to `toolwright gateway --config …` (stdio: spawns it, as a desktop host does, and it
 *                    spawns the upstream; HTTP: the gateway runs with `--http 127.0.0.1:0` in front of the HTTP upstream)
 *   gateway+record   the same, with `recordDir` set (one redacted JSONL record per host session)
 * The gateway runs with its default policy (trust labels, the flow rule), argument validation against the upstream
 * schema and the session guards; its definitions are pinned first with `toolwright gateway approve`, as a user would.
 *
 * Each round measures every peer back to back, in a rotating order: sequential latency (one call at a time, p50 and
 * p99), then throughput with `--concurrency` calls in flight. On a shared, noisy machine a slow moment hits all the
 * peers of a round, so the figure to read is the median of per-round ratios (gateway/direct throughput) and per-round
 * differences (added p50), not a ratio of pooled numbers. On Linux each peer also reports the CPU time the process the
 * host talks to spent per call (the gateway's own, without its upstream's; the upstream's for direct), read from
 * /proc: a figure a busy machine disturbs far less than throughput. Throughput also depends on the cores: through a
 * gateway three processes (host, gateway, upstream) share them where direct has two, so on a 2-core machine the
 * ratio is bounded by the CPU per call of all of them together, not by the gateway's alone.
 *
 *   npm run bench:gateway                                  # 5 rounds: 200 sequential + 500 calls 16 in flight, per peer
 *   npm run bench:gateway -- --rounds 10 --calls 3000 --transport http
 *   npm run bench:gateway -- --entry src                   # the gateway from src/ through tsx, even when dist/ is built
 *   BENCH_GATEWAY_CPU_PROF=/tmp/prof npm run bench:gateway # also write a --cpu-prof profile of each gateway process
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    sequential: { type: 'string', default: '200' },
    calls: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '16' },
    warmup: { type: 'string', default: '200' },
    transport: { type: 'string', default: 'stdio,http' },
    entry: { type: 'string', default: 'auto' },
    json: { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(values.rounds);
const SEQUENTIAL = Number(values.sequential);
const CALLS = Number(values.calls);
const CONCURRENCY = Number(values.concurrency);
const WARMUP = Number(values.warmup);
const TRANSPORTS = values.transport.split(',').map((name) => name.trim()) as Transport[];
for (const transport of TRANSPORTS)
  if (transport !== 'stdio' && transport !== 'http') throw new Error(`--transport takes stdio, http or both (got ${transport})`);

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const upstreamScript = resolve(here, 'upstream.ts');
const builtCli = resolve(root, 'dist/cli/main.js');
/** tsx's loader by URL, so that a process started in another folder (the approval below) still finds it. */
const tsxLoader = import.meta.resolve('tsx');
const useBuilt = values.entry === 'dist' || (values.entry === 'auto' && existsSync(builtCli));
if (values.entry === 'dist' && !existsSync(builtCli)) throw new Error('--entry dist: dist/cli/main.js does not exist; run `npm run build` first.');
/** How the gateway is started: the built CLI (what `npx toolwright` runs) when there is one, else the source through tsx. */
const gatewayCommand = useBuilt ? [builtCli] : ['--import', tsxLoader, resolve(root, 'src/cli/main.ts')];
const profileArgs = process.env.BENCH_GATEWAY_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_GATEWAY_CPU_PROF}`] : [];

type Transport = 'stdio' | 'http';
type PeerName = 'direct' | 'sdk relay' | 'gateway' | 'gateway+record';
const PEERS: readonly PeerName[] = ['direct', 'sdk relay', 'gateway', 'gateway+record'];

interface Peer {
  transport: Transport;
  name: PeerName;
  client: Client;
  /** The process the host talks to, whose CPU time is read. */
  pid: number | undefined;
  /** The record folder (gateway+record). */
  recordDir?: string;
  close(): Promise<void>;
}

const work = mkdtempSync(join(tmpdir(), 'tw-bench-gateway-'));
const children: ChildProcess[] = [];

/** Spawns a process and resolves with the first line on `stream` that matches `pattern` (its URL). */
function spawnUntil(args: string[], stream: 'stdout' | 'stderr', pattern: RegExp, name: string): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolveStart, reject) => {
    let seen = '';
    const output = child[stream]!;
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => {
      seen += chunk;
      const match = pattern.exec(seen);
      if (match) resolveStart({ child, match });
    });
    // Drain the other stream so a chatty process never blocks on a full pipe.
    child[stream === 'stdout' ? 'stderr' : 'stdout']!.resume();
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready: ${seen.slice(-500)}`)));
  });
}

/** Writes `<work>/<folder>/gateway.json`; every path in it is absolute. */
function writeConfig(folder: string, server: Record<string, unknown>, recordDir?: string): string {
  mkdirSync(join(work, folder));
  const path = join(work, folder, 'gateway.json');
  // One pin file for every config: the same server name and definition, approved once per transport.
  const config = { servers: { echo: server }, pins: join(work, 'gateway.pins.json'), ...(recordDir ? { recordDir } : {}) };
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

async function approve(config: string): Promise<void> {
  // Run from the config's folder: `gateway approve` reads ./gateway.json whatever --config says (the parent command's
  // --config takes the option), so the folder is what picks the config here.
  await promisify(execFile)(process.execPath, [...gatewayCommand, 'gateway', 'approve', '--config', config], { cwd: dirname(config) });
}

async function connect(transport: Transport, name: PeerName, target: { stdio: StdioClientTransport } | { url: string }, pid?: number): Promise<Peer> {
  const client = new Client({ name: 'bench-host', version: '1' });
  if ('stdio' in target) {
    let stderr = '';
    target.stdio.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
    await client.connect(target.stdio).catch((error: Error) => {
      throw new Error(`${transport} ${name}: ${error.message}\n${stderr}`);
    });
  } else {
    await client.connect(new StreamableHTTPClientTransport(new URL(target.url)));
  }
  const { tools } = await client.listTools();
  if (!tools.some((tool) => tool.name === 'echo'))
    throw new Error(`${transport} ${name}: "echo" is not served (got ${tools.map((tool) => tool.name).join(', ')})`);
  return {
    transport,
    name,
    client,
    pid: 'stdio' in target ? (target.stdio.pid ?? undefined) : pid,
    close: () => client.close(),
  };
}

async function startPeers(transport: Transport): Promise<Peer[]> {
  const upstreamArgs = ['--import', tsxLoader, upstreamScript];
  const relayArgs = ['--import', tsxLoader, resolve(here, 'relay.ts'), transport];
  if (transport === 'stdio') {
    const server = { command: process.execPath, args: [...upstreamArgs, 'stdio'], cwd: root };
    const configs = { gateway: writeConfig('stdio', server), 'gateway+record': writeConfig('stdio-record', server, join(work, 'records-stdio')) };
    await approve(configs.gateway);
    const stdio = (args: string[]) => new StdioClientTransport({ command: process.execPath, args, cwd: root, stderr: 'pipe' });
    return Promise.all([
      connect(transport, 'direct', { stdio: stdio([...upstreamArgs, 'stdio']) }),
      connect(transport, 'sdk relay', { stdio: stdio([...relayArgs, 'stdio']) }),
      connect(transport, 'gateway', { stdio: stdio([...profileArgs, ...gatewayCommand, 'gateway', '--config', configs.gateway]) }),
      connect(transport, 'gateway+record', { stdio: stdio([...profileArgs, ...gatewayCommand, 'gateway', '--config', configs['gateway+record']]) }).then(
        (peer) => ({ ...peer, recordDir: join(work, 'records-stdio') }),
      ),
    ]);
  }
  const upstream = await spawnUntil([...upstreamArgs, 'http'], 'stdout', /^(http:\/\/\S+)\n/, 'the HTTP upstream');
  const server = { url: upstream.match[1]! };
  const configs = { gateway: writeConfig('http', server), 'gateway+record': writeConfig('http-record', server, join(work, 'records-http')) };
  await approve(configs.gateway);
  const gateway = (config: string) =>
    spawnUntil(
      [...profileArgs, ...gatewayCommand, 'gateway', '--config', config, '--http', '127.0.0.1:0'],
      'stderr',
      / at (http:\/\/\S+)\n/,
      'the HTTP gateway',
    );
  const [relay, plain, recorded] = await Promise.all([
    spawnUntil([...relayArgs, server.url], 'stdout', /^(http:\/\/\S+)\n/, 'the HTTP relay'),
    gateway(configs.gateway),
    gateway(configs['gateway+record']),
  ]);
  return Promise.all([
    connect(transport, 'direct', { url: server.url }, upstream.child.pid),
    connect(transport, 'sdk relay', { url: relay.match[1]! }, relay.child.pid),
    connect(transport, 'gateway', { url: plain.match[1]! }, plain.child.pid),
    connect(transport, 'gateway+record', { url: recorded.match[1]! }, recorded.child.pid).then((peer) => ({ ...peer, recordDir: join(work, 'records-http') })),
  ]);
}

let nextId = 1;
async function callEcho(peer: Peer): Promise<void> {
  const message = `m${nextId++}`;
  const result = await peer.client.callTool({ name: 'echo', arguments: { message } });
  // Consume the result, so that the work cannot be skipped, and check it is this call's.
  const first = (result.content as { type: string; text?: string }[] | undefined)?.[0];
  if (result.isError === true || first?.text !== message)
    throw new Error(`${peer.transport} ${peer.name}: unexpected result ${JSON.stringify(result).slice(0, 300)}`);
}

async function sequentialLatencies(peer: Peer, calls: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let index = 0; index < calls; index++) {
    const started = performance.now();
    await callEcho(peer);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/** Wall time of `calls` calls, `CONCURRENCY` in flight. */
async function concurrentWallMs(peer: Peer, calls: number): Promise<number> {
  let issued = 0;
  const worker = async () => {
    while (issued < calls) {
      issued++;
      await callEcho(peer);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, calls) }, worker));
  return performance.now() - started;
}

const CLOCK_TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's CPU time so far (user + system) in µs, from /proc; `undefined` where there is none (not Linux). */
function cpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which is in parentheses and may hold spaces: state is [0], utime [11], stime [12].
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * A process's read and write system calls so far, from /proc (`syscr` + `syscw`); `undefined` where there is none. Unlike
 * CPU time, a count a busy machine hardly moves: each pipe or socket write wakes the reader, so it is what batching cuts.
 */
function ioSyscalls(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    const count = (field: string) => Number(new RegExp(`^${field}: (\\d+)$`, 'm').exec(io)?.[1]);
    const total = count('syscr') + count('syscw');
    return Number.isFinite(total) ? total : undefined;
  } catch {
    return undefined;
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function median(numbers: readonly number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface RoundFigures {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU of the process the host talks to, per call (sequential and concurrent calls together); NaN where unknown. */
  cpuUsPerCall: number;
  /** Read and write system calls of that process, per call; NaN where unknown. */
  syscallsPerCall: number;
}

async function measure(peer: Peer): Promise<RoundFigures> {
  const cpuBefore = cpuMicros(peer.pid);
  const syscallsBefore = ioSyscalls(peer.pid);
  const sorted = (await sequentialLatencies(peer, SEQUENTIAL)).sort((a, b) => a - b);
  const wallMs = await concurrentWallMs(peer, CALLS);
  const cpuAfter = cpuMicros(peer.pid);
  const syscallsAfter = ioSyscalls(peer.pid);
  return {
    rps: (CALLS / wallMs) * 1000,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    cpuUsPerCall: cpuBefore === undefined || cpuAfter === undefined ? NaN : (cpuAfter - cpuBefore) / (SEQUENTIAL + CALLS),
    syscallsPerCall: syscallsBefore === undefined || syscallsAfter === undefined ? NaN : (syscallsAfter - syscallsBefore) / (SEQUENTIAL + CALLS),
  };
}

const loadBefore = loadavg()[0]!;
const peers: Peer[] = [];
try {
  for (const transport of TRANSPORTS) peers.push(...(await startPeers(transport)));
  for (const peer of peers) {
    await sequentialLatencies(peer, WARMUP);
    await concurrentWallMs(peer, WARMUP);
  }
  const rounds: Map<Peer, RoundFigures>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate which peer goes first, so that none always runs on a cooler (or busier) machine.
    const order = peers.map((_, index) => peers[(index + round) % peers.length]!);
    const measured = new Map<Peer, RoundFigures>();
    for (const peer of order) measured.set(peer, await measure(peer));
    rounds.push(measured);
  }
  const loadAfter = loadavg()[0]!;

  const rows = TRANSPORTS.flatMap((transport) => {
    const peerOf = (name: PeerName) => peers.find((peer) => peer.transport === transport && peer.name === name)!;
    /** The medians of the per-round throughput ratio and p50 difference against `base`, each half of a pair run back to back. */
    const versus = (peer: Peer, base: Peer) => ({
      throughputRatio: median(rounds.map((round) => round.get(peer)!.rps / round.get(base)!.rps)),
      addedP50Ms: median(rounds.map((round) => round.get(peer)!.p50Ms - round.get(base)!.p50Ms)),
      perRoundRatio: rounds.map((round) => round.get(peer)!.rps / round.get(base)!.rps),
    });
    return PEERS.map((name) => {
      const peer = peerOf(name);
      const of = (pick: (figures: RoundFigures) => number) => median(rounds.map((round) => pick(round.get(peer)!)));
      return {
        transport,
        peer: name,
        rps: of((figures) => figures.rps),
        p50Ms: of((figures) => figures.p50Ms),
        p99Ms: of((figures) => figures.p99Ms),
        cpuUsPerCall: of((figures) => figures.cpuUsPerCall),
        syscallsPerCall: of((figures) => figures.syscallsPerCall),
        direct: versus(peer, peerOf('direct')),
        relay: versus(peer, peerOf('sdk relay')),
        recordBytes: peer.recordDir ? folderBytes(peer.recordDir) : undefined,
      };
    });
  });
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`;
  // The build's time, so that a figure from a dist/ older than the source is seen as such.
  const gatewayEntry = useBuilt
    ? `node dist/cli/main.js (built ${statSync(builtCli).mtime.toISOString().slice(0, 16)}Z; \`--entry src\` runs the source)`
    : 'node --import tsx src/cli/main.ts (source)';
  if (values.json) {
    const settings = { rounds: ROUNDS, sequential: SEQUENTIAL, calls: CALLS, concurrency: CONCURRENCY, warmup: WARMUP };
    process.stdout.write(`${JSON.stringify({ ...settings, machine, gatewayEntry, rows })}\n`);
  } else {
    const cell = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
    const ratio = (value: number) => `${value.toFixed(2)}×`;
    const added = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;
    const lines = [
      `tools/call through toolwright gateway vs direct to the upstream (bare SDK McpServer, one read-only echo tool), loopback.`,
      `${ROUNDS} interleaved rounds; per peer and round: ${SEQUENTIAL} sequential calls (latency), then ${CALLS} calls ${CONCURRENCY} in flight (throughput); ${WARMUP} + ${WARMUP} warm-up calls.`,
      `Host: the official SDK client. Gateway: ${gatewayEntry}, definitions pinned with \`toolwright gateway approve\`, default policy on.`,
      `Machine: ${machine}.`,
      '',
      '| transport | peer | calls/s | p50 ms | p99 ms | CPU µs/call | read+write syscalls/call | throughput vs direct | added p50 ms vs direct | throughput vs relay | added p50 ms vs relay |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...rows.map((row) => {
        const gateway = row.peer.startsWith('gateway');
        return `| ${[
          row.transport,
          row.peer,
          row.rps.toFixed(0),
          row.p50Ms.toFixed(3),
          row.p99Ms.toFixed(3),
          cell(row.cpuUsPerCall, 0),
          cell(row.syscallsPerCall, 2),
          row.peer === 'direct' ? '1' : ratio(row.direct.throughputRatio),
          row.peer === 'direct' ? '0' : added(row.direct.addedP50Ms),
          gateway ? ratio(row.relay.throughputRatio) : '',
          gateway ? added(row.relay.addedP50Ms) : '',
        ].join(' | ')} |`;
      }),
      '',
      'calls/s, p50, p99, CPU: medians over rounds; "vs direct", "vs relay": medians of the per-round ratios and differences.',
      'CPU µs/call: of the process the host talks to (the upstream for direct; the relay or the gateway alone, without its upstream), from /proc; syscalls/call: its read and write system calls per call (/proc/<pid>/io).',
      'sdk relay: the official SDK alone forwarding tools/list and tools/call (relay.ts), the least any gateway process adds.',
      ...rows
        .filter((row) => row.peer !== 'direct')
        .map(
          (row) =>
            `per-round throughput ratios vs direct, ${row.transport} ${row.peer}: ${row.direct.perRoundRatio.map((value) => value.toFixed(2)).join(' ')}`,
        ),
      ...rows.filter((row) => row.recordBytes !== undefined).map((row) => `record written, ${row.transport}: ${row.recordBytes} bytes`),
      `target (issue #31): ≥ 0.85× direct throughput and ≤ 1 ms added p50 — ${rows
        .filter((row) => row.peer === 'gateway')
        .map(
          (row) =>
            `${row.transport}: throughput ${row.direct.throughputRatio >= 0.85 ? 'met' : 'missed'}, p50 ${row.direct.addedP50Ms <= 1 ? 'met' : 'missed'}`,
        )
        .join('; ')} (default gateway, without the record).`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  }
} finally {
  await Promise.allSettled(peers.map((peer) => peer.close()));
  for (const child of children) child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}

function folderBytes(folder: string): number {
  if (!existsSync(folder)) return 0;
  return readdirSync(folder).reduce((total, file) => total + statSync(join(folder, file)).size, 0);
}
