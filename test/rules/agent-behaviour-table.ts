/**
 * One table of runs that `runAgent` and `streamAgent` must end alike: budgets,
 * the loop breaker, policies, guards, confirmations, invalid and duplicate
 * calls, unexpected stops and model failures. Each case builds a fresh scripted
 * model and fresh tools, so both paths see the same script;
 * `agent-behaviour-parity.test.ts` runs every case through both and compares
 * the results, the records and what the case expects.
 */
import { createScriptedModel, errorTurn, textTurn, toolCallTurn, type ScriptedTurn } from '../../src/models/scripted/scripted-model.js';
import { createPolicy } from '../../src/policy/index.js';
import { defineTool, ToolError, type AnyTool } from '../../src/tools/index.js';
import { SELECT_CATEGORY_TOOL, type RunAgentOptions } from '../../src/agent/index.js';

export interface BehaviourCase {
  name: string;
  /** The scripted answers, in order. */
  script: readonly ScriptedTurn[];
  /** Fresh tools for one run. */
  tools: () => AnyTool[];
  /** More run options (limits, policy, guard…). */
  options?: Partial<RunAgentOptions>;
  /** Options made fresh for each run (a signal and the tool that fires it), over `options`. */
  fresh?: () => Partial<RunAgentOptions>;
  /** The model id (a priced one for cost limits). Default `scripted:model`. */
  modelId?: string;
  /** What the run must end with. */
  expect: { status: 'completed' | 'awaiting_confirmation' | 'stopped'; stopKind?: string; toolCalls: number };
}

export function scriptedModel(behaviour: BehaviourCase) {
  return createScriptedModel(behaviour.script, { id: behaviour.modelId ?? 'scripted:model', streamChunkSize: 7 });
}

const lookup = () =>
  defineTool<{ id: string }>({
    name: 'lookup',
    description: 'Looks a record up.',
    effect: 'read',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
    execute: ({ id }, context) => {
      context.reportProgress(1, 1, `found ${id}`);
      return { id, status: 'active' };
    },
  });

const flaky = () =>
  defineTool<{ id: string }>({
    name: 'flaky',
    description: 'Always fails.',
    effect: 'read',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    execute: () => {
      throw new ToolError('The service is down; try later.');
    },
  });

const refund = (confirm = false) =>
  defineTool<{ invoice: string; amount: number }>({
    name: 'refund',
    description: 'Refunds an invoice.',
    effect: 'write',
    confirm,
    summarize: ({ invoice, amount }) => `Refund ${amount} on ${invoice}`,
    inputSchema: {
      type: 'object',
      properties: { invoice: { type: 'string' }, amount: { type: 'number', minimum: 0 } },
      required: ['invoice', 'amount'],
      additionalProperties: false,
    },
    execute: ({ invoice, amount }) => `refunded ${amount} on ${invoice}`,
  });

const call = (name: string, args: unknown, id?: string) => ({ name, arguments: args, ...(id !== undefined ? { id } : {}) });

export const BEHAVIOUR_CASES: readonly BehaviourCase[] = [
  { name: 'a plain answer completes', script: [textTurn('Hello there.')], tools: () => [lookup()], expect: { status: 'completed', toolCalls: 0 } },
  {
    name: 'reads run in parallel, results go back in order, then the answer completes',
    script: [toolCallTurn([call('lookup', { id: 'a' }), call('lookup', { id: 'b' })], { text: 'Let me look.' }), textTurn('Both are active.')],
    tools: () => [lookup()],
    expect: { status: 'completed', toolCalls: 2 },
  },
  {
    name: 'maxIterations stops the run',
    script: [toolCallTurn([call('lookup', { id: 'a' })]), toolCallTurn([call('lookup', { id: 'b' })]), textTurn('never')],
    tools: () => [lookup()],
    options: { limits: { maxIterations: 2 } },
    expect: { status: 'stopped', stopKind: 'max_iterations', toolCalls: 2 },
  },
  {
    name: 'a maxToolCalls budget stops before a turn that would pass it',
    script: [toolCallTurn([call('lookup', { id: 'a' }), call('lookup', { id: 'b' })])],
    tools: () => [lookup()],
    options: { limits: { maxToolCalls: 1 } },
    expect: { status: 'stopped', stopKind: 'budget', toolCalls: 0 },
  },
  {
    name: 'a maxOutputTokens budget stops before the next model call',
    script: [toolCallTurn([call('lookup', { id: 'a' })], { usage: { inputTokens: 10, outputTokens: 50 } }), textTurn('never')],
    tools: () => [lookup()],
    options: { limits: { maxOutputTokens: 50 } },
    expect: { status: 'stopped', stopKind: 'budget', toolCalls: 1 },
  },
  {
    name: 'a maxCostUsd budget, priced from the table, stops the run',
    modelId: 'openai:gpt-4o-mini',
    script: [toolCallTurn([call('lookup', { id: 'a' })], { usage: { inputTokens: 2_000_000, outputTokens: 10 } }), textTurn('never')],
    tools: () => [lookup()],
    options: { limits: { maxCostUsd: 0.25 } },
    expect: { status: 'stopped', stopKind: 'budget', toolCalls: 1 },
  },
  {
    name: 'the loop breaker stops a call that keeps failing the same way',
    script: [1, 2, 3, 4].map(() => toolCallTurn([call('flaky', { id: 'x' })])),
    tools: () => [flaky()],
    expect: { status: 'stopped', stopKind: 'loop_detected', toolCalls: 3 },
  },
  {
    name: 'invalid arguments are answered with the recovery text, and the model corrects itself',
    script: [
      toolCallTurn([call('refund', { invoice: 'inv_1', amount: -5 })]),
      toolCallTurn([call('refund', { invoice: 'inv_1', amount: 5 })]),
      textTurn('Refunded.'),
    ],
    tools: () => [refund()],
    expect: { status: 'completed', toolCalls: 1 },
  },
  {
    name: 'broken JSON arguments are answered, not run',
    script: [toolCallTurn([{ name: 'lookup', argumentsText: '{"id": "a",' }]), textTurn('Sorry.')],
    tools: () => [lookup()],
    expect: { status: 'completed', toolCalls: 0 },
  },
  {
    name: 'an unknown tool is answered with the list of tools',
    script: [toolCallTurn([call('lokup', { id: 'a' })]), textTurn('Sorry.')],
    tools: () => [lookup()],
    expect: { status: 'completed', toolCalls: 0 },
  },
  {
    name: 'an identical write in one response runs once',
    script: [toolCallTurn([call('refund', { invoice: 'inv_1', amount: 5 }), call('refund', { amount: 5, invoice: 'inv_1' })]), textTurn('Done.')],
    tools: () => [refund()],
    expect: { status: 'completed', toolCalls: 1 },
  },
  {
    name: 'calls past maxToolCallsPerTurn are not run',
    script: [toolCallTurn([call('lookup', { id: 'a' }), call('lookup', { id: 'b' }), call('lookup', { id: 'c' })]), textTurn('Done.')],
    tools: () => [lookup()],
    options: { limits: { maxToolCallsPerTurn: 2 } },
    expect: { status: 'completed', toolCalls: 2 },
  },
  {
    name: 'a policy blocks a tool it does not allow',
    script: [toolCallTurn([call('refund', { invoice: 'inv_1', amount: 5 })]), textTurn('I may not refund.')],
    tools: () => [lookup(), refund()],
    options: { policy: createPolicy({ allowTools: ['lookup'] }) },
    expect: { status: 'completed', toolCalls: 0 },
  },
  {
    name: 'a policy asks a person for a write after untrusted content entered the context',
    script: [toolCallTurn([call('lookup', { id: 'a' })]), toolCallTurn([call('refund', { invoice: 'inv_1', amount: 5 })])],
    tools: () => [lookup(), refund()],
    options: { policy: createPolicy({}) },
    expect: { status: 'awaiting_confirmation', toolCalls: 1 },
  },
  {
    name: 'a guard blocks a call with a message for the model',
    script: [toolCallTurn([call('refund', { invoice: 'inv_1', amount: 500 })]), textTurn('Too large.')],
    tools: () => [refund()],
    options: { guardToolCall: () => ({ action: 'block', message: 'Refunds over 100 need a manager.' }) },
    expect: { status: 'completed', toolCalls: 0 },
  },
  {
    name: "a tool's confirm rule pauses the run",
    script: [toolCallTurn([call('lookup', { id: 'a' }), call('refund', { invoice: 'inv_1', amount: 5 })])],
    tools: () => [lookup(), refund(true)],
    expect: { status: 'awaiting_confirmation', toolCalls: 0 },
  },
  {
    name: 'an answer cut at max_tokens stops the run',
    script: [textTurn('The answer is', { stopReason: 'max_tokens' })],
    tools: () => [],
    expect: { status: 'stopped', stopKind: 'model_output_truncated', toolCalls: 0 },
  },
  {
    name: 'a cut last call is answered as truncated, the complete one runs',
    script: [
      { toolCalls: [call('lookup', { id: 'a' }), { name: 'lookup', argumentsText: '{"id": "b"}' }], stopReason: 'max_tokens' },
      textTurn('Partly done.'),
    ],
    tools: () => [lookup()],
    expect: { status: 'completed', toolCalls: 1 },
  },
  {
    name: "the provider's content filter stops the run",
    script: [textTurn('', { stopReason: 'content_filter' })],
    tools: () => [],
    expect: { status: 'stopped', stopKind: 'content_filtered', toolCalls: 0 },
  },
  {
    name: 'a failing model call stops the run with model_error',
    script: [errorTurn(new Error('503 from upstream'))],
    tools: () => [],
    expect: { status: 'stopped', stopKind: 'model_error', toolCalls: 0 },
  },
  {
    name: 'an abort while a tool runs stops the run, and the call is answered',
    script: [toolCallTurn([call('lookup', { id: 'a' }), call('hang_up', {})]), textTurn('never')],
    tools: () => [lookup()],
    fresh: () => {
      const controller = new AbortController();
      const hangUp = defineTool<Record<string, never>>({
        name: 'hang_up',
        description: 'The user leaves.',
        effect: 'write',
        inputSchema: { type: 'object', properties: {} },
        execute: (_args, context) => {
          controller.abort(new Error('the user left'));
          throw context.signal.reason;
        },
      });
      return { tools: [lookup(), hangUp], signal: controller.signal };
    },
    expect: { status: 'stopped', stopKind: 'aborted', toolCalls: 2 },
  },
  {
    name: 'two-stage routing picks a category first',
    script: [
      toolCallTurn([call(SELECT_CATEGORY_TOOL, { category: 'billing' })]),
      toolCallTurn([call('refund', { invoice: 'inv_1', amount: 5 })]),
      textTurn('Done.'),
    ],
    tools: () => [
      { ...lookup(), category: 'records' },
      { ...refund(), category: 'billing' },
    ],
    options: { routing: { threshold: 1 } },
    expect: { status: 'completed', toolCalls: 1 },
  },
];
