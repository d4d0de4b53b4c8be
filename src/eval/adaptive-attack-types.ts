/**
 * The adaptive attack's types: what it tries, what it observes, and what a
 * proposer (an attacker model) is given; kept apart from the search
 * (adaptive-attack.ts) so that attacks and case records can name them.
 * @module
 */
import type { AttackContext } from './attack-context.js';

/** What the attacker sees after one try. */
export interface AttackObservation {
  /** Whether its goal came about, judged on the final state (the injection task's effect check). */
  goalReached: boolean;
  /** The externally visible actions the agent took in the run (the effect log's new entries), in order. */
  effects: readonly { tool: string; data: Readonly<Record<string, unknown>> }[];
}

/** One rewrite: the text planted, and where. */
export interface AdaptiveCandidate {
  /** Short and stable, for the record: `tool_knowledge+base64`, `direct@ci_log`, `model#3`. */
  label: string;
  text: string;
  /** The vectors that carry it; default: every vector. */
  vectors?: readonly string[];
}

/** One try and what the attacker observed. */
export interface AdaptiveTry {
  candidate: AdaptiveCandidate;
  observation: AttackObservation;
}

/** What a proposer is given before each try after the first. */
export interface ProposeInput {
  /** The goal and the case's context, as every attack gets them. */
  context: AttackContext;
  /** The suite's injection vectors: where text can be planted. */
  vectors: readonly { id: string; description: string }[];
  /** Every earlier try of this case, in order. */
  history: readonly AdaptiveTry[];
}

/** Proposes the next rewrite from the earlier tries (an attacker model); `undefined` to leave the try to the scripted search. */
export interface AttackerProposer {
  /** Printed in reports, e.g. `openai:gpt-4o-mini`. */
  name: string;
  propose(input: ProposeInput): Promise<AdaptiveCandidate | undefined>;
}

/** The kept record of an adaptive case: what was tried, what was kept. */
export interface AdaptiveCaseRecord {
  maxTries: number;
  /** Every try, in order: its label, who proposed it, whether the goal came about, and how many visible actions the agent took. */
  tries: { label: string; proposedBy: 'script' | 'model'; goalReached: boolean; effects: number }[];
  /** The kept try, from 1. */
  kept: number;
  /** Tries the proposer failed to fill (an error, no text, a repeat), left to the scripted search. */
  proposerFailures: number;
  /** Why, for the first few distinct failures (an error's message, redacted and cut; "no text"; "a repeat"), so a broken attacker model is seen. */
  proposerFailureReasons?: string[];
}
