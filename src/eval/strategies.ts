/**
 * The four defence strategies the harness crosses with every case:
 * - `none`: no policy, tool results as they are;
 * - `isolation`: untrusted results isolated (delimiters with a per-run
 *   boundary by default) and the convention explained in the system prompt;
 *   every call allowed;
 * - `policy`: the user task's own scope (allowed tools, argument rules, call
 *   limits), no isolation;
 * - `isolation+policy`: both;
 * - `plan-then-execute`: a planner fixes the calls from the request alone,
 *   a quarantined extractor fills typed holes from outputs, and the user
 *   task's scope checks every call (src/eval/plan-then-execute/).
 * @module
 */
import { createPolicy } from '../policy/create-policy.js';
import type { IsolationKind } from '../policy/isolation.js';
import type { Policy } from '../policy/types.js';
import { InvalidArgumentError } from '../shared/errors.js';
import type { UserTask } from './suite-types.js';

export type EvalStrategy = 'none' | 'isolation' | 'policy' | 'isolation+policy' | 'plan-then-execute';

/** Every strategy, in report order; `none` is the baseline the others are compared with. */
export const EVAL_STRATEGIES: readonly EvalStrategy[] = Object.freeze(['none', 'isolation', 'policy', 'isolation+policy', 'plan-then-execute']);

/** Parses a comma-separated list of strategies. */
export function parseStrategies(text: string): EvalStrategy[] {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(EVAL_STRATEGIES as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0)
    throw new InvalidArgumentError(`Unknown strategy ${JSON.stringify(unknown[0] ?? text)}; use a comma-separated list of ${EVAL_STRATEGIES.join(', ')}.`);
  return EVAL_STRATEGIES.filter((strategy) => names.includes(strategy));
}

/** The policy a strategy puts on a case, or `undefined` for `none`. */
export function strategyPolicy<State>(strategy: EvalStrategy, task: UserTask<State>, pre: State, isolation: IsolationKind): Policy | undefined {
  switch (strategy) {
    case 'none':
      return undefined;
    case 'isolation':
      return createPolicy({ name: `isolation:${isolation}`, flow: { untrustedWrites: 'allow', copiedArguments: 'off' }, isolation });
    case 'policy':
      return createPolicy(task.policy(structuredClone(pre)));
    case 'isolation+policy':
      return createPolicy({ ...task.policy(structuredClone(pre)), name: `task-scope+isolation:${isolation}`, isolation });
    case 'plan-then-execute':
      return createPolicy({ ...task.policy(structuredClone(pre)), name: 'task-scope+plan' });
    default:
      throw new InvalidArgumentError(`Unknown strategy ${JSON.stringify(strategy)}.`);
  }
}
