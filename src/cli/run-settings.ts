/**
 * What a resumed run executes and contacts: the model, its base URL, the tool
 * module and the MCP server commands. They come from the operator's own
 * configuration (`toolwright resume` / `approvals approve --resume` / `console`
 * flags), never from the stored run: anyone who can write the store (a shared
 * PostgreSQL database) could otherwise choose the command an operator's
 * approval spawns, or the address the conversation and API key are sent to.
 * The values the CLI stored when the run started are only compared with the
 * operator's, and every difference is shown and refused unless accepted.
 * @module
 */
import type { Command } from 'commander';
import { createRedactor } from '../agent/index.js';
import { ToolwrightError } from '../shared/errors.js';
import { toolModuleSource } from './load-tool-module.js';
import { readRunMeta, type RunMeta } from './commands/run.js';

/** The operator's flags that say what a resumed run executes and contacts. */
export interface RunSettingsOptions {
  /** `provider:model`. */
  model?: string;
  /** The tool module. */
  tools?: string;
  /** MCP servers whose tools join the run: commands to spawn (stdio) or `http(s)://` URLs. */
  mcp?: string[];
  baseUrl?: string;
  /** Continue with the operator's settings although the stored run names others. */
  acceptStoredSettingsMismatch?: boolean;
  /** Resolve the tool module from here. Default: `process.cwd()`. */
  cwd?: string;
}

/** One setting a stored run names differently from the operator's configuration. */
export interface SettingsDifference {
  setting: 'model' | 'base URL' | 'tools module' | 'MCP servers';
  /** What the store says, for a person to read (quoted, control and invisible characters escaped). */
  stored: string;
  /** What the operator configured, shown the same way. */
  configured: string;
}

/** Thrown when a stored run names another model, base URL, tool module or MCP servers than the operator configured. */
export class StoredSettingsMismatchError extends ToolwrightError {
  readonly runId: string;
  readonly differences: readonly SettingsDifference[];
  constructor(runId: string, differences: readonly SettingsDifference[]) {
    super(
      'TW_STORED_SETTINGS_MISMATCH',
      `Run "${runId}" was stored with other settings than yours:\n${formatDifferences(differences)}\n` +
        'Nothing was run. The stored values are never used: check who wrote them (anyone who can write the run store can). ' +
        'To continue with your settings anyway, pass --accept-stored-settings-mismatch.',
    );
    this.runId = runId;
    this.differences = differences;
  }
}

/** The settings a resume runs with, from the operator's flags; `undefined` when the flags name no model or no tools. */
export function configuredSettings(options: RunSettingsOptions): RunMeta | undefined {
  if (options.model === undefined || (options.tools === undefined && (options.mcp ?? []).length === 0)) return undefined;
  const settings: RunMeta = { modelSpec: options.model, toolsModule: options.tools ?? '' };
  if ((options.mcp ?? []).length > 0) settings.mcp = [...options.mcp!];
  if (options.baseUrl !== undefined) settings.baseURL = options.baseUrl;
  return settings;
}

/** How to pass the settings, for messages: the flags `toolwright run` takes. */
export const SETTINGS_FLAGS_HINT = '--model and --tools (or --mcp), and --base-url if the run used one, as you passed them to `toolwright run`';

/**
 * The differences between the settings a stored run's meta names and the operator's. The operator's tool module is
 * resolved as the loader would (the run stored the resolved path) without being imported.
 */
export function compareRunSettings(storedMeta: Record<string, unknown>, configured: RunMeta, cwd?: string): SettingsDifference[] {
  const stored = readRunMeta(storedMeta);
  const differences: SettingsDifference[] = [];
  const differ = (setting: SettingsDifference['setting'], storedValue: string | undefined, configuredValue: string | undefined) => {
    if (storedValue !== configuredValue) differences.push({ setting, stored: shownSetting(storedValue), configured: shownSetting(configuredValue) });
  };
  differ('model', stored.modelSpec, configured.modelSpec);
  differ('base URL', stored.baseURL, configured.baseURL);
  const configuredTools = configured.toolsModule === '' ? '' : toolModuleSource(configured.toolsModule, cwd !== undefined ? { cwd } : {});
  differ('tools module', emptyAsUndefined(stored.toolsModule), emptyAsUndefined(configuredTools));
  const storedMcp = stored.mcp ?? [];
  const configuredMcp = configured.mcp ?? [];
  if (JSON.stringify(storedMcp) !== JSON.stringify(configuredMcp)) {
    differences.push({ setting: 'MCP servers', stored: shownList(storedMcp), configured: shownList(configuredMcp) });
  }
  return differences;
}

/**
 * What a stored run's meta names that a resume would execute or contact if it trusted the store, for a person to see
 * beside the approval: one line each, escaped. Empty when the meta names none of them.
 */
export function storedSettingsLines(storedMeta: Record<string, unknown>): string[] {
  const stored = readRunMeta(storedMeta);
  const lines: string[] = [];
  if (stored.modelSpec !== undefined) lines.push(`model: ${shownSetting(stored.modelSpec)}`);
  if (stored.baseURL !== undefined) lines.push(`base URL: ${shownSetting(stored.baseURL)}`);
  if (emptyAsUndefined(stored.toolsModule) !== undefined) lines.push(`tools module: ${shownSetting(stored.toolsModule)}`);
  for (const server of stored.mcp ?? []) lines.push(`MCP server: ${shownSetting(server)}`);
  return lines;
}

export function formatDifferences(differences: readonly SettingsDifference[]): string {
  return differences.map((difference) => `  ${difference.setting}: stored ${difference.stored}, yours ${difference.configured}`).join('\n');
}

/**
 * A stored string as a person should read it: redacted, quoted, with control, bidirectional-override and zero-width characters
 * written as `\u` escapes, so a value cannot pass for another or rewrite the terminal.
 */
export function shownSetting(value: string | undefined): string {
  if (value === undefined) return '(none)';
  // A URL or a command line may carry a credential (the operator's own, or one planted to look like it).
  return JSON.stringify(createRedactor().text(value)).replace(INVISIBLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// C1 controls and DEL (JSON.stringify escapes C0 already), soft hyphen, zero-width and bidi controls, BOM.
const INVISIBLE = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g;

function shownList(values: readonly string[]): string {
  return values.length === 0 ? '(none)' : `[${values.map(shownSetting).join(', ')}]`;
}

function emptyAsUndefined(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}

/** Adds the flags that say what a resumed run executes and contacts (the `run` command's, plus the one that accepts a mismatch). */
export function addRunSettingsOptions(command: Command, options: { baseUrl: boolean } = { baseUrl: true }): Command {
  command
    .option('--model <spec>', 'the model to continue with, e.g. openai:gpt-4o-mini (never taken from the stored run)')
    .option('--tools <module>', 'the tool module to continue with (never taken from the stored run)')
    .option(
      '--mcp <server>',
      'an MCP server whose tools join the run (never taken from the stored run); repeat for several',
      (value: string, previous: string[] = []) => [...previous, value],
    );
  if (options.baseUrl) command.option('--base-url <url>', "the provider API root (never taken from the stored run); default: the provider's");
  return command.option(
    '--accept-stored-settings-mismatch',
    'continue with these settings although the stored run names another model, base URL, tools or MCP servers',
  );
}
