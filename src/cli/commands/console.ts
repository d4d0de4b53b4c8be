/**
 * `toolwright console [--port <n>] [--store <file>] [--model … --tools …]`:
 * the web console on 127.0.0.1 (src/cli/console/). It prints its URL, with a
 * fresh access token, once; approving or denying there is `toolwright
 * approvals approve|deny`, and a run whose calls are all decided continues as
 * `toolwright resume` would, with the model, base URL, tools and MCP servers
 * the console was started with (never the stored run's; without them, the
 * console only records decisions).
 * @module
 */
import { toolModuleFrom } from '../tool-module-argument.js';
import type { Command } from 'commander';
import { openCliRunStore, postgresUrlOf, type StoreOptions } from '../cli-run-store.js';
import { defaultRunsDir, defaultStatePath } from '../../agent/toolwright-home.js';
import { startConsole, type ConsoleServer } from '../console/console-server.js';
import { addRunSettingsOptions, compareRunSettings, configuredSettings, storedSettingsLines, type RunSettingsOptions } from '../run-settings.js';
import type { StoredSettingsNotice } from '../console/stored-settings-card.js';
import { toolModuleSource } from '../load-tool-module.js';
import { wholeNumberOption } from '../number-option.js';
import { mcpPackages, modelPackages, requirePackages, storePackages } from '../required-packages.js';
import type { RunMeta } from './run.js';
import { runResumeCommand } from './resume.js';
import { gatewayApprovalQueue } from './gateway.js';
import { terminalIo, type AgentCliIo } from './run.js';

export interface ConsoleCommandOptions extends RunSettingsOptions {
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
  /** `--gateway <config>`: also list the calls waiting in this MCP gateway config's approvals folder. */
  gateway?: string;
}

/** Starts the console and prints its URL; resolves to the running console and the store to close with it. */
export async function runConsoleCommand(options: ConsoleCommandOptions, io: AgentCliIo): Promise<{ console: ConsoleServer; close: () => Promise<void> }> {
  const port = wholeNumberOption('--port', options.port, { min: 0, max: 65_535 }, '0: a free one') ?? 0;
  // a postgres:// --store (or TOOLWRIGHT_DATABASE_URL without --store) is the shared store; anything else a SQLite file
  const postgresUrl = options.store !== undefined && !/^postgres(ql)?:\/\//i.test(options.store) ? undefined : postgresUrlOf({ store: options.store });
  const storeOptions: StoreOptions = postgresUrl !== undefined ? { store: postgresUrl } : { state: options.store ?? defaultStatePath() };
  // Every package the console will load: the store's driver, and the model's SDK and the MCP SDK when it resumes runs.
  requirePackages('toolwright console', [
    ...storePackages(storeOptions),
    ...(options.resume !== false && options.model !== undefined ? [...modelPackages(options.model), ...mcpPackages(options.mcp)] : []),
  ]);
  const settings = configuredSettings(options);
  // Resolved now, so a wrong path fails at start rather than at the first approval.
  if (settings && settings.toolsModule !== '')
    settings.toolsModule = toolModuleSource(settings.toolsModule, options.cwd !== undefined ? { cwd: options.cwd } : {});
  const resumes = options.resume !== false && settings !== undefined;
  const store = await openCliRunStore(storeOptions);
  const runsDir = options.runs ?? defaultRunsDir();
  const gatewayApprovals = options.gateway === undefined ? undefined : await gatewayApprovalQueue(options.gateway, options.cwd);
  // A resumed run prints nothing here: its steps go to its record, which the console shows.
  const quiet: AgentCliIo = { out: () => {}, err: () => {} };
  let server: ConsoleServer;
  try {
    server = await startConsole({
      store,
      runsDir,
      evalDirs: options.evals ?? ['toolwright-eval'],
      ...(options.port !== undefined ? { port } : {}),
      storedSettings: (meta) => storedSettingsNotice(meta, resumes ? settings : undefined, options),
      ...(resumes
        ? {
            resume: async (runId: string) => {
              const { port: _port, store: _store, runs: _runs, evals: _evals, resume: _resume, ...settingsOptions } = options;
              const result = await runResumeCommand(runId, { ...settingsOptions, ...storeOptions, runs: runsDir, interactive: false }, quiet);
              io.err(`run ${runId}: ${result.status.replace(/_/g, ' ')}\n`);
            },
          }
        : {}),
      ...(gatewayApprovals ? { gatewayApprovals } : {}),
      log: io.err,
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  io.out(`toolwright console: ${server.url}\n(open it in a browser on this machine; the token changes at every start)\n`);
  if (options.resume !== false && settings === undefined) {
    io.err('No --model and --tools given: approving in the console records decisions; continue runs with `toolwright resume`.\n');
  }
  return {
    console: server,
    close: async () => {
      await server.close();
      await server.idle();
      await store.close();
    },
  };
}

/** What a stored run's meta names, compared with the settings the console resumes with (`undefined`: it resumes nothing). */
function storedSettingsNotice(meta: Record<string, unknown>, settings: RunMeta | undefined, options: RunSettingsOptions): StoredSettingsNotice | undefined {
  const stored = storedSettingsLines(meta);
  if (settings === undefined) return stored.length === 0 ? undefined : { stored, differences: [], outcome: 'not_configured' };
  // A run that names nothing (not started by the CLI) differs too: the console cannot tell what it ran with.
  const differences = compareRunSettings(meta, settings, options.cwd);
  return { stored, differences, outcome: differences.length === 0 ? 'resumes' : options.acceptStoredSettingsMismatch ? 'accepted' : 'refused' };
}

export function registerConsoleCommand(program: Command): void {
  addRunSettingsOptions(
    program
      .command('console')
      .description('Open the web console: runs, their timelines, calls waiting for approval, eval reports (127.0.0.1 only).')
      .argument('[module]', 'the module that exports the tools, to resume approved runs with (or --tools)')
      .option('--port <n>', 'the port on 127.0.0.1 (default: a free one)')
      .option('--store <file|url>', 'the run store: a SQLite file, or postgres://… (default TOOLWRIGHT_DATABASE_URL, else $TOOLWRIGHT_HOME/state.db)')
      .option('--runs <folder>', 'the folder of run records (default $TOOLWRIGHT_HOME/runs)')
      .option('--evals <folders...>', 'folders `toolwright eval --out` wrote to (default ./toolwright-eval)')
      .option('--no-resume', 'only record decisions; continue runs with `toolwright resume`')
      .option('--gateway <config>', "also decide the calls waiting in this MCP gateway's approvals folder (its config's approvalsDir)"),
  ).action(async (module: string | undefined, options: ConsoleCommandOptions) => {
    if (module !== undefined) options.tools = toolModuleFrom('console', module, options.tools, './tools.ts --model …');
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
