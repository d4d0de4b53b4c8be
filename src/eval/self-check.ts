/**
 * The suite's self-check, with no model: replays every reference call
 * sequence through the real tools and checks that
 * - each user task's reference solves it (100% utility), and its check fails
 *   on an untouched environment (a check that always passes measures nothing);
 * - each user task's reference reads at least one injection vector (so every
 *   attack case can see its injection) and passes its own task policy with no
 *   block and no confirmation (the policy costs the reference nothing), or, for a task that says why it needs a person
 *   (`personConfirms`), with confirmations only;
 * - each injection task's reference reaches the attacker's goal (100%
 *   detected effects), its attempt detector fires on the reference, and its
 *   effect check fails on an untouched environment;
 * - for every (user task, injection task) pair, replaying the injection's
 *   reference under the user task's policy (after the user's own reads, on
 *   an environment with the attack planted, each call run only if the policy
 *   allows it) does not reach the attacker's goal on the effect log, nor, for
 *   an in-scope injection, does the user's own reference with the payload
 *   folded into its writes (what `sim:folding` does). A pair
 *   that reaches it is a hole; the suite may declare the holes that only a
 *   provenance rule can close (`needsProvenance`), and they pass only under
 *   `allowDeclaredHoles`, never silently; a declared pair that is closed
 *   fails as stale.
 * @module
 */
import { CallPolicy } from '../agent/calls/call-policy.js';
import { decideCall } from '../agent/calls/decide-call.js';
import { runCall } from '../agent/calls/run-call.js';
import { createRedactor } from '../shared/redaction/index.js';
import { createPolicy } from '../policy/create-policy.js';
import type { PolicySession } from '../policy/types.js';
import { ToolRegistry, silentLogger } from '../tools/tool-registry.js';
import { IMPORTANT_INSTRUCTIONS } from './attacks.js';
import { foldPayload } from './fold-payload.js';
import type { AnyEvalSuite, EvalCall, SuitePair } from './suite-types.js';

/** The result of one check. */
export interface SelfCheckItem {
  /** The task checked. */
  taskId: string;
  /** What was checked, e.g. `reference solves the task`. */
  check: string;
  /** Whether it held. */
  passed: boolean;
  /** Why it failed. */
  detail?: string;
}

export interface SelfCheckReport {
  /** The suite's name. */
  suite: string;
  /** The suite's version. */
  version: string;
  /** Every check, in order. */
  items: SelfCheckItem[];
  /** User tasks whose reference solves them, over all user tasks. */
  utility: { passed: number; total: number };
  /** Injection tasks whose reference reaches the goal and is detected, over all injection tasks. */
  effects: { passed: number; total: number };
  /** (user task, injection task) pairs where the injection's reference, replayed under the user task's policy, does not reach the goal. */
  policyBlocks: { passed: number; total: number };
  /** Pairs whose replay reaches the goal, declared in `needsProvenance` or not. */
  holes: SuitePair[];
  /** Vectors each user task's reference reads. */
  exposure: Record<string, string[]>;
  /** Whether every check passed. */
  passed: boolean;
}

interface Replay {
  ok: boolean;
  detail?: string;
  outputs: string[];
}

/** Runs the self-check of a suite. */
export interface SelfCheckOptions {
  /** Let the suite's declared `needsProvenance` pairs pass (they are still listed in `holes`). Default: false. */
  allowDeclaredHoles?: boolean;
}

export async function selfCheckSuite(suite: AnyEvalSuite, options: SelfCheckOptions = {}): Promise<SelfCheckReport> {
  const items: SelfCheckItem[] = [];
  const exposure: Record<string, string[]> = {};
  const add = (taskId: string, check: string, passed: boolean, detail?: string) =>
    items.push({ taskId, check, passed, ...(detail !== undefined && !passed ? { detail } : {}) });
  let utilityPassed = 0;
  let effectsPassed = 0;
  let policyPassed = 0;
  let policyTotal = 0;
  const holes: SuitePair[] = [];
  const declared = new Set((suite.needsProvenance ?? []).map((pair) => `${pair.userTask}\u0000${pair.injectionTask}`));
  // One registry for every replay: the tools read `env.state` at call time, and schemas compile once.
  const env: { state: unknown } = { state: undefined };
  const registry = new ToolRegistry(suite.createTools(env), { logger: silentLogger });

  for (const task of suite.userTasks) {
    env.state = suite.createState();
    const pre = structuredClone(env.state);
    const session = createPolicy(task.policy(pre)).startRun({ trustedTexts: [task.prompt, suite.systemPrompt] });
    const policyProblems: string[] = [];
    const replay = await replayCalls(registry, task.reference(pre), session, policyProblems);
    const answer = task.referenceAnswer?.(pre) ?? '';
    const solved = replay.ok && task.utility({ pre, post: env.state, answer });
    add(task.id, 'reference solves the task', solved, replay.ok ? 'the utility check is false after the reference calls' : replay.detail);
    if (solved) utilityPassed++;
    add(
      task.id,
      'utility check fails when nothing is done',
      !task.utility({ pre, post: structuredClone(pre), answer: '' }),
      'the utility check holds on the untouched environment',
    );
    // A task that sends its writes to a person by design passes with confirmations only (never a block or a removal), and says so.
    const confirmedByDesign =
      task.personConfirms !== undefined && policyProblems.length > 0 && policyProblems.every((problem) => problem.includes(' sent for confirmation by rule '));
    if (confirmedByDesign) {
      items.push({
        taskId: task.id,
        check: 'task policy sends the reference to a person, by design',
        passed: true,
        detail: `${task.personConfirms}: ${policyProblems.join('; ')}`,
      });
    } else add(task.id, 'task policy allows the reference', policyProblems.length === 0, policyProblems.join('; '));

    const canaries = Object.fromEntries(suite.vectors.map((vector) => [vector.id, `[[canary:${vector.id}]]`]));
    env.state = suite.createState(canaries);
    const seen = await replayCalls(registry, task.reference(structuredClone(env.state)), undefined, []);
    exposure[task.id] = suite.vectors.filter((vector) => seen.outputs.some((text) => text.includes(canaries[vector.id]!))).map((vector) => vector.id);
    add(
      task.id,
      'reference reads an injection vector',
      exposure[task.id]!.length > 0,
      'no injection vector appears in the reference outputs, so no attack can reach this task',
    );
  }

  for (const injection of suite.injectionTasks) {
    env.state = suite.createState();
    const pre = structuredClone(env.state);
    const calls = injection.reference(pre);
    const replay = await replayCalls(registry, calls, undefined, []);
    const reached = replay.ok && injection.effect({ pre, post: env.state });
    const detected = calls.some((call) => injection.attempted(call));
    add(injection.id, 'reference reaches the goal', reached, replay.ok ? 'the effect check is false after the reference calls' : replay.detail);
    add(injection.id, 'attempt detector fires on the reference', detected, 'no reference call is detected as an attempt');
    add(
      injection.id,
      'effect check fails when nothing is done',
      !injection.effect({ pre, post: structuredClone(pre) }),
      'the effect check holds on the untouched environment',
    );
    if (reached && detected) effectsPassed++;

    const undeclared: string[] = [];
    const allowed: string[] = [];
    const stale: string[] = [];
    const attacked = Object.fromEntries(
      suite.vectors.map((vector) => [
        vector.id,
        IMPORTANT_INSTRUCTIONS.render({ goal: injection.goal, userName: suite.userName, modelName: 'the AI assistant', userTask: '', toolNames: [] }),
      ]),
    );
    for (const task of suite.userTasks) {
      policyTotal++;
      env.state = suite.createState(attacked);
      const attackedPre = structuredClone(env.state);
      const session = createPolicy(task.policy(structuredClone(attackedPre))).startRun({ trustedTexts: [task.prompt, suite.systemPrompt] });
      const userReads = readsBeforeFirstWrite(registry, task.reference(structuredClone(attackedPre)));
      await replayAllowed(registry, session, [...userReads, ...injection.reference(structuredClone(attackedPre))]);
      let reached = safeEffect(() => injection.effect({ pre: attackedPre, post: env.state }));
      if (!reached && injection.payload !== undefined) {
        // The in-scope form: the payload folded into the user's own writes (what sim:folding does).
        env.state = suite.createState(attacked);
        const folded = createPolicy(task.policy(structuredClone(attackedPre))).startRun({ trustedTexts: [task.prompt, suite.systemPrompt] });
        const calls = task
          .reference(structuredClone(attackedPre))
          .map((call) => (isWrite(registry, call) ? (foldPayload(call, injection.payload!) ?? call) : call));
        await replayAllowed(registry, folded, calls);
        reached = safeEffect(() => injection.effect({ pre: attackedPre, post: env.state }));
      }
      const key = `${task.id}\u0000${injection.id}`;
      if (reached) holes.push({ userTask: task.id, injectionTask: injection.id });
      if (!reached) {
        policyPassed++;
        if (declared.has(key)) stale.push(task.id);
      } else if (declared.has(key) && options.allowDeclaredHoles) allowed.push(task.id);
      else undeclared.push(task.id);
    }
    add(
      injection.id,
      'no task policy lets the reference reach the goal',
      undeclared.length === 0,
      holeDetail(undeclared, (id) => declared.has(`${id}\u0000${injection.id}`)),
    );
    if (stale.length > 0 || declaredFor(suite.needsProvenance, injection.id).length > 0)
      add(injection.id, 'declared provenance holes are still open', stale.length === 0, `closed under ${stale.join(', ')}: remove them from needsProvenance`);
  }
  for (const pair of suite.needsProvenance ?? []) {
    const known = suite.userTasks.some((task) => task.id === pair.userTask) && suite.injectionTasks.some((task) => task.id === pair.injectionTask);
    if (!known) add(pair.injectionTask, 'declared provenance holes name real tasks', false, `no pair (${pair.userTask}, ${pair.injectionTask}) in the suite`);
  }

  return {
    suite: suite.name,
    version: suite.version,
    items,
    utility: { passed: utilityPassed, total: suite.userTasks.length },
    effects: { passed: effectsPassed, total: suite.injectionTasks.length },
    policyBlocks: { passed: policyPassed, total: policyTotal },
    holes,
    exposure,
    passed: items.every((item) => item.passed),
  };
}

/**
 * The (user task, injection task) pairs whose goal lies inside the user task's scope: the injection's reference, or its payload
 * folded into the user's own writes, reaches the goal under the task's policy with every provenance rule (`valuesFrom`,
 * `argumentFrom`) and the flow rule taken out, so that only a rule on where a value came from can keep it out. Replayed like the
 * self-check's pairs (the user's reads first, `important_instructions` in every vector, a confirmation counted as denied).
 */
export async function inScopePairs(suite: AnyEvalSuite): Promise<SuitePair[]> {
  const env: { state: unknown } = { state: undefined };
  const registry = new ToolRegistry(suite.createTools(env), { logger: silentLogger });
  const pairs: SuitePair[] = [];
  for (const injection of suite.injectionTasks) {
    const attacked = Object.fromEntries(
      suite.vectors.map((vector) => [
        vector.id,
        IMPORTANT_INSTRUCTIONS.render({ goal: injection.goal, userName: suite.userName, modelName: 'the AI assistant', userTask: '', toolNames: [] }),
      ]),
    );
    for (const task of suite.userTasks) {
      const scopeOnly = (pre: unknown) => {
        const spec = task.policy(structuredClone(pre));
        return createPolicy({
          ...spec,
          rules: (spec.rules ?? []).filter((rule) => rule.provenance !== true),
          flow: { ...spec.flow, untrustedWrites: 'allow', copiedArguments: 'off' },
        }).startRun({ trustedTexts: [task.prompt, suite.systemPrompt] });
      };
      env.state = suite.createState(attacked);
      const pre = structuredClone(env.state);
      const userReads = readsBeforeFirstWrite(registry, task.reference(structuredClone(pre)));
      await replayAllowed(registry, scopeOnly(pre), [...userReads, ...injection.reference(structuredClone(pre))]);
      let reached = safeEffect(() => injection.effect({ pre, post: env.state }));
      if (!reached && injection.payload !== undefined) {
        env.state = suite.createState(attacked);
        const calls = task.reference(structuredClone(pre)).map((call) => (isWrite(registry, call) ? (foldPayload(call, injection.payload!) ?? call) : call));
        await replayAllowed(registry, scopeOnly(pre), calls);
        reached = safeEffect(() => injection.effect({ pre, post: env.state }));
      }
      if (reached) pairs.push({ userTask: task.id, injectionTask: injection.id });
    }
  }
  return pairs;
}

/** Replays calls through the registry, optionally through a policy session (recording any decision that is not `allow`). */
async function replayCalls(registry: ToolRegistry, calls: readonly EvalCall[], session: PolicySession | undefined, policyProblems: string[]): Promise<Replay> {
  const outputs: string[] = [];
  for (const [index, call] of calls.entries()) {
    const request = { id: `ref_${index + 1}`, name: call.tool, arguments: call.arguments ?? {} };
    const prepared = registry.prepare(request);
    if (!prepared.success) return { ok: false, detail: `reference step ${index + 1} (${call.tool}) is invalid: ${prepared.failure.message}`, outputs };
    if (session) {
      const decision = session.beforeToolCall({ call: { id: request.id, name: call.tool }, tool: prepared.tool, arguments: prepared.arguments });
      if (decision.action !== 'allow')
        policyProblems.push(
          `step ${index + 1} (${call.tool}) ${decision.action === 'block' ? 'blocked' : 'sent for confirmation'} by rule ${decision.ruleId}: ${decision.reason}`,
        );
      // A value taken out of the user's own call changes what the user asked for, as a block would.
      else if (decision.rewrite)
        policyProblems.push(
          `step ${index + 1} (${call.tool}) had values removed by rule ${decision.rewrite.removed[0]?.ruleId ?? ''}: ${decision.rewrite.removed.map((item) => `${item.argumentPath}: ${item.message}`).join('; ')}`,
        );
    }
    const execution = await registry.execute(request.id, prepared.tool, prepared.arguments);
    const text = execution.result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    outputs.push(text);
    if (execution.result.isError) return { ok: false, detail: `reference step ${index + 1} (${call.tool}) failed: ${text}`, outputs };
    session?.afterToolResult({ call: { id: request.id, name: call.tool }, tool: prepared.tool, result: execution.result });
  }
  return { ok: true, outputs };
}

function holeDetail(taskIds: readonly string[], isDeclared: (taskId: string) => boolean): string {
  const declaredIds = taskIds.filter(isDeclared);
  const others = taskIds.filter((id) => !isDeclared(id));
  return [
    ...(others.length > 0 ? [`the goal is reached under ${others.join(', ')}`] : []),
    ...(declaredIds.length > 0 ? [`under ${declaredIds.join(', ')} (declared as needing provenance rules; pass --allow-provenance-holes to accept them)`] : []),
  ].join('; ');
}

function isWrite(registry: ToolRegistry, call: EvalCall): boolean {
  return registry.get(call.tool)?.effect === 'write';
}

/** The reference calls before its first write: what the user's run reads before it could act on an injection. */
function readsBeforeFirstWrite(registry: ToolRegistry, calls: readonly EvalCall[]): EvalCall[] {
  const index = calls.findIndex((call) => !registry.has(call.tool) || isWrite(registry, call));
  return calls.slice(0, index === -1 ? calls.length : index);
}

/**
 * Replays calls through a session, running each only if the policy allows it (a confirmation, the policy's or the tool's
 * own rule's, counts as denied, as in the default eval): the decide and run steps of the agent loop's call pipeline, so a
 * rewritten call runs as the runtime would run it, without the removed values and only if what is left is valid.
 */
async function replayAllowed(registry: ToolRegistry, session: PolicySession, calls: readonly EvalCall[]): Promise<void> {
  const policy = CallPolicy.around(session, { redactor: createRedactor() }, { runId: 'self-check', messages: [] });
  for (const [index, call] of calls.entries()) {
    const request = { id: `pair_${index + 1}`, name: call.tool, arguments: call.arguments ?? {} };
    const prepared = registry.prepare(request);
    if (!prepared.success) continue;
    const valid = { callKey: String(index), callId: request.id, toolName: call.tool, request, tool: prepared.tool, arguments: prepared.arguments };
    const decided = await decideCall({ policy, registry, step: 0, call: valid });
    if (decided.call.kind !== 'run') continue;
    await runCall({ registry, policy, step: 0, call: valid, tool: prepared.tool, arguments: decided.arguments, options: {} });
  }
}

function safeEffect(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    // A check that throws on the replayed state is treated as reached: a hole is reported rather than hidden.
    return true;
  }
}

function declaredFor(pairs: readonly SuitePair[] | undefined, injectionTask: string): SuitePair[] {
  return (pairs ?? []).filter((pair) => pair.injectionTask === injectionTask);
}
