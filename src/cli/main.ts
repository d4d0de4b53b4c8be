#!/usr/bin/env node
/**
 * The `toolwright` command line. Each command lives in `commands/<name>.ts` and
 * exports `register<Name>Command(program)`; add it to {@link COMMANDS} below.
 * A mistake by the user (a bad path, an unknown option) prints one line and
 * exits with code 2; a stack trace is printed only for a bug in toolwright.
 * @module
 */
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { ToolwrightError } from '../shared/errors.js';
import { safeParseJson } from '../shared/safe-json.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerInitCommand } from './commands/init.js';
import { registerLintCommand } from './commands/lint.js';
import { registerServeCommand } from './commands/serve.js';
import { registerRunCommand } from './commands/run.js';
import { registerApprovalsCommand } from './commands/approvals.js';
import { registerResumeCommand } from './commands/resume.js';
import { registerLogsCommand } from './commands/logs.js';
import { registerEvalCommand } from './commands/eval.js';
import { registerConsoleCommand } from './commands/console.js';
import { registerGatewayCommand } from './commands/gateway.js';

/** Every command, in the order `--help` lists them. */
const COMMANDS: readonly ((program: Command) => void)[] = [
  registerDemoCommand,
  registerInitCommand,
  registerLintCommand,
  registerServeCommand,
  registerGatewayCommand,
  registerRunCommand,
  registerApprovalsCommand,
  registerResumeCommand,
  registerLogsCommand,
  registerEvalCommand,
  registerConsoleCommand,
];

/** Exit codes: 0 success, 1 the command ran and found problems, 2 the input or options are wrong, 70 a bug in toolwright. */
export const EXIT_CODES = { ok: 0, problems: 1, usage: 2, internal: 70 } as const;

function readVersion(): string {
  try {
    // ../../package.json from both src/cli/main.ts and dist/cli/main.js.
    const parsed = safeParseJson(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    if (parsed.success && typeof parsed.value === 'object' && parsed.value !== null) {
      const version = (parsed.value as { version?: unknown }).version;
      if (typeof version === 'string') return version;
    }
  } catch {
    // Fall through: a missing version must not stop the CLI.
  }
  return '0.0.0';
}

export function createProgram(): Command {
  const program = new Command('toolwright')
    .description('Reliable, safe LLM tool use: one tool definition for OpenAI, Anthropic and MCP.')
    .version(readVersion(), '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showHelpAfterError('(run with --help for usage)')
    // A subcommand's options stay its own (`gateway approve --config x.json`), also where its parent has one of the same name.
    .enablePositionalOptions()
    .exitOverride();
  for (const register of COMMANDS) register(program);
  for (const command of program.commands) command.exitOverride();
  return program;
}

/** Runs the CLI and resolves to its exit code; never throws. */
export async function runCli(argv: readonly string[] = process.argv): Promise<number> {
  try {
    await createProgram().parseAsync([...argv]);
    return EXIT_CODES.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed its message (or the help or version).
      return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
    }
    if (ToolwrightError.isInstance(error)) {
      process.stderr.write(`toolwright: ${error.message}\n`);
      return EXIT_CODES.usage;
    }
    process.stderr.write(
      `toolwright: internal error, please report it with the command you ran:\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return EXIT_CODES.internal;
  }
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  const code = await runCli(process.argv);
  // exitCode rather than exit(): pending output is flushed, and long-running commands (serve) keep running.
  if (code !== EXIT_CODES.ok) process.exitCode = code;
}
