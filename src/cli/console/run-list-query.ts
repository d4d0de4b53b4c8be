/**
 * The run list's query string (`/?q=refund&status=stopped&model=…&tool=…&page=2`), parsed strictly: a parameter the list
 * does not take, one given twice, a page that is not a whole number in range or a text over its length is refused with a
 * message that says what the list takes, never a crash and never a silently different list. Then the filter and the page.
 * @module
 */
import type { RunSummary } from './console-runs.js';

/** Runs on one page of the list. */
export const RUNS_PER_PAGE = 50;
/** The most recent runs the list searches, filters and pages through (the store's and the records folder's, each). */
export const MAX_LISTED_RUNS = 1_000;
/** A search text or a filter value longer than this is refused. */
const MAX_QUERY_CHARS = 200;
const MAX_PAGE = Math.ceil((2 * MAX_LISTED_RUNS) / RUNS_PER_PAGE);

/** The statuses the filter offers: the store's and the record's, and the console's own `interrupted`. */
export const RUN_STATUSES = ['running', 'awaiting_confirmation', 'completed', 'stopped', 'interrupted', 'unknown'] as const;

export interface RunListQuery {
  /** Case-insensitive text looked for in the prompt, answer, error and run id. */
  text?: string;
  status?: (typeof RUN_STATUSES)[number];
  model?: string;
  tool?: string;
  /** From 1. */
  page: number;
}

export type ParsedRunListQuery = { ok: true; query: RunListQuery } | { ok: false; message: string };

const PARAMETERS = ['q', 'status', 'model', 'tool', 'page'] as const;

/** Parses the list's query string; an empty value (a form's blank field or "any" choice) means no filter. */
export function parseRunListQuery(params: URLSearchParams): ParsedRunListQuery {
  const query: RunListQuery = { page: 1 };
  const seen = new Set<string>();
  for (const [name, value] of params) {
    if (!(PARAMETERS as readonly string[]).includes(name))
      return refused(`The run list takes no parameter "${name}": it takes q (search text), status, model, tool and page.`);
    if (seen.has(name)) return refused(`The parameter "${name}" is given twice: give it once.`);
    seen.add(name);
    if (value.length > MAX_QUERY_CHARS) return refused(`The parameter "${name}" is ${value.length} characters long: at most ${MAX_QUERY_CHARS}.`);
    const trimmed = value.trim();
    if (trimmed === '') continue;
    if (name === 'page') {
      const page = /^[0-9]{1,6}$/.test(trimmed) ? Number(trimmed) : NaN;
      if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE) return refused(`page must be a whole number from 1 to ${MAX_PAGE} (got "${trimmed}").`);
      query.page = page;
    } else if (name === 'status') {
      const status = RUN_STATUSES.find((candidate) => candidate === trimmed || candidate.replace(/_/g, ' ') === trimmed);
      if (!status) return refused(`status must be one of ${RUN_STATUSES.join(', ')} (got "${trimmed}").`);
      query.status = status;
    } else if (name === 'q') query.text = trimmed;
    else query[name as 'model' | 'tool'] = trimmed;
  }
  return { ok: true, query };
}

function refused(message: string): ParsedRunListQuery {
  return { ok: false, message };
}

/** The runs the query selects, in the order given. */
export function filterRuns(runs: readonly RunSummary[], query: RunListQuery): RunSummary[] {
  const text = query.text?.toLowerCase();
  return runs.filter(
    (run) =>
      (query.status === undefined || run.status === query.status) &&
      (query.model === undefined || run.model === query.model) &&
      (query.tool === undefined || run.tools.includes(query.tool)) &&
      (text === undefined || [run.runId, run.prompt, run.answer, run.error].some((field) => field?.toLowerCase().includes(text))),
  );
}

export interface RunListPage {
  runs: RunSummary[];
  page: number;
  pages: number;
  total: number;
}

/** One page of the selected runs; a page past the last is the last (an empty list has one, empty, page). */
export function pageOf(runs: readonly RunSummary[], page: number): RunListPage {
  const pages = Math.max(1, Math.ceil(runs.length / RUNS_PER_PAGE));
  const shown = Math.min(page, pages);
  return { runs: runs.slice((shown - 1) * RUNS_PER_PAGE, shown * RUNS_PER_PAGE), page: shown, pages, total: runs.length };
}

/** The list's address for a query, with only the parameters that are set. */
export function runListHref(query: RunListQuery, page = query.page): string {
  const params = new URLSearchParams();
  if (query.text !== undefined) params.set('q', query.text);
  if (query.status !== undefined) params.set('status', query.status);
  if (query.model !== undefined) params.set('model', query.model);
  if (query.tool !== undefined) params.set('tool', query.tool);
  if (page !== 1) params.set('page', String(page));
  const search = params.toString();
  return search === '' ? '/' : `/?${search}`;
}
