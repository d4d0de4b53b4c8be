/**
 * What every format adapter shares about grammar tools (`defineTool({ input: { grammar } })`): the neutral part of a
 * call whose input is free text, and the warning where a provider has no grammar tools and gets the tool's object
 * form, `{ input: string }` (grammar-input.ts).
 * @module
 */
import type { FormatWarning } from '../protocol/format-warning.js';
import type { ToolCallPart } from '../protocol/messages.js';
import type { AnyTool } from '../tools/define-tool.js';
import { GRAMMAR_INPUT_PROPERTY, type ToolGrammar } from '../tools/grammar-input.js';
import { listTools, type ToolSource } from './tool-source.js';

/** A call to a grammar tool as a history part: the text under `arguments.input`, and kept as written for the replay. */
export function grammarToolCallPart(id: string, name: string, text: string): ToolCallPart {
  return { type: 'tool-call', id, name, arguments: { [GRAMMAR_INPUT_PROPERTY]: text }, freeformInput: text };
}

/** The grammar of a tool that has one; tool objects built by hand have none. */
export function grammarOf(tool: AnyTool): ToolGrammar | undefined {
  return tool.grammar;
}

/** One warning per grammar tool of `source`, for a provider that is sent the object form instead of the grammar, and `why`. */
export function grammarFallbackWarnings(source: ToolSource, provider: FormatWarning['provider'], why = 'the provider has no grammar tools'): FormatWarning[] {
  const warnings: FormatWarning[] = [];
  for (const tool of listTools(source)) {
    const grammar = grammarOf(tool);
    if (grammar === undefined) continue;
    warnings.push({
      type: grammar.syntax === 'regex' ? 'rewritten' : 'unsupported',
      provider,
      feature: 'grammar-tool',
      path: '',
      details:
        grammar.syntax === 'regex'
          ? `${why}: the tool is sent as an object with one string property \`input\` whose \`pattern\` is the regex anchored at both ends; toolwright validates the text against it`
          : `${why}: the tool is sent as an object with one string property \`input\` with the Lark grammar in its description; nobody enforces the Lark grammar, so any string within the argument limits is accepted`,
      tool: tool.name,
    });
  }
  return warnings;
}

/** The warnings of a declaration without those about the object form of grammar tools, which a provider given the grammar never sees. */
export function withoutGrammarToolWarnings(warnings: FormatWarning[], source: ToolSource): FormatWarning[] {
  const grammarTools = new Set(
    listTools(source)
      .filter((tool) => grammarOf(tool) !== undefined)
      .map((tool) => tool.name),
  );
  return grammarTools.size === 0 ? warnings : warnings.filter((warning) => warning.tool === undefined || !grammarTools.has(warning.tool));
}
