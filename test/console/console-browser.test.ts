/**
 * The console in a real headless Chromium (Debian's `chromium`, driven by
 * playwright-core), as a person uses it: open the URL it printed, see the run
 * waiting, open its timeline (the two reads of one turn drawn side by side, a
 * tool result's markup shown as text), approve the waiting refund, see the run
 * resume and finish, and open an eval report. The browser asks for nothing
 * outside the console and logs no error (a Content-Security-Policy violation
 * would be one). Screenshots are left in `.cache/console-screenshot/`.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runEval } from '../../src/eval/run-eval.js';
import { createSimulator } from '../../src/eval/simulated-models.js';
import { HOSTILE, SECRET, startConsoleFixture } from './console-fixture.js';
import { CHROMIUM, launchChromium } from '../fixtures/chromium.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe.skipIf(!existsSync(CHROMIUM))(`the console in headless Chromium (skipped: no Chromium at ${CHROMIUM}; apt-get install chromium)`, () => {
  it('shows a run’s timeline, approves its waiting call, and the run resumes and finishes', async () => {
    const evals = mkdtempSync(join(tmpdir(), 'tw-console-evals-'));
    const profile = mkdtempSync(join(tmpdir(), 'tw-chromium-'));
    folders.push(evals, profile);
    await runEval({
      outDir: join(evals, 'naive'),
      limit: 2,
      seed: 1,
      model: { spec: 'sim:naive', simulator: true, create: (context) => createSimulator('sim:naive', context) },
    });
    const fixture = await startConsoleFixture({ evalDirs: [evals] });
    const context = await launchChromium(profile);
    const shots = join(root, '.cache', 'console-screenshot');
    mkdirSync(shots, { recursive: true });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const requests: string[] = [];
      const errors: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      const { origin } = fixture.console;

      // The printed URL: the token is swapped for a cookie and leaves the address bar.
      await page.goto(fixture.console.url, { waitUntil: 'load' });
      expect(page.url()).toBe(`${origin}/`);
      const row = page.locator(`#runs tr[data-run-id="${fixture.runId}"]`);
      expect(await row.locator('td').nth(1).innerText()).toBe('awaiting confirmation');
      expect(await row.locator('td').nth(2).innerText()).toBe('scripted:model');
      expect(await row.locator('td').nth(3).innerText()).toBe('get_invoice, get_notes, refund');
      expect(await page.locator('header nav').innerText()).toContain('Approvals (1)');
      writeFileSync(join(shots, 'runs.png'), await page.screenshot({ fullPage: true }));

      // The timeline: two model calls so far, the two reads of the first turn overlapping on the time axis.
      await row.locator('a.prompt').click();
      await page.waitForURL(`${origin}/runs/${fixture.runId}`);
      expect(await page.locator('#timeline li.span[data-kind="model"]').count()).toBe(2);
      const bar = async (callKey: string) => {
        const rect = page.locator(`#timeline li.span[data-call-key="${callKey}"] svg rect`);
        const x = Number(await rect.getAttribute('x'));
        return { start: x, end: x + Number(await rect.getAttribute('width')) };
      };
      const invoice = await bar('0.0');
      const notes = await bar('0.1');
      expect(invoice.start < notes.end && notes.start < invoice.end).toBe(true);
      // The markup in a tool result is text on the page: no script ran, no element was made.
      const notesRow = page.locator('#timeline li.span[data-call-key="0.1"]');
      await notesRow.locator('details').nth(1).locator('summary').click();
      const resultText = await notesRow.locator('details').nth(1).locator('pre').innerText();
      expect(resultText).toContain(JSON.stringify(HOSTILE).slice(1, -1));
      expect(resultText).toContain('key [REDACTED]');
      expect(await page.content()).not.toContain(SECRET);
      expect(await page.title()).toBe(`Run ${fixture.runId} · toolwright console`);
      expect(await page.locator('#timeline img, #timeline script').count()).toBe(0);
      writeFileSync(join(shots, 'timeline.png'), await page.screenshot({ fullPage: true }));

      // Approve from the approvals page: the same signed, single-use decision as `toolwright approvals approve`, then the run resumes.
      await page.locator('header nav a', { hasText: 'Approvals' }).click();
      const card = page.locator(`section.approval[data-approval-id="${fixture.approvalId}"]`);
      expect(await card.locator('.summary').innerText()).toBe('Refund $40 on invoice INV-7');
      writeFileSync(join(shots, 'approvals.png'), await page.screenshot({ fullPage: true }));
      await card.locator('button.approve').click();
      await page.waitForURL(`${origin}/approvals/${fixture.approvalId}`);
      await fixture.console.idle();
      await page.goto(`${origin}/runs/${fixture.runId}`);
      expect(await page.locator('#run-status').innerText()).toBe('completed');
      expect(fixture.refunds).toEqual(['INV-7']);
      const refund = page.locator('#timeline li.span[data-call-key="1.0"]');
      expect(await refund.locator('.status').innerText()).toBe('succeeded');
      expect(await refund.locator('.decisions').innerText()).toContain('approved by a person');
      expect(await page.locator('#timeline li.span[data-kind="model"]').count()).toBe(3);
      expect(await page.locator('header nav').innerText()).not.toContain('Approvals (');
      writeFileSync(join(shots, 'finished.png'), await page.screenshot({ fullPage: true }));

      // The eval report opens from the console, under its own sandboxing policy.
      await page.goto(`${origin}/evals`);
      await page.locator('#evals a').first().click();
      await page.waitForURL(`${origin}/evals/0/report.html`);
      expect(await page.locator('h1').innerText()).toMatch(/^Injection evaluation: /);
      expect(await page.locator('figure.chart svg').count()).toBe(2);
      writeFileSync(join(shots, 'eval-report.png'), await page.screenshot());

      expect(requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await fixture.close();
    }
  }, 60_000);
});
