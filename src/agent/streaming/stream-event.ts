/**
 * The events of a streamed run (`streamAgent`): the record's own events, less
 * the model's request and response, plus the pieces the record does not hold.
 * @module
 */
import type { StopReason } from '../../protocol/model-exchange.js';
import type { ToolCallPart } from '../../protocol/messages.js';
import type { ToolProgressReport } from '../agent-loop.js';
import type { AgentUsage } from '../agent-result.js';
import type { RunEvent } from '../run-event.js';

/** The pieces of a streamed run that its record does not hold: what the model is writing, what tools report, and where each step ends. */
export type AgentDeltaEvent =
  /** A model call of `step` is about to be made (the record's `model_request`, without the conversation it sends). */
  | { type: 'step_started'; step: number }
  | { type: 'text_delta'; step: number; text: string }
  /** The model's reasoning, where the provider streams it (it is not part of the answer's text). */
  | { type: 'reasoning_delta'; step: number; text: string }
  /** The model began a tool call (`index` counts the calls of the step from 0). */
  | { type: 'tool_call_start'; step: number; index: number; callId: string; toolName: string }
  /**
   * More of a call's arguments: `argumentsDelta` is the new text, `partialArguments` the arguments so far, parsed from
   * the incomplete JSON (for display; the complete call is validated before it runs). In a redacted stream
   * ({@link AgentStream.redacted}) `argumentsDelta` is absent and `partialArguments` holds only complete strings, redacted.
   */
  | { type: 'tool_call_delta'; step: number; index: number; callId: string; toolName: string; argumentsDelta?: string; partialArguments: unknown }
  /** The model finished writing the call (the loop then validates it: see the `tool_call` and `tool_result` events). */
  | { type: 'tool_call_end'; step: number; index: number; call: ToolCallPart }
  /** A running tool's progress report (`ToolContext.reportProgress`). */
  | ({ type: 'tool_progress' } & ToolProgressReport)
  /**
   * A step is over (its model call and the tool calls it asked for): sent before the next step starts or the run stops.
   * `usage` and `costUsd` are the run's totals so far.
   */
  | {
      type: 'step_finished';
      step: number;
      kind: 'routing' | 'model';
      finishReason: StopReason;
      /** The step's answer text, whole. */
      text: string;
      /** The tool calls of the step that have an outcome (none yet when the run pauses for a confirmation). */
      toolCalls: number;
      usage: AgentUsage;
      costUsd: number;
    };

/** The record's events a stream carries: all but `model_request` and `model_response` (the deltas, `step_started` and `step_finished` tell them). */
export type StreamedRunEvent = Exclude<RunEvent, { type: 'model_request' | 'model_response' }>;

/**
 * One event of a streamed run. The last one is always the record's `stop` (status, stop reason, usage, cost), and
 * `confirmation_requested` says which calls wait for a person.
 */
export type AgentStreamEvent = (AgentDeltaEvent | StreamedRunEvent) & { runId: string };
