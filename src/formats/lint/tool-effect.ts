/**
 * What the linter takes a tool to do to the world, and whether its name or
 * description names one of the actions the seed says a person must approve:
 * moving money, deleting, sending, publishing.
 * @module
 */
import type { AnyTool } from '../../tools/index.js';
import type { LintContext } from './lint-rule.js';
import { snakeName } from './walk-schema.js';

/** An action that is hard or impossible to undo, so a person approves it first. */
export type ConsequentialAction = 'moves money' | 'deletes' | 'sends' | 'publishes';

/** Words of a tool name (snake_case, camelCase or kebab-case) that name such an action. */
const NAME_WORDS: Readonly<Record<string, ConsequentialAction>> = {
  pay: 'moves money',
  payout: 'moves money',
  charge: 'moves money',
  refund: 'moves money',
  transfer: 'moves money',
  withdraw: 'moves money',
  purchase: 'moves money',
  buy: 'moves money',
  sell: 'moves money',
  delete: 'deletes',
  remove: 'deletes',
  destroy: 'deletes',
  drop: 'deletes',
  purge: 'deletes',
  erase: 'deletes',
  wipe: 'deletes',
  truncate: 'deletes',
  send: 'sends',
  sms: 'sends',
  reply: 'sends',
  notify: 'sends',
  dm: 'sends',
  publish: 'publishes',
  post: 'publishes',
  tweet: 'publishes',
  broadcast: 'publishes',
  announce: 'publishes',
  release: 'publishes',
};

/**
 * Verb forms in a description. Only verbs, never the nouns that share a spelling with them ("List charges",
 * "the posts of a user"), and only with an object that makes the action unambiguous where the bare word is
 * often a noun.
 */
const DESCRIPTION_VERBS: readonly { pattern: RegExp; action: ConsequentialAction }[] = [
  {
    pattern:
      /\b(?:moves? money|transfers? (?:money|funds)|charges? (?:the|a|their) (?:card|customer|account)|(?:issues?|creates?) an? refund|pays? (?:an?|the) |withdraws? )/i,
    action: 'moves money',
  },
  { pattern: /\b(?:deletes?|permanently removes?|destroys?|erases?|purges?|wipes?)\b/i, action: 'deletes' },
  { pattern: /\b(?:sends?|e-?mails? (?:the|a|an)|replies to|texts? (?:the|a))\b/i, action: 'sends' },
  { pattern: /\b(?:publish(?:es)?|broadcasts?|posts? (?:a|an|the) (?:message|comment|tweet|update|reply|review))\b/i, action: 'publishes' },
];

/** The consequential action a tool's name or description names, with the word that says so; `undefined` when it names none. */
export function consequentialAction(tool: Pick<AnyTool, 'name' | 'description'>): { action: ConsequentialAction; evidence: string } | undefined {
  for (const word of snakeName(tool.name).split('_')) {
    const action = Object.hasOwn(NAME_WORDS, word) ? NAME_WORDS[word] : undefined;
    if (action !== undefined) return { action, evidence: `its name says "${word}"` };
  }
  for (const { pattern, action } of DESCRIPTION_VERBS) {
    const match = pattern.exec(tool.description);
    if (match) return { action, evidence: `its description says "${match[0].trim()}"` };
  }
  return undefined;
}

/**
 * The effect the linter assumes. A local tool's or an annotated imported tool's is its declared `effect`.
 * An imported tool without `readOnlyHint`/`destructiveHint` has `effect: 'write'` only as the runtime's safe
 * default, so the linter neither trusts nor assumes it: it is `unannotated`, taken as a write by rules about
 * consequential actions only when its name or description names one, and never by write-only advice.
 */
export function lintEffect(tool: AnyTool, context: LintContext): 'read' | 'write' | 'unannotated' {
  if (context.isImported(tool) && tool.origin.kind === 'mcp' && !tool.origin.effectAnnotated) return 'unannotated';
  return tool.effect;
}
