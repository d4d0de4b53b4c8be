import { definitionTexts, describePlace, POISONED_TEXT_FIX, quoteExcerpt } from '../definition-text.js';
import type { LintRule, LintRuleReport } from '../lint-rule.js';

/** Ways to ask the model to keep something from the person it works for. Linear: fixed words, bounded windows. */
const CONCEALMENT =
  /\b(?:do not|don't|dont|never|must not|should not|shouldn't|without)\s+(?:\w+\s+){0,3}?(?:tell|telling|inform|informing|notify|notifying|alert|alerting|mention|mentioning|reveal|revealing|show|showing|disclose|disclosing|let)\b[^.!?\n]{0,40}?\b(?:the )?(?:user|human|person|operator|customer)s?\b|\b(?:do not|don't|dont|never)\s+(?:mention|reveal|disclose|acknowledge|talk about|bring up)\b|\b(?:silently|secretly|covertly|quietly)\s+(?:\w+\s+)?(?:send|call|include|add|forward|pass|run|execute|invoke|upload|set|change|replace|bcc|cc|append|redirect|modify|collect|share|exfiltrate|post|mirror)(?:s|es)?\b|\b(?:silently|secretly|covertly|quietly)\s+(?:\w+\s+)?cop(?:y|ies)\b|\b(?:do|perform|execute|run|call) (?:this|it|that) (?:silently|secretly|covertly)\b|\bwithout (?:the )?(?:user|user's|users') ?(?:knowing|knowledge|noticing|awareness|consent|being (?:told|informed|aware))\b|\b(?:keep|hide|conceal) (?:this|it|that|these|the \w+)\b[^.!?\n]{0,20}?\bfrom (?:the )?(?:user|human)s?\b|\bthe user (?:must|should|does|need) not (?:know|see|notice|be told|be informed|find out)\b/i;

/** A definition that tells the model to hide what it does: the one thing a person approving calls must never be asked to miss. */
export const concealsFromUserRule = {
  id: 'tw/conceals-from-user',
  severity: 'error',
  summary: 'An imported tool\'s description or schema text asks the model to hide something from the user ("do not tell the user", "silently").',
  checkTool(tool, context) {
    if (!context.isImported(tool)) return [];
    const reports: LintRuleReport[] = [];
    for (const text of definitionTexts(tool)) {
      if (text.field === 'property name') continue;
      const match = CONCEALMENT.exec(text.revealed);
      if (match === null) continue;
      reports.push({
        path: text.pointer,
        message: `Tool "${tool.name}" asks the model to hide something from the user in ${describePlace(text)}: ${quoteExcerpt(text.revealed, match.index, match.index + match[0].length)}.`,
        fix: POISONED_TEXT_FIX,
      });
    }
    return reports;
  },
} as const satisfies LintRule;
