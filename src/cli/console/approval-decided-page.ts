/**
 * An approval's own page (`/approvals/<id>`), where a decision made in the console lands: what was decided on which
 * call, and what happens to the run next (it resumes in the console, waits on other calls, or waits for
 * `toolwright resume`), with links back to the run, the approvals and the list. An undecided call shows its card.
 * @module
 */
import type { RunStatus, StoredConfirmation } from '../../agent/index.js';
import { formatTime } from './console-format.js';
import { approvalCard } from './console-pages.js';
import { layout } from './console-layout.js';
import { html, type Html } from './html.js';
import type { StoredSettingsNotice } from './stored-settings-card.js';

export interface ApprovalPageInput {
  confirmation: StoredConfirmation;
  /** The run's status in the store now (`undefined`: the store no longer has it). */
  runStatus: RunStatus | undefined;
  /** Other calls of the same run still waiting for a decision. */
  othersWaiting: number;
  /** Whether the console continues runs itself (started with `--model` and `--tools`). */
  resumes: boolean;
  /** A resume of this run the console started, when there is one. */
  resume?: { state: 'resuming' } | { state: 'failed'; message: string };
  formToken: string;
  pendingCount: number;
  storedSettings?: StoredSettingsNotice;
}

export function approvalPage(input: ApprovalPageInput): Html {
  const { confirmation: item } = input;
  const runHref = `/runs/${encodeURIComponent(item.runId)}`;
  const links = html`<p class="links"><a href="${runHref}">Open the run</a> · <a href="/approvals">Approvals</a> · <a href="/">All runs</a></p>`;
  if (item.decision === undefined) {
    return layout(
      { title: `Approval ${item.approvalId}`, section: 'approvals', pendingCount: input.pendingCount },
      html`<h1>Waiting for a decision</h1>
        ${approvalCard(item, input.formToken, true, input.storedSettings)} ${links}`,
    );
  }
  const verb = item.decision === 'approve' ? 'approved' : 'denied';
  const resuming = input.resume?.state === 'resuming' || (input.resumes && input.othersWaiting === 0 && input.runStatus === 'awaiting_confirmation');
  return layout(
    { title: `Call ${verb}`, section: 'approvals', pendingCount: input.pendingCount, ...(resuming ? { refreshSeconds: 1 } : {}) },
    html`<section id="decision" class="confirmation confirmation-${item.decision}" role="status">
        <h1>You ${verb} <code>${item.toolName}</code></h1>
        <p class="summary">${item.summary}</p>
        <p class="muted">
          ${verb}
          ${item.decidedAt !== undefined ? formatTime(item.decidedAt) : ''}${item.reason !== undefined ? html` · reason told to the model: “${item.reason}”` : ''}
        </p>
        <h2>What happens next</h2>
        <p id="next">${nextStep(input, verb)}</p>
      </section>
      ${links}`,
  );
}

function nextStep(input: ApprovalPageInput, verb: string): Html {
  const { confirmation: item } = input;
  const toldModel = item.decision === 'approve' ? 'the call runs' : 'the model is told the call was denied';
  if (input.resume?.state === 'failed') return html`The console could not resume the run: ${input.resume.message}`;
  if (input.othersWaiting > 0)
    return html`The run still waits on ${input.othersWaiting} other ${input.othersWaiting === 1 ? 'call' : 'calls'}: it continues once
      ${input.othersWaiting === 1 ? 'that one is' : 'they are'} decided (<a href="/approvals">approvals</a>).`;
  if (input.runStatus === 'completed' || input.runStatus === 'stopped')
    return html`The run continued (${toldModel}) and is now <span class="status status-${input.runStatus}">${input.runStatus}</span>.`;
  if (input.resume?.state === 'resuming' || input.runStatus === 'running')
    return html`The run is resuming now, with the console's model and tools: ${toldModel}. This page follows it.`;
  if (!input.resumes)
    return html`The decision is recorded (${verb}); this console does not continue runs. Continue it with <code>toolwright resume ${item.runId}</code>: then
      ${toldModel}.`;
  return html`The run resumes now, with the console's model and tools: ${toldModel}.`;
}
