/**
 * The call-case table (`call-cases.ts`) through every caller of the call pipeline, each driven only through public names
 * (the root, `toolwright/mcp`, `toolwright/test`, and the agent and policy barrels behind `toolwright/agent` and
 * `toolwright/policy`), as its users drive it, so that the pipeline's internals can move under it: `runAgent` and
 * `streamAgent` (with `resumeAgent` / `resumeAgentStream` when a person answers), `createToolGuards` as a foreign loop
 * drives it (check, ask the person, run), `planThenExecute` with a scripted
 * planner that plans the case's calls, and the MCP server over stdio and over Streamable HTTP with the SDK's client (its
 * elicitation handler stands for the person). Every cell must give the table's decisions, executions and events, save
 * the differences the table names and the cells listed in `KNOWN_GAPS` below, which must still behave as listed.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { resumeAgent, resumeAgentStream, runAgent, silentLogger, streamAgent, type AgentResult, type ToolExecution } from '../../src/index.js';
// The agent's names beyond running and resuming (toolwright/agent once the root entry is small; this barrel feeds it).
import { createToolGuards, planThenExecute, readRunRecord, type PlanThenExecuteOptions, type RunEvent } from '../../src/agent/index.js';
import { serveHttp, serveStdio, StdioLineTransport, type McpServerOptions } from '../../src/mcp/index.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../../src/test.js';
import {
  BLOCK_MESSAGE,
  CALL_CASES,
  CALLERS,
  CRASH_DETAIL,
  FROM_CODE,
  NO_RECORD_BY_DESIGN,
  RECORD_SOURCES,
  TOOL_ERROR_MESSAGE,
  caseTools,
  json,
  type CallCase,
  type CaseCall,
  type Caller,
  type Decision,
  type Execution,
  type Observed,
} from './call-cases.js';

/**
 * A cell where a caller disagrees today in a way issue #26 calls a bug: `today` is what it does now (over the table's
 * expectation), `should` what the issue asks. Each cell is asserted to behave as `today` says, so fixing one fails
 * this test until its entry is removed. `case: '*'` is every case of the table.
 */
interface KnownGap {
  caller: Caller;
  case: string;
  today: Partial<Observed>;
  should: string;
}

/** None left: add a cell here when a caller is found to disagree, until it is fixed. */
const KNOWN_GAPS: readonly KnownGap[] = [];

const PROMPT = 'Handle the ticket.';
const folder = mkdtempSync(join(tmpdir(), 'tw-call-cases-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let folders = 0;
const freshFolder = () => join(folder, String(++folders));

/** A cell's observation, plus every text the model or the client was shown (no internal error may reach it). */
type Cell = Observed & { shown: string };

/** One line per event of a call, with its key fields; other events (model calls, run start and stop) are left out. */
function eventLine(event: RunEvent): string | undefined {
  switch (event.type) {
    case 'tool_call':
      return `tool_call ${event.toolName} ${json(event.arguments)}${event.caller ? FROM_CODE : ''}`;
    case 'policy_decision':
      return `policy_decision ${event.toolName} ${event.action}${event.ruleId ? ` ${event.ruleId}` : ''}${event.removed ? ` removed ${event.removed.map((item) => item.argumentPath).join(',')}` : ''}`;
    case 'tool_result':
      return `tool_result ${event.toolName} ${json(event.arguments)} ${event.status}${event.failure ? ` ${event.failure.code}` : ''}`;
    case 'turn_limited':
      return `turn_limited ${event.requested}>${event.limit}`;
    case 'confirmation_requested':
      return `confirmation_requested ${event.pending.map((pending) => pending.toolName).join(',')}`;
    case 'confirmation_decided':
      return `confirmation_decided ${event.toolName} ${event.decision}`;
    default:
      return undefined;
  }
}

const linesOf = (events: readonly RunEvent[]) => events.flatMap((event) => eventLine(event) ?? []);

/** What became of each call, read from the events of a run (runAgent, streamAgent, planThenExecute). */
function decisionsFromEvents(events: readonly RunEvent[], asked: ReadonlySet<string> = new Set()): Decision[] {
  const calls = events.filter((event) => event.type === 'tool_call');
  return calls.map((call) => {
    const of = <T extends RunEvent['type']>(type: T) =>
      events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type && 'callKey' in event && event.callKey === call.callKey);
    const result = of('tool_result').at(-1);
    const requested = events.some((event) => event.type === 'confirmation_requested' && event.pending.some((pending) => pending.callKey === call.callKey));
    const approved = of('confirmation_decided').some((event) => event.decision === 'approve') || asked.has(call.callKey);
    if (!result) return requested ? 'asked_pending' : ('no result' as Decision);
    switch (result.status) {
      case 'duplicate':
        return 'not_run_duplicate';
      case 'not_run':
        if (events.some((event) => event.type === 'turn_limited' && event.notRun.includes(call.callKey))) return 'not_run_cap';
        return events.some((event) => event.type === 'stop' && event.stopReason?.kind === 'budget') ? 'not_run_budget' : ('not_run' as Decision);
      case 'blocked':
        return 'blocked';
      case 'declined':
        return 'asked_denied';
      case 'failed':
        return failureDecision(result.failure?.code);
      case 'succeeded':
        return approved ? 'asked_approved' : of('policy_decision').some((event) => event.removed !== undefined) ? 'rewritten' : 'ran';
      default:
        return result.status as Decision;
    }
  });
}

function failureDecision(code: string | undefined): Decision {
  if (code === 'tool_error') return 'tool_error';
  if (code === 'internal_error') return 'internal_error';
  if (code === 'caller_not_allowed') return 'refused_caller';
  return 'refused_invalid';
}

/** For callers seen from outside (the guards, MCP): a call that ran, from what its tool noted. */
function ranDecision(ran: readonly Execution[], requested: unknown, asked: boolean): Decision {
  if (asked) return 'asked_approved';
  return ran.length === 1 && !isDeepStrictEqual(ran[0]!.arguments, requested) ? 'rewritten' : 'ran';
}

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('\n');
}

function agentOptions(behaviour: CallCase) {
  const { tools, executions } = caseTools({ confirmRefund: behaviour.confirmRefund });
  const turns = behaviour.oneCallPerResponse ? behaviour.calls.map((call) => turnOf([call])) : [turnOf(behaviour.calls)];
  const model = createScriptedModel([...turns, textTurn('Done.')], { streamChunkSize: 7 });
  const limits = {
    ...(behaviour.maxToolCallsPerTurn !== undefined ? { maxToolCallsPerTurn: behaviour.maxToolCallsPerTurn } : {}),
    ...(behaviour.maxToolCalls !== undefined ? { maxToolCalls: behaviour.maxToolCalls } : {}),
    // Room for every response of the script and the answer: the iteration limit is not what a case is about.
    ...(behaviour.oneCallPerResponse ? { maxIterations: turns.length + 1 } : {}),
  };
  const runtime = {
    model,
    tools,
    recordDir: freshFolder(),
    logger: silentLogger,
    ...(behaviour.policy ? { policy: behaviour.policy() } : {}),
    ...(behaviour.guardToolCall ? { guardToolCall: behaviour.guardToolCall } : {}),
    limits,
  };
  return { runtime, executions, model };
}

/** One scripted response; a call from code is scripted as the call part an adapter reads off the wire, with its `caller`. */
function turnOf(calls: readonly CaseCall[]) {
  if (!calls.some((call) => call.caller)) return toolCallTurn(calls);
  return {
    content: calls.map((call, index) => ({
      type: 'tool-call' as const,
      id: `call_code_${index + 1}`,
      name: call.name,
      arguments: call.arguments,
      caller: call.caller,
    })),
  };
}

const decisionsFor = (result: AgentResult, answer: 'approve' | 'deny') =>
  result.status === 'awaiting_confirmation' ? result.pending.map((pending) => ({ token: pending.token, decision: answer })) : [];

async function throughRunAgent(behaviour: CallCase): Promise<Cell> {
  const { runtime, executions, model } = agentOptions(behaviour);
  let result: AgentResult = await runAgent({ ...runtime, prompt: PROMPT });
  if (result.status === 'awaiting_confirmation' && behaviour.answer) result = await resumeAgent(result.runId, decisionsFor(result, behaviour.answer), runtime);
  const record = readRunRecord(result.recordPath!);
  return { decisions: decisionsFromEvents(record), executions, events: linesOf(record), shown: JSON.stringify(model.requests) };
}

async function throughStreamAgent(behaviour: CallCase): Promise<Cell> {
  const { runtime, executions, model } = agentOptions(behaviour);
  const events: RunEvent[] = [];
  const run = streamAgent({ ...runtime, prompt: PROMPT });
  for await (const event of run) events.push(event as RunEvent);
  const result = await run.result;
  if (result.status === 'awaiting_confirmation' && behaviour.answer) {
    const resumed = resumeAgentStream(result.runId, decisionsFor(result, behaviour.answer), runtime);
    for await (const event of resumed) events.push(event as RunEvent);
    await resumed.result;
  }
  return { decisions: decisionsFromEvents(events), executions, events: linesOf(events), shown: JSON.stringify(model.requests) };
}

/** A foreign loop: for each call of the model's response, check it, ask the person when the guards say so, and run it. */
async function throughToolGuards(behaviour: CallCase): Promise<Cell> {
  const { tools, executions } = caseTools({ confirmRefund: behaviour.confirmRefund });
  const guards = createToolGuards({
    tools,
    logger: silentLogger,
    trustedTexts: [PROMPT],
    ...(behaviour.policy ? { policy: behaviour.policy() } : {}),
    ...(behaviour.guardToolCall ? { guardToolCall: behaviour.guardToolCall } : {}),
    ...(behaviour.maxToolCalls !== undefined ? { limits: { maxToolCalls: behaviour.maxToolCalls } } : {}),
  });
  const decisions: Decision[] = [];
  const shown: string[] = [];
  for (const [index, call] of behaviour.calls.entries()) {
    const request = { id: `call_${index + 1}`, name: call.name, arguments: call.arguments, ...(call.caller ? { caller: call.caller } : {}) };
    const before = executions.length;
    const decision = await guards.check(request);
    if (decision.action === 'refuse') {
      shown.push(textOf(decision.result));
      decisions.push(
        decision.reason === 'blocked' ? 'blocked' : decision.reason === 'invalid' ? failureDecision(decision.failureCode) : (decision.reason as Decision),
      );
      continue;
    }
    const asked = decision.action === 'confirm';
    // A denial is the host's to answer: the guards never run the call.
    if (asked && behaviour.answer === 'deny') {
      decisions.push('asked_denied');
      continue;
    }
    const ran = await guards.run(request, asked && behaviour.answer === 'approve' ? { approved: true } : {});
    shown.push(textOf(ran.result));
    const execution: ToolExecution | undefined = ran.execution;
    if (ran.status === 'needs_approval') decisions.push('asked_pending');
    else if (ran.status === 'succeeded') decisions.push(ranDecision(executions.slice(before), call.arguments, asked));
    else if (ran.status === 'failed') decisions.push(failureDecision(execution?.failure?.code));
    else if (ran.status === 'not_run' && ran.stop?.kind === 'budget') decisions.push('not_run_budget');
    else decisions.push(ran.status as Decision);
  }
  return { decisions, executions, events: 'no record', shown: shown.join('\n') };
}

/** A plan is one turn and a whole run: the per-turn cap and the call budget both become its `maxCalls`. */
const planCap = (behaviour: CallCase) => behaviour.maxToolCallsPerTurn ?? behaviour.maxToolCalls;

/** A scripted planner that plans the case's calls, pinned (no holes); the confirmer is the person. */
async function throughPlanThenExecute(behaviour: CallCase): Promise<Cell> {
  const { tools, executions } = caseTools({ confirmRefund: behaviour.confirmRefund });
  const plan = { calls: behaviour.calls.map((call) => ({ tool: call.name, arguments: call.arguments })), holes: [], answer: 'Done.' };
  const planner = createScriptedModel([{ output: { value: plan } }]);
  const events: RunEvent[] = [];
  const approvedCalls = new Set<string>();
  const options: PlanThenExecuteOptions = {
    planner,
    tools,
    prompt: PROMPT,
    logger: silentLogger,
    onEvent: (event) => events.push(event),
    ...(behaviour.policy ? { policy: behaviour.policy() } : {}),
    ...(planCap(behaviour) !== undefined ? { maxCalls: planCap(behaviour) } : {}),
    ...(behaviour.answer
      ? {
          confirm: () => {
            // Calls run one after another, so the call being confirmed is the last one announced.
            const current = events.findLast((event) => event.type === 'tool_call');
            if (behaviour.answer === 'approve' && current?.type === 'tool_call') approvedCalls.add(current.callKey);
            return behaviour.answer === 'approve';
          },
        }
      : {}),
  };
  if (behaviour.guardToolCall) options.guardToolCall = behaviour.guardToolCall;
  const result = await planThenExecute(options);
  if (result.status === 'plan_rejected')
    return { decisions: behaviour.calls.map(() => 'plan_rejected'), executions, events: linesOf(events), shown: result.message };
  return { decisions: decisionsFromEvents(events, approvedCalls), executions, events: linesOf(events), shown: JSON.stringify(result.calls) };
}

/** How a call refused for the session's tool-call budget reads (`maxToolCalls`). */
const BUDGET_TEXT = /budget of \d+ tool calls is used up/;

/** The MCP server, one `tools/call` request per call, the client's elicitation handler answering as the person. */
async function throughMcp(transport: 'stdio' | 'http', behaviour: CallCase): Promise<Cell> {
  const { tools, executions } = caseTools({ confirmRefund: behaviour.confirmRefund });
  const recordDir = freshFolder();
  mkdirSync(recordDir);
  // One record per session, as runAgent writes one per run.
  const options = {
    logger: silentLogger,
    recordDir,
    ...(behaviour.policy ? { policy: behaviour.policy() } : {}),
    ...(behaviour.guardToolCall ? { guardToolCall: behaviour.guardToolCall } : {}),
    ...(behaviour.maxToolCalls !== undefined ? { limits: { maxToolCalls: behaviour.maxToolCalls } } : {}),
  } as McpServerOptions;
  const client = new Client({ name: 'call-cases', version: '1.0.0' }, { capabilities: behaviour.answer ? { elicitation: { form: {} } } : {} });
  let asks = 0;
  if (behaviour.answer) {
    client.setRequestHandler(ElicitRequestSchema, () => {
      asks++;
      return { action: 'accept', content: { approve: behaviour.answer === 'approve' } };
    });
  }
  let close: () => Promise<void>;
  if (transport === 'stdio') {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const handle = await serveStdio(tools, { ...options, input: toServer, output: fromServer });
    await client.connect(new StdioLineTransport(fromServer, toServer));
    close = () => handle.close();
  } else {
    const handle = await serveHttp(tools, { ...options, port: 0 });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    close = () => handle.close();
  }
  const decisions: Decision[] = [];
  const shown: string[] = [];
  try {
    for (const call of behaviour.calls) {
      const before = executions.length;
      const asksBefore = asks;
      let result: unknown;
      try {
        result = await client.callTool({ name: call.name, arguments: call.arguments as Record<string, unknown> });
      } catch (error) {
        if (!(error instanceof McpError)) throw error;
        shown.push(error.message);
        decisions.push('protocol_error');
        continue;
      }
      const text = textOf(result);
      shown.push(text);
      const ran = executions.slice(before);
      const asked = asks > asksBefore;
      const isError = (result as { isError?: boolean }).isError === true;
      if (ran.length > 0)
        decisions.push(!isError ? ranDecision(ran, call.arguments, asked) : text.includes(TOOL_ERROR_MESSAGE) ? 'tool_error' : 'internal_error');
      else if (asked) decisions.push('asked_denied');
      else if (text.includes('cannot ask for it')) decisions.push('refused_no_person');
      else if (text.includes(BLOCK_MESSAGE)) decisions.push('blocked');
      else if (BUDGET_TEXT.test(text)) decisions.push('not_run_budget');
      else decisions.push('refused_invalid');
    }
  } finally {
    await client.close();
    await close();
  }
  const records = readdirSync(recordDir).filter((name) => name.endsWith('.jsonl'));
  const events = records.length === 0 ? 'no record' : records.flatMap((name) => linesOf(readRunRecord(join(recordDir, name))));
  return { decisions, executions, events, shown: shown.join('\n') };
}

const RUN: Record<Caller, (behaviour: CallCase) => Promise<Cell>> = {
  runAgent: throughRunAgent,
  streamAgent: throughStreamAgent,
  createToolGuards: throughToolGuards,
  planThenExecute: throughPlanThenExecute,
  'mcp-stdio': (behaviour) => throughMcp('stdio', behaviour),
  'mcp-http': (behaviour) => throughMcp('http', behaviour),
};

/** The table's expectation for a cell, with the caller's named differences. */
function intended(behaviour: CallCase, caller: Caller): Observed {
  const { reason: _reason, ...difference } = behaviour.differs?.[caller] ?? { reason: '' };
  return { ...behaviour.expect, ...(NO_RECORD_BY_DESIGN[caller] ? { events: 'no record' as const } : {}), ...difference };
}

const gapsOf = (behaviour: CallCase, caller: Caller) => KNOWN_GAPS.filter((gap) => gap.caller === caller && (gap.case === '*' || gap.case === behaviour.id));

describe.each(CALL_CASES)('$id', (behaviour) => {
  it.each(CALLERS.filter((caller) => behaviour.notApplicable?.[caller] === undefined))('through %s', async (caller) => {
    const gaps = gapsOf(behaviour, caller);
    const expected = Object.assign(intended(behaviour, caller), ...gaps.map((gap) => gap.today));
    const { shown, ...observed } = await RUN[caller](behaviour);
    expect(observed).toEqual(expected);
    // A crash's details stay in the log: the model (or the client) reads a neutral text.
    expect(shown).not.toContain(CRASH_DETAIL);
  });
});

describe('the table itself', () => {
  it('names only real callers and cases, with a reason for every difference and gap', () => {
    const ids = CALL_CASES.map((behaviour) => behaviour.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const behaviour of CALL_CASES) {
      for (const [caller, difference] of Object.entries(behaviour.differs ?? {})) {
        expect(CALLERS).toContain(caller);
        expect(difference.reason.length).toBeGreaterThan(20);
      }
      for (const [caller, reason] of Object.entries(behaviour.notApplicable ?? {})) {
        expect(CALLERS).toContain(caller);
        expect(reason.length).toBeGreaterThan(20);
        expect(behaviour.differs?.[caller as Caller]).toBeUndefined();
      }
      // The callers that can run the case: every case reaches the agent loop at least.
      expect(behaviour.notApplicable?.runAgent).toBeUndefined();
    }
    for (const gap of KNOWN_GAPS) {
      expect(CALLERS).toContain(gap.caller);
      if (gap.case !== '*') expect(ids).toContain(gap.case);
      expect(gap.should.length).toBeGreaterThan(20);
    }
  });

  it('says where each caller records, and names every caller without a record', () => {
    for (const caller of CALLERS) {
      const withoutRecord =
        NO_RECORD_BY_DESIGN[caller] !== undefined || KNOWN_GAPS.some((gap) => gap.caller === caller && gap.case === '*' && gap.today.events === 'no record');
      expect(RECORD_SOURCES[caller].startsWith('none'), caller).toBe(withoutRecord);
    }
  });

  it('lists only gaps that change what the cell ends with', () => {
    for (const gap of KNOWN_GAPS) {
      for (const behaviour of CALL_CASES.filter((item) => gap.case === '*' || gap.case === item.id)) {
        const intendedCell = intended(behaviour, gap.caller);
        expect({ ...intendedCell, ...gap.today }, `${gap.caller} / ${behaviour.id}`).not.toEqual(intendedCell);
      }
    }
  });
});
