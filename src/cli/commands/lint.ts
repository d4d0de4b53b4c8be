/**
 * `toolwright lint <module>`: runs the schema linter on a tool pack and prints
 * the findings grouped by tool, each with its fix (or as JSON with `--json`).
 * With `--imported`, the tools are someone else's (a saved MCP tools/list
 * result, or a pack): advice only their author can take is skipped, and the
 * report adds what OpenAI strict mode and the token mask lose of each tool.
 * Exit code 1 when there is at least one error, 0 otherwise.
 * @module
 */
import type { Command } from 'commander';
import { toolModuleFrom } from '../tool-module-argument.js';
import type { McpImportWarning } from '../../mcp/import-mcp-tools.js';
import type { ImportedToolLosses } from './lint-imported.js';
import { LINT_PROVIDERS, LINT_RULES, isLintRuleId, lintTools, type LintFinding, type LintOptions, type LintRuleId } from '../../formats/lint/index.js';
import type { SchemaProvider } from '../../protocol/format-warning.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { loadToolModule } from '../load-tool-module.js';

export interface LintCommandOptions {
  /** Print JSON instead of text. */
  json?: boolean;
  /** Print errors only (warnings are still counted). */
  quiet?: boolean;
  /** Comma-separated rule ids to skip. */
  disable?: string;
  /** Comma-separated providers to check compatibility with. */
  providers?: string;
  /** List the keywords OpenAI strict mode drops while decoding. */
  strictLosses?: boolean;
  /** Lint someone else's tools: a saved tools/list `.json` file or a pack, linted as imported, with what strict mode and the token mask lose. */
  imported?: boolean;
  /** Resolve the module from here. Default: `process.cwd()`. */
  cwd?: string;
}

/** What `toolwright lint --json` prints. */
export interface LintReport {
  /** The module file (or package) that was linted. */
  module: string;
  /** How many tools it exports. */
  tools: number;
  errors: number;
  warnings: number;
  findings: LintFinding[];
  /** With `--imported`: what was changed or left out converting the tools, and per tool what strict mode and the token mask lose. */
  imported?: { warnings: McpImportWarning[]; losses: ImportedToolLosses[] };
}

const PROVIDERS: readonly SchemaProvider[] = LINT_PROVIDERS;

function splitList(value: string | undefined): string[] {
  return value === undefined
    ? []
    : value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
}

/** Turns the command-line options into linter options, refusing unknown rule ids and providers. */
export function lintOptionsFromCli(options: LintCommandOptions): LintOptions {
  const rules: Partial<Record<LintRuleId, 'off'>> = {};
  for (const id of splitList(options.disable)) {
    if (!isLintRuleId(id)) throw new InvalidArgumentError(`--disable: unknown rule "${id}". Known rules: ${LINT_RULES.map((rule) => rule.id).join(', ')}.`);
    rules[id] = 'off';
  }
  const result: LintOptions = { rules, reportStrictModeLosses: options.strictLosses === true };
  if (options.imported === true) result.imported = true;
  if (options.providers !== undefined) {
    const providers = splitList(options.providers);
    for (const provider of providers) {
      if (!(PROVIDERS as readonly string[]).includes(provider))
        throw new InvalidArgumentError(`--providers: unknown provider "${provider}". Use any of ${PROVIDERS.join(', ')}.`);
    }
    result.providers = providers as SchemaProvider[];
  }
  return result;
}

/** Loads the module, lints it, and returns the report. */
export async function lintModule(modulePath: string, options: LintCommandOptions = {}): Promise<LintReport> {
  const lintOptions = lintOptionsFromCli(options);
  if (options.imported === true) {
    // Loaded on demand: it brings the decoding engine and the MCP client, which plain linting does not need.
    const { importedToolLosses, loadImportedTools } = await import('./lint-imported.js');
    const imported = await loadImportedTools(modulePath, options.cwd);
    const findings = lintTools(imported.tools, lintOptions);
    return {
      ...lintReport(imported.source, imported.tools.length, findings),
      imported: { warnings: imported.warnings, losses: imported.tools.map(importedToolLosses) },
    };
  }
  const loaded = await loadToolModule(modulePath, options.cwd === undefined ? {} : { cwd: options.cwd });
  if (loaded.categories !== undefined) lintOptions.categories = loaded.categories;
  const findings = lintTools(loaded.tools, lintOptions);
  return lintReport(loaded.source, loaded.tools.length, findings);
}

function lintReport(module: string, tools: number, findings: LintFinding[]): LintReport {
  return {
    module,
    tools,
    errors: findings.filter((finding) => finding.severity === 'error').length,
    warnings: findings.filter((finding) => finding.severity === 'warning').length,
    findings,
  };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The human-readable report: findings grouped by tool, each with its fix. */
export function formatLintReport(report: LintReport, label: string, options: { quiet?: boolean } = {}): string {
  const lines: string[] = [];
  const shown = options.quiet ? report.findings.filter((finding) => finding.severity === 'error') : report.findings;
  if (report.findings.length === 0) return `${label}: ${plural(report.tools, 'tool')}, no problems found.\n`;
  lines.push(`${label}: ${plural(report.tools, 'tool')}`);
  const groups = new Map<string, LintFinding[]>();
  for (const finding of shown) {
    const key = finding.tool ?? '(all tools)';
    groups.set(key, [...(groups.get(key) ?? []), finding]);
  }
  for (const [tool, findings] of groups) {
    lines.push('', tool);
    for (const finding of findings) {
      lines.push(`  ${finding.severity.padEnd(7)}  ${finding.rule}${finding.path === '' ? '' : `  at ${finding.path}`}`);
      lines.push(`    ${finding.message}`);
      lines.push(`    fix: ${finding.fix}`);
    }
  }
  const hidden = report.findings.length - shown.length;
  lines.push(
    '',
    `${plural(report.findings.length, 'problem')} (${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')})${hidden > 0 ? `; ${plural(hidden, 'warning')} not shown (--quiet)` : ''}.`,
  );
  if (report.errors > 0) lines.push('Errors make this command exit with code 1; see docs/lint-rules.md for each rule.');
  return lines.join('\n') + '\n';
}

export function registerLintCommand(program: Command): void {
  program
    .command('lint')
    .description('Check the tool definitions of a module against the schema-design rules (docs/lint-rules.md).')
    .argument('[module]', 'path of a module (or folder with an index file) that exports tools, or an installed package name (the same as --tools)')
    .option('-t, --tools <module>', 'the module, as a flag (as serve and run take it)')
    .option('--json', 'print the report as JSON')
    .option('-q, --quiet', 'print errors only')
    .option('--disable <rules>', 'comma-separated rule ids to skip, such as tw/open-object,tw/prefer-enum')
    .option(
      '--providers <providers>',
      `comma-separated providers to check compatibility with (${PROVIDERS.join(', ')}; default: all but anthropic-strict, which also checks Anthropic's per-request strict limits over the whole set)`,
    )
    .option('--strict-losses', 'also list the keywords OpenAI strict mode (and Anthropic strict mode, when checked) drops while decoding')
    .option(
      '--imported',
      "lint someone else's tools (a saved MCP tools/list .json file, or a pack): skip advice only their author can take, and list what OpenAI strict mode and the token mask lose per tool",
    )
    .addHelpText(
      'after',
      `\nRules:\n${LINT_RULES.map((rule) => `  ${rule.id.padEnd(26)} ${rule.summary}`).join('\n')}\n\nExit codes: 0 no errors (warnings allowed), 1 errors found, 2 the module or the options are wrong.`,
    )
    .action(async (positional: string | undefined, options: LintCommandOptions & { tools?: string }) => {
      const modulePath = toolModuleFrom('lint', positional, options.tools, './tools.ts');
      const report = await lintModule(modulePath, options);
      let text = options.json ? `${JSON.stringify(report, null, 2)}\n` : formatLintReport(report, modulePath, options);
      if (!options.json && report.imported !== undefined) {
        const { formatImportedLosses } = await import('./lint-imported.js');
        const skipped = report.imported.warnings.map((warning) => `  ${warning.type} ${warning.tool} (${warning.feature}): ${warning.details}`);
        text += `${skipped.length > 0 ? `\nChanged or left out on import:\n${skipped.join('\n')}\n` : ''}\nWhat each tool loses on its way to a model:\n${formatImportedLosses(report.imported.losses)}`;
      }
      process.stdout.write(text);
      if (report.errors > 0) process.exitCode = 1;
    });
}
