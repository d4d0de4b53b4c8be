/**
 * Heuristics over descriptions: is it too vague to guide a model, and does it
 * list a fixed set of values that belongs in an `enum`. Both are deliberately
 * conservative, because every false positive teaches people to ignore the linter.
 * @module
 */
import { snakeName } from './walk-schema.js';

/** Words that say nothing about a value or an action on their own ("Additional details", "What to do"). */
const GENERIC_WORDS = new Set([
  'a',
  'an',
  'the',
  'this',
  'that',
  'some',
  'any',
  'other',
  'additional',
  'extra',
  'more',
  'misc',
  'miscellaneous',
  'various',
  'optional',
  'detail',
  'details',
  'data',
  'info',
  'information',
  'stuff',
  'thing',
  'things',
  'value',
  'values',
  'input',
  'inputs',
  'output',
  'param',
  'params',
  'parameter',
  'parameters',
  'option',
  'options',
  'arg',
  'args',
  'argument',
  'arguments',
  'field',
  'fields',
  'text',
  'string',
  'object',
  'payload',
  'what',
  'to',
  'do',
  'does',
  'done',
  'of',
  'for',
  'and',
  'or',
  'etc',
  'it',
  'is',
  'here',
  'whatever',
  'needed',
  'something',
  'action',
  'stuff',
  'tool',
  'function',
  'call',
  'request',
  'handle',
  'manage',
  'process',
  'perform',
]);

/** Openings that hide which action a tool takes ("Manage a user's subscription"). */
const GENERIC_TOOL_OPENINGS =
  /^(manages?|handles?|does|do|performs?|deals? with|interacts? with|works? with|operates? on|helper|utility|tool for|function for|misc)\b/i;

/** Fewer words than this cannot say both what a tool does and when to call it. */
export const MIN_TOOL_DESCRIPTION_WORDS = 6;

function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** What makes a description vague, and whether more words or a narrower tool is the cure. */
export interface Vagueness {
  reason: string;
  /** `too-short`: say more; `too-generic`: name the one action (and perhaps split the tool). */
  kind: 'too-short' | 'too-generic';
}

/** Why a tool description is too vague, or `undefined` when it is not. */
export function toolDescriptionVagueness(description: string, toolName: string): Vagueness | undefined {
  const text = description.trim();
  const found = words(text);
  if (found.every((word) => GENERIC_WORDS.has(word))) return { reason: 'it is made only of generic words', kind: 'too-generic' };
  const opening = GENERIC_TOOL_OPENINGS.exec(text);
  if (opening) return { reason: `it opens with "${opening[0]}", which hides which action the tool takes`, kind: 'too-generic' };
  if (sameWords(found, words(snakeName(toolName)))) return { reason: 'it only repeats the tool name', kind: 'too-short' };
  if (found.length < MIN_TOOL_DESCRIPTION_WORDS) {
    return { reason: `it has ${found.length} word${found.length === 1 ? '' : 's'}, too few to say what the tool does and when to call it`, kind: 'too-short' };
  }
  return undefined;
}

/** Why a property description is too vague, or `undefined` when it is not. */
export function propertyDescriptionVagueness(description: string, propertyName: string): string | undefined {
  const found = words(description);
  if (found.every((word) => GENERIC_WORDS.has(word))) return 'it is made only of generic words';
  const meaningful = found.filter((word) => !GENERIC_WORDS.has(word));
  if (sameWords(meaningful, words(snakeName(propertyName)))) return 'it only repeats the property name';
  return undefined;
}

function sameWords(left: readonly string[], right: readonly string[]): boolean {
  const strip = (list: readonly string[]) => list.filter((word) => !GENERIC_WORDS.has(word)).join(' ');
  return strip(left) !== '' && strip(left) === strip(right);
}

/** A description that lists allowed values, and the values when they can be read off. */
export interface ListedChoices {
  /** The phrase that gave it away ("one of", "either … or", "a|b"). */
  cue: string;
  /** The values, when the list could be parsed; empty otherwise. */
  choices: string[];
}

const TOKEN = String.raw`["'\x60]?[\w.-]+["'\x60]?`;
const CHOICE_PATTERNS: { cue: string; pattern: RegExp; list: (match: RegExpExecArray) => string | undefined }[] = [
  {
    cue: 'one of',
    pattern: new RegExp(String.raw`\bone of(?: the following)?(?: values)?\s*:?\s*(${TOKEN}(?:\s*(?:,|\bor\b|\/|\|)\s*${TOKEN})+)`, 'i'),
    list: (match) => match[1],
  },
  // Only when the pair ends the clause: "either absolute or relative to the root" and "either http or https URLs" qualify something else.
  {
    cue: 'either … or',
    pattern: new RegExp(String.raw`\beither\s+(${TOKEN}\s+or\s+${TOKEN})(?=\s*(?:$|[.;:)]|,\s*(?:default|defaults)\b))`, 'i'),
    list: (match) => match[1],
  },
  {
    cue: 'must be … or',
    pattern: new RegExp(String.raw`\bmust be\s+(${TOKEN}(?:\s*,\s*${TOKEN})*\s*,?\s+or\s+${TOKEN})(?=\s*(?:$|[.;:)]))`, 'i'),
    list: (match) => match[1],
  },
  {
    cue: 'parenthesized list',
    pattern: new RegExp(String.raw`\((${TOKEN}(?:\s*,\s*${TOKEN})+\s*,?\s+or\s+${TOKEN})\)`, 'i'),
    list: (match) => match[1],
  },
  { cue: 'a|b', pattern: new RegExp(String.raw`(?:^|[\s(:])(${TOKEN}(?:\s*\|\s*${TOKEN})+)(?=$|[\s).,;])`), list: (match) => match[1] },
  {
    cue: 'allowed values',
    pattern: new RegExp(
      String.raw`\b(?:possible|allowed|valid|accepted|supported|available)\s+(?:values|options|choices)\b(?:\s+(?:are|include))?\s*:?\s*(${TOKEN}(?:\s*(?:,|\bor\b|\band\b|\/|\|)\s*${TOKEN})*)?`,
      'i',
    ),
    list: (match) => match[1],
  },
  {
    cue: 'choose from',
    pattern: new RegExp(String.raw`\bchoose (?:from|between)\b\s*:?\s*(${TOKEN}(?:\s*(?:,|\bor\b|\band\b|\/|\|)\s*${TOKEN})*)?`, 'i'),
    list: (match) => match[1],
  },
  {
    cue: 'quoted list',
    pattern: new RegExp(String.raw`((["'\x60])[\w.-]{1,40}\2(?:\s*(?:,|\bor\b|\/)\s*(["'\x60])[\w.-]{1,40}\3)+)`),
    list: (match) => match[1],
  },
];

/** Values after these words are examples, not the full set. */
const EXAMPLE_LEAD = /(?:e\.g\.?|i\.e\.?|eg|for example|for instance|such as|like|say|including)\s*[:,]?\s*\(?$/i;
/** A list that starts with one of these is a list of examples ("(e.g. a, b or c)"). */
const EXAMPLE_WORD = /^(?:e\.g\.?|eg|i\.e\.?|etc\.?)$/i;
/** "Provide either text or regex, not both": two parameters that exclude each other, not two values of one. */
const NOT_BOTH = /^[\s,;]*(?:but\s+)?not both\b/i;
/** Cues that say outright that the list is the whole set, so no example lead can undo them. */
const EXPLICIT_CUES = new Set(['one of', 'allowed values', 'choose from']);

/** Whether the description enumerates values a free-text field would otherwise have to guess. */
export function findListedChoices(description: string): ListedChoices | undefined {
  for (const { cue, pattern, list } of CHOICE_PATTERNS) {
    const match = pattern.exec(description);
    if (!match) continue;
    const raw = list(match);
    const choices = raw === undefined ? [] : splitChoices(raw);
    const before = description.slice(Math.max(0, match.index - 24), match.index + (match[0].length - match[0].trimStart().length));
    if (!EXPLICIT_CUES.has(cue) && (EXAMPLE_LEAD.test(before) || (choices[0] !== undefined && EXAMPLE_WORD.test(choices[0])))) continue;
    if (NOT_BOTH.test(description.slice(match.index + match[0].length))) continue;
    if (cue === 'quoted list' && choices.length < 2) continue;
    return { cue, choices };
  }
  return undefined;
}

function splitChoices(list: string): string[] {
  const choices = list
    .split(/\s*(?:,|\bor\b|\band\b|\/|\|)\s*/i)
    .map((choice) =>
      choice
        .trim()
        .replace(/^["'`]|["'`]$/g, '')
        .replace(/\.$/, ''),
    )
    .filter((choice) => /^[\w.-]+$/.test(choice));
  return [...new Set(choices)].slice(0, 30);
}

/**
 * Phrases that tie a tool to a situation: a condition ("when", "if", "unless", "only", "before", "after"),
 * a contrast with other tools ("instead of", "rather than", "do not", "never"), or a direct instruction to
 * the model ("call it", "use this for"). A description with none of them says what the tool does but not
 * when to reach for it. Deliberately loose: it warns only about descriptions that give the model no cue at all.
 */
const WHEN_TO_CALL =
  /\b(?:when|whenever|if|unless|only|before|after|once|instead|rather than|do not|don't|never|avoid|prefer|call (?:it|this|me)|use (?:it|this|me)\b|use (?:this )?(?:tool|function) (?:to|for|when)|for (?:questions|requests) about|in case)\b/i;

/** Whether a tool description says when to call the tool, or when not to. */
export function saysWhenToCall(description: string): boolean {
  return WHEN_TO_CALL.test(description);
}
