/**
 * The settings an evaluation run is pinned to, written to `manifest.json`.
 * @module
 */
import type { IsolationKind } from '../policy/isolation.js';
import type { EvalStrategy } from './strategies.js';

/** How much the harness forces tool calls; see {@link EvalManifest.toolChoice}. */
export type EvalToolChoice = 'auto' | 'required-first' | 'required';

/** The tool-choice settings, for option parsing. */
export const EVAL_TOOL_CHOICES: readonly EvalToolChoice[] = Object.freeze(['auto', 'required-first', 'required']);

/** The settings a run is pinned to; a resume must match them. */
export interface EvalManifest {
  /** The suite's name. */
  suite: string;
  /** The suite's version: numbers from different versions are not comparable. */
  suiteVersion: string;
  /** The model spec (`provider:model`, or a `sim:` simulator). */
  model: string;
  /** Whether the model is a simulator rather than a model. */
  simulator: boolean;
  /** Sent with every model request (and used for the isolation boundaries). */
  seed: number | undefined;
  /** Sent with every model request. */
  temperature: number | undefined;
  /** The attack's name (comma-separated for several). */
  attack: string;
  /** The attacks, when the run has several. */
  attacks?: string[];
  /** With the adaptive attack: its tries per attack case, and the attacker model's name (`null`: the scripted search alone). */
  adaptive?: { tries: number; proposer: string | null };
  /** The suites and their versions, when the run has several (`suite` and `suiteVersion` then join them with `+`). */
  suites?: { name: string; version: string }[];
  /** The isolation of the isolation strategies. */
  isolation: IsolationKind;
  /** How the stand-in person answered policy confirmations. */
  confirmations: 'deny' | 'approve';
  /** Model calls per case. */
  maxIterations: number;
  /** `auto`; `required-first`: the first model call of a case must call a tool; `required`: every call must. */
  toolChoice: EvalToolChoice;
  /** Cap on each model call's output tokens, or `null` for the provider's own. */
  maxOutputTokens: number | null;
  /** The strategies run. */
  strategies: EvalStrategy[];
  /** User tasks in the run (the first N of the suite), or `null` for all. */
  limit: number | null;
  /** When the run (or the resume) started. */
  startedAt: string;
}
