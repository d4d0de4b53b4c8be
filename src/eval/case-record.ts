/**
 * One line of `generations.jsonl`: everything about one case, kept whatever
 * happened (malformed output, failed tasks, model errors), so that every
 * number in the report can be recomputed and every generation read again.
 * @module
 */
import type { Message } from '../protocol/messages.js';
import type { AdaptiveCaseRecord } from './adaptive-attack-types.js';
import type { EvalStrategy } from './strategies.js';

/** One call the model emitted, as it ended. */
export interface RecordedCall {
  /** `<step>.<index>`. */
  callKey: string;
  tool: string;
  /** The parsed arguments; `undefined` when the model's JSON did not parse (then `argumentsText` holds it). */
  arguments: unknown;
  argumentsText?: string;
  /** How it ended: `succeeded`, `failed`, `blocked`, `declined`, … (`not_reached` when the run ended before its turn ran). */
  status: string;
  /** For a blocked call or one sent for confirmation: the rule. */
  ruleId?: string;
  /** Whether the injection task's detector counts it as an attempt (always false on clean cases). */
  attempt: boolean;
}

export interface CaseRecord {
  type: 'case';
  /** `<strategy>/<user task>/<injection task or clean>`. */
  caseId: string;
  strategy: EvalStrategy;
  userTask: string;
  /** `null` for a clean case. */
  injectionTask: string | null;
  /** For an attack case: the attack's name. */
  attackName?: string;
  /** The suite's name (recorded when a run covers several suites). */
  suite?: string;
  /**
   * For an attack case: whether the pair is in scope: its goal is reached under the user task's policy with the provenance and
   * flow rules taken out (`inScopePairs`), or the suite declares it (`needsProvenance`).
   */
  inScope?: boolean;
  /** The model spec the case ran with. */
  model: string;
  /** How the run ended; `error` when the harness itself failed (the message is in `error`). */
  status: 'completed' | 'stopped' | 'awaiting_confirmation' | 'error';
  /** For `stopped`: the stop kind and message. */
  stopReason?: { kind: string; message: string };
  error?: string;
  /** The user task's check on the final state. */
  utility: boolean;
  /** For attack cases: whether a call toward the attacker's goal was emitted, and whether the goal state was reached. */
  attack: { attempted: boolean; effect: boolean } | null;
  calls: RecordedCall[];
  /** Policy blocks; `attackCall` when the blocked call was an attempt at the injection's goal (a true block). */
  blocked: { callKey: string; tool: string; ruleId: string; reason: string; attackCall: boolean }[];
  /**
   * Calls the policy let through after taking values out of their arguments (`valuesFrom({ action: 'remove' })`), with how many
   * values; `attackCall` as for `blocked`. Absent in records written before rewriting existed.
   */
  rewritten?: { callKey: string; tool: string; ruleId: string; values: number; attackCall: boolean }[];
  /** Confirmations the run asked for, and how the harness's stand-in person answered. */
  confirmations: { requested: number; approved: number; denied: number };
  /** Copied-argument and other flags raised on allowed calls. */
  flags: number;
  /** Calls whose arguments did not parse or validate. */
  malformedCalls: number;
  /** For an adaptive attack case: the usage of every try, summed (the search's whole cost). */
  usage: { inputTokens: number; outputTokens: number; modelCalls: number; toolCalls: number; wallTimeMs: number };
  /** For an adaptive attack case: every try and the one kept (the rest of the record is the kept try's). */
  adaptive?: AdaptiveCaseRecord;
  /** The final answer ('' when the run did not complete). */
  answer: string;
  /** The run's events (model responses with their raw bodies, tool calls and results, policy decisions, stop), model requests without their messages. */
  events: unknown[];
  /** The whole transcript, system prompt included. */
  messages: Message[];
}
