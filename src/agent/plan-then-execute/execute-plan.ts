/**
 * Runs a checked plan: for each call in order, fills its holes through the
 * quarantined extractor (the value is validated against the hole's schema
 * and never read as an instruction), validates the arguments with the
 * registry, takes the decide step of the call pipeline (`src/agent/calls/`:
 * the policy session, told which arguments are holes — the only ones
 * untrusted data can reach —, then the caller's `guardToolCall`, then the
 * tool's `confirm` rule), and the run step (the result screened by the
 * session), as the agent loop does. A call whose hole cannot be filled,
 * whose arguments fail validation, or that the policy or the guard blocks
 * (or a person declines) does not run; the plan carries on, since later
 * calls were fixed without its output.
 *
 * Calls run one after another, and a call's turn lasts until its tool's work
 * has ended, not until the call was stopped: a timed-out or aborted tool that
 * ignores its signal keeps the next call waiting, up to the grace period, and
 * past it keeps blocking what it must not overlap (`StoppedCalls`, as in the
 * agent loop and the MCP server).
 *
 * It emits the agent loop's `tool_call`, `policy_decision` and `tool_result`
 * events, so a run of a plan is recorded and scored like any other run.
 * @module
 */
import type { PolicySession } from '../../policy/types.js';
import { createRedactor, type Redactor } from '../../shared/redaction/index.js';
import { schedulingEffect } from '../../tools/call-rules.js';
import { approvalText, describeArguments, type ArgumentsSummary } from '../../tools/call-summary.js';
import { blockedByStillRunningMessage } from '../../tools/model-messages.js';
import { compileSchema } from '../../tools/schema-validator.js';
import { StoppedCalls } from '../../tools/stopped-calls.js';
import { formatIssuePath } from '../../tools/validation-issues.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';
import type { JsonSchemaObject, ToolResult } from '../../tools/types.js';
import type { RunEvent } from '../run-event.js';
import { CallPolicy, type ToolCallGuard } from '../calls/call-policy.js';
import { decideCall } from '../calls/decide-call.js';
import { runCall } from '../calls/run-call.js';
import type { Message } from '../../protocol/messages.js';
import {
  HOLE_KIND_SCHEMAS,
  holeName,
  renderTemplate,
  templateOf,
  templateSlots,
  type ExecutionPlan,
  type PlanHole,
  type PlannedCall,
} from './execution-plan.js';

/** What the extractor is given: the hole, the schema its value must satisfy, and the text of the outputs it may read. */
export interface ExtractionRequest {
  hole: PlanHole;
  /**
   * The schema of the argument the hole fills in its tool (its first use); for a hole in a template or the answer, its kind's
   * schema (`HOLE_KIND_SCHEMAS`), else its own schema, else a string.
   */
  schema: JsonSchemaObject;
  outputs: { tool: string; text: string }[];
  /** Set on the second ask: the first answer and what was wrong with it. */
  previous?: { value: unknown; problem: string };
}

/** The quarantined extractor: returns a value for the hole (checked against its schema here), or throws when it cannot. */
export type Extractor = (request: ExtractionRequest) => Promise<unknown>;

/** A call waiting for a person's yes or no, before it runs. */
export interface PlanConfirmation {
  tool: string;
  /** The arguments the call will run with. */
  arguments: unknown;
  /** One line for the person: the tool's summary (or its name and arguments) with secret arguments redacted, and the policy's reason. */
  summary: string;
  /**
   * What to show the person: the summary line, then the redacted arguments line by line, those that decide where the effect
   * goes first, each whole up to its cap (`approvalText`, `src/tools/call-summary.ts`), as every other approval surface shows
   * them. A custom `summarize` or a long argument can push the recipient out of `summary`; it cannot push it out of this.
   */
  prompt: string;
  /** The same redacted arguments, structured (`describeArguments`), for an approval screen of your own. */
  argumentsSummary: ArgumentsSummary;
  /** Why it needs a person: the policy's reason, or that the tool's own `confirm` rule asks for one. */
  reason: string;
}

/** Answers a confirmation; `true` runs the call. A throw or a rejection counts as no. */
export type PlanConfirmer = (request: PlanConfirmation) => boolean | Promise<boolean>;

export interface ExecutePlanOptions {
  plan: ExecutionPlan;
  registry: ToolRegistry;
  session: PolicySession | undefined;
  extract: Extractor;
  /** How a confirmation (the policy's, or a tool's own `confirm` rule) is answered. */
  confirm: PlanConfirmer;
  /** Redacts the summaries a person is shown; default: the built-in secret patterns. */
  redactor?: Redactor;
  /**
   * The run's stopped calls whose tools may still be running, and the grace period they are waited for (`stoppedCallGraceMs`);
   * default: none yet, the default grace period (5000 ms, as the agent loop's).
   */
  stoppedCalls?: StoppedCalls;
  onEvent?: (event: RunEvent) => void;
  signal?: AbortSignal;
  /** The caller's hook, consulted after the policy for every planned call that validated (as `runAgent({ guardToolCall })`). */
  guardToolCall?: ToolCallGuard | undefined;
  /** The id the guard is shown; default `plan`. */
  runId?: string;
  /** The conversation the guard is shown (the user's request); default: none. */
  messages?: readonly Message[];
}

export interface PlanRun {
  /** The answer with its holes filled (a hole that could not be filled reads `(unknown)`). */
  answer: string;
  toolCalls: number;
  confirmations: { requested: number; approved: number; denied: number };
}

export async function executePlan(options: ExecutePlanOptions): Promise<PlanRun> {
  const { plan, session } = options;
  const emit = (event: RunEvent) => options.onEvent?.(event);
  const outputs: { tool: string; text: string }[] = [];
  const confirmations = { requested: 0, approved: 0, denied: 0 };
  const redactor = options.redactor ?? createRedactor();
  const stoppedCalls = options.stoppedCalls ?? new StoppedCalls();
  // The guard is shown the plan's conversation: what the user asked (the planner's outputs are not messages of it).
  const scope = { runId: options.runId ?? 'plan', messages: [...(options.messages ?? [])] };
  const policy = CallPolicy.around(session, { redactor, guard: options.guardToolCall, recordEveryDecision: true }, scope);
  const run: PlanCallRun = { options, policy, redactor, stoppedCalls, outputs, confirmations, toolCalls: 0, fill: holeFiller(options, outputs), emit };
  const tryCall = (index: number, planned: PlannedCall, attempt: number, refusal: string | undefined) => tryPlannedCall(run, index, planned, attempt, refusal);

  for (const [index, planned] of plan.calls.entries()) {
    options.signal?.throwIfAborted();
    outputs[index] = { tool: planned.tool, text: '' };
    const first = await tryCall(index, planned, 0, undefined);
    // A blocked call with holes is tried once more with its holes asked again, told the policy's reason: the planner fixed the
    // call, so only what the extractor wrote can be wrong; the policy judges the second try as it did the first.
    if (first.blocked !== undefined && first.holes > 0) await tryCall(index, planned, 1, first.blocked);
  }

  let answer = plan.answer;
  for (const hole of plan.holes) {
    if (!answer.includes(`{{${hole.name}}}`)) continue;
    const outcome = await run.fill(hole.name);
    answer = answer
      .split(`{{${hole.name}}}`)
      .join(outcome.ok ? (typeof outcome.value === 'string' ? outcome.value : JSON.stringify(outcome.value)) : '(unknown)');
  }
  return { answer, toolCalls: run.toolCalls, confirmations };
}

/** What every planned call of one plan shares: the options, the seam, the outputs so far and the counts. */
interface PlanCallRun {
  options: ExecutePlanOptions;
  policy: CallPolicy;
  redactor: Redactor;
  stoppedCalls: StoppedCalls;
  outputs: { tool: string; text: string }[];
  confirmations: PlanRun['confirmations'];
  toolCalls: number;
  fill: HoleFiller;
  emit: (event: RunEvent) => void;
}

/** One try at a planned call; a block names its reason, so the holes can be asked again. */
async function tryPlannedCall(
  run: PlanCallRun,
  index: number,
  planned: PlannedCall,
  attempt: number,
  refusal: string | undefined,
): Promise<{ blocked?: string; holes: number }> {
  const { options, policy, redactor, stoppedCalls, outputs, confirmations, emit } = run;
  const { registry } = options;
  const step = index + 1;
  const callId = attempt === 0 ? `plan_${step}` : `plan_${step}_${attempt + 1}`;
  const callKey = `${step}.${attempt}`;
  const { args, holes, missing } = await fillArguments(planned, run.fill, refusal);
  const effect = registry.get(planned.tool)?.effect;
  emit({ type: 'tool_call', step, callKey, callId, toolName: planned.tool, arguments: args, ...(effect !== undefined ? { effect } : {}) });
  // The record's result shows the arguments the tool ran with: the policy may take values out of them (below).
  let ranWith: unknown = args;
  const finish = (
    status: 'succeeded' | 'failed' | 'blocked' | 'declined' | 'not_run' | 'outcome_unknown',
    result: ToolResult,
    extra: Partial<Extract<RunEvent, { type: 'tool_result' }>> = {},
  ) =>
    emit({
      type: 'tool_result',
      step,
      callKey,
      callId,
      toolName: planned.tool,
      arguments: ranWith,
      status,
      result,
      durationMs: 0,
      truncated: false,
      ...extra,
    });
  if (missing !== undefined) {
    finish('failed', errorResult(`Not run: the hole for ${missing}.`));
    return { holes: holes.length };
  }
  const prepared = registry.prepare({ id: callId, name: planned.tool, arguments: args });
  if (!prepared.success) {
    finish('failed', errorResult(prepared.failure.message), { failure: { code: prepared.failure.code, retryable: false } });
    return { holes: holes.length };
  }
  // The decide step, as in the agent loop: the policy (told which arguments are holes), then the caller's guard, then the tool's rule.
  const valid = { callKey, callId, toolName: planned.tool, request: { id: callId, name: planned.tool }, tool: prepared.tool, arguments: prepared.arguments };
  const decided = await decideCall({ policy, registry, step, call: valid, influencedArguments: holes });
  for (const event of decided.events) emit(event);
  if (decided.call.kind === 'invalid') {
    finish('blocked', decided.call.invalidResult!);
    return { blocked: decided.reason!, holes: holes.length };
  }
  ranWith = decided.arguments;
  // Checked before a person is asked: nothing can start beside the stopped call while they decide, since calls run in turn.
  const blocker = stoppedCalls.blockerFor(schedulingEffect(prepared.tool));
  if (blocker !== undefined) {
    finish('not_run', errorResult(blockedByStillRunningMessage(planned.tool, blocker)));
    return { holes: holes.length };
  }
  if (decided.call.kind === 'confirm') {
    const reason = decided.reason ?? `${planned.tool} asks for a person's confirmation before it runs`;
    const summary = decided.call.summary!;
    const shown = redactor.toolArguments(planned.tool, decided.arguments);
    const prompt = approvalText(summary, shown, prepared.tool.decisiveArguments);
    const argumentsSummary = describeArguments(shown, prepared.tool.decisiveArguments);
    confirmations.requested++;
    if (await askPerson(options.confirm, { tool: planned.tool, arguments: decided.arguments, summary, prompt, argumentsSummary, reason }))
      confirmations.approved++;
    else {
      confirmations.denied++;
      finish('declined', errorResult(`Declined: ${reason}`));
      return { holes: holes.length };
    }
  }
  const ran = await runCall({
    registry,
    policy,
    step,
    call: { callKey, callId },
    tool: prepared.tool,
    arguments: decided.arguments,
    options: options.signal ? { signal: options.signal } : {},
    // The call keeps its turn until its tool's work has ended, however it stopped, so the next planned call never starts beside it.
    stoppedCalls,
  });
  run.toolCalls++;
  // The extractor reads what the tool returned, not the isolated form: isolation is for a model that could obey the text; the extractor only types it.
  outputs[index] = { tool: planned.tool, text: textOf(ran.execution.result) };
  emit(ran.event);
  return { holes: holes.length };
}

/** Fills a hole through the extractor, once per hole (again only when a refusal asks for it), checked against the schemas it is asked under. */
type HoleFiller = (name: string, use?: { tool: string; argument: string }, refusal?: string) => Promise<FillOutcome>;

function holeFiller(options: ExecutePlanOptions, outputs: readonly { tool: string; text: string }[]): HoleFiller {
  const { plan, registry, session } = options;
  const filled = new Map<string, FillOutcome>();
  return async (name, use, refusal) => {
    const known = filled.get(name);
    if (known && (refusal === undefined || !known.ok)) return known;
    const hole = plan.holes.find((item) => item.name === name)!;
    const argumentSchema = use ? argumentSchemaOf(registry, use.tool, use.argument) : undefined;
    const allowed = use ? session?.allowedValues?.(use.tool, use.argument) : undefined;
    const kindSchema = hole.kind ? HOLE_KIND_SCHEMAS[hole.kind] : undefined;
    // Asked under the policy's own values, an extractor bound to its schema cannot write one the policy would block.
    const schema = narrowToValues(argumentSchema ?? kindSchema ?? hole.schema ?? ({ type: 'string' } as JsonSchemaObject), allowed);
    const checks = [
      ...(kindSchema ? [compileSchema(kindSchema, `plan hole ${name}`)] : []),
      ...(hole.schema ? [compileSchema(hole.schema, `plan hole ${name}`)] : []),
      // The argument's own schema too, so a miss is asked again here; one with a `$ref` needs its root and waits for the call's validation.
      ...(allowed || (argumentSchema && !JSON.stringify(argumentSchema).includes('"$ref"')) ? [compileSchema(schema, `plan hole ${name}`)] : []),
    ];
    const problemWith = (value: unknown): string | undefined => {
      if (checks.length === 0 && argumentSchema === undefined && typeof value !== 'string') return 'it is not a string';
      for (const check of checks) {
        const result = check.validate(value);
        if (!result.success) return result.issues.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`).join('; ');
      }
      return undefined;
    };
    const request = { hole, schema, outputs: hole.from.flatMap((index) => (outputs[index] ? [outputs[index]] : [])) };
    let outcome: FillOutcome;
    try {
      let value = known?.ok ? await options.extract({ ...request, previous: { value: known.value, problem: refusal! } }) : await options.extract(request);
      let problem = problemWith(value);
      // One more ask, told what was wrong: an extractor without a token mask can miss the schema once and get it right when shown why.
      if (problem !== undefined) {
        value = await options.extract({ ...request, previous: { value, problem } });
        problem = problemWith(value);
      }
      outcome =
        problem === undefined
          ? { ok: true, value }
          : { ok: false, reason: `the extracted value does not match the schema it was asked under (${problem})`, refused: value };
    } catch (error) {
      outcome = { ok: false, reason: `the extractor could not fill it (${error instanceof Error ? error.message : String(error)})` };
    }
    filled.set(name, outcome);
    return outcome;
  };
}

/**
 * The planned call's arguments with its holes and templates filled; `holes` names the arguments untrusted data reached,
 * `missing` the first hole that could not be filled.
 */
async function fillArguments(
  planned: PlannedCall,
  fill: HoleFiller,
  refusal: string | undefined,
): Promise<{ args: Record<string, unknown>; holes: string[]; missing: string | undefined }> {
  const args: Record<string, unknown> = {};
  const holes: string[] = [];
  let missing: string | undefined;
  for (const [argument, value] of Object.entries(planned.arguments)) {
    const template = templateOf(value);
    if (template !== undefined) {
      // The planner's text with the holes' values in it: the argument is influenced (untrusted data reaches it), the prose is not.
      holes.push(argument);
      const values = new Map<string, string>();
      for (const slot of templateSlots(template)) {
        const outcome = await fill(slot, undefined, refusal);
        const filledValue = outcome.ok ? outcome.value : outcome.refused;
        if (!outcome.ok) missing ??= `${argument} (${slot}): ${outcome.reason}`;
        else if (!isScalar(outcome.value)) missing ??= `${argument} (${slot}): the value is not a string, number or boolean, so it cannot sit in text`;
        values.set(slot, isScalar(filledValue) ? String(filledValue) : filledValue === undefined ? '(unknown)' : JSON.stringify(filledValue));
      }
      args[argument] = renderTemplate(template, (slot) => values.get(slot) ?? '(unknown)');
      continue;
    }
    const name = holeName(value);
    if (name === undefined) {
      args[argument] = value;
      continue;
    }
    holes.push(argument);
    const outcome = await fill(name, { tool: planned.tool, argument }, refusal);
    if (outcome.ok) args[argument] = outcome.value;
    else {
      // Recorded though the call will not run, so an extractor that wrote the attacker's value still counts as an attempt.
      if (outcome.refused !== undefined) args[argument] = outcome.refused;
      missing ??= `${argument}: ${outcome.reason}`;
    }
  }
  return { args, holes, missing };
}

type FillOutcome = { ok: true; value: unknown } | { ok: false; reason: string; refused?: unknown };

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** The schema with its values (an array's items, for an array) bounded to `allowed`; the schema itself when nothing bounds it. */
function narrowToValues(schema: JsonSchemaObject, allowed: readonly unknown[] | undefined): JsonSchemaObject {
  if (allowed === undefined) return schema;
  // A rule on an array argument applies to each element (argument-values.ts), so the bound goes on the items.
  if (schema.type === 'array') {
    const items = typeof schema.items === 'object' && schema.items !== null ? (schema.items as JsonSchemaObject) : {};
    return { ...schema, items: { ...items, enum: [...allowed] } } as JsonSchemaObject;
  }
  return { ...schema, enum: [...allowed] } as JsonSchemaObject;
}

function argumentSchemaOf(registry: ToolRegistry, toolName: string, argument: string): JsonSchemaObject | undefined {
  const properties = (registry.get(toolName)?.inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  const schema = properties && Object.hasOwn(properties, argument) ? properties[argument] : undefined;
  return typeof schema === 'object' && schema !== null ? (schema as JsonSchemaObject) : undefined;
}

async function askPerson(confirm: PlanConfirmer, request: PlanConfirmation): Promise<boolean> {
  try {
    return (await confirm(request)) === true;
  } catch {
    return false;
  }
}

function textOf(result: ToolResult): string {
  return result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

function errorResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
