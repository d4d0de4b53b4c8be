/**
 * The schema linter: checks a tool set against the schema-design advice that
 * makes tool calls reliable (clear descriptions, enums over free text, patterns
 * for ids, a required `reason` on writes, closed objects, routing past 20 tools,
 * and what each provider accepts). It reports; it never changes a tool.
 * @module
 */
import { InvalidArgumentError } from '../../shared/errors.js';
import { canonicalJson } from '../../shared/canonical-json.js';
import { decodePointer, valueAtPointer } from '../../shared/json-schema/json-pointer.js';
import { getOwn, isPlainObject } from '../../shared/own.js';
import type { AnyTool } from '../../tools/index.js';
import type { SchemaProvider } from '../../protocol/format-warning.js';
import { ALL_PROVIDERS, LINT_PROVIDERS } from './rules/provider-compatibility.js';
import type { LintContext, LintRule, LintRuleReport, LintSeverity } from './lint-rule.js';
import { LINT_RULE_LIST, isLintRuleId, type LintRuleId } from './lint-rules.js';

export type { LintSeverity } from './lint-rule.js';

/** One problem in one tool (or in the tool set as a whole). */
export interface LintFinding {
  /** The stable rule id, such as `tw/missing-description`. */
  rule: LintRuleId;
  /** `error`: the tool is likely to be misused or rejected; `warning`: advice that makes calls more reliable. */
  severity: LintSeverity;
  /** The tool's name, or `null` for findings about the tool set as a whole. */
  tool: string | null;
  /** JSON Pointer into the tool definition (`/inputSchema/properties/user_id`), or `''` for the tool set as a whole. */
  path: string;
  /** What is wrong, in a sentence. */
  message: string;
  /** What to change. */
  fix: string;
}

export interface LintOptions {
  /** Per-rule severity, or `'off'` to skip the rule. Rules not named keep their defaults. */
  rules?: Partial<Record<LintRuleId, LintSeverity | 'off'>>;
  /** Category lists exported beside the tools (`{ billing: ["get_invoices", …] }`); a tool in any list counts as categorized. */
  categories?: Readonly<Record<string, readonly string[]>>;
  /** Above this many tools, tools without a category are reported. Default: 20. */
  maxToolsWithoutRouting?: number;
  /**
   * The providers whose limits tw/provider-compatibility checks. Default: `openai`, `openai-strict`, `anthropic`, `mcp`;
   * `anthropic-strict` (Anthropic strict tool use, and its per-request limits over the tool set) only when named.
   */
  providers?: readonly SchemaProvider[];
  /** Also list, per tool, the keywords OpenAI (and Anthropic, when checked) strict mode drops while decoding (the registry enforces them). Default: false. */
  reportStrictModeLosses?: boolean;
  /**
   * Lint every tool as someone else's (as `toolwright lint --imported` does): advice only the author of a schema
   * or description can act on is skipped (see docs/lint-rules.md, "Imported tools"). Default: only tools whose
   * `origin.kind` is `mcp` (made by importMcpTools) are linted so. `false` lints every tool as the caller's own.
   */
  imported?: boolean;
}

/** Seen through the common interface, so every check takes the same arguments. */
const RULES: readonly (LintRule & { id: LintRuleId })[] = LINT_RULE_LIST;

/** The default for {@link LintOptions.maxToolsWithoutRouting}: past 10-20 tools, models pick less accurately. */
export const DEFAULT_MAX_TOOLS_WITHOUT_ROUTING = 20;

/** Lints a tool set; findings come tool by tool, in the order of the rules, then those about the whole set. */
export function lintTools(tools: readonly AnyTool[] | { list(): AnyTool[] }, options: LintOptions = {}): LintFinding[] {
  const list = Array.isArray(tools) ? (tools as readonly AnyTool[]) : (tools as { list(): AnyTool[] }).list();
  const settings = resolveRuleSettings(options.rules);
  const context: LintContext = {
    categorized: categorizedNames(options.categories),
    maxToolsWithoutRouting: options.maxToolsWithoutRouting ?? DEFAULT_MAX_TOOLS_WITHOUT_ROUTING,
    providers: resolveProviders(options.providers),
    reportStrictModeLosses: options.reportStrictModeLosses === true,
    isImported: options.imported === undefined ? (tool) => tool.origin?.kind === 'mcp' : () => options.imported === true,
  };
  if (options.imported !== undefined && typeof options.imported !== 'boolean') {
    throw new InvalidArgumentError(`lintTools: \`imported\` must be true or false (got ${JSON.stringify(options.imported)}).`);
  }
  if (!(Number.isInteger(context.maxToolsWithoutRouting) && context.maxToolsWithoutRouting >= 0)) {
    throw new InvalidArgumentError(
      `lintTools: maxToolsWithoutRouting must be a whole number of tools, 0 or more (got ${String(options.maxToolsWithoutRouting)}).`,
    );
  }

  const findings: LintFinding[] = [];
  const add = (rule: LintRuleId, tool: string | null, report: LintRuleReport, fallback: LintSeverity): void => {
    const configured = settings.get(rule);
    if (configured === 'off') return;
    findings.push({ rule, severity: configured ?? report.severity ?? fallback, tool, path: report.path, message: report.message, fix: report.fix });
  };
  for (const tool of list) {
    for (const rule of RULES) {
      if (!rule.checkTool || settings.get(rule.id) === 'off') continue;
      for (const report of rule.checkTool(tool, context)) add(rule.id, tool.name, report, rule.severity);
    }
  }
  reportSharedDefinitionsOnce(findings, list);
  for (const rule of RULES) {
    if (!rule.checkToolSet || settings.get(rule.id) === 'off') continue;
    for (const report of rule.checkToolSet(list, context)) add(rule.id, report.tool ?? null, report, rule.severity);
  }
  return findings;
}

/** The definition a finding's path points into: `/inputSchema/$defs/Repo/properties/owner` → the `Repo` definition's pointer and the rest. */
const IN_DEFINITION = /^(\/inputSchema(?:\/[^/]+)*?\/(?:\$defs|definitions)\/[^/]+)(.*)$/;

/**
 * Tools from one server often carry the same `$defs` (a `Repository`, a `User`), and a problem in one is one
 * problem, whoever points at it. Two findings are the same when they come from the same rule about the same
 * spot of a definition whose content is identical (canonical JSON, so key order does not matter) and say the
 * same thing once each tool's name is left out. The first is kept and names the other tools; the rest go.
 */
function reportSharedDefinitionsOnce(findings: LintFinding[], tools: readonly AnyTool[]): void {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const first = new Map<string, { finding: LintFinding; others: string[] }>();
  const kept: LintFinding[] = [];
  for (const finding of findings) {
    const match = finding.tool === null ? null : IN_DEFINITION.exec(finding.path);
    const tool = finding.tool === null ? undefined : byName.get(finding.tool);
    const segments = match ? decodePointer(match[1]!) : undefined;
    const definition = tool && segments ? valueAtPointer({ inputSchema: tool.inputSchema }, segments) : undefined;
    if (!match || !tool || !isPlainObject(definition)) {
      kept.push(finding);
      continue;
    }
    const key = [finding.rule, finding.severity, canonicalJson(definition), match[2], finding.message.split(tool.name).join('\u0000')].join('\u0001');
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, { finding, others: [] });
      kept.push(finding);
    } else if (earlier.finding.tool !== tool.name && !earlier.others.includes(tool.name)) {
      earlier.others.push(tool.name);
    }
  }
  for (const { finding, others } of first.values()) {
    if (others.length > 0) finding.message += ` The same definition is in ${others.map((name) => `"${name}"`).join(', ')}; reported once.`;
  }
  findings.splice(0, findings.length, ...kept);
}

function resolveRuleSettings(rules: LintOptions['rules']): Map<LintRuleId, LintSeverity | 'off'> {
  const settings = new Map<LintRuleId, LintSeverity | 'off'>();
  if (rules === undefined) return settings;
  if (!isPlainObject(rules)) throw new InvalidArgumentError('lintTools: `rules` must be an object such as { "tw/open-object": "off" }.');
  for (const [id, setting] of Object.entries(rules)) {
    if (setting === undefined) continue;
    if (!isLintRuleId(id)) {
      throw new InvalidArgumentError(`lintTools: unknown rule "${id}". Known rules: ${LINT_RULE_LIST.map((rule) => rule.id).join(', ')}.`);
    }
    if (setting !== 'error' && setting !== 'warning' && setting !== 'off') {
      throw new InvalidArgumentError(`lintTools: rule "${id}" is set to ${JSON.stringify(setting)}; use "error", "warning" or "off".`);
    }
    settings.set(id, setting);
  }
  return settings;
}

function categorizedNames(categories: LintOptions['categories']): Set<string> {
  const names = new Set<string>();
  if (categories === undefined) return names;
  if (!isPlainObject(categories)) throw new InvalidArgumentError('lintTools: `categories` must map category names to lists of tool names.');
  for (const category of Object.keys(categories)) {
    const members = getOwn(categories, category);
    if (!Array.isArray(members)) throw new InvalidArgumentError(`lintTools: category "${category}" must be a list of tool names.`);
    for (const name of members) if (typeof name === 'string') names.add(name);
  }
  return names;
}

function resolveProviders(providers: LintOptions['providers']): readonly SchemaProvider[] {
  if (providers === undefined) return ALL_PROVIDERS;
  if (!Array.isArray(providers)) throw new InvalidArgumentError(`lintTools: \`providers\` must be a list drawn from ${LINT_PROVIDERS.join(', ')}.`);
  for (const provider of providers) {
    if (!LINT_PROVIDERS.includes(provider)) {
      throw new InvalidArgumentError(`lintTools: unknown provider ${JSON.stringify(provider)}; use any of ${LINT_PROVIDERS.join(', ')}.`);
    }
  }
  return providers;
}
