/**
 * Grammar tools: a tool whose input is free text in a grammar (`defineTool({ input: { grammar } })`) rather than a JSON
 * object. OpenAI Responses takes the grammar as it is (a `custom` tool); everywhere else, and inside toolwright, the tool is the
 * object `{ input: string }` described by {@link grammarInputSchema}: the registry validates it (a regex grammar as an
 * anchored `pattern`, run by the linear-time engine), the MCP server lists it, the token mask decodes it, and the other
 * providers are sent it, so one schema serves every place a JSON-object tool goes.
 * @module
 */
import { parseRegex, RegexUnsupportedError } from '../shared/regex/parse-regex.js';
import { isPlainObject } from '../shared/own.js';
import type { JsonSchemaObject } from './types.js';
import { describeValue, type ValidationIssue } from './validation-issues.js';

/** The grammar syntaxes OpenAI custom tools accept; toolwright enforces `regex` itself and only declares `lark`. */
export type ToolGrammarSyntax = 'regex' | 'lark';

/** A grammar tool's input: `regex` (toolwright's pattern subset, matched against the whole text) or `lark` (declared to OpenAI, not checked here). */
export interface ToolGrammar {
  readonly syntax: ToolGrammarSyntax;
  readonly definition: string;
}

/** The one property of the object a grammar tool takes wherever a provider or toolwright needs a JSON object. */
export const GRAMMAR_INPUT_PROPERTY = 'input';

/** What the registry validates and `execute`'s wrapper unwraps: the text under {@link GRAMMAR_INPUT_PROPERTY}. */
export interface GrammarToolArguments {
  input: string;
}

/** The regex as a JSON Schema `pattern` that must match the whole text (a `pattern` alone matches anywhere in it). */
export function anchoredGrammarPattern(definition: string): string {
  return `^(?:${definition})$`;
}

/**
 * The object schema a grammar tool has in toolwright and on providers without grammar tools: one required string
 * property, with the regex as an anchored `pattern` (none for `lark`, which toolwright cannot enforce), and the grammar
 * in the property's description so that a model without the grammar still sees it.
 */
export function grammarInputSchema(grammar: ToolGrammar): JsonSchemaObject {
  const text: JsonSchemaObject =
    grammar.syntax === 'regex'
      ? {
          type: 'string',
          description: `The input text; the whole text must match the regular expression /${grammar.definition}/.`,
          pattern: anchoredGrammarPattern(grammar.definition),
        }
      : { type: 'string', description: `The input text, in this Lark grammar:\n${grammar.definition}` };
  return { type: 'object', properties: { [GRAMMAR_INPUT_PROPERTY]: text }, required: [GRAMMAR_INPUT_PROPERTY], additionalProperties: false };
}

/** Why a definition's `input.grammar` is unusable, or `undefined`; a regex must parse alone (so anchoring it cannot change its meaning). */
export function describeGrammarProblem(grammar: unknown): string | undefined {
  if (!isPlainObject(grammar)) return '`input.grammar` must be { syntax: "regex" | "lark", definition: string }';
  if (grammar.syntax !== 'regex' && grammar.syntax !== 'lark') {
    return `\`input.grammar.syntax\` must be "regex" or "lark" (got ${JSON.stringify(grammar.syntax)})`;
  }
  if (typeof grammar.definition !== 'string' || grammar.definition === '') return '`input.grammar.definition` must be a non-empty string';
  if (grammar.syntax === 'lark') return undefined;
  try {
    parseRegex(grammar.definition, { loneSurrogates: true });
    return undefined;
  } catch (error) {
    if (!(error instanceof RegexUnsupportedError)) throw error;
    return `the regex grammar cannot run in linear time or does not parse: ${error.message}. Use literals, classes, groups, alternation, quantifiers and ^/$ only (no lookaround, backreferences or \\b), or syntax "lark" for OpenAI alone`;
  }
}

/** The text a grammar tool's call carries, when its arguments are the `{ input: string }` object. */
export function grammarInputText(argumentsValue: unknown): string | undefined {
  if (!isPlainObject(argumentsValue)) return undefined;
  const text = argumentsValue[GRAMMAR_INPUT_PROPERTY];
  return typeof text === 'string' ? text : undefined;
}

/**
 * The model-facing text for a grammar tool's text outside its regex: the grammar itself, not the object form's schema,
 * since a model that wrote free text (an OpenAI custom tool call) never saw that schema. `undefined` for any other
 * problem (no `input` string, an extra property), which the generic invalid-arguments text explains.
 */
export function grammarMismatchMessage(toolName: string, grammar: ToolGrammar, issues: readonly ValidationIssue[]): string | undefined {
  const [issue] = issues;
  if (issues.length !== 1 || issue?.code !== 'pattern_mismatch' || issue.path.length !== 1 || issue.path[0] !== GRAMMAR_INPUT_PROPERTY) return undefined;
  return `The input for tool "${toolName}" is outside its grammar: the whole text must match the regular expression /${grammar.definition}/ (got ${describeValue(issue.received)}). Call "${toolName}" again with text that matches it.`;
}
