/**
 * The console's pages, server-rendered: every value from a run, its record or
 * a confirmation goes through the escaping `html` template, and no page has a
 * script. Values shown are those the record and the store hold (already
 * redacted when written, redacted again on reading), cut to a readable length,
 * never more.
 * @module
 */
import type { RunRecordLine, StoredConfirmation } from '../../agent/index.js';
import { DEFAULT_ARGUMENT_LIMITS } from '../../tools/argument-limits.js';
import { describeArguments, shownText } from '../../tools/call-summary.js';
import { formatDuration, formatTime, shown } from './console-format.js';
import type { RunSummary } from './console-runs.js';
import { layout } from './console-layout.js';
import { buildConversation, conversationView } from './conversation-view.js';
import { html, type Html } from './html.js';
import { runLead } from './run-page.js';
import type { RunTimeline, TimelineSection, TimelineSpan } from './run-timeline.js';
import { storedSettingsSection, type StoredSettingsNotice } from './stored-settings-card.js';

export { layout };

export interface RunPageInput {
  summary: RunSummary;
  timeline: RunTimeline | undefined;
  /** Why there is no timeline (no record, or too large). */
  recordNote?: string;
  pending: readonly StoredConfirmation[];
  formToken: string;
  /** A resume the console started and its outcome, when there is one. */
  resume?: { state: 'resuming' } | { state: 'failed'; message: string };
  pendingCount: number;
  /** What the run's stored settings name, shown on its approval cards. */
  storedSettings?: StoredSettingsNotice;
  /** The run's record lines, for the task, answer and outcome at the top and the conversation view. */
  record?: readonly RunRecordLine[];
}

export function runPage(input: RunPageInput): Html {
  const { summary, timeline } = input;
  const live = summary.status === 'running' || input.resume?.state === 'resuming';
  return layout(
    { title: `Run ${summary.runId}`, section: 'runs', pendingCount: input.pendingCount, ...(live ? { refreshSeconds: 1 } : {}) },
    html`<h1>Run <code>${summary.runId}</code></h1>
      ${input.resume?.state === 'resuming' ? html`<p class="notice" id="resume-note">Resuming the run…</p>` : ''}
      ${input.resume?.state === 'failed' ? html`<p class="notice" id="resume-note">The console could not resume the run: ${input.resume.message}</p>` : ''}
      ${
        input.pending.length
          ? html`<h2>Waiting for a decision</h2>
              ${input.pending.map((item) => approvalCard(item, input.formToken, false, input.storedSettings))}`
          : ''
      }
      ${runLead(summary, input.record, input.pending.length)}
      ${
        input.record
          ? html`<h2>Conversation</h2>
              ${conversationView(buildConversation(input.record), summary.runId)}`
          : ''
      }
      <h2>Timeline</h2>
      ${timeline ? waterfall(timeline) : html`<p class="notice">${input.recordNote ?? 'This run has no record.'}</p>`}`,
  );
}

export function approvalsPage(
  pending: readonly StoredConfirmation[],
  formToken: string,
  storedSettings: ReadonlyMap<string, StoredSettingsNotice> = new Map(),
  gatewayPending?: number,
): Html {
  return layout(
    { title: 'Approvals', section: 'approvals', pendingCount: pending.length },
    html`<h1>Calls waiting for a decision</h1>
      ${
        gatewayPending === undefined
          ? ''
          : html`<p class="notice">
              <a href="/gateway-approvals"
                >MCP gateway: ${gatewayPending === 0 ? 'no call' : gatewayPending === 1 ? '1 call' : `${gatewayPending} calls`} waiting</a
              >
            </p>`
      }
      ${pending.length === 0 ? html`<p class="notice">No calls are waiting for confirmation.</p>` : pending.map((item) => approvalCard(item, formToken, true, storedSettings.get(item.runId)))}`,
  );
}

export function approvalCard(item: StoredConfirmation, formToken: string, showRun = false, storedSettings?: StoredSettingsNotice): Html {
  const action = `/approvals/${encodeURIComponent(item.approvalId)}`;
  return html`<section class="approval" data-approval-id="${item.approvalId}">
    <div class="summary">${item.summary}</div>
    <div class="muted">
      ${item.toolName} · <code>${item.approvalId}</code>${
        showRun ? html` · run <a href="/runs/${encodeURIComponent(item.runId)}"><code>${item.runId}</code></a>` : ''
      }
      · expires ${formatTime(item.expiresAt)}
    </div>
    ${argumentsBlock(item.arguments)} ${storedSettings ? storedSettingsSection(storedSettings, item.runId) : ''} ${decisionForms(action, formToken)}
  </section>`;
}

/** Approve, and Deny with a reason told to the model: posted to `<action>/approve|deny` with the console's form token. */
export function decisionForms(action: string, formToken: string): Html {
  return html`<form method="post" action="${action}/approve">
      <input type="hidden" name="form" value="${formToken}" /><button class="approve" type="submit">Approve</button>
    </form>
    <form method="post" action="${action}/deny">
      <input type="hidden" name="form" value="${formToken}" /><input
        type="text"
        name="reason"
        maxlength="500"
        placeholder="why (told to the model)"
        aria-label="reason"
      /><button class="deny" type="submit">Deny</button>
    </form>`;
}

/**
 * A card's arguments: those that decide where the effect goes (recipients, destinations, accounts, amounts, paths,
 * address-shaped values) first, each whole up to its cap, then the rest cut with the count of what was cut
 * (`describeArguments`, the same summary every approval surface shows), and all of them one click away.
 */
function argumentsBlock(args: unknown): Html {
  const { decisive, others } = describeArguments(args);
  return html`<dl class="arguments">
      ${decisive.map(
        (argument) =>
          html`<dt class="decisive">${argument.path}</dt>
            <dd class="decisive"><code>${shownText(argument)}</code></dd>`,
      )}
      ${
        others
          ? html`<dt>${decisive.length > 0 ? 'other arguments' : 'arguments'}</dt>
              <dd><code>${shownText(others)}</code></dd>`
          : ''
      }
    </dl>
    <details class="all-arguments">
      <summary>all arguments</summary>
      <pre>${shown(args, DEFAULT_ARGUMENT_LIMITS.maxChars)}</pre>
    </details>`;
}

/**
 * Spans as bars (an SVG per row, so no inline style is needed), in the order they started, one list per section (the start and each
 * resume) with its own time axis.
 */
function waterfall(timeline: RunTimeline): Html {
  const sections = timeline.sections.map((section, index) => {
    const spans = timeline.spans.filter((span) => span.section === index).sort((a, b) => a.start - b.start);
    if (spans.length === 0) return '';
    const previous = timeline.sections[index - 1];
    const heading =
      section.resumed && previous
        ? `Resumed ${formatTime(section.start)}${previous.end > 0 ? `, ${formatDuration(section.start - previous.end)} after the pause` : ''}`
        : `${section.resumed ? 'Resumed' : 'Started'} ${formatTime(section.start)}`;
    return html`<h3 class="muted">${heading} · the bars span ${formatDuration(section.end - section.start)}</h3>
      <ol class="waterfall" data-section="${index}">
        ${spans.map((span) => waterfallRow(span, section))}
      </ol>`;
  });
  return html`<div id="timeline">${sections}</div>
    <h2>Events</h2>
    <ul class="marks">
      ${[...timeline.marks]
        .sort((a, b) => a.time - b.time)
        .map(
          (mark) =>
            html`<li>
              <span class="muted">${formatTime(mark.time)}</span> ${mark.label}${
                mark.detail !== undefined
                  ? html`<details>
                      <summary>details</summary>
                      <pre>${shown(mark.detail)}</pre>
                    </details>`
                  : ''
              }
            </li>`,
        )}
    </ul>`;
}

function waterfallRow(span: TimelineSpan, section: TimelineSection): Html {
  const total = Math.max(section.end - section.start, 1);
  const x = (time: number) => Math.round(((time - section.start) / total) * 1000 * 10) / 10;
  const left = x(span.start);
  const width = Math.max(Math.round((x(span.end) - left) * 10) / 10, 2);
  return html`<li class="span ${span.kind}" data-kind="${span.kind}" ${span.callKey !== undefined ? html` data-call-key="${span.callKey}"` : ''}>
    <div class="span-row">
      <span class="label" title="${span.label}">${span.kind === 'tool' ? html`<code>${span.label}</code>` : span.label}</span>
      <svg class="bar" viewBox="0 0 1000 14" preserveAspectRatio="none" role="img" aria-label="${span.label}: ${formatDuration(span.end - span.start)}">
        <rect class="${span.kind} ${span.status}" x="${left}" y="2" width="${width}" height="10"></rect>
      </svg>
      <span class="num">${formatDuration(span.end - span.start)}</span
      ><span><span class="status status-${span.status}">${span.status.replace(/_/g, ' ')}</span></span>
    </div>
    ${
      span.decisions.length
        ? html`<ul class="decisions">
            ${span.decisions.map((decision) => html`<li>${decision}</li>`)}
          </ul>`
        : ''
    }
    ${span.details.map(
      (detail) =>
        html`<details>
          <summary>${detail.title}</summary>
          <pre>${shown(detail.value)}</pre>
        </details>`,
    )}
  </li>`;
}

export function evalsPage(reports: readonly { index: number; folder: string; modifiedAt: number }[]): Html {
  return layout(
    { title: 'Eval reports', section: 'evals' },
    html`<h1>Eval reports</h1>
      ${
        reports.length === 0
          ? html`<p class="notice">
              No eval reports found: <code>toolwright eval --out &lt;folder&gt;</code> writes one, and
              <code>toolwright console --evals &lt;folder&gt;</code> lists it.
            </p>`
          : html`<table id="evals">
              <thead>
                <tr>
                  <th>Report</th>
                  <th>Written</th>
                </tr>
              </thead>
              <tbody>
                ${reports.map(
                  (report) =>
                    html`<tr>
                      <td>
                        <a href="/evals/${report.index}/report.html"><code>${report.folder}</code></a>
                      </td>
                      <td class="num">${formatTime(report.modifiedAt)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }`,
  );
}

export function errorPage(status: number, message: string): Html {
  return layout(
    { title: `Error ${status}` },
    html`<h1>${status}</h1>
      <p class="notice">${message}</p>`,
  );
}
