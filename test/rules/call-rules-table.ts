/**
 * One table of tool rules (`confirm`, `summarize`, redaction, the summary's
 * length cap) that every caller of `src/tools/call-rules.ts` must honour
 * alike: `agent-call-rules.test.ts` runs it through `runAgent`/`resumeAgent`,
 * `mcp-call-rules.test.ts` through a real MCP client. Each case builds fresh
 * tools, so a path can count what ran.
 */
import { defineTool } from '../../src/tools/index.js';
import type { AnyTool, JsonSchemaObject } from '../../src/tools/index.js';

export interface CallRuleCase {
  name: string;
  /** The tool called; its `execute` pushes the arguments to `ran`. */
  tool: (ran: unknown[]) => AnyTool;
  arguments: Record<string, unknown>;
  /** The line a person is shown, or `undefined` when the call runs without asking. */
  asks: string | undefined;
  /** The run context (`runAgent({ context })`, the MCP server's `context` factory); none when absent. */
  context?: unknown;
}

/** What one path observed for a case and a person's decision. */
export interface Observed {
  /** The summary the person was shown; `undefined` when nobody was asked. */
  asked: string | undefined;
  /** How many times the tool ran. */
  runs: number;
}

export type PersonDecision = 'approve' | 'deny';

/** What every path must observe. */
export function expected(rule: CallRuleCase, decision: PersonDecision): Observed {
  return { asked: rule.asks, runs: rule.asks === undefined || decision === 'approve' ? 1 : 0 };
}

const schema: JsonSchemaObject = { type: 'object', properties: { amount: { type: 'number' }, note: { type: 'string' } }, required: ['amount'] };

function payTool(extra: { confirm?: unknown; summarize?: unknown; inputSchema?: JsonSchemaObject }) {
  return (ran: unknown[]): AnyTool =>
    defineTool({
      name: 'pay',
      description: 'Pays an amount.',
      effect: 'write',
      inputSchema: extra.inputSchema ?? schema,
      // The table feeds rules a JavaScript caller could write but the types forbid (undefined, 'yes', 0, a Promise).
      ...(extra.confirm !== undefined ? { confirm: extra.confirm as (args: Record<string, unknown>, call: { context: unknown }) => boolean } : {}),
      ...(extra.summarize !== undefined ? { summarize: extra.summarize as (args: Record<string, unknown>, call: { context: unknown }) => string } : {}),
      execute: (args) => {
        ran.push(args);
        return 'paid';
      },
    });
}

const long = 'x'.repeat(400);

interface Payer {
  user: string;
  limit: number;
}
const overPayerLimit = ({ amount }: { amount: number }, { context }: { context: Payer }) => amount > context.limit;

export const CALL_RULE_CASES: readonly CallRuleCase[] = [
  { name: 'no confirm rule runs unasked', tool: payTool({}), arguments: { amount: 5 }, asks: undefined },
  { name: 'confirm: false runs unasked', tool: payTool({ confirm: false }), arguments: { amount: 5 }, asks: undefined },
  {
    name: 'confirm: true asks, with the canonical arguments (keys sorted)',
    tool: payTool({ confirm: true }),
    arguments: { note: 'rent', amount: 5 },
    asks: 'pay(amount: 5, {"note":"rent"})',
  },
  {
    name: 'a rule returning false runs unasked',
    tool: payTool({ confirm: ({ amount }: { amount: number }) => amount > 100 }),
    arguments: { amount: 5 },
    asks: undefined,
  },
  {
    name: 'a rule returning true asks',
    tool: payTool({ confirm: ({ amount }: { amount: number }) => amount > 100 }),
    arguments: { amount: 500 },
    asks: 'pay(amount: 500)',
  },
  { name: 'a rule returning undefined asks', tool: payTool({ confirm: () => undefined }), arguments: { amount: 5 }, asks: 'pay(amount: 5)' },
  {
    name: 'a rule that throws asks',
    tool: payTool({
      confirm: () => {
        throw new Error('rule broken');
      },
    }),
    arguments: { amount: 5 },
    asks: 'pay(amount: 5)',
  },
  { name: 'a rule returning a truthy non-boolean asks', tool: payTool({ confirm: () => 'yes' }), arguments: { amount: 5 }, asks: 'pay(amount: 5)' },
  { name: 'a rule returning a falsy non-boolean asks', tool: payTool({ confirm: () => 0 }), arguments: { amount: 5 }, asks: 'pay(amount: 5)' },
  {
    name: 'an async rule (a Promise) asks, even one resolving to false',
    tool: payTool({ confirm: () => Promise.resolve(false) }),
    arguments: { amount: 5 },
    asks: 'pay(amount: 5)',
  },
  {
    name: 'a rule reading the run context runs a call under its limit unasked',
    tool: payTool({ confirm: overPayerLimit }),
    arguments: { amount: 50 },
    context: { user: 'ana', limit: 100 },
    asks: undefined,
  },
  {
    name: 'a rule reading the run context asks over its limit, and summarize reads the context too',
    tool: payTool({
      confirm: overPayerLimit,
      summarize: ({ amount }: { amount: number }, { context }: { context: Payer }) => `Pay $${amount} for ${context.user}`,
    }),
    arguments: { amount: 50 },
    context: { user: 'ana', limit: 10 },
    asks: 'Pay $50 for ana',
  },
  {
    name: "the tool's summarize line is shown",
    tool: payTool({ confirm: true, summarize: ({ amount }: { amount: number }) => `Pay $${amount}` }),
    arguments: { amount: 5 },
    asks: 'Pay $5',
  },
  {
    name: 'a summarize that throws falls back to the generic line',
    tool: payTool({
      confirm: true,
      summarize: () => {
        throw new Error('no summary');
      },
    }),
    arguments: { amount: 5 },
    asks: 'pay(amount: 5)',
  },
  {
    name: 'a blank summarize falls back to the generic line',
    tool: payTool({ confirm: true, summarize: () => '  ' }),
    arguments: { amount: 5 },
    asks: 'pay(amount: 5)',
  },
  {
    name: 'a non-string summarize falls back to the generic line',
    tool: payTool({ confirm: true, summarize: () => 42 }),
    arguments: { amount: 5 },
    asks: 'pay(amount: 5)',
  },
  {
    name: 'a long generic line keeps the amount whole and cuts the other arguments at 300 characters, saying how much',
    tool: payTool({ confirm: true }),
    arguments: { amount: 5, note: long },
    asks: `pay(amount: 5, {"note":"${'x'.repeat(300 - '{"note":"'.length)}… (${long.length + '{"note":""}'.length - 300} more characters))`,
  },
  {
    name: 'a long summarize line is cut at 300 characters',
    tool: payTool({ confirm: true, summarize: () => `Pay: ${long}` }),
    arguments: { amount: 5 },
    asks: `Pay: ${'x'.repeat(294)}…`,
  },
  {
    name: 'a schema-marked secret is redacted before summarize sees it',
    tool: payTool({
      confirm: true,
      inputSchema: { type: 'object', properties: { amount: { type: 'number' }, card: { type: 'string', writeOnly: true } }, required: ['amount', 'card'] },
      summarize: ({ amount, card }: { amount: number; card: string }) => `Pay $${amount} with card ${card}`,
    }),
    arguments: { amount: 5, card: '4111111111111111' },
    asks: 'Pay $5 with card [REDACTED]',
  },
  {
    name: 'a secret by name is redacted from the generic line',
    tool: payTool({
      confirm: true,
      inputSchema: { type: 'object', properties: { amount: { type: 'number' }, password: { type: 'string' } }, required: ['amount'] },
    }),
    arguments: { amount: 5, password: 'hunter2-hunter2' },
    asks: 'pay(amount: 5, {"password":"[REDACTED]"})',
  },
];
