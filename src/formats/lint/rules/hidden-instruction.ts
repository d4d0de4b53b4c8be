import { definitionTexts, describePlace, POISONED_TEXT_FIX, quoteExcerpt } from '../definition-text.js';
import type { LintRule, LintRuleReport } from '../lint-rule.js';

/**
 * An order found by its object first: `target` (global) is a phrase rare in honest text (`~/.ssh`, "system prompt"), and
 * it counts when `verb` stands in the `window` characters before it, in the same stretch of text (`within` ends one).
 * Looking back from the rare part keeps a text full of common verbs ("read read read…") to one scan.
 */
interface VerbBeforeTarget {
  what: string;
  verb: RegExp;
  target: RegExp;
  window: number;
  within: RegExp;
}

/**
 * Text that gives the model orders instead of describing the tool. Each pattern is linear: it starts at a fixed word and
 * looks at most a bounded window ahead (or, for {@link VerbBeforeTarget}, behind), so a description of any length costs
 * one pass per pattern.
 */
const HIDDEN_INSTRUCTIONS: readonly ({ what: string; pattern: RegExp } | VerbBeforeTarget)[] = [
  {
    what: 'tells the model to ignore its earlier instructions',
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass)\b[^.!?\n]{0,40}?(?:\b(?:previous|prior|above|earlier|preceding|original|your|all (?:the )?other|any other)\b[^.!?\n]{0,30}?\b(?:instructions?|prompts?|directives|guidelines|guardrails|rules)|\bsystem (?:prompt|instructions?|message|rules))\b|\b(?:ignore|disregard|forget)\s+(?:everything|anything|all)\s+(?:you (?:were|have been) told|above|before|previously)\b/i,
  },
  {
    what: 'tells the model it is someone else now',
    pattern:
      /\byou are now (?:in (?:developer|god|admin|jailbreak|unrestricted) mode|an? (?:unrestricted|unfiltered|jailbroken|different|new) (?:assistant|ai|model)|DAN\b|free of|no longer bound)|\bact as an? (?:unrestricted|unfiltered|jailbroken) (?:assistant|ai|model)\b|\bcomply with (?:every|any|all) (?:requests?|instructions?)\b|\bnew (?:system )?instructions\s*:/i,
  },
  {
    what: 'wraps text in markup addressed to the model',
    pattern:
      /<\s*\/?\s*(?:important|system|instructions?|secret|hidden|admin|sys|system[-_ ]?prompt|note[-_ ]to[-_ ](?:the[-_ ])?(?:ai|assistant|model))\s*>|\[\/?(?:INST|SYS|SYSTEM)\]|<\|(?:im_start|im_end|system|assistant|endoftext)\|>|<<\/?SYS>>/i,
  },
  {
    what: 'opens a line as a chat role',
    pattern: /(?:^|\n)[ \t]{0,8}(?:system|assistant|developer)[ \t]{0,3}:|(?:^|\n)[ \t]{0,8}#{1,6}[ \t]{0,3}(?:system|instructions?)\b/i,
  },
  {
    what: 'addresses the model with an order',
    pattern:
      /\b(?:you|the (?:assistant|model|ai|agent|llm)|assistant|claude|chatgpt|llm)\s+(?:must|should|shall|have to|need to|are required to|are instructed to)\s+(?:always|first|immediately|secretly)\b|\b(?:note|message|instructions?) (?:to|for) (?:the )?(?:ai|assistant|model|llm|agent)\b|\b(?:ai|assistant|model|llm|agent) (?:note|instructions?)\s*:/i,
  },
  {
    what: 'asks for a secret file',
    verb: /\b(?:read|open|cat|load|include|pass|send|attach|upload|provide|copy|fetch|extract|access|contents? of)\b/i,
    target:
      /~\/\.ssh|\.ssh\/|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\/etc\/(?:passwd|shadow)\b|\.aws\/credentials|\bmcp\.json\b|\.cursor\/|claude_desktop_config|\.npmrc\b|\.netrc\b|\.pgpass\b|\.git-credentials|(?<![\w.])\.env\b/gi,
    window: 80,
    within: /\n/,
  },
  {
    what: "asks for the conversation or the model's instructions as an argument",
    verb: /\b(?:pass|send|include|put|insert|attach|append|add|provide|copy|embed|place|forward)\b/i,
    target:
      /\b(?:(?:conversation|chat) (?:history|log|transcript)|system prompt|previous messages|your (?:instructions|system prompt|prompt|context window))\b/gi,
    window: 60,
    within: /[.!?\n]/,
  },
  {
    what: 'orders a call before anything else',
    pattern:
      /\balways\s+(?:call|invoke|run|execute|use)\b[^.!?\n]{0,60}?\b(?:first|before)\b|\bbefore (?:using|calling|invoking|running) (?:this|the|any) (?:\w+ )?tools?\b[^.!?\n]{0,20}?\b(?:read|open|send|pass|include|upload|fetch|cat)\b/i,
  },
  {
    what: 'orders a call before anything else',
    verb: /\b(?:call|invoke|run|execute)\b/i,
    target: /\bbefore (?:answering|responding|replying|anything else|any other|every|each)\b/gi,
    window: 60,
    within: /[.!?\n]/,
  },
  {
    what: "claims the user's approval or waives it",
    pattern:
      /\bthe user (?:has )?(?:already )?(?:approved|authorized|authorised|consented to|agreed to) (?:you|this|all|every|any)\b|\b(?:never|don't|do not) ask (?:the user )?for (?:confirmation|approval|permission|consent)\b|\bwithout asking (?:the user|for (?:confirmation|approval|permission|consent))\b/i,
  },
];

/** The first instruction to the model found in `text`, if any. */
export function findHiddenInstruction(text: string): { what: string; start: number; end: number } | undefined {
  for (const entry of HIDDEN_INSTRUCTIONS) {
    if ('pattern' in entry) {
      const match = entry.pattern.exec(text);
      if (match) return { what: entry.what, start: match.index, end: match.index + match[0].length };
      continue;
    }
    const found = findVerbBeforeTarget(text, entry);
    if (found) return { what: entry.what, ...found };
  }
  return undefined;
}

function findVerbBeforeTarget(text: string, { verb, target, window, within }: VerbBeforeTarget): { start: number; end: number } | undefined {
  target.lastIndex = 0;
  for (let match = target.exec(text); match !== null; match = target.exec(text)) {
    // One character more than the window, so that `\b` sees whether a verb at the window's edge starts a word.
    let from = Math.max(0, match.index - window - 1);
    let before = text.slice(from, match.index);
    for (let index = before.length - 1; index >= 0; index--) {
      if (!within.test(before[index]!)) continue;
      from += index + 1;
      before = before.slice(index + 1);
      break;
    }
    const found = verb.exec(before);
    if (found && (from === 0 || found.index > 0 || !/\w/.test(text[from - 1] ?? ''))) return { start: from + found.index, end: match.index + match[0].length };
  }
  return undefined;
}

/** Tool poisoning: a description (or schema text) that instructs the model, read by the model but rarely by the person who approved the server. */
export const hiddenInstructionRule = {
  id: 'tw/hidden-instruction',
  severity: 'error',
  summary: "An imported tool's description or schema text gives the model orders (ignore instructions, read a secret file, call X first).",
  checkTool(tool, context) {
    if (!context.isImported(tool)) return [];
    const reports: LintRuleReport[] = [];
    for (const text of definitionTexts(tool)) {
      if (text.field === 'property name') continue;
      const found = findHiddenInstruction(text.revealed);
      if (found === undefined) continue;
      reports.push({
        path: text.pointer,
        message: `Tool "${tool.name}" ${found.what} in ${describePlace(text)}: ${quoteExcerpt(text.revealed, found.start, found.end)}.`,
        fix: POISONED_TEXT_FIX,
      });
    }
    return reports;
  },
} as const satisfies LintRule;
