/**
 * `toolwright approvals list | approve <id> | deny <id>`: the calls waiting
 * for a person, across runs, in the run store. A decision is recorded once;
 * `toolwright resume <runId>` (or `approve --resume`) then continues the run.
 * @module
 */
import { toolModuleFrom } from '../tool-module-argument.js';
import type { Command } from 'commander';
import {
  ConfirmationRefusedError,
  createRedactor,
  decideConfirmation,
  listPendingConfirmations,
  type Decision,
  type RunStore,
  type StoredConfirmation,
} from '../../agent/index.js';
import { defaultRunsDir } from '../../agent/toolwright-home.js';
import { escapeInvisibleInJson, showInvisible } from '../../shared/visible-text.js';
import { STORE_OPTION_HELP, openCliRunStore, type StoreOptions } from '../cli-run-store.js';
import { SETTINGS_FLAGS_HINT, addRunSettingsOptions, configuredSettings, storedSettingsLines, type RunSettingsOptions } from '../run-settings.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { runResumeCommand, type ResumeCommandOptions } from './resume.js';
import { checkAgentCommand, formatPending, terminalIo, type AgentCliIo } from './run.js';
import { requirePackages, storePackages } from '../required-packages.js';

export interface ApprovalsOptions extends StoreOptions {
  json?: boolean;
  /** The folder of run records, where a decision is written. Default `$TOOLWRIGHT_HOME/runs`. */
  runs?: string;
}

export async function listApprovals(options: ApprovalsOptions, io: AgentCliIo): Promise<StoredConfirmation[]> {
  requirePackages('toolwright approvals', storePackages(options));
  // The CLI's store is PostgreSQL when named, else the SQLite file under $TOOLWRIGHT_HOME; a library caller naming no store gets the process's memory store.
  const store = await openCliRunStore(options);
  let pending: StoredConfirmation[];
  let storedSettings = new Map<string, string>();
  try {
    pending = await listPendingConfirmations({ store });
    if (!options.json) storedSettings = await storedSettingsNotes(store, new Set(pending.map((item) => item.runId)));
  } finally {
    await store.close();
  }
  // Stored confirmations are redacted when a run pauses; redacting again covers rows an older version wrote.
  const redact = createRedactor();
  const shown = pending.map(
    ({ token: _token, ...rest }) =>
      redact({ ...rest, expiresAt: new Date(rest.expiresAt).toISOString() }) as Omit<StoredConfirmation, 'token' | 'expiresAt'> & { expiresAt: string },
  );
  if (options.json) {
    io.out(`${escapeInvisibleInJson(JSON.stringify(shown, null, 2))}\n`);
  } else if (pending.length === 0) {
    io.out('No calls are waiting for confirmation.\n');
  } else {
    const byRun = new Map<string, (typeof shown)[number][]>();
    for (const item of shown) byRun.set(item.runId, [...(byRun.get(item.runId) ?? []), item]);
    for (const [runId, items] of byRun) {
      io.out(`run ${runId}\n${storedSettings.get(runId) ?? ''}${items.map((item) => formatPending(item)).join('')}`);
    }
  }
  return pending;
}

/**
 * Per run, what its stored settings name that a resume would execute or contact if it trusted the store: shown so an
 * operator sees what someone with write access to the store planted (a resume uses the operator's flags, never these).
 */
async function storedSettingsNotes(store: RunStore, runIds: ReadonlySet<string>): Promise<Map<string, string>> {
  const notes = new Map<string, string>();
  for (const runId of runIds) {
    const run = await store.loadRun(runId);
    const lines = run ? storedSettingsLines(run.state.meta) : [];
    if (lines.length > 0) notes.set(runId, `  stored settings (compared with yours on resume, never used): ${lines.join(' · ')}\n`);
  }
  return notes;
}

/**
 * One waiting (or decided) call with all its arguments, redacted: the step after `approvals list`, which shows the
 * decisive arguments whole and cuts the rest.
 */
export async function showApproval(approvalId: string, options: ApprovalsOptions, io: AgentCliIo): Promise<StoredConfirmation> {
  requirePackages('toolwright approvals', storePackages(options));
  const store = await openCliRunStore(options);
  let found: StoredConfirmation | undefined;
  try {
    found = await store.findConfirmation(approvalId);
  } finally {
    await store.close();
  }
  if (!found) throw unknownApproval(approvalId);
  const { token: _token, ...rest } = found;
  const shown = createRedactor()({ ...rest, expiresAt: new Date(rest.expiresAt).toISOString() }) as Omit<StoredConfirmation, 'token' | 'expiresAt'> & {
    expiresAt: string;
  };
  if (options.json) {
    io.out(`${escapeInvisibleInJson(JSON.stringify(shown, null, 2))}\n`);
  } else {
    const status = shown.decision === undefined ? `waiting, expires ${shown.expiresAt}` : `${shown.decision === 'approve' ? 'approved' : 'denied'}`;
    io.out(
      `${shown.approvalId}  ${showInvisible(shown.summary)}\n  ${shown.toolName} · run ${shown.runId} · ${status}\n` +
        `  all arguments:\n${escapeInvisibleInJson(JSON.stringify(shown.arguments, null, 2) ?? 'none').replace(/^/gm, '    ')}\n`,
    );
  }
  return found;
}

function unknownApproval(approvalId: string): ConfirmationRefusedError {
  return new ConfirmationRefusedError(
    'unknown_call',
    `No approval "${showInvisible(approvalId)}" in the run store. List what is waiting with \`toolwright approvals list\`.`,
  );
}

export async function decideApproval(
  approvalId: string,
  decision: Decision,
  options: ApprovalsOptions & { reason?: string },
  io: AgentCliIo,
): Promise<StoredConfirmation> {
  requirePackages('toolwright approvals', storePackages(options));
  const store = await openCliRunStore(options);
  try {
    const pending = await store.findConfirmation(approvalId);
    if (!pending) throw unknownApproval(approvalId);
    const decided = await decideConfirmation(
      { token: pending.token, decision, ...(options.reason !== undefined ? { reason: options.reason } : {}) },
      // The record goes to the operator's folder, never to a path the stored run names.
      { store, recordDir: options.runs ?? defaultRunsDir() },
    );
    const open = await store.listConfirmations({ runId: decided.runId, undecided: true });
    io.out(`${decision === 'approve' ? 'Approved' : 'Denied'}: ${showInvisible(createRedactor().text(decided.summary))} (run ${decided.runId})\n`);
    io.out(
      open.length === 0
        ? `Every call of run ${decided.runId} is decided; continue it with: toolwright resume ${decided.runId} --model … --tools …\n`
        : `Run ${decided.runId} still waits for ${open.length} more decision(s): toolwright approvals list\n`,
    );
    return decided;
  } finally {
    await store.close();
  }
}

export interface ApproveOptions extends ApprovalsOptions, RunSettingsOptions {
  /** Continue the run right away when nothing else waits, with the settings the options name. */
  resume?: boolean;
}

/** `toolwright approvals approve <id> [--resume --model … --tools …]`. */
export async function approveApproval(approvalId: string, options: ApproveOptions, io: AgentCliIo): Promise<StoredConfirmation> {
  // Checked before the decision is recorded, so a missing flag does not leave an approved call behind an error.
  if (options.resume && configuredSettings(options) === undefined) {
    throw new InvalidArgumentError(`--resume needs ${SETTINGS_FLAGS_HINT}: a resume never takes them from the run store.`);
  }
  // Everything the resume will load is checked before the decision is recorded, too.
  if (options.resume) checkAgentCommand('approvals approve --resume', options);
  const decided = await decideApproval(approvalId, 'approve', options, io);
  if (options.resume) {
    const { json: _json, resume: _resume, ...rest } = options;
    const resumeOptions: ResumeCommandOptions = { ...rest, interactive: false };
    await runResumeCommand(decided.runId, resumeOptions, io);
  }
  return decided;
}

export function registerApprovalsCommand(program: Command): void {
  const approvals = program.command('approvals').description('List, approve or deny the tool calls waiting for confirmation.');
  approvals
    .command('list')
    .description('List the calls waiting for a decision, by run.')
    .option('--state <file>', 'the SQLite file of pending runs (default $TOOLWRIGHT_HOME/state.db)')
    .option('--store <url>', STORE_OPTION_HELP)
    .option('--json', 'print JSON')
    .action(async (options: ApprovalsOptions) => {
      await listApprovals(options, terminalIo());
    });
  approvals
    .command('show')
    .description('Show one call with all its arguments (redacted), as `list` shows them cut.')
    .argument('<id>', 'the approval id from `toolwright approvals list`')
    .option('--state <file>', 'the SQLite file of pending runs')
    .option('--store <url>', STORE_OPTION_HELP)
    .option('--json', 'print JSON')
    .action(async (id: string, options: ApprovalsOptions) => {
      await showApproval(id, options, terminalIo());
    });
  addRunSettingsOptions(
    approvals
      .command('approve')
      .description('Approve one waiting call (it runs when its run resumes).')
      .argument('<id>', 'the approval id from `toolwright approvals list`')
      .argument('[module]', 'with --resume: the module that exports the tools, e.g. ./tools.ts (or --tools)')
      .option('--state <file>', 'the SQLite file of pending runs')
      .option('--store <url>', STORE_OPTION_HELP)
      .option('--runs <folder>', 'where run records are written (default $TOOLWRIGHT_HOME/runs)')
      .option('--resume', 'continue the run right away when nothing else waits, with the model and tools given by --model, --tools, --mcp'),
  ).action(async (id: string, module: string | undefined, options: ApproveOptions) => {
    if (module !== undefined) options.tools = toolModuleFrom('approvals approve', module, options.tools, `${id} --resume --model … ./tools.ts`);
    await approveApproval(id, options, terminalIo());
  });
  approvals
    .command('deny')
    .description('Deny one waiting call; the model is told the user declined.')
    .argument('<id>', 'the approval id from `toolwright approvals list`')
    .option('--state <file>', 'the SQLite file of pending runs')
    .option('--store <url>', STORE_OPTION_HELP)
    .option('--runs <folder>', 'where run records are written (default $TOOLWRIGHT_HOME/runs)')
    .option('--reason <text>', 'why, for the model')
    .action(async (id: string, options: ApprovalsOptions & { reason?: string }) => {
      await decideApproval(id, 'deny', options, terminalIo());
    });
}
