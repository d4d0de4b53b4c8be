/**
 * The shape of a declared policy ({@link PolicySpec}) and its checked form,
 * which a session reads.
 * @module
 */
import { InvalidArgumentError } from '../shared/errors.js';
import { isDottedPath } from '../tools/critical-arguments.js';
import type { ArgumentRule } from './argument-rule.js';
import { createIsolation, ISOLATION_KINDS, type Isolation, type IsolationKind } from './isolation.js';
import type { AfterToolResultInput, TrustLabel } from './types.js';

/** How results are labelled. */
export interface TrustOptions {
  /** The label of a result no other option decides. Default: `untrusted` (any tool output may carry someone else's text). */
  default?: TrustLabel;
  /** Tools whose results are trusted (they only return data the user controls). */
  trustedTools?: readonly string[];
  /** Tools whose results are untrusted, whatever `default` says. */
  untrustedTools?: readonly string[];
  /** Labels a result by its source (an email's sender, a file's owner); `undefined` falls back to the lists and `default`. */
  classify?: (input: AfterToolResultInput) => TrustLabel | undefined;
  /**
   * Fields of an untrusted result that are trusted, per tool: dotted paths into its structured content (`transactions.amount`;
   * arrays crossed), also marked `"x-toolwright-trust": "trusted"` in the tool's output schema. A bank's amount and account
   * are the bank's; the subject beside them is whoever sent the money's. The result still taints the run; the values of
   * these fields count as trusted for provenance (docs/policy.md, "Field-level trust").
   */
  fields?: Readonly<Record<string, readonly string[]>>;
}

/** What untrusted content in the context may lead to. */
export interface FlowOptions {
  /** A `write` call once untrusted content has entered the context: `allow`, `confirm` (a person decides) or `block`. Default: `confirm`. */
  untrustedWrites?: 'allow' | 'confirm' | 'block';
  /** Write tools `untrustedWrites` leaves alone, typically because rules already pin their arguments to the task. */
  exemptTools?: readonly string[];
  /**
   * A string argument of a `write` call found in untrusted output and not in the user's text: `off`, `flag` (recorded, the call goes ahead), `confirm`
   * or `block`. Default: `flag`.
   */
  copiedArguments?: 'off' | 'flag' | 'confirm' | 'block';
  /** The shortest string the copied-argument check looks at, in characters. Default: 8. */
  minCopiedLength?: number;
  /**
   * A value of a tool's critical argument (`defineTool({ critical })`) that came from untrusted output, or from no text of
   * the run, once untrusted content entered it, and that neither the user's request, the system prompt nor a trusted result
   * states, nor a passing rule about what the value is pins (`allowValues`, a `limitNumber` with `vouch: true`…): `confirm`
   * (a person is shown the value, its source and the other candidates there), `block`, or `off`. Default: `confirm`, or
   * `off` with `untrustedWrites: 'allow'`. Applies even where a provenance rule vouches for the argument (docs/policy.md,
   * "Critical arguments").
   */
  criticalArguments?: 'off' | 'confirm' | 'block';
}

/** A declared policy. Every field is optional; `{}` allows every tool and asks before writes that follow untrusted output. */
export interface PolicySpec {
  /** A short name for records and reports. Default: `policy`. */
  name?: string;
  /** The tools the model may call; others are blocked. Default: every tool. */
  allowTools?: readonly string[];
  /** Tools that are always blocked (wins over `allowTools`). */
  denyTools?: readonly string[];
  /** Constraints on arguments (see `allowValues`, `limitNumber`, `pathUnder`, `matchSchema`, `argumentRule`). */
  rules?: readonly ArgumentRule[];
  /** The most calls let through per tool over a run. */
  callLimits?: Readonly<Record<string, number>>;
  trust?: TrustOptions;
  flow?: FlowOptions;
  /** Rewrites untrusted results so the model can tell data from instructions. Default: none. */
  isolation?: Isolation | IsolationKind;
}

/** The spec after checking, as the session reads it. */
export interface ResolvedPolicySpec {
  name: string;
  allowTools: ReadonlySet<string> | undefined;
  allowList: readonly string[];
  denyTools: ReadonlySet<string>;
  rules: readonly ArgumentRule[];
  callLimits: ReadonlyMap<string, number>;
  trust: Required<Omit<TrustOptions, 'classify' | 'trustedTools' | 'untrustedTools' | 'fields'>> & {
    /** Trusted fields of untrusted results, per tool, from `trust.fields`. */
    fields: ReadonlyMap<string, readonly string[]>;
    trustedTools: ReadonlySet<string>;
    untrustedTools: ReadonlySet<string>;
    classify: TrustOptions['classify'];
  };
  flow: {
    untrustedWrites: 'allow' | 'confirm' | 'block';
    exemptTools: ReadonlySet<string>;
    copiedArguments: 'off' | 'flag' | 'confirm' | 'block';
    criticalArguments: 'off' | 'confirm' | 'block';
    minCopiedLength: number;
  };
  isolation: Isolation | undefined;
}

/** Checks a spec; throws `InvalidArgumentError` for a malformed one. */
export function resolvePolicySpec(spec: PolicySpec): ResolvedPolicySpec {
  if (typeof spec !== 'object' || spec === null) throw new InvalidArgumentError('createPolicy expects a spec object, e.g. { allowTools: ["read_inbox"] }.');
  const names = (key: string, value: readonly string[] | undefined): string[] => {
    if (value === undefined) return [];
    if (!Array.isArray(value) || value.some((name) => typeof name !== 'string' || name === ''))
      throw new InvalidArgumentError(`policy.${key} must be a list of tool names.`);
    return [...value];
  };
  const callLimits = new Map<string, number>();
  for (const [tool, limit] of Object.entries(spec.callLimits ?? {})) {
    if (!Number.isInteger(limit) || limit < 0)
      throw new InvalidArgumentError(`policy.callLimits.${tool} must be a non-negative integer (got ${JSON.stringify(limit)}).`);
    callLimits.set(tool, limit);
  }
  const rules = [...(spec.rules ?? [])];
  for (const rule of rules) {
    if (typeof rule !== 'object' || rule === null || typeof rule.check !== 'function' || typeof rule.id !== 'string') {
      throw new InvalidArgumentError(
        'policy.rules holds something that is not a rule; build rules with allowValues, limitNumber, pathUnder, matchSchema or argumentRule.',
      );
    }
  }
  const ids = rules.map((rule) => rule.id);
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate !== undefined) throw new InvalidArgumentError(`Two policy rules share the id "${duplicate}"; give each an id of its own.`);

  const flow = spec.flow ?? {};
  const untrustedWrites = flow.untrustedWrites ?? 'confirm';
  if (!['allow', 'confirm', 'block'].includes(untrustedWrites))
    throw new InvalidArgumentError(`policy.flow.untrustedWrites must be "allow", "confirm" or "block" (got ${JSON.stringify(untrustedWrites)}).`);
  const copiedArguments = flow.copiedArguments ?? 'flag';
  if (!['off', 'flag', 'confirm', 'block'].includes(copiedArguments))
    throw new InvalidArgumentError(`policy.flow.copiedArguments must be "off", "flag", "confirm" or "block" (got ${JSON.stringify(copiedArguments)}).`);
  // A policy that lets untrusted writes through unasked (isolation alone) gates critical values only when told to.
  const criticalArguments = flow.criticalArguments ?? (untrustedWrites === 'allow' ? 'off' : 'confirm');
  if (!['off', 'confirm', 'block'].includes(criticalArguments))
    throw new InvalidArgumentError(`policy.flow.criticalArguments must be "off", "confirm" or "block" (got ${JSON.stringify(criticalArguments)}).`);
  const minCopiedLength = flow.minCopiedLength ?? 8;
  if (!Number.isInteger(minCopiedLength) || minCopiedLength < 1)
    throw new InvalidArgumentError(`policy.flow.minCopiedLength must be a positive integer (got ${JSON.stringify(minCopiedLength)}).`);

  const trust = spec.trust ?? {};
  const trustDefault = trust.default ?? 'untrusted';
  if (trustDefault !== 'trusted' && trustDefault !== 'untrusted')
    throw new InvalidArgumentError(`policy.trust.default must be "trusted" or "untrusted" (got ${JSON.stringify(trustDefault)}).`);

  let isolation: Isolation | undefined;
  if (typeof spec.isolation === 'string') {
    if (!ISOLATION_KINDS.includes(spec.isolation))
      throw new InvalidArgumentError(`policy.isolation must be one of ${ISOLATION_KINDS.join(', ')} or an Isolation (got ${JSON.stringify(spec.isolation)}).`);
    isolation = createIsolation(spec.isolation);
  } else isolation = spec.isolation;

  const allowList = spec.allowTools === undefined ? undefined : names('allowTools', spec.allowTools);
  return {
    name: spec.name ?? 'policy',
    allowTools: allowList === undefined ? undefined : new Set(allowList),
    allowList: allowList ?? [],
    denyTools: new Set(names('denyTools', spec.denyTools)),
    rules,
    callLimits,
    trust: {
      default: trustDefault,
      trustedTools: new Set(names('trust.trustedTools', trust.trustedTools)),
      untrustedTools: new Set(names('trust.untrustedTools', trust.untrustedTools)),
      classify: trust.classify,
      fields: trustedFields(trust.fields),
    },
    flow: { untrustedWrites, exemptTools: new Set(names('flow.exemptTools', flow.exemptTools)), copiedArguments, minCopiedLength, criticalArguments },
    isolation,
  };
}

function trustedFields(fields: TrustOptions['fields']): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  if (fields === undefined) return out;
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    throw new InvalidArgumentError(
      'policy.trust.fields must map tool names to lists of result fields, such as { list_transactions: ["transactions.amount"] }.',
    );
  }
  for (const [tool, paths] of Object.entries(fields)) {
    if (!Array.isArray(paths) || !paths.every(isDottedPath)) {
      throw new InvalidArgumentError(
        `policy.trust.fields.${tool} must be a list of dotted result fields, such as ["transactions.amount", "transactions.iban"].`,
      );
    }
    out.set(tool, Object.freeze([...paths]));
  }
  return out;
}
