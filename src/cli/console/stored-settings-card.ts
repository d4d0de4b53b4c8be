/**
 * The part of an approval card that shows what the waiting run's stored
 * settings name: the model, base URL, tool module and MCP servers a resume
 * would execute or contact if it trusted the store. The console's resume
 * never does (it runs with the console's own settings), so this is shown for
 * the person to see what someone with write access to the store planted, and
 * whether approving will continue the run.
 * @module
 */
import type { SettingsDifference } from '../run-settings.js';
import { html, type Html } from './html.js';

export interface StoredSettingsNotice {
  /** What the stored run names, one line each, already quoted and escaped for reading (the page escapes them again as HTML). */
  stored: readonly string[];
  /** How the stored settings differ from the console's; empty when they match. */
  differences: readonly SettingsDifference[];
  /**
   * What approving the run's last waiting call leads to: a resume with the console's settings (`resumes`), a resume
   * refused for the differences (`refused`), one continued despite them (`accepted`), or no resume here (`not_configured`).
   */
  outcome: 'resumes' | 'refused' | 'accepted' | 'not_configured';
}

export function storedSettingsSection(notice: StoredSettingsNotice, runId: string): Html {
  const outcome = {
    resumes: html`<p class="muted">They match this console's settings, which a resume here runs with.</p>`,
    refused: html`<p class="notice" data-settings-outcome="refused">
      They differ from this console's settings: approving records the decision, and the console refuses to resume the run. Check who wrote them (anyone who can
      write the run store can); to continue with the console's own settings, start it with
      <code>--accept-stored-settings-mismatch</code>.
    </p>`,
    accepted: html`<p class="notice" data-settings-outcome="accepted">
      They differ from this console's settings; it was started with <code>--accept-stored-settings-mismatch</code>, so a resume here runs with its own settings,
      never these.
    </p>`,
    not_configured: html`<p class="notice" data-settings-outcome="not_configured">
      This console was started without <code>--model</code> and <code>--tools</code>: approving records the decision; continue the run with
      <code>toolwright resume ${runId} --model … --tools …</code>.
    </p>`,
  }[notice.outcome];
  return html`<div class="stored-settings" data-stored-settings>
    <p class="muted">Stored with this run (never run or contacted: a resume uses the operator's settings):</p>
    <ul>
      ${notice.stored.length > 0 ? notice.stored.map((line) => html`<li><code>${line}</code></li>`) : html`<li class="muted">nothing</li>`}
    </ul>
    ${
      notice.differences.length > 0
        ? html`<ul data-settings-mismatch>
            ${notice.differences.map(
              (difference) =>
                html`<li>${difference.setting}: stored <code>${difference.stored}</code>, this console's <code>${difference.configured}</code></li>`,
            )}
          </ul>`
        : ''
    }
    ${outcome}
  </div>`;
}
