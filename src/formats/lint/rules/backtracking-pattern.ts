import { ANY_UTF16_CHAR, intersectSets, unionSets, type CodePointSet } from '../../../shared/regex/code-point-set.js';
import { parsePattern, type ParsedPattern, type RegexNode } from '../../../shared/regex/parse-regex.js';
import type { AnyTool } from '../../../tools/index.js';
import { listSchemaPatterns, unsupportedPatternReason } from '../../../tools/schema-patterns.js';
import type { LintRule, LintRuleReport } from '../lint-rule.js';

type RepeatNode = Extract<RegexNode, { type: 'repeat' }>;

function nullable(node: RegexNode): boolean {
  switch (node.type) {
    case 'set':
      return false;
    case 'concat':
      return node.items.every(nullable);
    case 'alt':
      return node.items.some(nullable);
    case 'repeat':
      return node.min === 0 || nullable(node.item);
    default:
      return true;
  }
}

/** The characters a match of `node` can begin with. */
function firstChars(node: RegexNode): CodePointSet {
  switch (node.type) {
    case 'set':
      return node.set;
    case 'concat': {
      const sets: CodePointSet[] = [];
      for (const item of node.items) {
        sets.push(firstChars(item));
        if (!nullable(item)) break;
      }
      return unionSets(...sets);
    }
    case 'alt':
      return unionSets(...node.items.map(firstChars));
    case 'repeat':
      return node.max === 0 ? [] : firstChars(node.item);
    default:
      return [];
  }
}

/** Every character `node` can consume anywhere. */
function allChars(node: RegexNode): CodePointSet {
  switch (node.type) {
    case 'set':
      return node.set;
    case 'concat':
    case 'alt':
      return unionSets(...node.items.map(allChars));
    case 'repeat':
      return allChars(node.item);
    default:
      return [];
  }
}

/** Variable-count repeats inside `node` after which the rest of `node` may match nothing: an iteration of an outer loop can end inside them. */
function openEndedRepeats(node: RegexNode, restNullable: boolean, out: RepeatNode[]): void {
  switch (node.type) {
    case 'concat':
      node.items.forEach((item, index) => openEndedRepeats(item, restNullable && node.items.slice(index + 1).every(nullable), out));
      return;
    case 'alt':
      for (const item of node.items) openEndedRepeats(item, restNullable, out);
      return;
    case 'repeat':
      if (restNullable && node.max >= 2 && node.max > node.min) out.push(node);
      openEndedRepeats(node.item, restNullable, out);
      return;
    default:
      return;
  }
}

function overlaps(left: CodePointSet, right: CodePointSet): boolean {
  return intersectSets(left, right).length > 0;
}

/** The first construct under a loop that lets a backtracking engine split the same text in exponentially many ways, as source-like text. */
function backtrackingHazard(tree: RegexNode): string | undefined {
  const loops: RepeatNode[] = [];
  const collect = (node: RegexNode): void => {
    if (node.type === 'repeat') {
      if (node.max >= 2) loops.push(node);
      collect(node.item);
    } else if (node.type === 'concat' || node.type === 'alt') node.items.forEach(collect);
  };
  collect(tree);
  for (const loop of loops) {
    const starts = firstChars(loop.item);
    const inner: RepeatNode[] = [];
    openEndedRepeats(loop.item, true, inner);
    // The text an inner loop reads at the end of one iteration could also start the next one.
    if (inner.some((repeat) => overlaps(allChars(repeat.item), starts) || nullable(repeat.item)))
      return 'a quantifier nested inside another, where one iteration can end with what the next begins with';
    if (loop.item.type === 'alt') {
      const branches = loop.item.items;
      for (let left = 0; left < branches.length; left++) {
        for (let right = left + 1; right < branches.length; right++) {
          const leftFirst = nullable(branches[left]!) ? ANY_UTF16_CHAR : firstChars(branches[left]!);
          const rightFirst = nullable(branches[right]!) ? ANY_UTF16_CHAR : firstChars(branches[right]!);
          if (overlaps(leftFirst, rightFirst)) return 'alternatives under a quantifier that can begin with the same character';
        }
      }
    }
  }
  return undefined;
}

function checkSchema(schema: unknown, rootPointer: string): LintRuleReport[] {
  const reports: LintRuleReport[] = [];
  for (const site of listSchemaPatterns(schema, rootPointer)) {
    const quoted = JSON.stringify(site.pattern);
    const refused = unsupportedPatternReason(site.pattern);
    if (refused !== undefined) {
      reports.push({
        path: site.pointer,
        severity: 'error',
        message: `The pattern ${quoted} uses ${refused}, which toolwright's linear-time pattern engine cannot run, so the registry refuses this tool (TW_UNSAFE_PATTERN).`,
        fix: 'Rewrite it without lookbehind, lookaheads anywhere but right after a leading ^, backreferences, \\b or \\p{…} (and with counts of at most 1000), or drop the pattern and check the value inside execute.',
      });
      continue;
    }
    let parsed: ParsedPattern;
    try {
      parsed = parsePattern(site.pattern, { loneSurrogates: true });
    } catch {
      continue; // Not a valid regex: compiling the schema reports it.
    }
    // a backtracking engine runs each leading lookahead's body as it runs the rest
    const hazard = [...parsed.lookaheads.map(({ body }) => body), parsed.tree].map(backtrackingHazard).find((found) => found !== undefined);
    if (hazard === undefined) continue;
    reports.push({
      path: site.pointer,
      message: `The pattern ${quoted} has ${hazard}: a backtracking regex engine can take exponential time on a short string that almost matches. toolwright checks it in linear time, but other validators of this schema (a provider's, another MCP client's) may not.`,
      fix: 'Write it so each character can be matched in only one way: drop the inner or outer quantifier (`(a+)+` → `a+`, `(\\w+\\s?)*` → `[\\w\\s]*` or `\\w+(\\s\\w+)*`), or make the alternatives start differently (`(a|ab)*` → `(ab?)*`).',
    });
  }
  return reports;
}

/** Patterns are the one part of a schema that can make validation take exponential time; toolwright's engine cannot, other engines can. */
export const backtrackingPatternRule = {
  id: 'tw/backtracking-pattern',
  severity: 'warning',
  summary: 'A pattern prone to catastrophic backtracking (warning), or one the linear-time engine refuses (error).',
  checkTool(tool: AnyTool) {
    return [...checkSchema(tool.inputSchema, '/inputSchema'), ...(tool.outputSchema === undefined ? [] : checkSchema(tool.outputSchema, '/outputSchema'))];
  },
} as const satisfies LintRule;
