import { isPlainObject } from '../../../shared/own.js';
import { describeToolNameProblem } from '../../../tools/index.js';
import type { FormatWarning, SchemaProvider } from '../../../protocol/format-warning.js';
import { schemaCompatibilityWarnings } from '../../provider-schema/index.js';
import type { LintContext, LintRule, LintRuleReport } from '../lint-rule.js';
import { checkAnthropicStrictTool, checkAnthropicStrictToolSet } from './anthropic-strict-compatibility.js';

const PROVIDER_LABELS: Record<SchemaProvider, string> = {
  openai: 'OpenAI',
  'openai-strict': 'OpenAI strict mode',
  anthropic: 'Anthropic',
  mcp: 'MCP',
  'anthropic-strict': 'Anthropic strict mode',
};

/** Removed in strict mode without changing what the model may send; the tool or the registry still applies them. */
const DECODING_ONLY_FEATURES = new Set(['default', '$schema', '$id']);
const DECODING_ONLY = 'decoding no longer enforces it';
/** Covered by other rules (tw/missing-required), so not reported twice. */
const REPORTED_ELSEWHERE = new Set(['required']);

const FIXES: Record<string, string> = {
  'root-union': 'Make the root one object and move the alternatives into a property (for example a "kind" enum plus the properties of each kind).',
  'root-type': 'Give the input schema "type": "object" at the root, and wrap any other value in a property.',
  $ref: 'Inline the referenced schema or copy it into "$defs" and point at "#/$defs/…".',
  any: 'Give the schema a "type" (and for objects, declared properties).',
  'open-object': 'Declare the properties of the object; for free-form data, take a JSON string and parse it in the tool.',
  additionalProperties: 'Replace the map with an array of { "key": …, "value": … } objects, or declare the known keys as properties.',
  patternProperties: 'Replace the map with an array of { "key": …, "value": … } objects, or declare the known keys as properties.',
  propertyNames: 'Declare the allowed keys as properties instead of constraining key names.',
  items: 'Use one "items" schema for every element, or an object with named properties instead of a tuple.',
  prefixItems: 'Use one "items" schema for every element, or an object with named properties instead of a tuple.',
  'false-schema': 'Remove the `false` schema; leave the property out of "properties" to forbid it.',
  'nesting-depth': 'Flatten the schema, or split the tool into smaller ones.',
  'total-properties': 'Split the tool into smaller ones.',
  'total-enum-values': 'Shorten the enums, or take the value as a string checked by "pattern" and validated in the tool.',
  'total-string-length': 'Shorten the enums and property names, or split the tool.',
  'enum-string-length': 'Shorten the enum, or take the value as a string checked by "pattern" and validated in the tool.',
};

export const ALL_PROVIDERS: readonly SchemaProvider[] = ['openai', 'openai-strict', 'anthropic', 'mcp'];
/** Every provider the rule can check: the default ones and, asked by name, Anthropic strict mode. */
export const LINT_PROVIDERS: readonly SchemaProvider[] = [...ALL_PROVIDERS, 'anthropic-strict'];

function valueAt(root: unknown, pointer: string): unknown {
  let current = root;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current) && /^(0|[1-9][0-9]*)$/.test(segment)) current = current[Number(segment)];
    else if (isPlainObject(current) && Object.hasOwn(current, segment)) current = current[segment];
    else return undefined;
  }
  return current;
}

/** Whether a strict-mode warning changes what the model can send (`report`), only what decoding enforces (`loss`), or belongs to another rule (`skip`). */
function classify(warning: FormatWarning, schema: unknown): 'report' | 'loss' | 'skip' {
  if (REPORTED_ELSEWHERE.has(warning.feature)) return 'skip';
  if (warning.feature === 'additionalProperties') {
    // `additionalProperties: true` or absent is tw/open-object's business; a schema-valued one is a map strict mode cannot carry.
    return warning.type === 'unsupported' && isPlainObject(valueAt(schema, warning.path)) ? 'report' : 'skip';
  }
  if (warning.feature in FIXES) return 'report';
  if (warning.type === 'rewritten') return 'skip';
  return DECODING_ONLY_FEATURES.has(warning.feature) || warning.details.includes(DECODING_ONLY) ? 'loss' : 'report';
}

/** Checks what each provider rejects or changes; `lintTools` passes the options in through the context. */
export function checkProviderCompatibility(tool: { name: string; inputSchema: Record<string, unknown> }, options: LintContext): LintRuleReport[] {
  const reports: LintRuleReport[] = [];
  const nameProblem = describeToolNameProblem(tool.name);
  if (nameProblem !== undefined) {
    reports.push({
      path: '/name',
      severity: 'error',
      message: `The tool name ${JSON.stringify(tool.name)} is refused by some providers: ${nameProblem}.`,
      fix: 'Rename the tool to letters, digits, "_" and "-", at most 64 characters (create tools with defineTool, which checks this).',
    });
  }

  // What the plain providers reject; OpenAI strict mode repeats OpenAI's own rejections, reported once.
  const rejected = new Set<string>();
  for (const provider of options.providers) {
    if (provider === 'openai-strict' || provider === 'anthropic-strict') continue;
    for (const warning of schemaCompatibilityWarnings(tool.inputSchema, provider)) {
      if (provider === 'openai') rejected.add(`${warning.feature}|${warning.path}`);
      reports.push({
        path: `/inputSchema${warning.path}`,
        severity: 'error',
        message: `${PROVIDER_LABELS[provider]} cannot take this tool: ${warning.details}.`,
        fix: FIXES[warning.feature] ?? 'Change the schema as the message says, or do not offer this tool to that provider.',
      });
    }
  }

  if (options.providers.includes('openai-strict')) {
    const strict = schemaCompatibilityWarnings(tool.inputSchema, 'openai-strict').filter((warning) => !rejected.has(`${warning.feature}|${warning.path}`));
    const losses: FormatWarning[] = [];
    for (const warning of strict) {
      const kind = classify(warning, tool.inputSchema);
      if (kind === 'loss') losses.push(warning);
      if (kind !== 'report') continue;
      reports.push({
        path: `/inputSchema${warning.path}`,
        message: `With OpenAI strict mode (strict: true), ${warning.details}.`,
        fix: FIXES[warning.feature] ?? 'Change the schema as the message says, or call OpenAI without strict mode for this tool.',
      });
    }
    if (options.reportStrictModeLosses && losses.length > 0) {
      const listed = losses.map((warning) => `${warning.feature} at ${warning.path || '/'}`).join(', ');
      reports.push({
        path: '/inputSchema',
        message: `With OpenAI strict mode (strict: true), these keywords are dropped, so decoding does not enforce them (the registry still does): ${listed}.`,
        fix: 'Nothing is required. If the model keeps breaking one of these constraints, state it in the property description as well.',
      });
    }
  }
  if (options.providers.includes('anthropic-strict')) reports.push(...checkAnthropicStrictTool(tool, options, { classify, fixes: FIXES }));
  return reports;
}

/** A tool every provider cannot take is a tool some model will never be offered, or will call wrongly. */
export const providerCompatibilityRule = {
  id: 'tw/provider-compatibility',
  severity: 'warning',
  summary: "A provider rejects the tool (errors) or a provider's strict mode changes what it accepts (warnings).",
  checkTool(tool, context) {
    return checkProviderCompatibility(tool, context);
  },
  checkToolSet: checkAnthropicStrictToolSet,
} as const satisfies LintRule;
