/**
 * `toolwright resume <runId>`: continues a run once its pending calls are
 * decided (undecided ones are asked in the terminal, or the run stays
 * pending with `--no-interactive`). The model, base URL, tools and MCP
 * servers are the operator's flags, never the stored run's: the values the
 * run was stored with are only compared with them (src/cli/run-settings.ts).
 * @module
 */
import { toolModuleFrom } from '../tool-module-argument.js';
import type { Command } from 'commander';
import { RunNotFoundError, resumeAgentStream, type AgentResult, type AgentStreamEvent } from '../../agent/index.js';
import { SIGNAL_EXIT_CODES, runInterruptibly } from '../run-ending.js';
import { openCliRunStore } from '../cli-run-store.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import {
  SETTINGS_FLAGS_HINT,
  StoredSettingsMismatchError,
  addRunSettingsOptions,
  compareRunSettings,
  configuredSettings,
  formatDifferences,
  storedSettingsLines,
  type RunSettingsOptions,
} from '../run-settings.js';
import {
  addAgentOptions,
  buildRuntime,
  checkAgentCommand,
  readRunMeta,
  recordingItsEnd,
  settle,
  terminalIo,
  type AgentCliIo,
  type AgentCommandOptions,
} from './run.js';

export interface ResumeCommandOptions extends AgentCommandOptions, RunSettingsOptions {
  /** Continue a run whose process died while continuing it. */
  takeOver?: boolean;
}

export async function runResumeCommand(runId: string, options: ResumeCommandOptions, io: AgentCliIo): Promise<AgentResult> {
  checkAgentCommand('resume', options);
  const store = await openCliRunStore(options);
  let stored;
  try {
    stored = await store.loadRun(runId);
  } finally {
    await store.close();
  }
  if (!stored) throw new RunNotFoundError(runId);
  const settings = configuredSettings(options);
  if (settings === undefined) {
    const lines = storedSettingsLines(stored.state.meta);
    throw new InvalidArgumentError(
      `Resuming run "${runId}" needs ${SETTINGS_FLAGS_HINT}: a resume never takes them from the run store.` +
        (lines.length > 0 ? ` For comparison, the run was stored with:\n${lines.map((line) => `  ${line}`).join('\n')}` : ''),
    );
  }
  const differences = compareRunSettings(stored.state.meta, settings, options.cwd);
  if (differences.length > 0) {
    if (!options.acceptStoredSettingsMismatch) throw new StoredSettingsMismatchError(runId, differences);
    io.err(
      `warning: run ${runId} was stored with other settings; continuing with yours (--accept-stored-settings-mismatch):\n${formatDifferences(differences)}\n`,
    );
  }
  // Routing only narrows which of the operator's tools are offered, so the stored choice is kept.
  if (readRunMeta(stored.state.meta).route) settings.route = true;
  const runtime = await buildRuntime(settings, options, io);
  try {
    // Printed as it streams, by one reader (the runtime's onEvent printer is for runs that do not stream).
    const run = resumeAgentStream(runId, [], { ...runtime.options, onEvent: undefined, ...(options.takeOver ? { takeOver: true } : {}) });
    return await recordingItsEnd(runId, runtime, options, async (ending) => {
      const print = (event: AgentStreamEvent) => {
        ending.saw(event);
        runtime.printStream(event);
      };
      for await (const event of run.redacted()) print(event);
      return settle(await run.result, runtime.options, options, io, print);
    });
  } finally {
    await runtime.close();
  }
}

export function registerResumeCommand(program: Command): void {
  addAgentOptions(
    addRunSettingsOptions(
      program
        .command('resume')
        .description('Continue a run that waited for confirmations (see `toolwright approvals`), with the model and tools you name.')
        .argument('<runId>', 'the run id printed by `toolwright run`')
        .argument('[module]', 'the module that exports the tools, e.g. ./tools.ts (or --tools)')
        .option('--take-over', 'continue a run whose last process died while continuing it (once its lease has run out)'),
      { baseUrl: false },
    ),
  ).action(async (runId: string, module: string | undefined, options: ResumeCommandOptions) => {
    if (module !== undefined) options.tools = toolModuleFrom('resume', module, options.tools, `${runId} ./tools.ts`);
    const { value: result, interrupted } = await runInterruptibly((control) => runResumeCommand(runId, { ...options, ...control }, terminalIo()));
    if (interrupted !== undefined) process.exitCode = SIGNAL_EXIT_CODES[interrupted];
    else if (result.status === 'stopped') process.exitCode = 1;
  });
}
