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
  suite: string;
  suiteVersion: string;
  /** The model spec (`provider:model`, or a `sim:` simulator). */
  model: string;
  /** Whether the model is a simulator rather than a model. */
  simulator: boolean;
  seed: number | undefined;
  temperature: number | undefined;
  attack: string;
  isolation: IsolationKind;
  confirmations: 'deny' | 'approve';
  maxIterations: number;
  /** `auto`; `required-first`: the first model call of a case must call a tool; `required`: every call must. */
  toolChoice: EvalToolChoice;
  /** Cap on each model call's output tokens, or `null` for the provider's own. */
  maxOutputTokens: number | null;
  strategies: EvalStrategy[];
  /** User tasks in the run (the first N of the suite), or `null` for all. */
  limit: number | null;
  /** When the run (or the resume) started. */
  startedAt: string;
}
