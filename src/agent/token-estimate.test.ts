/**
 * The loop reuses the counts of the messages it has already estimated (src/models/conversation-token-estimate.ts):
 * every step's `estimatedInputTokens` must still be what counting the request from scratch gives, across a system
 * text the policy rewrites, routing, a pause and a resume, and the budgets must stop the run where that figure says.
 */
import { describe, expect, it } from 'vitest';
import { estimateInputTokens } from '../models/estimate-tokens.js';
import { createScriptedModel, textTurn, toolCallTurn, type ScriptedModel } from '../models/scripted/scripted-model.js';
import { createPolicy } from '../policy/create-policy.js';
import { defineTool, type AnyTool } from '../tools/define-tool.js';
import { silentLogger } from '../tools/tool-registry.js';
import type { AgentResult } from './agent-result.js';
import { createMemoryRunStore } from './memory-run-store.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';

const lookup = defineTool<{ word: string }>({
  name: 'lookup',
  description: 'Looks a word up.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
  execute: ({ word }) => ({ word, meaning: `the meaning of ${word}`.repeat(3) }),
});
const save = defineTool<{ note: string }>({
  name: 'save',
  description: 'Saves a note.',
  effect: 'write',
  confirm: true,
  inputSchema: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] },
  execute: ({ note }) => `saved ${note}`,
});
const tools: AnyTool[] = [lookup, save];

function lookups(turns: number) {
  return Array.from({ length: turns }, (_, turn) =>
    toolCallTurn([
      { name: 'lookup', arguments: { word: `a${turn}` } },
      { name: 'lookup', arguments: { word: `b${turn}` } },
    ]),
  );
}

/** Each model call's estimate, next to the estimate of the request the model received, counted from scratch (the recorded copy is untracked). */
function estimatesOf(result: AgentResult, model: ScriptedModel, firstRequest = 0) {
  const recorded = model.requests.slice(firstRequest).map((request) => estimateInputTokens({ messages: request.messages, tools: request.tools }));
  return { loop: result.steps.slice(result.steps.length - recorded.length).map((step) => step.estimatedInputTokens), fromScratch: recorded };
}

describe("the loop's input-token estimate", () => {
  it('is the from-scratch estimate of each request, step after step', async () => {
    const model = createScriptedModel([...lookups(12), textTurn('Done.')]);
    const result = await runAgent({ model, tools, system: 'Be brief.', prompt: 'Look words up.', limits: { maxIterations: 20 }, logger: silentLogger });
    expect(result.status).toBe('completed');
    const { loop, fromScratch } = estimatesOf(result, model);
    expect(loop).toHaveLength(13);
    expect(loop).toEqual(fromScratch);
    expect(loop[12]!).toBeGreaterThan(loop[0]! * 3);
  });

  it('follows a system text the policy adds, routing, and a resumed run', async () => {
    const store = createMemoryRunStore();
    const policy = createPolicy({ isolation: 'delimit' });
    const categorized = [
      ...Array.from({ length: 21 }, (_, index) =>
        defineTool({
          name: `extra_${index}`,
          description: 'Unused.',
          effect: 'read',
          category: index % 2 ? 'odd' : 'even',
          inputSchema: { type: 'object' },
          execute: () => 'x',
        }),
      ),
      defineTool({ ...lookup, category: 'words' }),
      defineTool({ ...save, category: 'words' }),
    ];
    const model = createScriptedModel([
      toolCallTurn([{ name: 'select_category', arguments: { category: 'words' } }]),
      ...lookups(3),
      toolCallTurn([{ name: 'save', arguments: { note: 'n' } }]),
      ...lookups(2),
      textTurn('Done.'),
    ]);
    const options = { model, tools: categorized, policy, store, system: 'Be brief.', limits: { maxIterations: 20 }, logger: silentLogger };
    const paused = await runAgent({ ...options, prompt: 'Look words up, then save a note.' });
    expect(paused.status).toBe('awaiting_confirmation');
    if (paused.status !== 'awaiting_confirmation') return;
    expect(paused.messages[0]).toMatchObject({ role: 'system' });
    expect(paused.steps[0]!.kind).toBe('routing');
    const before = estimatesOf(paused, model);
    expect(before.loop).toEqual(before.fromScratch);

    const requestsBefore = model.requests.length;
    const resumed = await resumeAgent(paused.runId, [{ token: paused.pending[0]!.token, decision: 'approve' }], options);
    expect(resumed.status).toBe('completed');
    const after = estimatesOf(resumed, model, requestsBefore);
    expect(after.loop).toHaveLength(3);
    expect(after.loop).toEqual(after.fromScratch);
  });

  it('stops the run at the step where the from-scratch estimate passes maxInputTokens', async () => {
    const free = createScriptedModel([...lookups(8), textTurn('Done.')]);
    const unlimited = await runAgent({ model: free, tools, prompt: 'Look words up.', limits: { maxIterations: 20 }, logger: silentLogger });
    // Reported usage defaults to the from-scratch estimate of each request, so the run has spent exactly these.
    const perCall = free.requests.map((request) => estimateInputTokens({ messages: request.messages, tools: request.tools }));
    expect(unlimited.steps.map((step) => step.usage.inputTokens)).toEqual(perCall);
    const spentBefore = (step: number) => perCall.slice(0, step).reduce((sum, tokens) => sum + tokens, 0);
    const limit = spentBefore(5) + perCall[5]! - 1; // the sixth call is one token too many

    const model = createScriptedModel([...lookups(8), textTurn('Done.')]);
    const stopped = await runAgent({ model, tools, prompt: 'Look words up.', limits: { maxIterations: 20, maxInputTokens: limit }, logger: silentLogger });
    expect(stopped.status).toBe('stopped');
    if (stopped.status !== 'stopped') return;
    expect(stopped.stopReason).toMatchObject({ kind: 'budget', limit: 'inputTokens' });
    expect(model.requests).toHaveLength(5);
  });
});
