/**
 * tw/provider-compatibility for `anthropic-strict` (opt-in: `providers: ['anthropic-strict']`, CLI `--providers
 * anthropic-strict`): what Anthropic strict tool use (`strict: true`) changes in a tool or refuses in a request, from
 * the rewrite toolwright sends (`toAnthropicStrictSchema`) and Anthropic's request-wide limits
 * (`ANTHROPIC_STRICT_LIMITS`): the changes that alter what the model can send, one tool past a limit by itself, and a
 * tool set that would pass one with every tool strict (`strictTools: true`).
 * @module
 */
import type { AnyTool } from '../../../tools/index.js';
import type { JsonSchemaObject } from '../../../tools/types.js';
import type { FormatWarning } from '../../../protocol/format-warning.js';
import { ANTHROPIC_STRICT_LIMITS, anthropicStrictLimitCounts, schemaCompatibilityWarnings, toAnthropicStrictSchema } from '../../provider-schema/index.js';
import type { LintContext, LintRuleReport } from '../lint-rule.js';

/** How tw/provider-compatibility sorts a strict-mode warning, and its fixes by feature: the same for both providers' strict modes. */
export interface StrictFindingRules {
  classify(warning: FormatWarning, schema: unknown): 'report' | 'loss' | 'skip';
  fixes: Readonly<Record<string, string>>;
}

const WITH = 'With Anthropic strict mode (strict: true)';
const WITH_EVERY_TOOL = 'With Anthropic strict mode on every tool (strictTools: true, all but the tools marked strict: false)';
const LIMITS = ANTHROPIC_STRICT_LIMITS;

/** One tool under Anthropic strict mode: what it changes, what it refuses of this tool alone, and (asked) what decoding drops. */
export function checkAnthropicStrictTool(tool: { inputSchema: JsonSchemaObject }, context: LintContext, rules: StrictFindingRules): LintRuleReport[] {
  const reports: LintRuleReport[] = [];
  // What plain Anthropic refuses (a root union, an external $ref) is refused in strict mode too: reported once, under
  // `anthropic` when that provider is checked, here otherwise.
  const rejected = schemaCompatibilityWarnings(tool.inputSchema, 'anthropic');
  if (!context.providers.includes('anthropic')) {
    for (const warning of rejected) {
      reports.push({
        path: `/inputSchema${warning.path}`,
        severity: 'error',
        message: `Anthropic cannot take this tool: ${warning.details}.`,
        fix: rules.fixes[warning.feature] ?? 'Change the schema as the message says, or do not offer this tool to that provider.',
      });
    }
  }
  const refused = new Set(rejected.map((warning) => `${warning.feature}|${warning.path}`));
  const converted = toAnthropicStrictSchema(tool.inputSchema);
  const losses: FormatWarning[] = [];
  for (const warning of converted.warnings) {
    if (refused.has(`${warning.feature}|${warning.path}`)) continue;
    const kind = rules.classify(warning, tool.inputSchema);
    if (kind === 'loss') losses.push(warning);
    if (kind !== 'report') continue;
    reports.push({
      path: `/inputSchema${warning.path}`,
      message: `${WITH}, ${warning.details}.`,
      fix: rules.fixes[warning.feature] ?? 'Change the schema as the message says, or call Anthropic without strict mode for this tool (strict: false).',
    });
  }
  const { optional, unions } = anthropicStrictLimitCounts([converted.schema]);
  if (optional > LIMITS.maxOptionalParameters) {
    reports.push({
      path: '/inputSchema',
      message: `${WITH}, this tool alone has ${optional} optional properties; Anthropic allows at most ${LIMITS.maxOptionalParameters} across all strict tools of a request and refuses the request.`,
      fix: 'List more of its properties in "required", or split the tool; or call Anthropic without strict mode for this tool (strict: false).',
    });
  }
  if (unions > LIMITS.maxUnionParameters) {
    reports.push({
      path: '/inputSchema',
      message: `${WITH}, this tool alone has ${unions} union-typed schemas (\`anyOf\` or a list of types); Anthropic allows at most ${LIMITS.maxUnionParameters} across all strict tools of a request and refuses the request.`,
      fix: 'Give each of those values one type (an enum, or one property per alternative), or split the tool; or call Anthropic without strict mode for this tool (strict: false).',
    });
  }
  if (context.reportStrictModeLosses && losses.length > 0) {
    const listed = losses.map((warning) => `${warning.feature} at ${warning.path || '/'}`).join(', ');
    reports.push({
      path: '/inputSchema',
      message: `${WITH}, these keywords are dropped, so decoding does not enforce them (the registry still does): ${listed}.`,
      fix: 'Nothing is required. If the model keeps breaking one of these constraints, state it in the property description as well.',
    });
  }
  return reports;
}

/**
 * The tool set under `strictTools: true`: Anthropic's per-request limits counted over every tool it makes strict. A
 * limit one tool passes by itself is already reported on that tool, so not again here.
 */
export function checkAnthropicStrictToolSet(tools: readonly AnyTool[], context: LintContext): LintRuleReport[] {
  if (!context.providers.includes('anthropic-strict')) return [];
  const strict = tools.filter((tool) => tool.strict !== false);
  const schemas = strict.map((tool) => toAnthropicStrictSchema(tool.inputSchema).schema);
  const reports: LintRuleReport[] = [];
  const fewer =
    'leave strictTools off and mark only the tools that need it strict (defineTool({ strict: true })), or offer fewer tools per request (routing, toolSearch)';
  if (strict.length > LIMITS.maxStrictTools) {
    reports.push({
      path: '',
      message: `${WITH_EVERY_TOOL}, ${strict.length} tools are strict; Anthropic allows at most ${LIMITS.maxStrictTools} per request and refuses the request.`,
      fix: `Do not make every tool strict: ${fewer}.`,
    });
  }
  const total = anthropicStrictLimitCounts(schemas);
  const alone = schemas.map((schema) => anthropicStrictLimitCounts([schema]));
  if (total.optional > LIMITS.maxOptionalParameters && alone.every((counts) => counts.optional <= LIMITS.maxOptionalParameters)) {
    reports.push({
      path: '',
      message: `${WITH_EVERY_TOOL}, the strict tools have ${total.optional} optional properties in all; Anthropic allows at most ${LIMITS.maxOptionalParameters} per request and refuses the request.`,
      fix: `List more properties in "required", or ${fewer}.`,
    });
  }
  if (total.unions > LIMITS.maxUnionParameters && alone.every((counts) => counts.unions <= LIMITS.maxUnionParameters)) {
    reports.push({
      path: '',
      message: `${WITH_EVERY_TOOL}, the strict tools have ${total.unions} union-typed schemas (\`anyOf\` or a list of types) in all; Anthropic allows at most ${LIMITS.maxUnionParameters} per request and refuses the request.`,
      fix: `Give those values one type each, or ${fewer}.`,
    });
  }
  return reports;
}
