import { definitionTexts, describePlace, findHiddenCharacters, quoteExcerpt } from '../definition-text.js';
import type { LintRule, LintRuleReport } from '../lint-rule.js';

/** Names of the kinds of invisible character, for the message. */
function kindOf(char: string): string {
  const code = char.codePointAt(0)!;
  if (code >= 0xe0000 && code <= 0xe007f) return 'tag characters';
  if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) || code === 0x200e || code === 0x200f || code === 0x061c) {
    return 'bidirectional controls';
  }
  if ((code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef)) return 'variation selectors';
  if (code >= 0x200b && code <= 0x200d) return 'zero-width characters';
  if (code === 0x2060 || code === 0xfeff) return 'zero-width characters';
  return 'other invisible characters';
}

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
      if (hidden.length === 0) continue;
      const kinds = [...new Set(hidden.map(({ char }) => kindOf(char)))];
      const first = hidden[0]!;
      const last = hidden[hidden.length - 1]!;
      const spelled = text.revealed !== text.raw.normalize('NFKC') && kinds.includes('tag characters');
      reports.push({
        path: text.pointer,
        message: `Tool "${tool.name}" holds ${hidden.length} invisible character${hidden.length === 1 ? '' : 's'} (${kinds.join(', ')}) in ${describePlace(text)}${spelled ? ', spelling text a model reads' : ''}: ${quoteExcerpt(text.raw, first.index, last.index + last.char.length)}.`,
        fix: 'Do not import this tool, or strip its description and schema texts (the gateway\'s `poisoning: "strip"`); in your own tool, delete the characters shown as ⟨U+…⟩.',
      });
    }
    return reports;
  },
} as const satisfies LintRule;
