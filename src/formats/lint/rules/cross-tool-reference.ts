import type { AnyTool } from '../../../tools/index.js';
import { definitionTexts, describePlace, identifierWords, isPlainWord, POISONED_TEXT_FIX, quoteExcerpt, sentencesOf } from '../definition-text.js';
import type { LintRule, LintRuleReport } from '../lint-rule.js';

/** Words that make a sentence about another tool an order about when or how that tool runs ("when send_email is called, set bcc…"). */
const WHEN_CUE = /\b(?:when|whenever|each time|every time|before|after|instead of|in place of|always|also|must)\b/i;
const CHANGE_CUE = /\b(?:set|change|replace|override|overwrite|redirect|forward|bcc|cc|append|insert|modify|send|copy)\b/i;

/** The MCP server a tool came from, or `undefined` for a tool written here. */
export function serverOf(tool: AnyTool): string | undefined {
  return tool.origin.kind === 'mcp' ? tool.origin.server : undefined;
}

/**
 * The names a tool goes by: its name, and its name on its server when an importer prefixed or rewrote it (the gateway
 * serves `mail_send_email`; descriptions, and a shadowing server, use `send_email`).
 */
export function namesOf(tool: AnyTool): string[] {
  const origin = tool.origin;
  const remote = origin.kind === 'mcp' && 'remoteName' in origin && typeof origin.remoteName === 'string' ? origin.remoteName : undefined;
  return remote === undefined || remote === tool.name ? [tool.name] : [tool.name, remote];
}

/** The tools of the set by every lower-case name they go by, leaving out names that are plain English words (`search`, `fetch`). */
export function toolsByMentionName(tools: readonly AnyTool[]): Map<string, AnyTool[]> {
  const byName = new Map<string, AnyTool[]>();
  for (const tool of tools) {
    for (const name of namesOf(tool)) {
      if (isPlainWord(name)) continue;
      const key = name.toLowerCase();
      const listed = byName.get(key) ?? [];
      if (!listed.includes(tool)) byName.set(key, [...listed, tool]);
    }
  }
  return byName;
}

/**
 * A description that tells the model what to do with another tool. A tool of another server named at all is reported: a
 * server has no business knowing another's tools. A tool of the same server is reported only in a sentence that orders
 * when it runs and what to change ("when", "before", "instead of" with "set", "bcc", "forward"…): "use list_repos to find
 * the name" is a server documenting its own tools.
 */
export const crossToolReferenceRule = {
  id: 'tw/cross-tool-reference',
  severity: 'warning',
  summary: "An imported tool's description tells the model what to do with another tool (another server's, or how and when a sibling runs).",
  checkToolSet(tools, context) {
    const byName = toolsByMentionName(tools);
    const reports: LintRuleReport[] = [];
    for (const tool of tools) {
      if (!context.isImported(tool)) continue;
      const own = new Set(namesOf(tool).map((name) => name.toLowerCase()));
      for (const text of definitionTexts(tool)) {
        if (text.field === 'property name' || !mentionsAnother(text.revealed, byName, tool)) continue;
        const reported = new Set<string>();
        for (const { sentence, index } of sentencesOf(text.revealed)) {
          let isOrder: boolean | undefined;
          for (const { word } of identifierWords(sentence)) {
            const key = word.toLowerCase();
            const mentioned = byName.get(key);
            if (mentioned === undefined || own.has(key) || mentioned.includes(tool) || reported.has(key)) continue;
            const server = serverOf(tool);
            // A name the tool's own server also has means its own tool.
            const otherServer = server !== undefined && mentioned.every((other) => serverOf(other) !== undefined && serverOf(other) !== server);
            isOrder ??= WHEN_CUE.test(sentence) && CHANGE_CUE.test(sentence);
            if (!otherServer && !isOrder) continue;
            reported.add(key);
            const target = mentioned[0]!;
            const whose = otherServer ? ` of server ${quoteExcerpt(serverOf(target)!)}` : '';
            reports.push({
              tool: tool.name,
              path: text.pointer,
              message: `Tool "${tool.name}" refers to tool "${target.name}"${whose} in ${describePlace(text)}${otherServer ? '' : ', ordering when or how it runs'}: ${quoteExcerpt(text.revealed, index, index + sentence.length)}.`,
              fix: `${POISONED_TEXT_FIX} A description should say what its own tool does; how "${target.name}" is called is for its own definition and your policy.`,
            });
          }
        }
      }
    }
    return reports;
  },
} as const satisfies LintRule;

/** Whether `text` names any tool of the set but `tool` itself: one pass over its words, before the sentence-by-sentence reading. */
function mentionsAnother(text: string, byName: Map<string, AnyTool[]>, tool: AnyTool): boolean {
  for (const { word } of identifierWords(text)) {
    const mentioned = byName.get(word.toLowerCase());
    if (mentioned !== undefined && mentioned.some((other) => other !== tool)) return true;
  }
  return false;
}
