/**
 * A run's record as a waterfall: one span per model call and per tool call,
 * placed by when it started and how long it took (the `durationMs` the record
 * holds, ending at the line's time), so calls that ran in parallel overlap.
 * Everything else the record says (routing, confirmations, limits, the stop)
 * becomes a mark at its time. A resumed run is drawn as one section per
 * process run (started, then each resume), each on its own time axis, so the
 * hours a run waited for a person do not squash its calls into slivers.
 * Built from the record lines only: the console
 * never shows more than the record holds.
 * @module
 */
import type { RunRecordLine } from '../../agent/index.js';

export interface TimelineDetail {
  title: string;
  value: unknown;
}

export interface TimelineSpan {
  kind: 'model' | 'tool';
  /** The section: 0 for the first start, one more for each resume. */
  section: number;
  /** `model call 2`, or the tool's name. */
  label: string;
  step: number;
  /** The call key, for a tool call. */
  callKey?: string;
  /** Milliseconds since the epoch. */
  start: number;
  end: number;
  /** The model's stop reason (`error` when the call failed), or the tool call's status. */
  status: string;
  /** How the guards, the policy and a person decided on a tool call, in order. */
  decisions: string[];
  details: TimelineDetail[];
}

export interface TimelineMark {
  section: number;
  time: number;
  label: string;
  detail?: unknown;
}

/** One start or resume of the run: the time axis its spans are drawn on. */
export interface TimelineSection {
  resumed: boolean;
  /** Milliseconds since the epoch (0 for an empty section). */
  start: number;
  end: number;
}

export interface RunTimeline {
  sections: TimelineSection[];
  spans: TimelineSpan[];
  marks: TimelineMark[];
}

export function buildTimeline(lines: readonly RunRecordLine[]): RunTimeline {
  const spans: TimelineSpan[] = [];
  const marks: TimelineMark[] = [];
  /** Model requests waiting for their response, in order (one at a time in the loop). */
  const requests: { line: Extract<RunRecordLine, { type: 'model_request' }>; time: number }[] = [];
  const calls = new Map<string, Extract<RunRecordLine, { type: 'tool_call' }>>();
  const decisions = new Map<string, string[]>();
  const spanByCall = new Map<string, TimelineSpan>();
  const decide = (callKey: string, text: string) => {
    const span = spanByCall.get(callKey);
    if (span) span.decisions.push(text);
    else decisions.set(callKey, [...(decisions.get(callKey) ?? []), text]);
  };
  let modelCalls = 0;
  let section = -1;
  const resumedSections: boolean[] = [];
  for (const line of lines) {
    if (line.type === 'run_started' || section === -1) {
      section++;
      resumedSections.push(line.type === 'run_started' && line.resumed);
    }
    const time = Date.parse(line.time);
    if (!Number.isFinite(time)) continue;
    switch (line.type) {
      case 'model_request':
        requests.push({ line, time });
        break;
      case 'model_response':
      case 'model_error': {
        const request = requests.shift();
        const duration = finiteDuration(line.durationMs);
        const details: TimelineDetail[] = [];
        if (request)
          details.push({
            title: `request: ${request.line.messages.length} messages, tools ${request.line.tools.join(', ') || '(none)'}`,
            value: request.line.messages,
          });
        if (line.type === 'model_response') {
          details.push({
            title: `response: ${line.response.usage.inputTokens} in / ${line.response.usage.outputTokens} out tokens`,
            value: line.response.content,
          });
        } else {
          details.push({ title: 'error', value: line.error });
        }
        spans.push({
          kind: 'model',
          section,
          label: `model call ${++modelCalls}`,
          step: line.step,
          start: Math.min(time - duration, request?.time ?? Infinity),
          end: time,
          status: line.type === 'model_response' ? line.response.stopReason : 'error',
          decisions: [],
          details,
        });
        break;
      }
      case 'tool_call':
        calls.set(line.callKey, line);
        break;
      case 'policy_decision':
        decide(
          line.callKey,
          `policy: ${line.action}${line.ruleId !== undefined ? ` (${line.ruleId})` : ''}${line.reason !== undefined ? `: ${line.reason}` : ''}`,
        );
        break;
      case 'confirmation_decided':
        decide(
          line.callKey,
          `${line.decision === 'approve' ? 'approved' : line.decision === 'deny' ? 'denied' : 'expired'} by a person${line.reason !== undefined ? `: ${line.reason}` : ''}`,
        );
        break;
      case 'confirmation_requested':
        for (const pending of line.pending) decide(pending.callKey, `asked a person: ${pending.summary}`);
        marks.push({ section, time, label: `waiting for ${line.pending.length} confirmation(s)`, detail: line.pending });
        break;
      case 'tool_result': {
        const call = calls.get(line.callKey);
        const duration = finiteDuration(line.durationMs);
        const details: TimelineDetail[] = [
          { title: 'arguments', value: line.arguments },
          { title: line.truncated ? 'result (cut to the tool’s limit)' : 'result', value: line.result },
        ];
        if (call?.argumentsText !== undefined) details.splice(1, 0, { title: 'arguments as the model sent them', value: call.argumentsText });
        if (line.failure) details.push({ title: `failure ${line.failure.code}`, value: line.failure });
        if (line.trust !== undefined) details.push({ title: 'trust', value: { trust: line.trust, isolated: line.isolated === true } });
        const span: TimelineSpan = {
          kind: 'tool',
          section,
          label: line.toolName,
          step: line.step,
          callKey: line.callKey,
          start: time - duration,
          end: time,
          status: line.status,
          decisions: [...(decisions.get(line.callKey) ?? [])],
          details,
        };
        decisions.delete(line.callKey);
        // A resumed run answers a call again under its key: the later result replaces the earlier one.
        const earlier = spanByCall.get(line.callKey);
        if (earlier) spans.splice(spans.indexOf(earlier), 1);
        spanByCall.set(line.callKey, span);
        spans.push(span);
        break;
      }
      case 'run_started':
        marks.push({ section, time, label: `${line.resumed ? 'resumed' : 'started'} with ${line.modelId}` });
        break;
      case 'routing':
        marks.push({ section, time, label: `routing: ${line.category ?? 'no category chosen'} (${line.tools.length} tools)`, detail: line });
        break;
      case 'turn_limited':
        marks.push({ section, time, label: `turn limited to ${line.limit} of ${line.requested} calls`, detail: line });
        break;
      case 'unexpected_stop':
        marks.push({ section, time, label: `model stopped early (${line.finishReason})`, detail: line });
        break;
      case 'output_invalid':
        marks.push({ section, time, label: 'final answer failed its schema', detail: line.issues });
        break;
      case 'call_superseded':
        marks.push({ section, time, label: `call ${line.callKey} superseded`, detail: line });
        break;
      case 'stop':
        marks.push({ section, time, label: `${line.status}${line.stopReason ? ` (${line.stopReason.kind})` : ''}`, detail: line.stopReason ?? line.output });
        break;
    }
  }
  const sections = resumedSections.map((resumed, index) => {
    // A loop, not Math.min(...times): a long record would overflow the argument list.
    let start = Infinity;
    let end = -Infinity;
    for (const span of spans) if (span.section === index) [start, end] = [Math.min(start, span.start), Math.max(end, span.end)];
    for (const mark of marks) if (mark.section === index) [start, end] = [Math.min(start, mark.time), Math.max(end, mark.time)];
    return start <= end ? { resumed, start, end } : { resumed, start: 0, end: 0 };
  });
  return { sections, spans, marks };
}

function finiteDuration(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
