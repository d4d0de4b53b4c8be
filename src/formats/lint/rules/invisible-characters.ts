import { definitionTexts, describePlace, findHiddenCharacters, quoteExcerpt } from '../definition-text.js';
import type { LintRule, LintRuleReport } from '../lint-rule.js';

/**
 * Characters nobody sees but a model reads: tag characters spell whole instructions, bidirectional controls make text read
 * otherwise than it is, zero-width characters split a word so that a filter misses it. Reported for every tool, imported or
 * not: a pack's own author has no reason to write them either, and a copied description may carry them unseen.
 */
export const invisibleCharactersRule = {
  id: 'tw/invisible-characters',
  severity: 'error',
  summary: 'A tool definition holds characters nobody sees (zero-width, bidirectional controls, Unicode tags, other format characters).',
  checkTool(tool) {
    const reports: LintRuleReport[] = [];
    for (const text of definitionTexts(tool)) {
      const hidden = findHiddenCharacters(text.raw);
      if (hidden === undefined) continue;
      const kinds = [...hidden.kinds];
      const spelled = hidden.kinds.has('tag characters') && text.revealed !== text.raw.normalize('NFKC');
      reports.push({
        path: text.pointer,
        message: `Tool "${tool.name}" holds ${hidden.count} invisible character${hidden.count === 1 ? '' : 's'} (${kinds.join(', ')}) in ${describePlace(text)}${spelled ? ', spelling text a model reads' : ''}: ${quoteExcerpt(text.raw, hidden.first, hidden.end)}.`,
        fix: 'Do not import this tool, or strip its description and schema texts (the gateway\'s `poisoning: "strip"`); in your own tool, delete the characters shown as ⟨U+…⟩.',
      });
    }
    return reports;
  },
} as const satisfies LintRule;
