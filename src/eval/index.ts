/**
 * The injection evaluation: an AgentDojo-style stateful workspace suite (user
 * tasks judged on state, injection tasks with effect checks and attempt
 * detectors, reference calls and a self-check), the four defence strategies,
 * a resumable matrix runner, metrics that keep capability, attempts, effects,
 * blocks and cost apart, and Markdown and HTML reports.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 * @module
 */
export { runEval, readRecords } from './run-eval.js';
export type { EvalModelSource, EvalProgress, EvalRunResult, RunEvalOptions } from './run-eval.js';
export { EVAL_TOOL_CHOICES } from './eval-manifest.js';
export type { EvalManifest, EvalToolChoice } from './eval-manifest.js';
export { caseId, runCase } from './run-case.js';
export type { EvalCase, EvalCaseContext, RunCaseOptions } from './run-case.js';
export type { CaseRecord, RecordedCall } from './case-record.js';
export { inScopePairs, selfCheckSuite } from './self-check.js';
export type { SelfCheckItem, SelfCheckOptions, SelfCheckReport } from './self-check.js';
export { EVAL_STRATEGIES, parseStrategies, strategyPolicy } from './strategies.js';
export { taskScope } from './task-scope.js';
export type { TaskScopeOptions } from './task-scope.js';
export type { EvalStrategy } from './strategies.js';
export { LOW_UTILITY, UTILITY_DROP, computeMetrics } from './metrics.js';
export type { AdaptiveMetrics, AttackMetrics, EvalMetrics, Rate, StrategyMetrics, SuiteMetrics } from './metrics.js';
export { ATTACKS, IMPORTANT_INSTRUCTIONS, createAdaptiveAttack, getAttack, isAdaptiveAttack } from './attacks.js';
export type { AdaptiveAttack, AdaptiveAttackOptions, Attack, AttackContext } from './attacks.js';
export { modelProposer } from './adaptive-attack.js';
export type { AdaptiveCandidate, AdaptiveCaseRecord, AdaptiveTry, AttackObservation, AttackerProposer, ProposeInput } from './adaptive-attack.js';
export { effectsCarry, effectsSince, recordEffect } from './effect-log.js';
export type { EffectEntry, HasEffectLog } from './effect-log.js';
export { SIMULATOR_SPECS, createSimulator } from './simulated-models.js';
export type { SimulatorCase, SimulatorSpec } from './simulated-models.js';
export { renderMarkdownReport } from './report-markdown.js';
export { renderHtmlReport } from './report-html.js';
export type { ReportInput } from './report-input.js';
export type { AnyEvalSuite, EvalCall, EvalSuite, InjectionTask, InjectionVector, SuitePair, UserTask, UtilityInput } from './suite-types.js';
export { WORKSPACE_SUITE } from './workspace/workspace-suite.js';
export { createWorkspaceState, ATTACKER as WORKSPACE_ATTACKER } from './workspace/workspace-data.js';
export { createWorkspaceTools } from './workspace/workspace-tools.js';
export type { CalendarEvent, Contact, Email, Transaction, WorkspaceFile, WorkspaceState } from './workspace/workspace-state.js';
