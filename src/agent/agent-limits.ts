/**
 * Every guard of a run in one place, each with its default. A run that reaches
 * a limit ends with `status: 'stopped'` and a stop reason naming the limit and
 * by how much; it never hangs and never throws for it.
 * @module
 */
import { InvalidArgumentError } from '../shared/errors.js';
import { DEFAULT_STOPPED_CALL_GRACE_MS } from '../tools/stopped-calls.js';

export interface AgentLimits {
  /** Model calls in the loop (the routing call is not counted). Default: 10. */
  maxIterations?: number;
  /** Input tokens over the whole run, routing included. Default: no limit. */
  maxInputTokens?: number;
  /** Output tokens over the whole run; each call's `maxOutputTokens` is lowered to what is left. Default: no limit. */
  maxOutputTokens?: number;
  /** Cap on each model call's output tokens, sent as the request's `maxOutputTokens`. Default: none (the provider's). */
  maxOutputTokensPerCall?: number;
  /** Money over the whole run, in USD, priced from the price table; needs a price for the model. Default: no limit. */
  maxCostUsd?: number;
  /** Tool calls over the whole run; a turn that would pass it is not run. Default: no limit. */
  maxToolCalls?: number;
  /**
   * Distinct tool calls considered from one model response; each call past it is answered with a
   * notice instead of running (identical copies of a call do not count). Default: 16.
   */
  maxToolCallsPerTurn?: number;
  /** Active wall time of the run in milliseconds (time spent waiting for a confirmation is not counted). Default: no limit. */
  maxWallTimeMs?: number;
  /**
   * The same tool with the same arguments failing this many times stops the run (`loop_detected`); `false` turns this
   * check off. Default: 3.
   */
  maxRepeatedFailures?: number | false;
  /**
   * The same tool with the same arguments called this many times, failing or not, stops the run (`loop_detected`);
   * `false` turns this check off. Default: 5.
   */
  maxIdenticalCalls?: number | false;
  /** Consecutive `read` calls of one turn that run at once. Default: 4. */
  maxParallelReads?: number;
  /** Timeout of each tool call that sets none of its own, in milliseconds. Default: none. */
  toolTimeoutMs?: number;
  /**
   * How long a call stopped by its timeout or the run's abort may take to end when its tool ignores the signal, in
   * milliseconds. The call keeps its slot until its tool's work ends, so no other write (or, for a write, no other call)
   * starts beside it. A write still running past this is `outcome_unknown`, and until it ends every later call of the run
   * (only writes, when a read is still running) is answered `not_run`. Default: 5000.
   */
  stoppedCallGraceMs?: number;
  /** How long a confirmation token stays valid, in milliseconds. Default: 24 hours. */
  confirmationTtlMs?: number;
}

/** {@link AgentLimits} with every default applied; `undefined` means "no limit". */
export interface ResolvedLimits {
  maxIterations: number;
  maxInputTokens: number | undefined;
  maxOutputTokens: number | undefined;
  maxOutputTokensPerCall: number | undefined;
  maxCostUsd: number | undefined;
  maxToolCalls: number | undefined;
  maxToolCallsPerTurn: number;
  maxWallTimeMs: number | undefined;
  /** `false`: the check is off. */
  maxRepeatedFailures: number | false;
  /** `false`: the check is off. */
  maxIdenticalCalls: number | false;
  maxParallelReads: number;
  toolTimeoutMs: number | undefined;
  stoppedCallGraceMs: number;
  confirmationTtlMs: number;
}

export const DEFAULT_LIMITS = Object.freeze({
  maxIterations: 10,
  maxToolCallsPerTurn: 16,
  maxRepeatedFailures: 3,
  maxIdenticalCalls: 5,
  maxParallelReads: 4,
  stoppedCallGraceMs: DEFAULT_STOPPED_CALL_GRACE_MS,
  confirmationTtlMs: 24 * 60 * 60 * 1000,
});

const INTEGER_KEYS = [
  'maxIterations',
  'maxInputTokens',
  'maxOutputTokens',
  'maxOutputTokensPerCall',
  'maxToolCalls',
  'maxToolCallsPerTurn',
  'maxRepeatedFailures',
  'maxIdenticalCalls',
  'maxParallelReads',
] as const;

/** The loop breaker's limits: each takes `false` for "off" (a server whose sessions last days repeats routine calls). */
const LOOP_BREAKER_KEYS: readonly string[] = ['maxRepeatedFailures', 'maxIdenticalCalls'];

/** Applies the defaults and checks every value (a developer error throws {@link InvalidArgumentError}). */
export function resolveLimits(limits: AgentLimits = {}): ResolvedLimits {
  for (const key of INTEGER_KEYS) {
    const value = limits[key];
    if (value === false && LOOP_BREAKER_KEYS.includes(key)) continue;
    if (
      value !== undefined &&
      !(typeof value === 'number' && Number.isInteger(value) && value >= (key === 'maxToolCalls' || key === 'maxIterations' ? 0 : 1))
    ) {
      const orOff = LOOP_BREAKER_KEYS.includes(key) ? ', or false to turn this check off' : '';
      throw new InvalidArgumentError(`limits.${key} must be a positive integer${orOff} (got ${JSON.stringify(value)}).`);
    }
  }
  for (const key of ['maxCostUsd', 'maxWallTimeMs', 'toolTimeoutMs', 'stoppedCallGraceMs', 'confirmationTtlMs'] as const) {
    const value = limits[key];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
      throw new InvalidArgumentError(`limits.${key} must be a non-negative number (got ${JSON.stringify(value)}).`);
    }
  }
  return {
    maxIterations: limits.maxIterations ?? DEFAULT_LIMITS.maxIterations,
    maxInputTokens: limits.maxInputTokens,
    maxOutputTokens: limits.maxOutputTokens,
    maxOutputTokensPerCall: limits.maxOutputTokensPerCall,
    maxCostUsd: limits.maxCostUsd,
    maxToolCalls: limits.maxToolCalls,
    maxToolCallsPerTurn: limits.maxToolCallsPerTurn ?? DEFAULT_LIMITS.maxToolCallsPerTurn,
    maxWallTimeMs: limits.maxWallTimeMs,
    maxRepeatedFailures: limits.maxRepeatedFailures ?? DEFAULT_LIMITS.maxRepeatedFailures,
    maxIdenticalCalls: limits.maxIdenticalCalls ?? DEFAULT_LIMITS.maxIdenticalCalls,
    maxParallelReads: limits.maxParallelReads ?? DEFAULT_LIMITS.maxParallelReads,
    toolTimeoutMs: limits.toolTimeoutMs,
    stoppedCallGraceMs: limits.stoppedCallGraceMs ?? DEFAULT_LIMITS.stoppedCallGraceMs,
    confirmationTtlMs: limits.confirmationTtlMs ?? DEFAULT_LIMITS.confirmationTtlMs,
  };
}
