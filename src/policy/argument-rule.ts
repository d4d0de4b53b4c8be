/**
 * Constraints on a call's arguments, on top of the tool's own schema: the
 * values a task allows (recipients from its contacts), numeric limits
 * (amounts under a cap), folders (paths under a root), a JSON Schema
 * condition as in Progent, or a function. Each rule has a stable id, names
 * the tools it covers, and returns a one-sentence violation the model reads.
 * @module
 */
import { posix } from 'node:path';
import { InvalidArgumentError } from '../shared/errors.js';
import { compileSchema } from '../tools/schema-validator.js';
import type { JsonSchemaObject } from '../tools/types.js';
import { formatIssuePath } from '../tools/validation-issues.js';
import { readArgumentValues } from './argument-values.js';
import type { ProvenanceView } from './provenance/provenance-index.js';
import type { ProvenanceRuleAction, RemovedValue, RuleAction } from './types.js';

/** A constraint on the arguments of some tools. */
export interface ArgumentRule {
  /** Stable id, recorded with every block. */
  readonly id: string;
  /** The tools it applies to. */
  readonly tools: readonly string[];
  /** What the rule allows, in one sentence (for reports and docs). */
  readonly description: string;
  /** What happens to a call that breaks it. Default: `block`. `remove` only on rules that can take values out (`remove` below). */
  readonly action: ProvenanceRuleAction;
  /**
   * Returns what is wrong with the arguments, as one sentence for the model, or `undefined` when they comply. `call.context`
   * is the run's context (`runAgent({ context })`); the session always passes it.
   */
  check(args: unknown, call?: ArgumentRuleInput): string | undefined;
  /**
   * For `action: 'remove'`: a copy of the arguments with the values that break the rule taken out, and what was taken; or
   * `undefined` when taking them out would not leave the call the model meant (a whole argument, a number), and the call is
   * blocked instead. The session checks the copy against every rule again.
   */
  remove?(args: unknown, call?: ArgumentRuleInput): { arguments: unknown; removed: Omit<RemovedValue, 'ruleId'>[] } | undefined;
  /**
   * The arguments (dotted paths) whose provenance the rule vouches for: once it passes, where their values came from no longer matters to the
   * information-flow rule. `allowValues` and the provenance rules vouch for their argument; the others only with `vouch: true`.
   */
  readonly vouches?: readonly string[];
  /**
   * Of `vouches`, the paths the rule does not vouch for in this call although it passed: `valuesFrom` with `freeText` other than
   * `'vouched'` withholds an argument whose text goes beyond the values it attributed. Default: none.
   */
  withheldVouches?(args: unknown, call?: ArgumentRuleInput): readonly string[];
  /**
   * The only values the rule accepts at one argument (`allowValues` with its values revealed), so that a caller producing that
   * argument (plan-then-execute's extractor) can be asked under a schema that admits nothing else.
   */
  readonly allowed?: { readonly argument: string; readonly values: readonly (string | number | boolean)[] };
  /**
   * Set on rules about where a value came from (`valuesFrom`, `argumentFrom`), as against what it is: the eval strips them to
   * tell which goals a task's scope alone lets through.
   */
  readonly provenance?: true;
}

/** What a rule's `check` gets beside the arguments. */
export interface ArgumentRuleInput {
  /** The run's context (`runAgent({ context })`), as it is; `undefined` when the run has none. */
  readonly context: unknown;
  /** Where the run's texts and values came from (the policy session passes it; provenance rules read it). */
  readonly provenance?: ProvenanceView;
}

interface RuleBase {
  /** Stable id; defaults to `<kind>:<tool>.<argument>`. */
  id?: string;
  /** The tool (or tools) it applies to. */
  tool: string | readonly string[];
  /** What happens to a call that breaks it. Default: `block`. */
  action?: RuleAction;
  /**
   * Vouch for the argument's provenance: once the rule passes, the information-flow rule no longer asks where the value came from. Default:
   * `true` for `allowValues` (the value is one the task lists), `false` for the others (a bound or a folder does not say who chose the value).
   */
  vouch?: boolean;
}

interface ArgumentRuleBase extends RuleBase {
  /** The argument, as a dotted path; arrays on the way apply the rule to each element. */
  argument: string;
}

export interface AllowValuesOptions extends ArgumentRuleBase {
  /** The values allowed at `argument`. */
  values: readonly (string | number | boolean)[];
  /** How the values are named to the model, e.g. "the task's contacts". Default: "the allowed values". */
  label?: string;
  /** Compare strings exactly. Default: false (case-insensitive, trimmed), which suits emails and IBANs. */
  caseSensitive?: boolean;
  /** List the allowed values in the message, so the model can correct itself. Default: true. */
  revealValues?: boolean;
}

/** Every value at `argument` must be one of `values`. */
export function allowValues(options: AllowValuesOptions): ArgumentRule {
  const tools = toolList(options.tool);
  const normalize = (value: unknown) => (typeof value === 'string' && !options.caseSensitive ? value.trim().toLowerCase() : value);
  const allowed = new Set(options.values.map(normalize));
  const label = options.label ?? 'the allowed values';
  const shown = options.values.length === 0 ? '(none)' : options.values.map((value) => JSON.stringify(value)).join(', ');
  return freezeRule({
    id: options.id ?? `allowed-values:${tools.join('|')}.${options.argument}`,
    tools,
    description: `${tools.join(', ')}: ${options.argument} must be one of ${label}${options.revealValues === false ? '' : ` (${shown})`}.`,
    action: options.action ?? 'block',
    vouches: options.vouch === false ? [] : [options.argument],
    ...(options.revealValues === false ? {} : { allowed: { argument: options.argument, values: Object.freeze([...options.values]) } }),
    check(args) {
      for (const found of readArgumentValues(args, options.argument)) {
        if (!allowed.has(normalize(found.value))) {
          return `${found.path} ${JSON.stringify(found.value)} is not one of ${label}${options.revealValues === false ? '' : ` (${shown})`}.`;
        }
      }
      return undefined;
    },
  });
}

export interface LimitNumberOptions extends ArgumentRuleBase {
  /** Largest allowed value (inclusive). */
  max?: number;
  /** Smallest allowed value (inclusive). */
  min?: number;
  /** A unit for the message, e.g. "EUR". */
  unit?: string;
}

/** Every number at `argument` must lie within `[min, max]`. */
export function limitNumber(options: LimitNumberOptions): ArgumentRule {
  const tools = toolList(options.tool);
  if (options.max === undefined && options.min === undefined)
    throw new InvalidArgumentError(`limitNumber for ${options.argument} needs a max, a min, or both.`);
  const unit = options.unit ? ` ${options.unit}` : '';
  const bounds = [
    options.min !== undefined ? `at least ${options.min}${unit}` : undefined,
    options.max !== undefined ? `at most ${options.max}${unit}` : undefined,
  ]
    .filter(Boolean)
    .join(' and ');
  return freezeRule({
    id: options.id ?? `number-limit:${tools.join('|')}.${options.argument}`,
    tools,
    description: `${tools.join(', ')}: ${options.argument} must be ${bounds}.`,
    action: options.action ?? 'block',
    vouches: options.vouch === true ? [options.argument] : [],
    check(args) {
      for (const found of readArgumentValues(args, options.argument)) {
        if (typeof found.value !== 'number') continue;
        if (options.max !== undefined && found.value > options.max) return `${found.path} ${found.value}${unit} is above the limit of ${options.max}${unit}.`;
        if (options.min !== undefined && found.value < options.min) return `${found.path} ${found.value}${unit} is below the minimum of ${options.min}${unit}.`;
      }
      return undefined;
    },
  });
}

export interface PathUnderOptions extends ArgumentRuleBase {
  /** The folder every path must stay inside (POSIX, e.g. `/shared/reports`). */
  folder: string;
}

/** Every path at `argument` must resolve (after `..` and `.`) to `folder` or something inside it. */
export function pathUnder(options: PathUnderOptions): ArgumentRule {
  const tools = toolList(options.tool);
  const folder = posix.resolve('/', options.folder);
  const prefix = folder.endsWith('/') ? folder : `${folder}/`;
  return freezeRule({
    id: options.id ?? `path-under:${tools.join('|')}.${options.argument}`,
    tools,
    description: `${tools.join(', ')}: ${options.argument} must be inside ${folder}.`,
    action: options.action ?? 'block',
    vouches: options.vouch === true ? [options.argument] : [],
    check(args) {
      for (const found of readArgumentValues(args, options.argument)) {
        if (typeof found.value !== 'string') continue;
        const resolved = posix.resolve('/', found.value);
        if (resolved !== folder && !resolved.startsWith(prefix)) return `${found.path} ${JSON.stringify(found.value)} is outside ${folder}.`;
      }
      return undefined;
    },
  });
}

export interface MatchSchemaOptions extends RuleBase {
  /** Stable id (required: a schema has no natural name). */
  id: string;
  /** A JSON Schema 2020-12 the whole arguments object must satisfy (Progent's condition shape). */
  schema: JsonSchemaObject;
  /** What the schema allows, in one sentence; the model reads it when a call fails it. */
  description: string;
}

/** The arguments must satisfy a JSON Schema, as in Progent's policy language. */
export function matchSchema(options: MatchSchemaOptions): ArgumentRule {
  const tools = toolList(options.tool);
  const validator = compileSchema(options.schema, `policy rule ${options.id}`);
  return freezeRule({
    id: options.id,
    tools,
    description: options.description,
    action: options.action ?? 'block',
    vouches: options.vouch === true ? vouchedProperties(options.schema) : [],
    check(args) {
      const result = validator.validate(args);
      if (result.success) return undefined;
      const first = result.issues[0];
      const detail = first ? ` (${formatIssuePath(first.path)} ${first.message})` : '';
      return `${options.description.replace(/\.$/, '')}${detail}.`;
    },
  });
}

export interface CustomRuleOptions {
  id: string;
  /** The tool (or tools) it applies to. */
  tool: string | readonly string[];
  /** What happens to a call that breaks it. Default: `block`. `remove` needs `remove`. */
  action?: ProvenanceRuleAction;
  description: string;
  /** Returns what is wrong, as one sentence for the model, or `undefined`; `call.context` is the run's context. A throw counts as a violation. */
  check: (args: unknown, call: ArgumentRuleInput) => string | undefined;
  /**
   * With `action: 'remove'`: a copy of the arguments with what breaks the rule taken out, and what was taken (`argumentPath`, `kind`,
   * `message`), or `undefined` to block. The session checks the copy against every rule again; a throw blocks.
   */
  remove?: (args: unknown, call: ArgumentRuleInput) => { arguments: unknown; removed: Omit<RemovedValue, 'ruleId'>[] } | undefined;
  /** The arguments (dotted paths) whose provenance the check vouches for (see `ArgumentRule.vouches`). Default: none. */
  vouches?: readonly string[];
}

/** A rule written as a function. */
export function argumentRule(options: CustomRuleOptions): ArgumentRule {
  return freezeRule({
    id: options.id,
    tools: toolList(options.tool),
    description: options.description,
    action: options.action ?? 'block',
    vouches: [...(options.vouches ?? [])],
    check: (args, call) => options.check(args, call ?? { context: undefined }),
    ...(options.remove ? { remove: (args: unknown, call?: ArgumentRuleInput) => options.remove!(args, call ?? { context: undefined }) } : {}),
  });
}

function toolList(tool: string | readonly string[]): string[] {
  const list = typeof tool === 'string' ? [tool] : [...tool];
  if (list.length === 0 || list.some((name) => typeof name !== 'string' || name === ''))
    throw new InvalidArgumentError('A policy rule needs `tool`: a tool name or a non-empty list of names.');
  return list;
}

function freezeRule(rule: ArgumentRule): ArgumentRule {
  if (rule.action === 'remove' && typeof rule.remove !== 'function')
    throw new InvalidArgumentError(`Policy rule ${rule.id}: action "remove" needs a remove(args, input) function that takes the offending values out.`);
  if (rule.action !== 'block' && rule.action !== 'confirm' && rule.action !== 'remove')
    throw new InvalidArgumentError(`Policy rule ${rule.id}: action must be "block", "confirm" or "remove" (got ${JSON.stringify(rule.action)}).`);
  return Object.freeze({ ...rule, tools: Object.freeze([...rule.tools]), vouches: Object.freeze([...(rule.vouches ?? [])]) });
}

/** The top-level properties a schema names: what a `matchSchema` rule with `vouch: true` vouches for. */
function vouchedProperties(schema: JsonSchemaObject): string[] {
  const properties = (schema as { properties?: unknown }).properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}
