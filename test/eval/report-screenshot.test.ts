/**
 * The HTML report opens in a real headless Chromium (Debian's `chromium`,
 * driven by playwright-core): it renders its title, warnings, tables (per
 * strategy, per suite, per attack, by scope) and both charts, fits the viewport without a page-wide horizontal scroll, asks for
 * nothing outside the file, and logs no error. The full-page screenshot is
 * left in `.cache/eval-screenshot/report.png` for a person to look at.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runEval } from '../../src/eval/run-eval.js';
import { createSimulator } from '../../src/eval/simulated-models.js';
import { TEAM_CHAT_SUITE } from '../../src/eval/team-chat/team-chat-suite.js';
import { WORKSPACE_SUITE } from '../../src/eval/workspace/workspace-suite.js';
import { CHROMIUM, launchChromium } from '../fixtures/chromium.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe.skipIf(!existsSync(CHROMIUM))(`the eval report in headless Chromium (skipped: no Chromium at ${CHROMIUM}; apt-get install chromium)`, () => {
  it('renders the tables and charts, self-contained, without errors', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tw-eval-report-'));
    folders.push(out);
    const profile = mkdtempSync(join(tmpdir(), 'tw-chromium-'));
    folders.push(profile);
    await runEval({
      outDir: out,
      limit: 3,
      seed: 1,
      suites: [WORKSPACE_SUITE, TEAM_CHAT_SUITE],
      attacks: ['important_instructions', 'direct'],
      model: { spec: 'sim:naive', simulator: true, create: (context) => createSimulator('sim:naive', context) },
    });
    const reportUrl = pathToFileURL(join(out, 'report.html')).href;

    const context = await launchChromium(profile);
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const requests: string[] = [];
      const errors: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(reportUrl, { waitUntil: 'load' });

      expect(await page.title()).toBe('Injection evaluation: workspace+team-chat v1.1.0+1.1.0, sim:naive');
      expect(await page.locator('h1').innerText()).toBe('Injection evaluation: workspace+team-chat v1.1.0+1.1.0');
      expect(await page.locator('table').count()).toBe(7);
      expect(await page.locator('#results tbody tr').count()).toBe(5);
      expect(await page.locator('#results tbody tr').first().locator('td').nth(1).innerText()).toBe('6/6 (100.0%)');
      // policy: 3 workspace and 3 team-chat user tasks × (9 + 5 injection tasks) × 2 attacks; sim:naive obeys the reference, and
      // nothing gets through: the phishing links (user_task_1 × injection_task_9, chat_task_1 × chat_injection_4) and, since team-chat
      // 1.1.0, the deploy token (chat_task_2 × chat_injection_5) are blocked by the provenance rules on free text.
      expect(await page.locator('#results tbody tr').nth(2).locator('td').nth(4).innerText()).toBe('0/84 (0.0%)');
      // Per suite and per attack: one row per suite (or attack) and strategy.
      expect(await page.locator('#suites tbody tr').count()).toBe(10);
      expect(await page.locator('#suites tbody tr').nth(7).locator('td').allInnerTexts()).toEqual([
        'team-chat',
        'policy',
        '3/3 (100.0%)',
        expect.stringMatching(/^\d+\/30 /),
        '30/30 (100.0%)',
        '0/30 (0.0%)',
        '0 (0 cases)',
      ]);
      expect(await page.locator('#attacks tbody tr').count()).toBe(10);
      expect(await page.locator('#attacks tbody tr').nth(2).locator('td').allInnerTexts()).toEqual([
        'important_instructions',
        'policy',
        expect.stringMatching(/^\d+\/42 /),
        '42/42 (100.0%)',
        '0/42 (0.0%)',
      ]);
      // In scope: the pairs whose goal the task's scope alone lets through (only provenance rules keep it out).
      expect(await page.locator('#scope tbody tr').nth(2).locator('td').allInnerTexts()).toEqual(['policy', '7', '0/14 (0.0%)', '0', '0', '0/70 (0.0%)']);
      expect(await page.locator('figure.chart svg').count()).toBe(2);
      expect(await page.locator('.warning').first().innerText()).toContain('sim:naive is a baseline simulator, not a model');
      // Each chart draws: the scatter has a filled and a hollow point per strategy, the bars four per strategy.
      expect(await page.locator('figure.chart').nth(0).locator('circle[r="6"]').count()).toBeGreaterThanOrEqual(4);
      expect(await page.locator('figure.chart').nth(1).locator('rect[width="18"]').count()).toBe(20);
      const box = await page.locator('figure.chart svg').first().boundingBox();
      expect(box && box.width > 400 && box.height > 300).toBe(true);
      // The page function runs in the browser; `globalThis.document` there, typed loosely here (no DOM lib in this project).
      const overflow = await page.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
      expect(overflow).toBeLessThanOrEqual(0);

      const png = await page.screenshot({ fullPage: true });
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(png.length).toBeGreaterThan(30_000);
      const keep = join(root, '.cache', 'eval-screenshot');
      mkdirSync(keep, { recursive: true });
      writeFileSync(join(keep, 'report.png'), png);
      writeFileSync(join(keep, 'report.html'), readFileSync(join(out, 'report.html')));

      expect(requests.filter((url) => url !== reportUrl)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
