import type { LintRule, LintRuleReport } from '../lint-rule.js';
import { lintEffect } from '../tool-effect.js';
import { listProperties, snakeName } from '../walk-schema.js';

/** Name parts that say an argument decides where money, data or messages go, with what they decide. */
const DESTINATION_NAMES: { test: RegExp; decides: string }[] = [
  { test: /(^|_)(iban|bic|swift|account|account_number|routing|routing_number|sort_code|wallet|payee|beneficiary|creditor)($|_)/, decides: 'where money goes' },
  { test: /(^|_)(amount|sum|total|price|value_eur|value_usd)($|_)/, decides: 'how much money moves' },
  {
    test: /(^|_)(to|cc|bcc|recipient|recipients|email|emails|email_address|phone|phone_number|channel|share_with|invitee|invitees|assignee)($|_)/,
    decides: 'who receives it',
  },
  { test: /(^|_)(url|uri|webhook|endpoint|callback|destination|dest|target_url|redirect)($|_)/, decides: 'where data is sent' },
];

/** The argument's kind by its schema, where its name says nothing: an e-mail or URL format sends things somewhere. */
function decidedByFormat(format: unknown): string | undefined {
  if (format === 'email' || format === 'idn-email') return 'who receives it';
  if (format === 'uri' || format === 'url' || format === 'iri') return 'where data is sent';
  return undefined;
}

/** In-scope injection: a rule that vouches for "the document's values" cannot tell the real account from the one an outsider wrote into it. */
export const unmarkedCriticalRule = {
  id: 'tw/unmarked-critical',
  severity: 'warning',
  summary: 'A write tool argument that decides where money, data or messages go is not marked critical.',
  checkTool(tool, context) {
    const reports: LintRuleReport[] = [];
    if (context.isImported(tool) || lintEffect(tool, context) === 'read') return reports;
    const critical = new Set(tool.critical ?? []);
    for (const property of listProperties(tool.inputSchema, '/inputSchema')) {
      if (!property.topLevel || critical.has(property.name)) continue;
      const name = snakeName(property.name);
      const items =
        property.schema.type === 'array' && typeof property.schema.items === 'object' ? (property.schema.items as Record<string, unknown>) : undefined;
      const decides = DESTINATION_NAMES.find((entry) => entry.test.test(name))?.decides ?? decidedByFormat(property.schema.format ?? items?.format);
      if (decides === undefined) continue;
      reports.push({
        path: property.pointer,
        message: `Argument "${property.name}" of write tool "${tool.name}" decides ${decides}, but is not marked critical: a value an outsider wrote into a document the tool's task reads would reach it like the document's own.`,
        fix: `Add critical: [${JSON.stringify(property.name)}] to the definition (or "x-toolwright-critical": true to the property), so that a policy asks a person before a value only untrusted content states reaches it.`,
      });
    }
    return reports;
  },
} as const satisfies LintRule;
