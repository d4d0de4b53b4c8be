/**
 * One table of call cases for every caller of the call pipeline (issue #26): what happens to a call between "the model
 * asked for it" and "the tool ran" must not depend on who drives it. Each case gives the model's calls (one response, or
 * the plan, or one MCP request per call), the tools, the policy and guard, the person's answer where one is asked, and
 * what every caller must end with: a decision per call, the executions (which tool's `execute` ran, with which
 * arguments), and the recorded events of the call. A caller that differs on purpose says so in `differs`, with the
 * reason, as data. Cells where a caller disagrees today in a way the issue calls a bug are in `KNOWN_GAPS` of
 * `call-cases.test.ts`, which runs the table.
 */
import { defineTool, ToolError, type AnyTool } from '../../src/index.js';
import type { ProgrammaticCaller } from '../../src/tools/package-entry.js';
import type { ToolCallGuard } from '../../src/agent/index.js';
import { argumentRule, createPolicy, type Policy } from '../../src/policy/index.js';
import type { ScriptedToolCall } from '../../src/test.js';

export const CALLERS = ['runAgent', 'streamAgent', 'createToolGuards', 'planThenExecute', 'mcp-stdio', 'mcp-http'] as const;
export type Caller = (typeof CALLERS)[number];

/**
 * What became of one call. `asked_*`: a person was asked (`pending`: nobody has answered yet). `refused_no_person`: the
 * call needs a person and there is no way to ask one, so it was refused unasked. `not_run_cap`: past the per-turn cap;
 * `not_run_budget`: past the run's (the session's) tool-call budget. `protocol_error`: answered with a
 * JSON-RPC error, not a tool result. `plan_rejected`: the whole plan was refused before anything ran.
 */
export type Decision =
  | 'ran'
  | 'refused_invalid'
  | 'not_run_duplicate'
  | 'not_run_cap'
  | 'not_run_budget'
  | 'blocked'
  | 'rewritten'
  | 'asked_pending'
  | 'asked_approved'
  | 'asked_denied'
  | 'refused_no_person'
  /** A call from the provider's code runner to a tool that only the model may call directly (`caller_not_allowed`). */
  | 'refused_caller'
  | 'tool_error'
  | 'internal_error'
  | 'protocol_error'
  | 'plan_rejected';

export interface Execution {
  tool: string;
  arguments: unknown;
}

/**
 * What a caller ended with. `events`: the call's events, one line each (`eventLine` in the test: the type and its key
 * fields), from where the caller records them (`RECORD_SOURCES`); `'no record'` for a caller that keeps none.
 */
export interface Observed {
  decisions: Decision[];
  executions: Execution[];
  events: string[] | 'no record';
}

/** A cell a caller answers differently from the table's expectation, on purpose. */
export type Difference = Partial<Observed> & { reason: string };

/** The same difference over stdio and over Streamable HTTP: the MCP server behaves alike on both transports. */
const onBothMcpTransports = (difference: Difference): Partial<Record<Caller, Difference>> => ({ 'mcp-stdio': difference, 'mcp-http': difference });

/** One call of a case: as the model made it, or (`caller`) as the provider's code runner made it for the model (programmatic tool calling). */
export type CaseCall = ScriptedToolCall & { caller?: ProgrammaticCaller };

export interface CallCase {
  id: string;
  /** The model's calls, in one response (for planThenExecute: the plan's calls; over MCP: one request each, in order). */
  calls: CaseCall[];
  /** Whether `refund` asks a person before it runs (its `confirm` rule). */
  confirmRefund?: boolean;
  policy?: () => Policy;
  guardToolCall?: ToolCallGuard;
  /** `limits.maxToolCallsPerTurn` (for planThenExecute, `maxCalls`: a plan is its one turn). */
  maxToolCallsPerTurn?: number;
  /** `limits.maxToolCalls`, the calls a run (a guards object, an MCP session) may make (for planThenExecute, `maxCalls`: a plan is its whole run). */
  maxToolCalls?: number;
  /** Each call in a response of its own (the model calls, reads the result, calls again), instead of all in one response. */
  oneCallPerResponse?: boolean;
  /** The person's answer when asked; absent: nobody answers (the run pauses, or the caller decides without a person). */
  answer?: 'approve' | 'deny';
  expect: Observed;
  differs?: Partial<Record<Caller, Difference>>;
  /** Callers the case cannot reach, each with the reason (a call can only come from a provider's code runner where a provider's response is read). */
  notApplicable?: Partial<Record<Caller, string>>;
}

/** Where each caller's events come from. */
export const RECORD_SOURCES: Record<Caller, string> = {
  runAgent: 'the run record (recordDir, read with readRunRecord), across the pause and the resume',
  streamAgent: "the stream's events (resumeAgentStream after a pause)",
  createToolGuards: 'none: the guards keep no record; the host loop keeps its own (docs/interop.md)',
  planThenExecute: 'onEvent (no record file; no confirmation events: confirmations are answered in-process)',
  'mcp-stdio': 'the session record (recordDir, one file per session, read with readRunRecord; no confirmation events: the person answers through elicitation)',
  'mcp-http': 'the session record (recordDir, one file per session, read with readRunRecord; no confirmation events: the person answers through elicitation)',
};

/** Callers that keep no record by design: their events are `'no record'` in every case. */
export const NO_RECORD_BY_DESIGN: Partial<Record<Caller, string>> = {
  createToolGuards: 'createToolGuards keeps no record: approvals and history live in the host framework (docs/interop.md, "Not covered by the guards").',
};

/** The text a blocking rule or guard sends the model; an MCP client sees only the result's text, so a block is told by it. */
export const BLOCK_MESSAGE = 'Refunds over 100 need a manager.';
/** What `flaky` throws as a ToolError: the model reads it. */
export const TOOL_ERROR_MESSAGE = 'The payment service is down; try again in a minute.';
/** What `crashy` throws as a plain Error: internal, never shown to a model or a client. */
export const CRASH_DETAIL = 'connection refused by db-7.internal:5432';

/** Fresh tools for one cell, each `execute` noting what it ran with. */
export function caseTools(options: { confirmRefund?: boolean | undefined } = {}): { tools: AnyTool[]; executions: Execution[] } {
  const executions: Execution[] = [];
  const note = (tool: string, args: unknown) => executions.push({ tool, arguments: structuredClone(args) });
  const lookup = defineTool<{ id: string }>({
    name: 'lookup',
    description: 'Looks a record up.',
    effect: 'read',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
    allowedCallers: ['direct', 'programmatic'],
    execute: (args) => (note('lookup', args), { id: args.id, status: 'active' }),
  });
  const refund = defineTool<{ invoice: string; amount: number }>({
    name: 'refund',
    description: 'Refunds an invoice.',
    effect: 'write',
    confirm: options.confirmRefund === true,
    summarize: ({ invoice, amount }) => `Refund ${amount} on ${invoice}`,
    allowedCallers: ['direct', 'programmatic'],
    inputSchema: {
      type: 'object',
      properties: { invoice: { type: 'string' }, amount: { type: 'number', minimum: 0 } },
      required: ['invoice', 'amount'],
      additionalProperties: false,
    },
    execute: (args) => (note('refund', args), `refunded ${args.amount} on ${args.invoice}`),
  });
  const send = defineTool<{ to: string; body: string }>({
    name: 'send_message',
    description: 'Sends a message.',
    effect: 'write',
    inputSchema: { type: 'object', properties: { to: { type: 'string' }, body: { type: 'string' } }, required: ['to', 'body'], additionalProperties: false },
    execute: (args) => (note('send_message', args), 'sent'),
  });
  const flaky = defineTool<{ id: string }>({
    name: 'flaky',
    description: 'Charges a card; the service is down.',
    effect: 'write',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
    execute: (args) => {
      note('flaky', args);
      throw new ToolError(TOOL_ERROR_MESSAGE);
    },
  });
  const crashy = defineTool<{ id: string }>({
    name: 'crashy',
    description: 'Reads a ledger; it has a bug.',
    effect: 'read',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
    execute: (args) => {
      note('crashy', args);
      throw new Error(CRASH_DETAIL);
    },
  });
  return { tools: [lookup, refund, send, flaky, crashy], executions };
}

const LINK = /https?:\/\/\S+/;

/** Blocks refunds over 100. */
const refundCap = () =>
  createPolicy({
    rules: [
      argumentRule({
        id: 'refund-cap',
        tool: 'refund',
        description: BLOCK_MESSAGE,
        check: (args) => ((args as { amount: number }).amount > 100 ? BLOCK_MESSAGE : undefined),
      }),
    ],
  });

/** Takes links out of a message's body and lets it go. */
const noLinks = () =>
  createPolicy({
    rules: [
      argumentRule({
        id: 'no-links',
        tool: 'send_message',
        action: 'remove',
        description: 'Messages carry no links.',
        check: (args) => (LINK.test((args as { body: string }).body) ? 'the body holds a link.' : undefined),
        remove: (args) => {
          const { to, body } = args as { to: string; body: string };
          return {
            arguments: { to, body: body.replace(new RegExp(LINK.source, 'g'), '[link removed]') },
            removed: [{ argumentPath: 'body', kind: 'url', message: 'a link' }],
          };
        },
      }),
    ],
  });

const guardBlocksRefunds: ToolCallGuard = ({ toolName }) => (toolName === 'refund' ? { action: 'block', message: BLOCK_MESSAGE } : { action: 'allow' });
const guardAsksForRefunds: ToolCallGuard = ({ toolName }) =>
  toolName === 'refund' ? { action: 'confirm', reason: 'refunds need a person' } : { action: 'allow' };

const call = (name: string, args: unknown): ScriptedToolCall => ({ name, arguments: args });
/** The provider's code runner (Anthropic's code execution tool) that made a programmatic call. */
const CODE_RUNNER: ProgrammaticCaller = { type: 'programmatic', id: 'srvtoolu_1', runner: 'code_execution_20250825' };
const fromCode = (name: string, args: unknown): CaseCall => ({ name, arguments: args, caller: CODE_RUNNER });
/** How the call-event line of a call from code reads (`eventLine` in the test). */
export const FROM_CODE = ` from ${CODE_RUNNER.runner}`;
export const json = (value: unknown) => JSON.stringify(value);
const lookupA = { id: 'a' };
const refund5 = { invoice: 'inv_1', amount: 5 };
/** The same arguments in another key order: canonically the same call. */
const refund5Reordered = { amount: 5, invoice: 'inv_1' };
export const refund500 = { invoice: 'inv_1', amount: 500 };
export const message = { to: 'bob@corp.example', body: 'Your invoice: https://evil.example/pay' };
const cleaned = { to: 'bob@corp.example', body: 'Your invoice: [link removed]' };

/** Events of a call that ran as asked. */
export const ranEvents = (tool: string, args: unknown) => [`tool_call ${tool} ${json(args)}`, `tool_result ${tool} ${json(args)} succeeded`];

/** Seventeen distinct lookups, one past a budget of 16. */
export const seventeen = Array.from({ length: 17 }, (_, index) => call('lookup', { id: `r${index + 1}` }));

const NO_TURN_IN_MCP = 'MCP: one request is one call, so there is no turn to hold a duplicate or a per-turn cap; each request runs.';
const NO_TURN_IN_GUARDS =
  'createToolGuards: the host hands over one call at a time and owns the turn; the guards have no per-turn cap or in-turn duplicate check.';
const PLAN_IS_DELIBERATE = 'planThenExecute: the plan is fixed before anything runs by a planner that reads no tool output; each planned call runs in turn.';
const MCP_ASKS_IN_PROCESS =
  'MCP: no confirmation events; the person answers through elicitation during the request, so the record holds the call and its result (ran, or declined).';
const NO_RECORD_IN_PLAN = 'planThenExecute: no confirmation events; the confirmer answers in-process (the call ends approved or declined).';
/** Only callers that read a provider's response can receive a call its code runner made. */
const NO_CODE_RUNNER: Partial<Record<Caller, string>> = {
  planThenExecute:
    "planThenExecute: toolwright's executor makes the plan's calls from the planner's JSON plan; no provider code runner makes them, so none has a caller.",
  'mcp-stdio': 'MCP: a tools/call request has no field for a caller (name, arguments and _meta only), so every request is a direct call.',
  'mcp-http': 'MCP: a tools/call request has no field for a caller (name, arguments and _meta only), so every request is a direct call.',
};

export const CALL_CASES: readonly CallCase[] = [
  {
    id: 'valid',
    calls: [call('lookup', lookupA)],
    expect: { decisions: ['ran'], executions: [{ tool: 'lookup', arguments: lookupA }], events: ranEvents('lookup', lookupA) },
  },
  {
    id: 'invalid arguments',
    calls: [call('refund', { invoice: 'inv_1', amount: -5 })],
    expect: {
      decisions: ['refused_invalid'],
      executions: [],
      events: [
        `tool_call refund ${json({ invoice: 'inv_1', amount: -5 })}`,
        `tool_result refund ${json({ invoice: 'inv_1', amount: -5 })} failed invalid_arguments`,
      ],
    },
  },
  {
    id: 'unknown tool',
    calls: [call('lokup', lookupA)],
    expect: {
      decisions: ['refused_invalid'],
      executions: [],
      events: [`tool_call lokup ${json(lookupA)}`, `tool_result lokup ${json(lookupA)} failed unknown_tool`],
    },
    differs: {
      ...onBothMcpTransports({ reason: 'MCP answers an unknown tool with a JSON-RPC error (-32602), not a tool result.', decisions: ['protocol_error'] }),
      planThenExecute: { reason: 'planThenExecute refuses a plan naming an unknown tool before anything runs.', decisions: ['plan_rejected'], events: [] },
    },
  },
  {
    id: 'duplicate (the same write twice in one response)',
    calls: [call('refund', refund5), call('refund', refund5Reordered)],
    expect: {
      decisions: ['ran', 'not_run_duplicate'],
      executions: [{ tool: 'refund', arguments: refund5 }],
      events: [
        `tool_call refund ${json(refund5)}`,
        `tool_call refund ${json(refund5Reordered)}`,
        `tool_result refund ${json(refund5)} succeeded`,
        `tool_result refund ${json(refund5Reordered)} duplicate`,
      ],
    },
    differs: {
      createToolGuards: {
        reason: NO_TURN_IN_GUARDS,
        decisions: ['ran', 'ran'],
        executions: [
          { tool: 'refund', arguments: refund5 },
          { tool: 'refund', arguments: refund5 },
        ],
      },
      planThenExecute: {
        reason: PLAN_IS_DELIBERATE,
        decisions: ['ran', 'ran'],
        executions: [
          { tool: 'refund', arguments: refund5 },
          { tool: 'refund', arguments: refund5 },
        ],
        events: [...ranEvents('refund', refund5), ...ranEvents('refund', refund5Reordered)],
      },
      ...onBothMcpTransports({
        reason: NO_TURN_IN_MCP,
        decisions: ['ran', 'ran'],
        executions: [
          { tool: 'refund', arguments: refund5 },
          { tool: 'refund', arguments: refund5 },
        ],
        events: [...ranEvents('refund', refund5), ...ranEvents('refund', refund5Reordered)],
      }),
    },
  },
  {
    id: 'over the per-turn cap (maxToolCallsPerTurn: 2, three calls)',
    calls: [call('lookup', { id: 'a' }), call('lookup', { id: 'b' }), call('lookup', { id: 'c' })],
    maxToolCallsPerTurn: 2,
    expect: {
      decisions: ['ran', 'ran', 'not_run_cap'],
      executions: [
        { tool: 'lookup', arguments: { id: 'a' } },
        { tool: 'lookup', arguments: { id: 'b' } },
      ],
      events: [
        `tool_call lookup ${json({ id: 'a' })}`,
        `tool_call lookup ${json({ id: 'b' })}`,
        `tool_call lookup ${json({ id: 'c' })}`,
        'turn_limited 3>2',
        `tool_result lookup ${json({ id: 'c' })} not_run`,
        `tool_result lookup ${json({ id: 'a' })} succeeded`,
        `tool_result lookup ${json({ id: 'b' })} succeeded`,
      ],
    },
    differs: {
      createToolGuards: {
        reason: NO_TURN_IN_GUARDS,
        decisions: ['ran', 'ran', 'ran'],
        executions: ['a', 'b', 'c'].map((id) => ({ tool: 'lookup', arguments: { id } })),
      },
      planThenExecute: {
        reason: "planThenExecute: the cap is the plan's `maxCalls`, and a longer plan is refused whole before anything runs.",
        decisions: ['plan_rejected', 'plan_rejected', 'plan_rejected'],
        executions: [],
        events: [],
      },
      ...onBothMcpTransports({
        reason: NO_TURN_IN_MCP,
        decisions: ['ran', 'ran', 'ran'],
        executions: ['a', 'b', 'c'].map((id) => ({ tool: 'lookup', arguments: { id } })),
        events: ['a', 'b', 'c'].flatMap((id) => ranEvents('lookup', { id })),
      }),
    },
  },
  {
    id: 'over the call budget (maxToolCalls: 16, a 17th call)',
    calls: seventeen,
    oneCallPerResponse: true,
    maxToolCalls: 16,
    expect: {
      decisions: [...seventeen.slice(0, 16).map((): Decision => 'ran'), 'not_run_budget'],
      executions: seventeen.slice(0, 16).map((item) => ({ tool: 'lookup', arguments: item.arguments })),
      events: [
        ...seventeen.slice(0, 16).flatMap((item) => ranEvents('lookup', item.arguments)),
        `tool_call lookup ${json({ id: 'r17' })}`,
        `tool_result lookup ${json({ id: 'r17' })} not_run`,
      ],
    },
    differs: {
      planThenExecute: {
        reason: "planThenExecute: the budget is the plan's `maxCalls`, and a longer plan is refused whole before anything runs.",
        decisions: seventeen.map((): Decision => 'plan_rejected'),
        executions: [],
        events: [],
      },
    },
  },
  {
    id: 'policy block',
    calls: [call('refund', refund500)],
    policy: refundCap,
    expect: {
      decisions: ['blocked'],
      executions: [],
      events: [`tool_call refund ${json(refund500)}`, 'policy_decision refund block refund-cap', `tool_result refund ${json(refund500)} blocked`],
    },
  },
  {
    id: 'policy rewrite',
    calls: [call('send_message', message)],
    policy: noLinks,
    expect: {
      decisions: ['rewritten'],
      executions: [{ tool: 'send_message', arguments: cleaned }],
      events: [
        `tool_call send_message ${json(message)}`,
        'policy_decision send_message allow removed body',
        `tool_result send_message ${json(cleaned)} succeeded`,
      ],
    },
  },
  {
    // Issue #29: the block that reaches the loop breaker's limit (3) ends the turn with a notice, not the run, so the task's
    // other call is still made (src/agent/repeated-block.ts). Over MCP the loop breaker is off unless limits name it.
    id: 'the same blocked call three times, then another call',
    calls: [call('refund', refund500), call('refund', refund500), call('refund', refund500), call('lookup', { id: 'r1' })],
    oneCallPerResponse: true,
    policy: refundCap,
    expect: {
      decisions: ['blocked', 'blocked', 'blocked', 'ran'],
      executions: [{ tool: 'lookup', arguments: { id: 'r1' } }],
      events: [
        ...[1, 2, 3].flatMap(() => [
          `tool_call refund ${json(refund500)}`,
          'policy_decision refund block refund-cap',
          `tool_result refund ${json(refund500)} blocked`,
        ]),
        ...ranEvents('lookup', { id: 'r1' }),
      ],
    },
    differs: {
      planThenExecute: {
        reason: "planThenExecute records the policy's decision on every call, a plain allow included (recordEveryDecision), and runs no loop breaker.",
        events: [
          ...[1, 2, 3].flatMap(() => [
            `tool_call refund ${json(refund500)}`,
            'policy_decision refund block refund-cap',
            `tool_result refund ${json(refund500)} blocked`,
          ]),
          `tool_call lookup ${json({ id: 'r1' })}`,
          'policy_decision lookup allow',
          `tool_result lookup ${json({ id: 'r1' })} succeeded`,
        ],
      },
    },
  },
  {
    id: 'guard block',
    calls: [call('refund', refund500)],
    guardToolCall: guardBlocksRefunds,
    expect: { decisions: ['blocked'], executions: [], events: [`tool_call refund ${json(refund500)}`, `tool_result refund ${json(refund500)} blocked`] },
  },
  {
    id: 'guard confirm (approved)',
    calls: [call('refund', refund5)],
    guardToolCall: guardAsksForRefunds,
    answer: 'approve',
    expect: {
      decisions: ['asked_approved'],
      executions: [{ tool: 'refund', arguments: refund5 }],
      events: [
        `tool_call refund ${json(refund5)}`,
        'confirmation_requested refund',
        'confirmation_decided refund approve',
        `tool_result refund ${json(refund5)} succeeded`,
      ],
    },
    differs: {
      planThenExecute: { reason: NO_RECORD_IN_PLAN, events: ranEvents('refund', refund5) },
      ...onBothMcpTransports({ reason: MCP_ASKS_IN_PROCESS, events: ranEvents('refund', refund5) }),
    },
  },
  {
    id: 'tool confirm (nobody answers yet)',
    calls: [call('refund', refund5)],
    confirmRefund: true,
    expect: { decisions: ['asked_pending'], executions: [], events: [`tool_call refund ${json(refund5)}`, 'confirmation_requested refund'] },
    differs: {
      planThenExecute: {
        reason: 'planThenExecute cannot pause: a confirmation nobody answers is declined (its default confirmer).',
        decisions: ['asked_denied'],
        events: [`tool_call refund ${json(refund5)}`, `tool_result refund ${json(refund5)} declined`],
      },
      ...onBothMcpTransports({
        reason:
          'MCP asks a person through elicitation; a client that cannot elicit (and no confirmation handler) gets the call refused, unasked, and the record holds the call alone.',
        decisions: ['refused_no_person'],
        events: [`tool_call refund ${json(refund5)}`],
      }),
    },
  },
  {
    id: 'tool confirm, approved',
    calls: [call('refund', refund5)],
    confirmRefund: true,
    answer: 'approve',
    expect: {
      decisions: ['asked_approved'],
      executions: [{ tool: 'refund', arguments: refund5 }],
      events: [
        `tool_call refund ${json(refund5)}`,
        'confirmation_requested refund',
        'confirmation_decided refund approve',
        `tool_result refund ${json(refund5)} succeeded`,
      ],
    },
    differs: {
      planThenExecute: { reason: NO_RECORD_IN_PLAN, events: ranEvents('refund', refund5) },
      ...onBothMcpTransports({ reason: MCP_ASKS_IN_PROCESS, events: ranEvents('refund', refund5) }),
    },
  },
  {
    id: 'tool confirm, denied',
    calls: [call('refund', refund5)],
    confirmRefund: true,
    answer: 'deny',
    expect: {
      decisions: ['asked_denied'],
      executions: [],
      events: [
        `tool_call refund ${json(refund5)}`,
        'confirmation_requested refund',
        'confirmation_decided refund deny',
        `tool_result refund ${json(refund5)} declined`,
      ],
    },
    differs: {
      planThenExecute: { reason: NO_RECORD_IN_PLAN, events: [`tool_call refund ${json(refund5)}`, `tool_result refund ${json(refund5)} declined`] },
      ...onBothMcpTransports({ reason: MCP_ASKS_IN_PROCESS, events: [`tool_call refund ${json(refund5)}`, `tool_result refund ${json(refund5)} declined`] }),
    },
  },
  {
    id: 'tool error (ToolError)',
    calls: [call('flaky', { id: 'c1' })],
    expect: {
      decisions: ['tool_error'],
      executions: [{ tool: 'flaky', arguments: { id: 'c1' } }],
      events: [`tool_call flaky ${json({ id: 'c1' })}`, `tool_result flaky ${json({ id: 'c1' })} failed tool_error`],
    },
  },
  {
    id: 'tool crash (another error)',
    calls: [call('crashy', { id: 'c1' })],
    expect: {
      decisions: ['internal_error'],
      executions: [{ tool: 'crashy', arguments: { id: 'c1' } }],
      events: [`tool_call crashy ${json({ id: 'c1' })}`, `tool_result crashy ${json({ id: 'c1' })} failed internal_error`],
    },
  },
  {
    id: 'programmatic call to a tool that allows calls from code',
    calls: [fromCode('lookup', lookupA)],
    notApplicable: NO_CODE_RUNNER,
    expect: {
      decisions: ['ran'],
      executions: [{ tool: 'lookup', arguments: lookupA }],
      events: [`tool_call lookup ${json(lookupA)}${FROM_CODE}`, `tool_result lookup ${json(lookupA)} succeeded`],
    },
  },
  {
    id: 'programmatic call to a direct-only tool',
    calls: [fromCode('send_message', message)],
    notApplicable: NO_CODE_RUNNER,
    expect: {
      decisions: ['refused_caller'],
      executions: [],
      events: [`tool_call send_message ${json(message)}${FROM_CODE}`, `tool_result send_message ${json(message)} failed caller_not_allowed`],
    },
  },
  {
    id: 'programmatic write that needs confirmation (nobody answers yet)',
    calls: [fromCode('refund', refund5)],
    confirmRefund: true,
    notApplicable: NO_CODE_RUNNER,
    expect: { decisions: ['asked_pending'], executions: [], events: [`tool_call refund ${json(refund5)}${FROM_CODE}`, 'confirmation_requested refund'] },
  },
  {
    id: 'programmatic write that needs confirmation, approved',
    calls: [fromCode('refund', refund5)],
    confirmRefund: true,
    answer: 'approve',
    notApplicable: NO_CODE_RUNNER,
    expect: {
      decisions: ['asked_approved'],
      executions: [{ tool: 'refund', arguments: refund5 }],
      events: [
        `tool_call refund ${json(refund5)}${FROM_CODE}`,
        'confirmation_requested refund',
        'confirmation_decided refund approve',
        `tool_result refund ${json(refund5)} succeeded`,
      ],
    },
  },
];
