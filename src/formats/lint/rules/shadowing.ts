import type { AnyTool } from '../../../tools/index.js';
import { definitionTexts, identifierWords, quoteExcerpt, sentencesOf } from '../definition-text.js';
import type { LintRule, LintRuleReport } from '../lint-rule.js';
import { namesOf, serverOf, toolsByMentionName } from './cross-tool-reference.js';

/**
 * Letters of other scripts drawn like Latin ones (Cyrillic and Greek), which NFKC leaves alone: `sеnd_email` with a
 * Cyrillic `е` reads as `send_email`. Lower case only: names are compared in lower case.
 */
const LOOKALIKES: Readonly<Record<string, string>> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ɡ: 'g',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
  ı: 'i',
};

/** What a name looks like to a reader: NFKC, lower case, lookalike letters as Latin, separators (`-`, `_`, `.`, spaces) left out. */
export function nameSkeleton(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u0370-\u03ff\u0400-\u052f\u0131\u0261]/gu, (char) => LOOKALIKES[char] ?? char)
    .replace(/[\s._-]+/g, '');
}

/** Lookalike letters written as `⟨U+0435⟩`, so that a message shows why two names that print alike differ. */
function showLookalikes(text: string): string {
  return text.replace(/[\u0370-\u03ff\u0400-\u052f\u0131\u0261]/gu, (char) =>
    char.toLowerCase() in LOOKALIKES ? `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩` : char,
  );
}

/** A sentence that claims to stand in for another tool. */
const CLAIM =
  /\b(?:replaces?|supersedes?|overrides?|instead of|in place of|rather than|use (?:this|me|it) (?:tool |one )?instead|(?:official|preferred|updated|newer|new|improved|correct|fixed|better|recommended|real|secure|safe|latest)\s+(?:version|replacement|variant|edition|implementation|alternative)|(?:is|now) deprecated|(?:do not|don't|never) use)\b/i;

/** Whom a tool claims to be: another server's tool by (nearly) the same name or title, or in words. */
interface Claim {
  /** The tool claimed by name, so that one tool is reported once per tool it claims (its name and title may both match). */
  other?: AnyTool;
  /** `warning` for exactly the same name or title; a lookalike or a claim in words keeps the rule's `error`. */
  severity?: 'warning';
  path: string;
  message: string;
}

/**
 * One server's tool passing itself off as another's: the same name or title once case, separators and lookalike letters
 * are set aside (reported on the tool listed later: the server named first keeps its name), or a description saying it
 * replaces, overrides or is the preferred version of another server's tool. Exactly the same name or title is a warning:
 * honest servers share plain names, and an importer that prefixes them (the gateway does) keeps both callable.
 */
export const shadowingRule = {
  id: 'tw/shadowing',
  severity: 'error',
  summary: "An imported tool claims another server's tool: a confusable name or title, or a description saying it replaces it.",
  checkToolSet(tools, context) {
    const imported = tools.filter((tool) => context.isImported(tool) && serverOf(tool) !== undefined);
    const servers = [...new Set(imported.map((tool) => serverOf(tool)!))];
    const byName = toolsByMentionName(imported);
    const earlierBySkeleton = new Map<string, AnyTool[]>();
    const reports: LintRuleReport[] = [];
    for (const tool of imported) {
      const server = serverOf(tool)!;
      const claims: Claim[] = [];
      const keys: [string, string, string][] = namesOf(tool).map((name) => ['/name', name === tool.name ? 'name' : 'name on its server', name]);
      if (tool.title !== undefined && tool.title.trim() !== '') keys.push(['/title', 'title', tool.title]);
      for (const [path, what, value] of keys) {
        const skeleton = nameSkeleton(value);
        const other = skeleton === '' ? undefined : earlierBySkeleton.get(skeleton)?.find((earlier) => serverOf(earlier) !== server);
        if (other === undefined || claims.some((claim) => claim.other === other)) continue;
        const same = namesOf(other).includes(value) || value === other.title;
        claims.push({
          other,
          // Honest servers share plain names (`search`, `query`), which an importer tells apart by a prefix; only a lookalike has no honest reason.
          ...(same ? { severity: 'warning' as const } : {}),
          path,
          message: `Tool "${tool.name}" of server ${quoteExcerpt(server)} has a ${what} (${showLookalikes(quoteExcerpt(value))}) ${same ? 'the same as' : 'that reads like'} tool "${other.name}" of server ${quoteExcerpt(serverOf(other)!)}${same ? '' : ' (the same once case, separators and lookalike letters are set aside)'}: a model may call one for the other.`,
        });
      }
      for (const text of definitionTexts(tool)) {
        if (text.field !== 'description' && text.field !== 'title') continue;
        const claimed = claimedTool(text.revealed, server, servers, byName);
        if (claimed === undefined) continue;
        claims.push({
          path: text.pointer,
          message: `Tool "${tool.name}" of server ${quoteExcerpt(server)} says it stands in for ${claimed.whom}: ${quoteExcerpt(text.revealed, claimed.start, claimed.end)}.`,
        });
        break;
      }
      for (const { path, message, severity } of claims) {
        reports.push({
          tool: tool.name,
          path,
          message,
          ...(severity ? { severity } : {}),
          fix: `Do not import "${tool.name}" beside the tool it claims (leave it out with \`include\`, or block it: the gateway's \`poisoning: "block"\`); if both are wanted, give each server a distinct prefix and keep the description from naming the other.`,
        });
      }
      for (const [, , value] of keys) {
        const skeleton = nameSkeleton(value);
        const earlier = earlierBySkeleton.get(skeleton) ?? [];
        if (skeleton !== '' && !earlier.includes(tool)) earlierBySkeleton.set(skeleton, [...earlier, tool]);
      }
    }
    return reports;
  },
} as const satisfies LintRule;

/** The first sentence of `text` that claims to replace a tool of another server (named, or the server by name), and whom. */
function claimedTool(
  text: string,
  server: string,
  servers: readonly string[],
  byName: Map<string, AnyTool[]>,
): { whom: string; start: number; end: number } | undefined {
  // One pass over the whole text first: most descriptions claim nothing, and then no sentence needs reading.
  if (!CLAIM.test(text)) return undefined;
  for (const { sentence, index } of sentencesOf(text)) {
    if (!CLAIM.test(sentence)) continue;
    for (const { word } of identifierWords(sentence)) {
      const other = byName.get(word.toLowerCase())?.find((candidate) => serverOf(candidate) !== server);
      if (other !== undefined) return { whom: `tool "${other.name}" of server ${quoteExcerpt(serverOf(other)!)}`, start: index, end: index + sentence.length };
    }
    const lower = sentence.toLowerCase();
    for (const other of servers) {
      if (other === server || other.length < 3) continue;
      const at = lower.indexOf(other.toLowerCase());
      if (at === -1) continue;
      const after = lower.slice(at + other.length, at + other.length + 8);
      const before = at === 0 ? '' : lower[at - 1]!;
      // "slack's post_message", "the slack server": the server itself, not the English word its name may also be.
      if (!/[\w-]/.test(before) && /^(?:'s|’s| server| mcp)/.test(after))
        return { whom: `server ${quoteExcerpt(other)}'s tools`, start: index, end: index + sentence.length };
    }
  }
  return undefined;
}
