/**
 * `toolwright resume <runId>`: continues a run once its pending calls are
 * decided (undecided ones are asked in the terminal, or the run stays
 * pending with `--no-interactive`). The model and tools default to those the
 * run was started with.
 * @module
 */
import type { Command } from 'commander';
import { RunNotFoundError, resumeAgentStream, type AgentResult } from '../../agent/index.js';
import { openCliRunStore } from '../cli-run-store.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { addAgentOptions, buildRuntime, readRunMeta, settle, terminalIo, type AgentCliIo, type AgentCommandOptions } from './run.js';

export interface ResumeCommandOptions extends AgentCommandOptions {
  /** Continue a run whose process died while continuing it. */
  takeOver?: boolean;
}

export async function runResumeCommand(runId: string, options: ResumeCommandOptions, io: AgentCliIo): Promise<AgentResult> {
  const store = await openCliRunStore(options);
  let stored;
  try {
    stored = await store.loadRun(runId);
  } finally {
    await store.close();
  }
  if (!stored) throw new RunNotFoundError(runId);
  const meta = readRunMeta(stored.state.meta);
  const modelSpec = options.model ?? meta.modelSpec;
  const toolsModule = options.tools ?? meta.toolsModule;
  if (modelSpec === undefined || toolsModule === undefined || (toolsModule === '' && (meta.mcp ?? []).length === 0)) {
    throw new InvalidArgumentError(`Run "${runId}" was not started by the CLI, so it does not know its model and tools: pass --model and --tools.`);
  }
  const runtime = await buildRuntime(
    {
      modelSpec,
      toolsModule,
      ...((options.baseUrl ?? meta.baseURL) !== undefined ? { baseURL: (options.baseUrl ?? meta.baseURL)! } : {}),
      ...(meta.route ? { route: true } : {}),
      ...(meta.mcp ? { mcp: meta.mcp } : {}),
    },
    options,
    io,
  );
  try {
    // Printed as it streams, by one reader (the runtime's onEvent printer is for runs that do not stream).
    const run = resumeAgentStream(runId, [], { ...runtime.options, onEvent: undefined, ...(options.takeOver ? { takeOver: true } : {}) });
    for await (const event of run.redacted()) runtime.printStream(event);
    return await settle(await run.result, runtime.options, options, io, runtime.printStream);
  } finally {
    await runtime.close();
  }
}

export function registerResumeCommand(program: Command): void {
  addAgentOptions(
    program
      .command('resume')
      .description('Continue a run that waited for confirmations (see `toolwright approvals`).')
      .argument('<runId>', 'the run id printed by `toolwright run`')
      .option('--model <spec>', 'the model to continue with (default: the one the run started with)')
      .option('--tools <module>', 'the tool module (default: the one the run started with)')
      .option('--take-over', 'continue a run whose last process died while continuing it (once its lease has run out)'),
  ).action(async (runId: string, options: ResumeCommandOptions) => {
    const result = await runResumeCommand(runId, options, terminalIo());
    if (result.status === 'stopped') process.exitCode = 1;
  });
}
