/**
 * `toolwright console [--port <n>] [--store <file>]`: the web console on
 * 127.0.0.1 (src/cli/console/). It prints its URL, with a fresh access token,
 * once; approving or denying there is `toolwright approvals approve|deny`, and
 * a run whose calls are all decided continues as `toolwright resume` would.
 * @module
 */
import type { Command } from 'commander';
import { openCliRunStore, postgresUrlOf, type StoreOptions } from '../cli-run-store.js';
import { defaultRunsDir, defaultStatePath } from '../../agent/toolwright-home.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { startConsole, type ConsoleServer } from '../console/console-server.js';
import { runResumeCommand } from './resume.js';
import { terminalIo, type AgentCliIo } from './run.js';

export interface ConsoleCommandOptions {
  /** The port on 127.0.0.1; default: a free one. */
  port?: string;
  /** The run store: a SQLite file. Default `$TOOLWRIGHT_HOME/state.db`. */
  store?: string;
  /** The folder of run records. Default `$TOOLWRIGHT_HOME/runs`. */
  runs?: string;
  /** Folders of eval output (`toolwright eval --out`). */
  evals?: string[];
  /** `false` with `--no-resume`: decisions are recorded, runs continue with `toolwright resume`. */
  resume?: boolean;
}

/** Starts the console and prints its URL; resolves to the running console and the store to close with it. */
export async function runConsoleCommand(options: ConsoleCommandOptions, io: AgentCliIo): Promise<{ console: ConsoleServer; close: () => Promise<void> }> {
  const port = options.port === undefined ? 0 : Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidArgumentError(`--port must be a port number from 0 to 65535 (got "${options.port}").`);
  // a postgres:// --store (or TOOLWRIGHT_DATABASE_URL without --store) is the shared store; anything else a SQLite file
  const postgresUrl = options.store !== undefined && !/^postgres(ql)?:\/\//i.test(options.store) ? undefined : postgresUrlOf({ store: options.store });
  const storeOptions: StoreOptions = postgresUrl !== undefined ? { store: postgresUrl } : { state: options.store ?? defaultStatePath() };
  const store = await openCliRunStore(storeOptions);
  const runsDir = options.runs ?? defaultRunsDir();
  // A resumed run prints nothing here: its steps go to its record, which the console shows.
  const quiet: AgentCliIo = { out: () => {}, err: () => {} };
  let server: ConsoleServer;
  try {
    server = await startConsole({
      store,
      runsDir,
      evalDirs: options.evals ?? ['toolwright-eval'],
      ...(options.port !== undefined ? { port } : {}),
      ...(options.resume === false
        ? {}
        : {
            resume: async (runId: string) => {
              const result = await runResumeCommand(runId, { ...storeOptions, runs: runsDir, interactive: false }, quiet);
              io.err(`run ${runId}: ${result.status.replace(/_/g, ' ')}\n`);
            },
          }),
      log: io.err,
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  io.out(`toolwright console: ${server.url}\n(open it in a browser on this machine; the token changes at every start)\n`);
  return {
    console: server,
    close: async () => {
      await server.close();
      await server.idle();
      await store.close();
    },
  };
}

export function registerConsoleCommand(program: Command): void {
  program
    .command('console')
    .description('Open the web console: runs, their timelines, calls waiting for approval, eval reports (127.0.0.1 only).')
    .option('--port <n>', 'the port on 127.0.0.1 (default: a free one)')
    .option('--store <file|url>', 'the run store: a SQLite file, or postgres://… (default TOOLWRIGHT_DATABASE_URL, else $TOOLWRIGHT_HOME/state.db)')
    .option('--runs <folder>', 'the folder of run records (default $TOOLWRIGHT_HOME/runs)')
    .option('--evals <folders...>', 'folders `toolwright eval --out` wrote to (default ./toolwright-eval)')
    .option('--no-resume', 'only record decisions; continue runs with `toolwright resume`')
    .action(async (options: ConsoleCommandOptions) => {
      const io = terminalIo();
      const { close } = await runConsoleCommand(options, io);
      let stopping = false;
      const stop = () => {
        if (stopping) process.exit(1);
        stopping = true;
        close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
}
