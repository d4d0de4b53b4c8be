/**
 * The run list's query string is parsed strictly (a bad value is a message, never a crash or a different list), and
 * the filter, the page and the links it makes agree with it.
 */
import { describe, expect, it } from 'vitest';
import type { RunSummary } from './console-runs.js';
import { filterRuns, MAX_LISTED_RUNS, pageOf, parseRunListQuery, runListHref, RUNS_PER_PAGE, type RunListQuery } from './run-list-query.js';

const parse = (search: string) => parseRunListQuery(new URLSearchParams(search));
const maxPage = Math.ceil((2 * MAX_LISTED_RUNS) / RUNS_PER_PAGE);

function run(runId: string, fields: Partial<RunSummary> = {}): RunSummary {
  return { runId, status: 'completed', model: 'openai:gpt-4o-mini', tools: [], costUsd: 0, durationMs: 1, startedAt: 1, updatedAt: 1, ...fields };
}

describe('parseRunListQuery', () => {
  it('reads the search text, status, model, tool and page; blank values (a form’s "any") filter nothing', () => {
    expect(parse('')).toEqual({ ok: true, query: { page: 1 } });
    expect(parse('q=&status=&model=&tool=')).toEqual({ ok: true, query: { page: 1 } });
    expect(parse('q=+refund+&status=stopped&model=openai%3Agpt-4o&tool=send_email&page=3')).toEqual({
      ok: true,
      query: { text: 'refund', status: 'stopped', model: 'openai:gpt-4o', tool: 'send_email', page: 3 },
    });
    expect(parse('status=awaiting+confirmation')).toEqual({ ok: true, query: { status: 'awaiting_confirmation', page: 1 } });
    expect(parse(`page=${maxPage}`)).toEqual({ ok: true, query: { page: maxPage } });
  });

  it('refuses a page that is not a whole number in range, with the range in the message', () => {
    for (const page of ['abc', '0', '-1', '1.5', '1e3', '0x10', String(maxPage + 1), '99999999999999999999']) {
      expect(parse(`page=${encodeURIComponent(page)}`), page).toEqual({
        ok: false,
        message: expect.stringContaining(`page must be a whole number from 1 to ${maxPage}`),
      });
    }
  });

  it('refuses an unknown status, an unknown parameter, a parameter given twice and a value over 200 characters', () => {
    expect(parse('status=done')).toEqual({ ok: false, message: expect.stringContaining('status must be one of running, awaiting_confirmation, completed') });
    expect(parse('sort=cost')).toEqual({ ok: false, message: expect.stringContaining('takes no parameter "sort"') });
    expect(parse('q=a&q=b')).toEqual({ ok: false, message: 'The parameter "q" is given twice: give it once.' });
    expect(parse(`q=${'x'.repeat(201)}`)).toEqual({ ok: false, message: 'The parameter "q" is 201 characters long: at most 200.' });
    expect(parse(`q=${'x'.repeat(200)}`).ok).toBe(true);
  });
});

describe('filterRuns, pageOf and runListHref', () => {
  const runs = [
    run('run_a', { prompt: 'Refund INV-7', answer: 'Refunded $40.', tools: ['refund'] }),
    run('run_b', { status: 'stopped', error: 'The run reached its limit of 8 model calls', model: 'anthropic:claude-sonnet-4-5', tools: ['search'] }),
    run('run_c', { prompt: 'Search the docs', tools: ['search', 'refund'] }),
  ];
  const ids = (query: Partial<RunListQuery>) => filterRuns(runs, { page: 1, ...query }).map((found) => found.runId);

  it('searches the task, answer, error and id case-insensitively, and filters by status, model and tool', () => {
    expect(ids({ text: 'refund' })).toEqual(['run_a']);
    expect(ids({ text: 'LIMIT OF 8' })).toEqual(['run_b']);
    expect(ids({ text: 'run_c' })).toEqual(['run_c']);
    expect(ids({ status: 'stopped' })).toEqual(['run_b']);
    expect(ids({ model: 'openai:gpt-4o-mini' })).toEqual(['run_a', 'run_c']);
    expect(ids({ tool: 'refund' })).toEqual(['run_a', 'run_c']);
    expect(ids({ tool: 'search', model: 'openai:gpt-4o-mini' })).toEqual(['run_c']);
    expect(ids({ text: 'nothing like it' })).toEqual([]);
  });

  it('pages by RUNS_PER_PAGE; a page past the last shows the last', () => {
    const many = Array.from({ length: RUNS_PER_PAGE * 2 + 3 }, (_, index) => run(`run_${index}`));
    expect(pageOf(many, 1)).toMatchObject({ page: 1, pages: 3, total: RUNS_PER_PAGE * 2 + 3 });
    expect(pageOf(many, 1).runs).toHaveLength(RUNS_PER_PAGE);
    expect(pageOf(many, 3).runs.map((found) => found.runId)).toEqual(['run_100', 'run_101', 'run_102']);
    expect(pageOf(many, 9)).toMatchObject({ page: 3, pages: 3 });
    expect(pageOf([], 1)).toEqual({ runs: [], page: 1, pages: 1, total: 0 });
  });

  it('makes links that parse back to the same query', () => {
    const query: RunListQuery = { text: 'a & b', status: 'stopped', model: 'local:x.gguf', tool: 'refund', page: 2 };
    const href = runListHref(query);
    expect(parse(href.slice(2))).toEqual({ ok: true, query });
    expect(runListHref({ page: 1 })).toBe('/');
    expect(runListHref(query, 1)).not.toContain('page=');
  });
});
