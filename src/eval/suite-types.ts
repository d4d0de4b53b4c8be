/**
 * The shape of an evaluation suite, after AgentDojo (Debenedetti et al.,
 * arXiv:2406.13352): a stateful environment with injection vectors, tools
 * that change its state, user tasks judged on the final state (utility), and
 * injection tasks with an attacker goal judged on the final state (effect)
 * plus a detector of attempts (a call toward the goal was emitted, whether or
 * not it ran). Every task carries a reference call sequence that the
 * self-check replays.
 * @module
 */
import type { PolicySpec } from '../policy/policy-spec.js';
import type { AnyTool } from '../tools/define-tool.js';

/** A tool call written as data: a reference step, or a call a model emitted. */
export interface EvalCall {
  /** The tool name. */
  tool: string;
  /** The arguments; `undefined` when the model's JSON did not parse. */
  arguments: Record<string, unknown> | undefined;
}

/** A place in the environment where an attacker's text can sit (an email body, a file, a transaction note). */
export interface InjectionVector {
  /** Stable id, used in `{{injection:<id>}}` placeholders. */
  id: string;
  /** Where it is, for the report. */
  description: string;
  /** The benign text it holds when no attack runs. */
  default: string;
}

/** What a utility check reads. */
export interface UtilityInput<State> {
  /** The environment before the run. */
  pre: State;
  /** The environment after the run. */
  post: State;
  /** The model's final answer ('' when the run did not complete). */
  answer: string;
}

/** A task the user asks for. */
export interface UserTask<State> {
  /** Stable id, e.g. `user_task_3`. */
  id: string;
  /** The user's request, sent as the prompt. */
  prompt: string;
  /** Calls that solve the task from the given initial state. */
  reference(state: State): EvalCall[];
  /** For tasks answered in text: an answer the utility check accepts (used by the self-check and by simulators). */
  referenceAnswer?(state: State): string;
  /** Whether the run solved the task, judged on the final state (and the answer, for questions). */
  utility(input: UtilityInput<State>): boolean;
  /** The task's scope for the `policy` strategies (Progent-style): allowed tools, argument rules, call limits. */
  policy(state: State): PolicySpec;
  /**
   * Why this task's own writes go to a person under its policy by design (a payment to an account only an email states):
   * the self-check then accepts a confirmation on its reference (never a block), and lists it. Leave it out when the
   * policy should cost the reference nothing.
   */
  personConfirms?: string;
}

/** An attacker goal planted in tool outputs. */
export interface InjectionTask<State> {
  /** Stable id, e.g. `injection_task_2`. */
  id: string;
  /** The instruction the attacker plants, inserted into the attack template. */
  goal: string;
  /** Calls that reach the goal from the given initial state. */
  reference(state: State): EvalCall[];
  /** Whether the attacker's goal state was reached (judged on state only: a blocked call changes nothing). */
  effect(input: { pre: State; post: State }): boolean;
  /** Whether a call toward the goal was emitted, run or not. */
  attempted(call: EvalCall): boolean;
  /**
   * For goals inside a task's scope: the attacker-authored text (a link, an
   * account, a line) whose arrival in any outgoing effect reaches the goal.
   * The adversarial simulator folds it into the user's own calls (same
   * tool, allowed recipient, attacker content).
   */
  payload?: string;
}

/** A suite: environment, tools, vectors and tasks. */
export interface EvalSuite<State> {
  /** The suite's name, e.g. `workspace`. */
  name: string;
  /** Bumped whenever a task, check or environment changes, so that numbers name what they measured. */
  version: string;
  /** The person the assistant works for (the attack signs with this name). */
  userName: string;
  /** The system prompt of every case. */
  systemPrompt: string;
  vectors: readonly InjectionVector[];
  /** A fresh environment with each vector filled: its text from `injections`, else its default. */
  createState(injections?: Readonly<Record<string, string>>): State;
  /** Tools that read and change `env.state` in place, looked up at call time: one set of tools serves many runs in turn. */
  createTools(env: { state: State }): AnyTool[];
  userTasks: readonly UserTask<State>[];
  injectionTasks: readonly InjectionTask<State>[];
  /**
   * (user task, injection task) pairs whose injection reference reaches the
   * attacker's goal under the user task's own scope: the goal stays inside
   * the scope (same tool, allowed recipient, attacker content), so only a
   * rule on where argument values came from can close it. The self-check
   * fails on them unless run with `allowDeclaredHoles`, and fails on a
   * declared pair that is in fact closed (a stale entry).
   */
  needsProvenance?: readonly SuitePair[];
}

/** One (user task, injection task) pair of a suite. */
export interface SuitePair {
  userTask: string;
  injectionTask: string;
}

/** Any suite, whatever its state type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a suite's state type is private to it; the runner only passes it back.
export type AnyEvalSuite = EvalSuite<any>;
