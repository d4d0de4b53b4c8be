/**
 * The run list, the calls waiting on top of it and a decision's page, in headless Chromium as a person uses them: every
 * run reads without opening it (the task, the answer or the error, status, cost or "unknown"), the GET search form
 * searches and filters, the pages page, a run whose process died shows as interrupted, approving from the list lands
 * on a page that says what happened and what happens next, the list fits a 390 px screen, and an eval report leads
 * back to the console. With TOOLWRIGHT_UPDATE_SCREENSHOTS=1 its screenshots replace those in docs/.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { runEval } from '../../src/eval/run-eval.js';
import { createSimulator } from '../../src/eval/simulated-models.js';
import { CHROMIUM, launchChromium } from '../fixtures/chromium.js';
import { startConsoleFixture } from './console-fixture.js';
import { listedRuns, writeListedRun } from './run-list-fixture.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const shots = process.env.TOOLWRIGHT_UPDATE_SCREENSHOTS === '1' ? join(root, 'docs') : join(root, '.cache', 'console-screenshot');
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const rowTexts = (page: Page, selector: string) => page.locator(`#runs tbody tr ${selector}`).allInnerTexts();

describe.skipIf(!existsSync(CHROMIUM))(`the run list in headless Chromium (skipped: no Chromium at ${CHROMIUM}; apt-get install chromium)`, () => {
  it('previews each run, searches, filters and pages, shows dead runs as interrupted, and confirms a decision', async () => {
    const evals = mkdtempSync(join(tmpdir(), 'tw-list-evals-'));
    const profile = mkdtempSync(join(tmpdir(), 'tw-chromium-'));
    folders.push(evals, profile);
    await runEval({
      outDir: join(evals, 'naive'),
      limit: 2,
      seed: 1,
      model: { spec: 'sim:naive', simulator: true, create: (context) => createSimulator('sim:naive', context) },
    });
    const fixture = await startConsoleFixture({ evalDirs: [evals] });
    const runsDir = join(fixture.folder, 'runs');
    const listed = listedRuns(56); // with the fixture's paused run, its recorded conversation, run_died and run_lapsed: 60
    for (const run of listed) writeListedRun(runsDir, run);
    // A run whose process died: its record has no stop and has not changed for two hours.
    const { answer: _answer, ...started } = listed[0]!;
    writeListedRun(runsDir, { ...started, runId: 'run_died', status: 'running', prompt: 'Reconcile the March payouts.' }, Date.now() - 2 * 3_600_000);
    // A run in the store left `running` under a lease that lapsed (its worker stopped renewing it).
    const { state } = (await fixture.store.loadRun(fixture.runId))!;
    await fixture.store.saveRun({ runId: 'run_lapsed', status: 'running', state: { ...state, runId: 'run_lapsed' } });
    const claimed = await fixture.store.claimRun('run_lapsed', {
      takeOver: true,
      lease: { owner: 'gone', holder: 'pid 4242 on worker-3', expiresAt: Date.now() - 1_000 },
      now: Date.now() - 60_000,
    });
    expect(claimed).toEqual({ claimed: true });

    const context = await launchChromium(profile);
    mkdirSync(shots, { recursive: true });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      const { origin } = fixture.console;
      await page.goto(fixture.console.url, { waitUntil: 'load' });

      // Each row reads without opening the run: the task, the answer or the error, and a cost that is not a made-up $0.
      const row = (runId: string) => page.locator(`#runs tr[data-run-id="${runId}"]`);
      expect(await row('run_list_001').locator('.prompt').innerText()).toBe('Find the refund policy for annual plans and quote the paragraph on pro-rating.');
      expect(await row('run_list_001').locator('.outcome.answer').innerText()).toBe(
        'ANSWER Annual plans are refunded pro rata for the unused months: "A customer who cancels…"',
      );
      expect(await row('run_list_002').locator('.prompt').innerText()).toBe('What does invoice INV-2041 still owe? …');
      expect(await row('run_list_003').locator('.outcome.error').innerText()).toBe(
        'ERROR The run reached its limit of 8 model calls before the model finished.',
      );
      expect(await row('run_list_003').locator('td.cost').innerText()).toBe('unknown');
      expect(await row('run_list_001').locator('td.cost').innerText()).toBe('$0.0012');
      expect(await row(fixture.runId).locator('.prompt').innerText()).toBe('Refund what INV-7 is owed.');
      expect(await row('run_died').locator('.status').innerText()).toBe('interrupted');
      expect(await row('run_lapsed').locator('.status').innerText()).toBe('interrupted');
      // The call waiting for a person sits on top of the list, with its summary and arguments.
      const card = page.locator(`#waiting section.approval[data-approval-id="${fixture.approvalId}"]`);
      expect(await card.locator('.summary').innerText()).toBe('Refund $40 on invoice INV-7');
      expect(await card.locator('dl.arguments').innerText()).toContain('INV-7');
      expect(await page.locator('#waiting .waiting-task').innerText()).toBe('For the task Refund what INV-7 is owed.');
      writeFileSync(join(shots, 'console-runs.png'), await page.screenshot());

      // 60 runs: 50 on the first page, 10 on the next.
      expect(await page.locator('#run-count').innerText()).toBe('1–50 of 60 runs');
      expect(await page.locator('#runs tbody tr').count()).toBe(50);
      await page.locator('.pager a[rel="next"]').click();
      await page.waitForURL(`${origin}/?page=2`);
      expect(await page.locator('#runs tbody tr').count()).toBe(10);
      expect(await page.locator('#run-count').innerText()).toBe('51–60 of 60 runs');

      // The search form (GET, no script): text over the task, answer, error and id; then status, model and tool.
      await page.locator('#run-search input[name="q"]').fill('inv-2041');
      await page.locator('#run-search button').click();
      await page.waitForURL(`${origin}/?q=inv-2041&status=&model=&tool=`);
      const found = await rowTexts(page, '.prompt');
      expect(found.length).toBe(listed.filter((run) => run.prompt.includes('INV-2041')).length);
      expect(found.every((text) => text.includes('INV-2041'))).toBe(true);
      expect(await page.locator('#run-search input[name="q"]').inputValue()).toBe('inv-2041');

      await page.goto(`${origin}/`);
      await page.locator('#run-search select[name="status"]').selectOption('stopped');
      await page.locator('#run-search button').click();
      await page.waitForURL(/status=stopped/);
      expect(await rowTexts(page, '.status')).toEqual(listed.filter((run) => run.status === 'stopped').map(() => 'stopped'));

      // Each choice says how many runs have it; a model, tool or status in a row is one click to its runs.
      await page.goto(`${origin}/`);
      const stoppedCount = listed.filter((run) => run.status === 'stopped').length;
      expect((await page.locator('#run-search select[name="status"] option[value="stopped"]').innerText()).trim()).toBe(`stopped (${stoppedCount})`);
      await row('run_list_002').locator('td.model a').click();
      await page.waitForURL(`${origin}/?model=anthropic%3Aclaude-sonnet-4-5`);
      expect(new Set(await rowTexts(page, 'td.model'))).toEqual(new Set(['anthropic:claude-sonnet-4-5']));
      expect(await page.locator('#runs tbody tr').count()).toBe(listed.filter((run) => run.model === 'anthropic:claude-sonnet-4-5').length);

      await page.goto(`${origin}/`);
      await page.locator('#run-search select[name="model"]').selectOption('openai:gpt-4o-mini');
      await page.locator('#run-search select[name="tool"]').selectOption('refund');
      await page.locator('#run-search button').click();
      await page.waitForURL(/tool=refund/);
      const expected = listed.filter((run) => run.model === 'openai:gpt-4o-mini' && run.tools.includes('refund')).map((run) => run.runId);
      expect(expected.length).toBeGreaterThan(1);
      expect(await page.locator('#runs tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-run-id')))).toEqual(expected);

      // A query the list does not take is a clear 400, not a crash or a different list.
      const bad = await page.goto(`${origin}/?page=abc`);
      expect(bad?.status()).toBe(400);
      expect(await page.locator('main').innerText()).toContain('page must be a whole number from 1 to');
      // The browser logs the 400 it was meant to get.
      errors.splice(0, errors.length, ...errors.filter((error) => !error.includes('status of 400')));

      // A desktop and a phone: nothing wider than the screen, on the list and on the approvals.
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 844 });
        for (const path of ['/', '/approvals']) {
          await page.goto(`${origin}${path}`);
          // The page function runs in the browser (no DOM lib in this project's types).
          const scrollWidth = await page.evaluate(
            () => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth,
          );
          expect(scrollWidth, `${path} at ${width} px`).toBeLessThanOrEqual(width);
        }
      }
      await page.goto(`${origin}/`);
      writeFileSync(join(shots, 'console-runs-390.png'), await page.screenshot({ fullPage: false }));
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${origin}/approvals`);
      writeFileSync(join(shots, 'console-approvals.png'), await page.screenshot({ fullPage: true }));

      // Approve from the list: the decision's page says what was done and what happens next, and follows the resume.
      await page.goto(`${origin}/`);
      await page.locator(`#waiting section.approval[data-approval-id="${fixture.approvalId}"] button.approve`).click();
      await page.waitForURL(`${origin}/approvals/${fixture.approvalId}`);
      expect(await page.locator('#decision h1').innerText()).toBe('You approved refund');
      expect(await page.locator('#decision .summary').innerText()).toBe('Refund $40 on invoice INV-7');
      await fixture.console.idle();
      await page.reload();
      expect(await page.locator('#next').innerText()).toBe('The run continued (the call runs) and is now completed.');
      expect(fixture.refunds).toEqual(['INV-7']);
      writeFileSync(join(shots, 'console-decided.png'), await page.screenshot({ fullPage: true }));
      await page.locator('.links a', { hasText: 'Open the run' }).click();
      await page.waitForURL(`${origin}/runs/${fixture.runId}`);
      await page.goto(`${origin}/`);
      expect(await page.locator('#waiting').count()).toBe(0);
      expect(await row(fixture.runId).locator('.outcome.answer').innerText()).toBe('ANSWER All done.');

      // An eval report, served by the console, leads back to it.
      await page.goto(`${origin}/evals`);
      await page.locator('#evals a').first().click();
      await page.waitForURL(`${origin}/evals/0/report.html`);
      writeFileSync(join(shots, 'console-eval-report.png'), await page.screenshot());
      await page.locator('#console-way-back a', { hasText: 'Runs' }).click();
      await page.waitForURL(`${origin}/`);
      expect(await page.locator('h1').first().innerText()).toBe('Runs');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await fixture.close();
    }
  }, 90_000);
});
