/**
 * The run's typed context (`runAgent({ context })`): the same object reaches every tool's `execute`, the tool's
 * `confirm` and `summarize`, `guardToolCall`, the policy's argument rules and trust classifier, on a fresh run and on
 * resume (which takes it again); mismatched context types are type errors.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createScriptedModel, textTurn, toolCallTurn } from '../models/scripted/scripted-model.js';
import type { Model } from '../models/types.js';
import type { ModelRequest } from '../protocol/model-exchange.js';
import type { ToolMessage } from '../protocol/messages.js';
import { argumentRule } from '../policy/argument-rule.js';
import { createPolicy } from '../policy/create-policy.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { defineTool, type Tool } from '../tools/define-tool.js';
import { silentLogger } from '../tools/tool-registry.js';
import type { ToolContext } from '../tools/types.js';
import { createMemoryRunStore } from './memory-run-store.js';
import { resumeAgent } from './resume-agent.js';
import { readRunRecord } from './run-recorder.js';
import { runAgent } from './run-agent.js';
import type { ToolCallCheck } from './calls/call-policy.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Bank {
  tenant: string;
  approvalLimit: number;
  ledger: string[];
}

function bank(tenant: string, approvalLimit = 100): Bank {
  return { tenant, approvalLimit, ledger: [] };
}

const seen: { where: string; context: unknown }[] = [];

const transfer = defineTool({
  name: 'transfer',
  description: 'Moves money out of the current tenant account.',
  effect: 'write',
  inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'], additionalProperties: false },
  confirm: (args: { amount: number }, { context }: { context: Bank }) => {
    seen.push({ where: 'confirm', context });
    return args.amount > context.approvalLimit;
  },
  summarize: (args: { amount: number }, { context }: { context: Bank }) => {
    seen.push({ where: 'summarize', context });
    return `Pay ${args.amount} from ${context.tenant}`;
  },
  execute: (args: { amount: number }, { context }: ToolContext<Bank>) => {
    seen.push({ where: 'execute', context });
    context.ledger.push(`paid ${args.amount}`);
    return `paid ${args.amount} from ${context.tenant}`;
  },
});

const defineBankTool = defineTool.withContext<Bank>();
const balance = defineBankTool<{ account: string }>({
  name: 'balance',
  description: "Reads an account's balance.",
  effect: 'read',
  inputSchema: { type: 'object', properties: { account: { type: 'string' } }, required: ['account'], additionalProperties: false },
  execute: ({ account }, { context }) => {
    seen.push({ where: 'execute', context });
    return `${context.tenant}/${account}: 42`;
  },
});

const plain = defineTool({
  name: 'plain',
  description: 'Needs no context.',
  effect: 'read',
  inputSchema: { type: 'object', properties: {} },
  execute: (_args, { context }) => `context is ${context === undefined ? 'absent' : 'present'}`,
});

function toolTexts(request: ModelRequest | undefined): string[] {
  const message = request?.messages.findLast((item): item is ToolMessage => item.role === 'tool');
  return (message?.results ?? []).map((item) => {
    const part = item.result.content[0];
    return part?.type === 'text' ? part.text : '';
  });
}

describe('typed run context', () => {
  it('reaches execute, confirm and summarize as the same object, and resume takes it again', async () => {
    seen.length = 0;
    const store = createMemoryRunStore();
    const model = createScriptedModel([
      toolCallTurn([
        { id: 'c1', name: 'transfer', arguments: { amount: 5 } },
        { id: 'c2', name: 'balance', arguments: { account: 'main' } },
      ]),
      toolCallTurn([{ id: 'c3', name: 'transfer', arguments: { amount: 500 } }]),
      textTurn('Done.'),
    ]);
    const acme = bank('acme');
    const paused = await runAgent({ model, tools: [transfer, balance], prompt: 'Pay.', context: acme, store, logger: silentLogger });
    expect(paused.status).toBe('awaiting_confirmation');
    if (paused.status !== 'awaiting_confirmation') return;
    expect(toolTexts(model.requests[1])).toEqual(['paid 5 from acme', 'acme/main: 42']);
    // 5 is under acme's limit: asked and run; 500 is over it: asked, summarized with the tenant, paused.
    expect(paused.pending.map((item) => item.summary)).toEqual(['Pay 500 from acme']);
    expect(seen.map((item) => item.where)).toEqual(['confirm', 'execute', 'execute', 'confirm', 'summarize']);
    expect(seen.every((item) => item.context === acme)).toBe(true);
    expect(acme.ledger).toEqual(['paid 5']);

    seen.length = 0;
    const again = bank('acme');
    const resumed = await resumeAgent(paused.runId, [{ token: paused.pending[0]!.token, decision: 'approve' }], {
      model,
      tools: [transfer, balance],
      context: again,
      store,
      logger: silentLogger,
    });
    expect(resumed.status).toBe('completed');
    expect(seen).toEqual([{ where: 'execute', context: again }]);
    expect(seen[0]!.context).toBe(again);
    expect(again.ledger).toEqual(['paid 500']);
  });

  it('is undefined for tools when the run has none', async () => {
    const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'plain', arguments: {} }]), textTurn('ok')]);
    await runAgent({ model, tools: [plain], prompt: 'Go.', logger: silentLogger });
    expect(toolTexts(model.requests[1])).toEqual(['context is absent']);
  });

  it('reaches guardToolCall, policy argument rules and the trust classifier', async () => {
    const checks: ToolCallCheck<Bank>[] = [];
    const classified: unknown[] = [];
    const ruled: unknown[] = [];
    const policy = createPolicy({
      rules: [
        argumentRule({
          id: 'own-tenant-accounts',
          tool: 'balance',
          description: "Only the run's tenant's accounts.",
          check: (args, { context }) => {
            ruled.push(context);
            const { account } = args as { account: string };
            return account.startsWith(`${(context as Bank).tenant}-`) ? undefined : `account ${account} is not one of ${(context as Bank).tenant}'s.`;
          },
        }),
      ],
      trust: {
        classify: (input) => {
          classified.push(input.runContext);
          return 'trusted';
        },
      },
    });
    const model = createScriptedModel([
      toolCallTurn([
        { id: 'c1', name: 'balance', arguments: { account: 'acme-1' } },
        { id: 'c2', name: 'balance', arguments: { account: 'globex-1' } },
      ]),
      textTurn('ok'),
    ]);
    const acme = bank('acme');
    const result = await runAgent({
      model,
      tools: [balance],
      prompt: 'Balances.',
      context: acme,
      policy,
      guardToolCall: (check) => {
        checks.push(check);
        return { action: 'allow' };
      },
      logger: silentLogger,
    });
    expect(result.status).toBe('completed');
    expect(toolTexts(model.requests[1])[0]).toBe('acme/acme-1: 42');
    expect(toolTexts(model.requests[1])[1]).toContain('account globex-1 is not one of acme');
    expect(ruled).toEqual([acme, acme]);
    expect(ruled[0]).toBe(acme);
    // The blocked call never reaches the guard; the allowed one does, with the context.
    expect(checks.map((check) => [check.toolName, check.context === acme])).toEqual([['balance', true]]);
    expect(classified).toHaveLength(1);
    expect(classified[0]).toBe(acme);
  });

  it('records only what recordContext returns, and a throwing recordContext is reported before the run', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tw-context-'));
    try {
      const model = createScriptedModel([textTurn('hi')]);
      const result = await runAgent({
        model,
        tools: [balance],
        prompt: 'Hi.',
        context: bank('acme'),
        recordContext: (context) => ({ tenant: context.tenant }),
        recordDir: folder,
        logger: silentLogger,
      });
      const lines = readRunRecord(result.recordPath!);
      expect(lines[0]).toMatchObject({ type: 'run_started', context: { tenant: 'acme' } });
      expect(lines.filter((line) => 'context' in line && line.type !== 'run_started')).toEqual([]);

      await expect(
        runAgent({
          model: createScriptedModel([textTurn('hi')]),
          tools: [balance],
          prompt: 'Hi.',
          context: bank('acme'),
          recordContext: () => {
            throw new Error('no');
          },
          logger: silentLogger,
        }),
      ).rejects.toThrow(InvalidArgumentError);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('types: a tool declares the context it needs; runs with another context type do not compile (checked by tsc, below)', () => {
    expectTypeOf(transfer).toEqualTypeOf<Tool<{ amount: number }, string, Bank>>();
    expectTypeOf(balance).toEqualTypeOf<Tool<{ account: string }, unknown, Bank>>();
    expectTypeOf(plain).toEqualTypeOf<Tool<Record<string, unknown>, string, unknown>>();
    expectTypeOf<ToolCallCheck<Bank>['context']>().toEqualTypeOf<Bank>();
    expectTypeOf(compileTimeChecks).toBeFunction();
  });
});

/**
 * Never called: `npx tsc --noEmit -p tsconfig.json` checks these lines, and each `@ts-expect-error` fails the
 * typecheck if its line compiles. `runAgent`'s context type is inferred from `context` and the tools together.
 */
async function compileTimeChecks(model: Model): Promise<void> {
  // Tools that need a Bank, with a Bank or a richer object; tools that need nothing, with anything or nothing.
  await runAgent({ model, tools: [transfer, balance, plain], prompt: 'x', context: bank('acme') });
  await runAgent({ model, tools: [balance], prompt: 'x', context: { ...bank('acme'), region: 'eu' } });
  await runAgent({ model, tools: [plain], prompt: 'x' });
  await runAgent({ model, tools: [plain], prompt: 'x', context: 42 });
  // The guard and recordContext see the run's context type.
  await runAgent({
    model,
    tools: [balance],
    prompt: 'x',
    context: bank('acme'),
    guardToolCall: ({ context }) => (context.approvalLimit > 0 ? { action: 'allow' } : { action: 'confirm' }),
    recordContext: ({ tenant }) => tenant,
  });
  // @ts-expect-error -- a context of another shape
  await runAgent({ model, tools: [balance], prompt: 'x', context: { tenant: 'acme' } });
  // @ts-expect-error -- no context for tools that need one
  await runAgent({ model, tools: [transfer], prompt: 'x' });
  // @ts-expect-error -- on resume too
  await resumeAgent('run_1', [], { model, tools: [balance], context: { tenant: 'acme' } });
  // @ts-expect-error -- and resume without it
  await resumeAgent('run_1', [], { model, tools: [balance] });
  await resumeAgent('run_1', [], { model, tools: [balance], context: bank('acme') });
  // defineTool.withContext types confirm and summarize too (the docs' example).
  defineBankTool<{ amount: number }>({
    name: 'pay',
    description: 'x',
    effect: 'write',
    inputSchema: { type: 'object' },
    confirm: (args, { context }) => args.amount > context.approvalLimit,
    summarize: (args, { context }) => `Pay ${args.amount} for ${context.tenant}`,
    // @ts-expect-error -- Bank's approvalLimit is a number
    execute: (_args, { context }) => context.approvalLimit.toUpperCase(),
  });
  defineBankTool({
    name: 'typed',
    description: 'x',
    effect: 'read',
    inputSchema: { type: 'object' },
    // @ts-expect-error -- Bank has no `user`
    execute: (_args, { context }) => context.user,
  });
  defineTool({
    name: 'annotated',
    description: 'x',
    effect: 'read',
    inputSchema: { type: 'object' },
    // @ts-expect-error -- the annotation types the context: Bank has no `user`
    execute: (_args, { context }: ToolContext<Bank>) => context.user,
  });
}
