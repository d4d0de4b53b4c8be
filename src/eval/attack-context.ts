/**
 * What an attack knows when it writes its text (re-exported by attacks.ts;
 * apart so that the adaptive attack's types can name it without a cycle).
 * @module
 */
import type { EvalCall } from './suite-types.js';

/** What an attack knows when it writes its text. */
export interface AttackContext {
  /** The injection task's goal. */
  goal: string;
  /** The person the assistant works for. */
  userName: string;
  /** How the attack addresses the model. Default: `the AI assistant`. */
  modelName?: string;
  /** The user's request in the case under attack; absent when the attack is written for no case in particular. */
  userTask?: string;
  /** The tools the agent has. */
  toolNames?: readonly string[];
  /** The injection's reference calls, for attacks that spell the calls out (`tool_knowledge`). */
  injectionCalls?: readonly EvalCall[];
}
