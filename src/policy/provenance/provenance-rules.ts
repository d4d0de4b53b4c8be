/**
 * Argument rules on provenance, not only on values: where the URLs,
 * addresses, IBANs, amounts, phone numbers, paths and secrets inside an argument came
 * from (`valuesFrom`), and where a whole argument came from (`argumentFrom`).
 * Both vouch for their argument's provenance, so the information-flow rule
 * lets an untrusted-influenced write through when every argument is vouched
 * for (docs/policy.md, "Provenance").
 *
 * They are written against kinds of value, not a domain: "`body` may contain
 * URLs, addresses, IBANs or amounts only if they came from the user or a
 * trusted tool" is the same rule for mail, chat, tickets or payments.
 * @module
 */
import { InvalidArgumentError } from '../../shared/errors.js';
import { mapArgumentValues, readArgumentValues } from '../argument-values.js';
import type { ArgumentRule, ArgumentRuleInput } from '../argument-rule.js';
import type { ProvenanceRuleAction, RemovedValue, RuleAction } from '../types.js';
import { sourcedValues, type PieceSources, type ProvenanceOrigin, type ProvenanceSource, type ProvenanceView } from './provenance-index.js';
import { DEFAULT_PROVENANCE_KINDS, VALUE_KINDS, describeDetected, detectValues, redactSecrets, type DetectedValue, type ValueKind } from './value-detectors.js';

/** A source a rule accepts: an origin, or one tool's results (`tool:search_contacts`), whatever their trust label. */
export type ProvenanceFrom = ProvenanceOrigin | `tool:${string}`;

/** Options of `argumentFrom` (and the base of `valuesFrom`'s). */
export interface ArgumentFromOptions {
  /** Stable id; defaults to `<kind>:<tool>.<argument>`. */
  id?: string;
  /** The tool (or tools) it applies to. */
  tool: string | readonly string[];
  /** The argument, as a dotted path; arrays on the way apply the rule to each element. */
  argument: string;
  /** The sources accepted, e.g. `['user', 'trusted']` or `['user', 'tool:search_contacts']`. */
  from: readonly ProvenanceFrom[];
  /** How the accepted sources are named to the model. Default: built from `from` ("the user's request or a trusted tool"). */
  label?: string;
  /** What happens to a call that breaks it. Default: `block`. */
  action?: RuleAction;
}

/**
 * What `valuesFrom` says to the flow rule about an argument's text beyond the values it attributed (the prose, and any value of a
 * shape no detector knows):
 * - `'vouched'`: nothing; the rule vouches for the whole argument once its values pass.
 * - `'unless-unknown-value'`: the rule does not vouch for an argument holding a value-like token the detectors did not read (a
 *   word with `.`, `/`, `@` or `:` inside, or four digits: `evil-login.app`, `INV-2291`) that a source it does not accept holds
 *   and none it does: the values no detector knows, copied from untrusted output.
 * - `'unless-copied'`: the rule does not vouch for an argument that repeats `PHRASE_WORDS` words in a row from a source it does
 *   not accept, found in none it does: in a tainted run the flow rule then judges it as untrusted text.
 * - `'unvouched'`: the rule never vouches for text beyond the values (a string holding anything but accepted values and
 *   punctuation): in a tainted run the flow rule judges every such argument as untrusted text.
 */
export type FreeTextJudgement = 'vouched' | 'unless-unknown-value' | 'unless-copied' | 'unvouched';

/** The default of `valuesFrom({ freeText })` (docs/policy.md gives the clean-case cost of each choice on the built-in suites). */
export const DEFAULT_FREE_TEXT_JUDGEMENT: FreeTextJudgement = 'unless-unknown-value';

export interface ValuesFromOptions extends Omit<ArgumentFromOptions, 'action'> {
  /** The kinds of value checked. Default: URLs, e-mail addresses, IBANs, amounts, one-time codes, phone numbers, paths and secrets (not dates). */
  kinds?: readonly ValueKind[];
  /**
   * What happens to a call that breaks it. Default: `block`. `remove`: each offending value is replaced in its string by a
   * marker such as `[link removed by policy]` and the call goes on (the model is told what was removed); where that would
   * change the call's meaning rather than its text (the value is the whole argument, or a number) the call is blocked.
   */
  action?: ProvenanceRuleAction;
  /** What the rule says to the flow rule about text beyond the values it attributed (`FreeTextJudgement`). Default: `DEFAULT_FREE_TEXT_JUDGEMENT`. */
  freeText?: FreeTextJudgement;
}

const FREE_TEXT_JUDGEMENTS: readonly FreeTextJudgement[] = ['vouched', 'unless-unknown-value', 'unless-copied', 'unvouched'];

const EMPTY_VIEW: ProvenanceView = Object.freeze({ sourcesOfValue: () => [], sourcesOfText: () => [], sourcesOfNumber: () => [] });

const KIND_NAMES: Readonly<Record<ValueKind, string>> = {
  url: 'URL',
  email: 'e-mail address',
  iban: 'IBAN',
  amount: 'amount',
  code: 'one-time code (verification, reset or confirmation code, or PIN)',
  phone: 'phone number',
  path: 'path',
  datetime: 'date or time',
  secret: 'secret (API key, token or private key)',
};

const KIND_PLURALS: Readonly<Record<ValueKind, string>> = {
  url: 'URLs',
  email: 'e-mail addresses',
  iban: 'IBANs',
  amount: 'amounts',
  code: 'one-time codes',
  phone: 'phone numbers',
  path: 'paths',
  datetime: 'dates or times',
  secret: 'secrets',
};

/**
 * Every value of `kinds` inside `argument` (in its strings; a number counts as an amount) must have been found in a source `from` accepts.
 * A value found nowhere (made up, computed, or paraphrased into shape) is not accepted. A secret is named in the reason only
 * redacted (its first four characters and its length).
 */
export function valuesFrom(options: ValuesFromOptions): ArgumentRule {
  const tools = toolList(options.tool);
  const from = checkFrom(options.from, 'valuesFrom');
  const kinds = [...(options.kinds ?? DEFAULT_PROVENANCE_KINDS)];
  if (kinds.length === 0 || kinds.some((kind) => !VALUE_KINDS.includes(kind)))
    throw new InvalidArgumentError(`valuesFrom for ${options.argument}: kinds must be a non-empty list of ${VALUE_KINDS.join(', ')}.`);
  const freeText = options.freeText ?? DEFAULT_FREE_TEXT_JUDGEMENT;
  if (!FREE_TEXT_JUDGEMENTS.includes(freeText))
    throw new InvalidArgumentError(
      `valuesFrom for ${options.argument}: freeText must be ${listWords(
        FREE_TEXT_JUDGEMENTS.map((item) => `"${item}"`),
        'or',
      )}.`,
    );
  const label = options.label ?? fromLabel(from);
  const kindList = listWords(kinds.map((kind) => KIND_PLURALS[kind]));
  const offending = (text: string, view: ProvenanceView): { value: DetectedValue; sources: readonly ProvenanceSource[] }[] =>
    sourcedValues(view, text, kinds).filter((item) => !accepted(item.sources, from));
  return provenanceRule({
    id: options.id ?? `values-from:${tools.join('|')}.${options.argument}`,
    tools,
    description: `${tools.join(', ')}: ${options.argument} may contain ${kindList} only from ${label}.`,
    action: options.action ?? 'block',
    vouches: [options.argument],
    withheldVouches(args, call) {
      if (freeText === 'vouched') return [];
      const view = call?.provenance ?? EMPTY_VIEW;
      const strings = readArgumentValues(args, options.argument).flatMap((found) => (typeof found.value === 'string' ? [found.value] : []));
      const copiedOnly = (pieces: readonly PieceSources[] | undefined) => (pieces ?? []).some((item) => !accepted(item.sources, from));
      const withheld = strings.some((text) =>
        freeText === 'unvouched'
          ? /[\p{L}\p{N}]/u.test(withoutValues(text, detectValues(text, kinds), ''))
          : freeText === 'unless-copied'
            ? copiedOnly(view.sourcesOfPhrases?.(text))
            : // Every value a detector reads is left to the rule's check (or, for a kind it does not check, is no unknown value).
              copiedOnly(view.sourcesOfTokens?.(withoutValues(text, detectValues(text), ' '))),
      );
      return withheld ? [options.argument] : [];
    },
    check(args, call) {
      const view = call?.provenance ?? EMPTY_VIEW;
      for (const found of readArgumentValues(args, options.argument)) {
        if (typeof found.value === 'number' && kinds.includes('amount')) {
          const sources = view.sourcesOfNumber(found.value);
          if (!accepted(sources, from)) return violation(found.path, 'amount', String(found.value), sources, label);
        }
        if (typeof found.value !== 'string') continue;
        const first = offending(found.value, view)[0];
        if (first) return violation(found.path, first.value.kind, describeDetected(first.value), first.sources, label);
      }
      return undefined;
    },
    remove(args, call) {
      const view = call?.provenance ?? EMPTY_VIEW;
      const removed: Omit<RemovedValue, 'ruleId'>[] = [];
      let refused = false;
      const rewritten = mapArgumentValues(args, options.argument, (value, path) => {
        if (typeof value === 'number' && kinds.includes('amount') && !accepted(view.sourcesOfNumber(value), from)) refused = true;
        if (typeof value !== 'string' || refused) return value;
        const found = offending(value, view);
        if (found.length === 0) return value;
        // The values are the whole argument (nothing but spaces and punctuation around them): taking them out leaves no call the
        // model meant, so the rule blocks instead.
        const values = found.map((item) => item.value);
        if (!/[\p{L}\p{N}]/u.test(withoutValues(value, values, ''))) {
          refused = true;
          return value;
        }
        for (const item of found) removed.push({ argumentPath: path, kind: item.value.kind, message: removalPhrase(item.value, item.sources) });
        return withoutValues(value, values);
      });
      return refused || removed.length === 0 ? undefined : { arguments: rewritten, removed };
    },
  });
}

/** The marker left where a value was taken out: it holds no value any detector finds, so the rewritten text passes the rule. */
export function removalMarker(kind: ValueKind): string {
  return `[${MARKER_NAMES[kind]} removed by policy]`;
}

const MARKER_NAMES: Readonly<Record<ValueKind, string>> = {
  url: 'link',
  email: 'e-mail address',
  iban: 'IBAN',
  amount: 'amount',
  phone: 'phone number',
  path: 'path',
  datetime: 'date',
  secret: 'secret',
  code: 'code',
};

/** `text` with each value's span replaced by its marker, or by `marker` (spans from one scan never overlap; the detectors mask what they claim). */
function withoutValues(text: string, values: readonly DetectedValue[], marker?: string): string {
  const ordered = [...values].sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let at = 0;
  for (const value of ordered) {
    if (value.start < at) continue;
    parts.push(text.slice(at, value.start), marker ?? removalMarker(value.kind));
    at = value.start + value.text.length;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

function removalPhrase(value: DetectedValue, sources: readonly ProvenanceSource[]): string {
  const where = sources.length === 0 ? 'appears nowhere else in the conversation' : `came only from ${describeSources(sources)}`;
  return `the ${KIND_NAMES[value.kind]} ${JSON.stringify(shorten(describeDetected(value)))}, which ${where}`;
}

/** Every value at `argument` must itself appear (verbatim, or as the same typed value) in a source `from` accepts. */
export function argumentFrom(options: ArgumentFromOptions): ArgumentRule {
  const tools = toolList(options.tool);
  const from = checkFrom(options.from, 'argumentFrom');
  const label = options.label ?? fromLabel(from);
  return provenanceRule({
    id: options.id ?? `argument-from:${tools.join('|')}.${options.argument}`,
    tools,
    description: `${tools.join(', ')}: ${options.argument} must come from ${label}.`,
    action: options.action ?? 'block',
    vouches: [options.argument],
    check(args, call) {
      const view = call?.provenance ?? EMPTY_VIEW;
      for (const found of readArgumentValues(args, options.argument)) {
        let sources: readonly ProvenanceSource[];
        if (typeof found.value === 'number') sources = view.sourcesOfNumber(found.value);
        else if (typeof found.value === 'string') {
          const whole = found.value.trim();
          const typed = detectValues(whole).filter((value) => value.text === whole);
          sources = [...view.sourcesOfText(whole), ...typed.flatMap((value) => view.sourcesOfValue(value.kind, value.value))];
        } else continue;
        if (!accepted(sources, from)) {
          const shown = JSON.stringify(shorten(redactSecrets(String(found.value))));
          return `${found.path} ${shown} ${sources.length === 0 ? 'appears nowhere in the conversation' : `came only from ${describeSources(sources)}`}, not from ${label}.`;
        }
      }
      return undefined;
    },
  });
}

/** Whether any source is one `from` accepts. */
export function accepted(sources: readonly ProvenanceSource[], from: readonly ProvenanceFrom[]): boolean {
  return sources.some((source) => from.some((item) => (item.startsWith('tool:') ? source.toolName === item.slice(5) : source.origin === item)));
}

function violation(path: string, kind: ValueKind, text: string, sources: readonly ProvenanceSource[], label: string): string {
  const where = sources.length === 0 ? 'appears nowhere in the conversation' : `came only from ${describeSources(sources)}`;
  return `${path} contains the ${KIND_NAMES[kind]} ${JSON.stringify(shorten(text))}, which ${where}; it may hold one only from ${label}.`;
}

/** "untrusted output of list_emails and read_file", "the system prompt". */
export function describeSources(sources: readonly ProvenanceSource[]): string {
  const parts = new Set(
    sources.map((source) =>
      source.origin === 'user'
        ? "the user's request"
        : source.origin === 'system'
          ? 'the system prompt'
          : `${source.origin} output of ${source.toolName ?? 'a tool'}`,
    ),
  );
  return listWords([...parts]);
}

function fromLabel(from: readonly ProvenanceFrom[]): string {
  return listWords(
    from.map((item) =>
      item === 'user'
        ? "the user's request"
        : item === 'system'
          ? 'the system prompt'
          : item === 'trusted'
            ? 'a trusted tool'
            : item === 'untrusted'
              ? 'an untrusted tool'
              : `${item.slice(5)}'s results`,
    ),
    'or',
  );
}

function checkFrom(from: readonly ProvenanceFrom[], name: string): ProvenanceFrom[] {
  const origins: readonly string[] = ['user', 'system', 'trusted', 'untrusted'];
  if (!Array.isArray(from) || from.length === 0 || from.some((item) => typeof item !== 'string' || !(origins.includes(item) || /^tool:.+/.test(item))))
    throw new InvalidArgumentError(`${name}: from must be a non-empty list of "user", "system", "trusted", "untrusted" or "tool:<name>".`);
  return [...from];
}

function toolList(tool: string | readonly string[]): string[] {
  const list = typeof tool === 'string' ? [tool] : [...tool];
  if (list.length === 0 || list.some((name) => typeof name !== 'string' || name === ''))
    throw new InvalidArgumentError('A policy rule needs `tool`: a tool name or a non-empty list of names.');
  return list;
}

function provenanceRule(rule: ArgumentRule & { check(args: unknown, call?: ArgumentRuleInput): string | undefined }): ArgumentRule {
  const actions: readonly string[] = rule.remove ? ['block', 'confirm', 'remove'] : ['block', 'confirm'];
  if (!actions.includes(rule.action))
    throw new InvalidArgumentError(
      `Policy rule ${rule.id}: action must be ${listWords(
        actions.map((action) => `"${action}"`),
        'or',
      )} (got ${JSON.stringify(rule.action)}).`,
    );
  return Object.freeze({ ...rule, provenance: true as const, tools: Object.freeze([...rule.tools]), vouches: Object.freeze([...(rule.vouches ?? [])]) });
}

function listWords(words: readonly string[], joiner = 'and'): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${joiner} ${words[words.length - 1]}`;
}

function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
