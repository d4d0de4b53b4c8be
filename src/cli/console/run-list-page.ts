/**
 * The run list (`/`): calls waiting for a person on top, then a GET search form (no script) and one row per run that
 * reads without opening it: the task, the answer or the error, status, model, tools, cost, duration and start, paged.
 * @module
 */
import type { StoredConfirmation } from '../../agent/index.js';
import { findPrice } from '../../agent/index.js';
import { formatDuration, formatTime } from './console-format.js';
import { approvalCard } from './console-pages.js';
import { layout } from './console-layout.js';
import type { RunSummary } from './console-runs.js';
import { html, type Html } from './html.js';
import { RUN_STATUSES, RUNS_PER_PAGE, runListHref, type RunListPage, type RunListQuery } from './run-list-query.js';
import type { StoredSettingsNotice } from './stored-settings-card.js';

/** A preview line longer than this is cut with an ellipsis (the stylesheet also cuts it at the cell's width). */
const LINE_CHARS = 160;

export interface RunListInput {
  /** The page of runs to show, and where it sits in the selection. */
  list: RunListPage;
  query: RunListQuery;
  /** Every run the list searched (before the query), for the filter's choices. */
  searched: readonly RunSummary[];
  pending: readonly StoredConfirmation[];
  formToken: string;
  storedSettings?: ReadonlyMap<string, StoredSettingsNotice>;
}

export function runListPage(input: RunListInput): Html {
  const { list, query } = input;
  const filtered = query.text !== undefined || query.status !== undefined || query.model !== undefined || query.tool !== undefined;
  return layout(
    { title: 'Runs', section: 'runs', pendingCount: input.pending.length },
    html`${input.pending.length > 0 ? waitingSection(input) : ''}
      <h1>Runs</h1>
      ${searchForm(query, input.searched)}
      ${
        list.total === 0
          ? html`<p class="notice" id="no-runs">
              ${
                filtered
                  ? html`No run matches: <a href="/">show every run</a>.`
                  : html`No runs yet: runs started with <code>toolwright run</code> (or with this store and records folder) show here.`
              }
            </p>`
          : html`<p class="muted" id="run-count">
                ${(list.page - 1) * RUNS_PER_PAGE + 1}–${(list.page - 1) * RUNS_PER_PAGE + list.runs.length} of ${list.total}
                ${list.total === 1 ? 'run' : 'runs'}${filtered ? html` matching · <a href="/">clear the search</a>` : ''}
              </p>
              <div class="table-scroll">
                <table id="runs" class="run-list">
                  <thead>
                    <tr>
                      <th>Task and outcome</th>
                      <th>Status</th>
                      <th>Model</th>
                      <th>Tools</th>
                      <th>Cost</th>
                      <th>Duration</th>
                      <th>Started</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${list.runs.map(runRow)}
                  </tbody>
                </table>
              </div>
              ${pager(list, query)}`
      }`,
  );
}

function runRow(run: RunSummary): Html {
  const href = `/runs/${encodeURIComponent(run.runId)}`;
  const outcome =
    run.error !== undefined
      ? html`<div class="outcome error"><span class="outcome-label">error</span> ${firstLine(run.error)}</div>`
      : run.answer !== undefined
        ? html`<div class="outcome answer"><span class="outcome-label">answer</span> ${firstLine(run.answer)}</div>`
        : '';
  return html`<tr data-run-id="${run.runId}">
    <td class="run-cell">
      <a class="prompt" href="${href}">${run.prompt !== undefined ? firstLine(run.prompt) : html`<span class="muted">(no task recorded)</span>`}</a>
      ${outcome}
      <a class="run-id" href="${href}"><code>${run.runId}</code></a>
    </td>
    <td>
      <a class="filter status status-${run.status}" href="${filterHref({ status: run.status })}" title="only ${run.status.replace(/_/g, ' ')} runs"
        >${run.status.replace(/_/g, ' ')}</a
      >
    </td>
    <td class="model">
      ${
        run.model !== undefined
          ? html`<a class="filter" href="${filterHref({ model: run.model })}" title="only this model's runs">${run.model}</a>`
          : html`<span class="muted">unknown</span>`
      }
    </td>
    <td class="tools">
      ${
        run.tools.length
          ? run.tools.map(
              (tool, index) => html`${index > 0 ? ', ' : ''}<a class="filter" href="${filterHref({ tool })}" title="only runs offered this tool">${tool}</a>`,
            )
          : html`<span class="muted">none</span>`
      }
    </td>
    <td class="num cost">${formatCost(run)}</td>
    <td class="num">${run.durationMs !== undefined ? formatDuration(run.durationMs) : '–'}</td>
    <td class="num started">${run.startedAt !== undefined ? formatTime(run.startedAt) : '–'}</td>
  </tr>`;
}

/** One click to the runs that share a status, model or tool (LangSmith's filter shortcuts); for a status the list does not filter by, the whole list. */
function filterHref(filter: { status?: string; model?: string; tool?: string }): string {
  const status = RUN_STATUSES.find((candidate) => candidate === filter.status);
  if (filter.status !== undefined && status === undefined) return '/';
  return runListHref({
    page: 1,
    ...(status ? { status } : {}),
    ...(filter.model !== undefined ? { model: filter.model } : {}),
    ...(filter.tool !== undefined ? { tool: filter.tool } : {}),
  });
}

/**
 * A run's cost as the page shows it: "unknown" when the model has no price (the run then records $0, which is not what
 * it cost), "–" before the run's first stop. A price comes from the built-in table or, when the run recorded a cost
 * above zero, from the caller's own prices.
 */
export function formatCost(run: Pick<RunSummary, 'costUsd' | 'model'>): string {
  if (run.costUsd === undefined) return '–';
  const priceKnown = run.costUsd > 0 || (run.model !== undefined && findPrice(run.model) !== undefined);
  return priceKnown ? `$${run.costUsd.toFixed(4)}` : 'unknown';
}

/** The first line of a text, cut to {@link LINE_CHARS} with an ellipsis when there is more. */
export function firstLine(text: string): string {
  const trimmed = text.trim();
  const end = trimmed.indexOf('\n');
  const line = end === -1 ? trimmed : trimmed.slice(0, end).trimEnd();
  return line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}…` : end === -1 ? line : `${line} …`;
}

function searchForm(query: RunListQuery, searched: readonly RunSummary[]): Html {
  // Each choice with how many of the searched runs have it, as Langfuse's filter sidebar counts its values.
  const count = (values: readonly string[]) => {
    const counts = new Map<string, number>();
    for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
    return counts;
  };
  const statuses = count(searched.map((run) => run.status));
  const models = count(searched.flatMap((run) => (run.model !== undefined ? [run.model] : [])));
  const tools = count(searched.flatMap((run) => run.tools));
  const select = (name: string, label: string, choices: readonly string[], counts: Map<string, number>, selected: string | undefined) =>
    html`<select name="${name}" aria-label="${label}">
      <option value="">any ${label}</option>
      ${choices.map(
        (choice) =>
          html`<option value="${choice}" ${choice === selected ? html` selected` : ''}>
            ${name === 'status' ? choice.replace(/_/g, ' ') : choice} (${counts.get(choice) ?? 0})
          </option>`,
      )}
    </select>`;
  return html`<form id="run-search" class="search" method="get" action="/" role="search">
    <input type="search" name="q" value="${query.text ?? ''}" maxlength="200" placeholder="Search task, answer, error, run id" aria-label="search" />
    ${select('status', 'status', RUN_STATUSES, statuses, query.status)} ${select('model', 'model', [...models.keys()].sort(), models, query.model)}
    ${select('tool', 'tool', [...tools.keys()].sort(), tools, query.tool)}
    <button type="submit">Search</button>
  </form>`;
}

function pager(list: RunListPage, query: RunListQuery): Html {
  if (list.pages <= 1) return html``;
  return html`<nav class="pager" aria-label="pages">
    ${list.page > 1 ? html`<a rel="prev" href="${runListHref(query, list.page - 1)}">← newer</a>` : html`<span class="muted">← newer</span>`}
    <span>page ${list.page} of ${list.pages}</span>
    ${list.page < list.pages ? html`<a rel="next" href="${runListHref(query, list.page + 1)}">older →</a>` : html`<span class="muted">older →</span>`}
  </nav>`;
}

function waitingSection(input: RunListInput): Html {
  return html`<section id="waiting" aria-labelledby="waiting-title">
    <h2 id="waiting-title">Waiting for a decision (${input.pending.length})</h2>
    ${input.pending.map((item) => {
      // The run's task says what the call is for; the card says what it does.
      const task = input.searched.find((run) => run.runId === item.runId)?.prompt;
      return html`${
        task !== undefined ? html`<p class="waiting-task">For the task <a href="/runs/${encodeURIComponent(item.runId)}">${firstLine(task)}</a></p>` : ''
      }${approvalCard(item, input.formToken, true, input.storedSettings?.get(item.runId))}`;
    })}
  </section>`;
}
