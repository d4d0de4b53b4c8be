/**
 * A run's page in headless Chromium, read as a person reads it: the task, the answer and the outcome first; then the
 * conversation, where the answer, a tool's multi-line result and a failed call's recovery text are text with real line
 * breaks and quotes (no `\n` or `\"` escapes), arguments are a table (flat) or a tree (nested), the policy's block and
 * removal show with their reasons, and each entry's raw JSON is one click away. At 390 px wide (a phone) no page
 * scrolls sideways. Screenshots go to `.cache/console-screenshot/`; with `TOOLWRIGHT_UPDATE_SCREENSHOTS=1`, the run page's
 * (its record has fixed ids and times, so they are the same on every run) are written to `docs/` as well.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchChromium } from '../fixtures/chromium.js';
import { CONVERSATION_ANSWER, CONVERSATION_PROMPT, LONG_VALUE, ORDER_TEXT, startConsoleFixture, type ConsoleFixture } from './console-fixture.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const shots = join(root, '.cache', 'console-screenshot');
const docsShots = process.env.TOOLWRIGHT_UPDATE_SCREENSHOTS === '1' ? join(root, 'docs') : undefined;

describe.skipIf(!existsSync(CHROMIUM))(`a run's page in headless Chromium (skipped: no Chromium at ${CHROMIUM}; apt-get install chromium)`, () => {
  let fixture: ConsoleFixture;
  let profile: string;
  let context: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  const errors: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    profile = mkdtempSync(join(tmpdir(), 'tw-chromium-'));
    fixture = await startConsoleFixture();
    context = await launchChromium(profile);
    page = context.pages()[0] ?? (await context.newPage());
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(fixture.console.url, { waitUntil: 'load' });
  }, 30_000);

  afterAll(async () => {
    await context?.close();
    await fixture?.close();
    rmSync(profile, { recursive: true, force: true });
    expect(requests.filter((url) => !url.startsWith(`${fixture.console.origin}/`))).toEqual([]);
    expect(errors).toEqual([]);
  });

  const card = (tool: string, nth = 0) => page.locator(`#conversation li.call-card:has(.call-tool:text-is("${tool}"))`).nth(nth);

  it('leads with the task, the answer and the outcome, as text', async () => {
    await page.goto(`${fixture.console.origin}/runs/${fixture.conversationRunId}`);
    expect(await page.locator('#run-task').innerText()).toBe(CONVERSATION_PROMPT);
    // innerText keeps the answer's real line break and quotes: it is text, not a JSON string.
    expect(await page.locator('#run-answer').innerText()).toBe(CONVERSATION_ANSWER);
    const outcome = await page.locator('#run-outcome').innerText();
    expect(outcome).toContain('completed');
    // The scripted model has no price: the cost is unknown, not $0.0000.
    expect(outcome).toMatch(/Cost\s+unknown/);
    expect(outcome).toMatch(/Duration\s+3\.15 s active/);
    expect(outcome).toMatch(/Model\s+scripted:model/);
    expect(outcome).toMatch(/Calls\s+3 to the model, 5 to tools/);
    expect(outcome).toMatch(/Tokens\s+[\d,]+ in \/ [\d,]+ out/);
  });

  it('shows the conversation: bubbles, cards, results and recovery texts with real line breaks, decisions with their reasons', async () => {
    const roles = await page.locator('#conversation li.bubble').evaluateAll((items) => items.map((item) => item.getAttribute('data-role')));
    expect(roles).toEqual(['system', 'user', 'assistant']);
    expect(await page.locator('#conversation li.bubble-assistant .bubble-text').innerText()).toBe(CONVERSATION_ANSWER);

    // A multi-line result reads as the tool wrote it.
    const order = card('get_order');
    // The tool's effect, as the record's `tool_call` holds it.
    expect(await order.locator('.call-head .effect').innerText()).toBe('read');
    expect(await card('send_email').locator('.call-head .effect').innerText()).toBe('write');
    expect(await order.locator('.call-result').innerText()).toBe(ORDER_TEXT);
    // A flat object's arguments are a table of its keys.
    expect(await order.locator('.call-arguments table.value-table th').allInnerTexts()).toEqual(['order']);

    // The failed call: its recovery text exactly as the model read it, multi-line, quotes unescaped.
    const failed = card('refund_order', 0);
    expect(await failed.locator('.status').innerText()).toBe('failed');
    const recovery = await failed.locator('.call-result.recovery').innerText();
    expect(recovery).toContain('Invalid arguments for tool "refund_order" (1 problem):\n1. $.amount: must be a number; got the string "forty".\nFix it');
    expect(recovery).not.toMatch(/\\n|\\"/);
    expect(await card('refund_order', 1).locator('.status').innerText()).toBe('succeeded');

    // The policy's block, with its rule and reason, and the recovery text the model was sent.
    const email = card('send_email');
    expect(await email.locator('.status').innerText()).toBe('blocked');
    expect(await email.locator('.decision-block').innerText()).toContain(
      'Blocked by the policy allowed-values:send_email.to: to "eve@evil.example" is not one of the task\'s contacts ("ada@corp.example").',
    );
    expect(await email.locator('.call-result.recovery').innerText()).toMatch(/^Blocked by policy/);
    // A string argument with a line break is text in its table cell.
    expect(await email.locator('.call-arguments td').nth(1).innerText()).toBe('Your refund of $40 is on its way.\nRegards');

    // Nested arguments are a tree; the removal is highlighted with what was removed and why.
    const update = card('update_customer');
    expect(await update.locator('.call-arguments ul.value-tree').count()).toBeGreaterThan(0);
    const argumentsText = await update.locator('.call-arguments').innerText();
    expect(argumentsText).toContain('12 rue de la Paix');
    expect(argumentsText).toContain('see [link removed by policy]');
    expect(argumentsText).not.toContain('{');
    expect(await update.locator('.decision-removed').innerText()).toContain(
      'Removed from customer.note values-from:update_customer.customer.note: the URL "https://evil.example/x"',
    );
    // What the model sent before the policy took the URL out, one click away.
    await update.locator('details.call-original summary').click();
    expect(await update.locator('details.call-original').innerText()).toContain('refund sent; see https://evil.example/x');
  });

  it('keeps each entry’s raw JSON one click away', async () => {
    const failed = card('refund_order', 0);
    const raw = failed.locator('details.raw').last();
    expect(await raw.locator('pre').isVisible()).toBe(false);
    await raw.locator('summary').click();
    const lines = JSON.parse(await raw.locator('pre').innerText()) as { type: string; status?: string }[];
    expect(lines.map((line) => line.type)).toEqual(['tool_call', 'tool_result']);
    expect(lines[1]!.status).toBe('failed');
    writeFileSync(join(shots, 'run-page.png'), await page.screenshot({ fullPage: true }));
    if (docsShots) {
      await page.reload();
      writeFileSync(join(docsShots, 'console-run.png'), await page.screenshot({ fullPage: true }));
    }
  });

  it('fits a 390 px-wide screen: long values and wide argument tables wrap or scroll in their own box', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const path of [`/runs/${fixture.conversationRunId}`, `/runs/${fixture.runId}`]) {
        await page.goto(`${fixture.console.origin}${path}`);
        expect(await page.locator('html').evaluate((element) => element.scrollWidth), path).toBeLessThanOrEqual(390);
        // Every part of the page is still there: the long URL is shown whole, wrapped, not cut off.
        if (path.includes(fixture.conversationRunId)) {
          expect(await card('update_customer').locator('.call-arguments').innerText()).toContain(LONG_VALUE);
          writeFileSync(join(shots, 'run-page-390.png'), await page.screenshot({ fullPage: true }));
          if (docsShots) writeFileSync(join(docsShots, 'console-run-390.png'), await page.screenshot({ fullPage: true }));
        } else {
          expect(await page.locator('section.approval button.approve').isVisible()).toBe(true);
          writeFileSync(join(shots, 'run-waiting-390.png'), await page.screenshot({ fullPage: true }));
        }
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
