/**
 * A plan, as a privileged planner fixes it before any tool runs (CaMeL,
 * Debenedetti et al., arXiv:2503.18813; the dual-LLM pattern): the calls to
 * make, in order, each argument either pinned by the planner or a typed hole
 * that a quarantined extractor fills from the outputs of named earlier calls;
 * and the final answer, a template over holes. The planner never sees a tool
 * output, so nothing it pins can carry injected text; the extractor sees
 * outputs but can only return a value under the hole's JSON Schema, so it can
 * neither add a call nor change a pinned argument.
 *
 * Holes sit at the top level of a call's arguments (`{ "to": { "$hole":
 * "recipient" } }`), so the arguments untrusted data can reach are exactly the
 * holes' names, which the policy's flow rule is told.
 * @module
 */
import { InvalidArgumentError } from '../../shared/errors.js';
import { isPlainObject } from '../../shared/own.js';
import type { JsonSchemaObject } from '../../tools/types.js';

/** A typed hole: a value the extractor fills from earlier outputs. */
export interface PlanHole {
  /** The hole's name, referenced as `{ "$hole": name }` in arguments and `{{name}}` in the answer. */
  name: string;
  /** What to extract, for the extractor (e.g. "Bob's e-mail address"). */
  description: string;
  /** The JSON Schema the value must satisfy. */
  schema: JsonSchemaObject;
  /** The indices of the earlier calls whose outputs the extractor reads. */
  from: number[];
}

/** One planned call: a tool and its arguments, each pinned or `{ "$hole": name }`. */
export interface PlannedCall {
  tool: string;
  arguments: Record<string, unknown>;
}

export interface ExecutionPlan {
  calls: PlannedCall[];
  holes: PlanHole[];
  /** The final answer; `{{name}}` is replaced by the hole's value (filled after the last call when no call used it). */
  answer: string;
}

/** The schema a model planner answers under (structured output on hosted models, the token mask on local ones). */
export const PLAN_SCHEMA: JsonSchemaObject = Object.freeze({
  type: 'object',
  properties: {
    calls: {
      type: 'array',
      items: {
        type: 'object',
        properties: { tool: { type: 'string' }, arguments: { type: 'object' } },
        required: ['tool', 'arguments'],
      },
    },
    holes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', pattern: '^[A-Za-z0-9_]{1,64}$' },
          description: { type: 'string' },
          schema: { type: 'object' },
          from: { type: 'array', items: { type: 'integer', minimum: 0 } },
        },
        required: ['name', 'description', 'schema', 'from'],
      },
    },
    answer: { type: 'string' },
  },
  required: ['calls', 'holes', 'answer'],
}) as JsonSchemaObject;

/** The hole a value stands for, or `undefined` when it is a pinned value. */
export function holeName(value: unknown): string | undefined {
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === '$hole' && typeof value.$hole === 'string' ? value.$hole : undefined;
}

/**
 * Checks a plan against the tools offered: every tool exists, every hole used is declared once, reads only calls before its first use,
 * and holes appear only at the top level of arguments. Throws `InvalidArgumentError` naming the first problem.
 */
export function checkPlan(plan: ExecutionPlan, toolNames: readonly string[]): ExecutionPlan {
  const fail = (problem: string) => {
    throw new InvalidArgumentError(`The plan is not usable: ${problem}. Plan again with only the listed tools and declared holes.`);
  };
  if (!isPlainObject(plan) || !Array.isArray(plan.calls) || !Array.isArray(plan.holes) || typeof plan.answer !== 'string')
    fail('it lacks calls, holes or answer');
  const holes = new Map<string, PlanHole>();
  for (const hole of plan.holes) {
    if (!isPlainObject(hole) || typeof hole.name !== 'string' || !isPlainObject(hole.schema) || !Array.isArray(hole.from)) fail('a hole is malformed');
    if (holes.has(hole.name)) fail(`the hole "${hole.name}" is declared twice`);
    holes.set(hole.name, hole);
  }
  for (const [index, call] of plan.calls.entries()) {
    if (!isPlainObject(call) || typeof call.tool !== 'string' || !isPlainObject(call.arguments)) fail(`call ${index} is malformed`);
    if (!toolNames.includes(call.tool)) fail(`call ${index} names the unknown tool "${call.tool}"`);
    for (const [argument, value] of Object.entries(call.arguments)) {
      const name = holeName(value);
      if (name === undefined) {
        if (JSON.stringify(value)?.includes('"$hole"')) fail(`call ${index} puts a hole inside ${argument}; holes stand for whole arguments`);
        continue;
      }
      const hole = holes.get(name);
      if (!hole) fail(`call ${index} uses the undeclared hole "${name}"`);
      if (hole!.from.some((source) => !Number.isInteger(source) || source < 0 || source >= index))
        fail(`the hole "${name}" reads a call that has not run before call ${index}`);
    }
  }
  return plan;
}
