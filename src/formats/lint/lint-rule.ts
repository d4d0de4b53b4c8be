/**
 * The shape every lint rule has. Rules report problems without knowing their
 * final severity or tool; `lintTools` adds those and applies the caller's
 * per-rule settings.
 * @module
 */
import type { AnyTool } from '../../tools/index.js';
import type { SchemaProvider } from '../../protocol/format-warning.js';

export type LintSeverity = 'error' | 'warning';

/** One problem as a rule sees it. */
export interface LintRuleReport {
  /** JSON Pointer into the tool definition (`/inputSchema/properties/user_id`), or `''` for the whole tool set. */
  path: string;
  message: string;
  /** What to change, concretely enough to act on. */
  fix: string;
  /** Overrides the rule's default severity for this report (a missing tool description is worse than a missing property description). */
  severity?: LintSeverity;
  /** For a tool-set rule whose finding concerns one tool of the set (one tool shadowing another): that tool's name. */
  tool?: string;
}

/** What rules may read besides the tool itself. */
export interface LintContext {
  /** Tools named in an exported category list, as in two-stage routing. */
  categorized: ReadonlySet<string>;
  /** Above this many tools, uncategorized tools are reported. */
  maxToolsWithoutRouting: number;
  /** The providers tw/provider-compatibility checks against. */
  providers: readonly SchemaProvider[];
  /** Whether tw/provider-compatibility lists the keywords OpenAI strict mode drops while decoding. */
  reportStrictModeLosses: boolean;
  /**
   * Whether someone else wrote the tool's definition (an MCP server's, or every tool under `imported: true`):
   * its schema and description are then out of the linted user's hands, and advice only an author can act on is skipped.
   */
  isImported(tool: AnyTool): boolean;
}

export interface LintRule {
  /** Stable, documented in `docs/lint-rules.md`. */
  readonly id: string;
  /** The severity of its findings unless a report or the caller says otherwise. */
  readonly severity: LintSeverity;
  /** One line: what the rule checks. */
  readonly summary: string;
  /** Checks one tool. */
  readonly checkTool?: (tool: AnyTool, context: LintContext) => LintRuleReport[];
  /** Checks the tool set as a whole. */
  readonly checkToolSet?: (tools: readonly AnyTool[], context: LintContext) => LintRuleReport[];
}
