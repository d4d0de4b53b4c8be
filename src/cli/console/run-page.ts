/**
 * The top of a run's page: what it was asked (the user's prompt), what came of it (the final answer, or why it stopped,
 * in words) and the outcome in figures (status, stop reason, cost or "unknown", active duration, tokens, model, calls),
 * before the conversation and the timeline. Read from the record, with the store's status and figures where it has
 * the run.
 * @module
 */
import type { RunRecordLine } from '../../agent/index.js';
import { formatDuration } from './console-format.js';
import type { RunSummary } from './console-runs.js';
import { messageText, stopReasonText } from './conversation-view.js';
import { html, type Html } from './html.js';
import { textView, valueView } from './value-view.js';

type LineOf<Type extends RunRecordLine['type']> = Extract<RunRecordLine, { type: Type }>;

/** What the lead shows, gathered from the record in one pass. */
export interface RunOutline {
  /** The first user message of the first model request. */
  task: string | undefined;
  /** The model's last text, and the run's last stop. */
  lastText: string | undefined;
  stop: LineOf<'stop'> | undefined;
  modelCalls: number;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Whether the record shows the model has a price: a request's estimated cost, or a response that cost something. */
  priced: boolean;
  costUsd: number;
}

export function outlineRun(lines: readonly RunRecordLine[]): RunOutline {
  const outline: RunOutline = {
    task: undefined,
    lastText: undefined,
    stop: undefined,
    modelCalls: 0,
    toolCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    priced: false,
    costUsd: 0,
  };
  const callKeys = new Set<string>();
  for (const line of lines) {
    switch (line.type) {
      case 'model_request':
        if (outline.task === undefined && Array.isArray(line.messages)) {
          const user = line.messages.find((message) => message?.role === 'user');
          if (user) outline.task = messageText(user.content);
        }
        if (typeof line.estimatedInputCostUsd === 'number') outline.priced = true;
        break;
      case 'model_response': {
        outline.modelCalls++;
        outline.inputTokens += finite(line.response?.usage?.inputTokens);
        outline.outputTokens += finite(line.response?.usage?.outputTokens);
        outline.costUsd += finite(line.costUsd);
        if (finite(line.costUsd) > 0) outline.priced = true;
        const content = Array.isArray(line.response?.content) ? line.response.content : [];
        const text = content.flatMap((part) => (part?.type === 'text' && typeof part.text === 'string' ? [part.text] : [])).join('\n');
        if (text !== '') outline.lastText = text;
        break;
      }
      case 'model_error':
        outline.modelCalls++;
        break;
      case 'tool_call':
      case 'tool_result':
        callKeys.add(line.callKey);
        break;
      case 'stop':
        outline.stop = line;
        break;
    }
  }
  outline.toolCalls = callKeys.size;
  return outline;
}

/** The task, the answer (or why there is none) and the outcome, for a run with or without a record. */
export function runLead(summary: RunSummary, lines: readonly RunRecordLine[] | undefined, pendingCount: number): Html {
  const outline = lines ? outlineRun(lines) : undefined;
  const status = summary.status;
  const stop = outline?.stop;
  const costKnown = summary.costUsd !== undefined && (summary.costUsd > 0 || outline?.priced === true);
  return html`<section id="run-lead" class="lead">
    <div class="lead-block">
      <div class="lead-label">Task</div>
      <div id="run-task" class="lead-text">
        ${outline?.task !== undefined ? textView(outline.task) : html`<span class="muted">The record does not hold the user's prompt.</span>`}
      </div>
    </div>
    ${answerBlock(status, outline, pendingCount)}
    <dl id="run-outcome" class="run-outcome">
      <div>
        <dt>Status</dt>
        <dd><span id="run-status" class="status status-${status}">${status.replace(/_/g, ' ')}</span></dd>
      </div>
      ${
        stop?.stopReason
          ? html`<div>
              <dt>Stop reason</dt>
              <dd>${String(stop.stopReason.kind).replace(/_/g, ' ')}</dd>
            </div>`
          : ''
      }
      <div>
        <dt>Cost</dt>
        <dd>${costKnown ? `$${summary.costUsd!.toFixed(4)}` : html`<span class="muted">unknown</span>`}</dd>
      </div>
      <div>
        <dt>Duration</dt>
        <dd>${summary.durationMs !== undefined ? `${formatDuration(summary.durationMs)} active` : html`<span class="muted">unknown</span>`}</dd>
      </div>
      <div>
        <dt>Tokens</dt>
        <dd>
          ${outline ? `${outline.inputTokens.toLocaleString('en-US')} in / ${outline.outputTokens.toLocaleString('en-US')} out` : html`<span class="muted">unknown</span>`}
        </dd>
      </div>
      <div>
        <dt>Model</dt>
        <dd>${summary.model ?? html`<span class="muted">unknown</span>`}</dd>
      </div>
      <div>
        <dt>Calls</dt>
        <dd>${outline ? `${outline.modelCalls} to the model, ${outline.toolCalls} to tools` : html`<span class="muted">unknown</span>`}</dd>
      </div>
    </dl>
  </section>`;
}

function answerBlock(status: string, outline: RunOutline | undefined, pendingCount: number): Html {
  const block = (label: string, tone: string, body: Html) =>
    html`<div class="lead-block lead-${tone}">
      <div class="lead-label">${label}</div>
      <div id="run-answer" class="lead-text">${body}</div>
    </div>`;
  const stop = outline?.stop;
  if (status === 'running') return block('Answer', 'waiting', html`<span class="muted">No answer yet: the run is running.</span>`);
  if (status === 'awaiting_confirmation' || stop?.status === 'awaiting_confirmation')
    return block(
      'Answer',
      'waiting',
      pendingCount > 0
        ? html`<span>No answer yet: the run waits for a person to decide on ${pendingCount === 1 ? 'one call' : `${pendingCount} calls`} (above).</span>`
        : html`<span>No answer yet: the run waits for a person's decision.</span>`,
    );
  if (stop?.status === 'completed') {
    if (stop.output !== undefined) return block('Answer', 'answer', typeof stop.output === 'string' ? textView(stop.output) : valueView(stop.output));
    if (outline?.lastText !== undefined) return block('Answer', 'answer', textView(outline.lastText));
    return block('Answer', 'answer', html`<span class="muted">The run completed without a text answer.</span>`);
  }
  if (stop?.status === 'stopped')
    return block(
      'Why it stopped',
      'error',
      stop.stopReason ? textView(stopReasonText(stop.stopReason)) : html`<span>The run stopped without a reason recorded.</span>`,
    );
  return block(
    'Answer',
    'error',
    html`<span
      >The record ends without a stop: the run did not finish here${status !== 'unknown' ? ` (the store says ${status.replace(/_/g, ' ')})` : ''}.</span
    >`,
  );
}

function finite(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
