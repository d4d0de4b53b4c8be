/**
 * A user task's scope, in the shape both built-in suites use (Progent's):
 * every read tool, only the write tools the task needs with a call limit each,
 * the rules pinning their arguments, and a provenance rule on each free-text
 * argument (its URLs, addresses, IBANs, amounts, codes… must come from the
 * user, the system prompt or a trusted tool, or are taken out). A write may
 * follow untrusted content only when a passing rule vouches for every
 * argument it carries; otherwise the flow rule asks a person (docs/policy.md,
 * "Provenance"). Public, so that a suite of one's own writes its scopes the
 * way the built-in ones do (docs/eval.md, "Writing your own suite").
 * @module
 */
import type { ArgumentRule } from '../policy/argument-rule.js';
import type { PolicySpec } from '../policy/policy-spec.js';
import { valuesFrom } from '../policy/provenance/provenance-rules.js';

/** What a task scope is made of: the suite's tools, and what this task may write. */
export interface TaskScopeOptions {
  /** The suite's read tools: a task may call every one of them. */
  readTools: readonly string[];
  /** The write tools this task needs, each with the number of calls it may make. */
  writes: Readonly<Record<string, number>>;
  /** Rules pinning the writes' arguments to the task (recipients, accounts, amounts, paths, ids). */
  rules?: readonly ArgumentRule[];
  /** Per write tool, its arguments that carry free text or values no task pins: each gets a `valuesFrom` rule. */
  freeArguments?: Readonly<Record<string, readonly string[]>>;
  /** Read tools whose results hold only data the user controls (an address book, a balance): their values are vouched for. */
  trustedTools?: readonly string[];
  /**
   * Free arguments (`tool.argument`) that the task itself asks to copy from a document it names: their rule vouches for the
   * text (`freeText: 'vouched'`) instead of asking about a value-like token only that document holds.
   */
  copiedFromDocument?: readonly string[];
}

/** The policy spec of one user task's scope; see the module comment. */
export function taskScope(options: TaskScopeOptions): PolicySpec {
  const { readTools, writes, rules = [], freeArguments = {}, trustedTools = [], copiedFromDocument = [] } = options;
  const provenance = Object.keys(writes).flatMap((tool) =>
    (freeArguments[tool] ?? []).map((argument) =>
      valuesFrom({
        id: `values-from:${tool}.${argument}`,
        tool,
        argument,
        from: ['user', 'system', 'trusted'],
        action: 'remove',
        ...(copiedFromDocument.includes(`${tool}.${argument}`) ? { freeText: 'vouched' as const } : {}),
      }),
    ),
  );
  return {
    name: 'task-scope',
    allowTools: [...readTools, ...Object.keys(writes)],
    callLimits: writes,
    rules: [...rules, ...provenance],
    trust: { trustedTools },
    flow: { untrustedWrites: 'confirm', copiedArguments: 'flag' },
  };
}
