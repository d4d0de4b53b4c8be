/**
 * Tool policies and instruction isolation: task-scoped allow lists, argument
 * constraints, call limits and information-flow rules, checked at the tool
 * boundary by the agent loop; and Spotlighting-style isolation of untrusted
 * tool output.
 * The package entry `toolwright/policy`; a policy is handed to `runAgent({ policy })` (root entry),
 * `createToolGuards` or `planThenExecute` (`toolwright/agent`).
 * Any new export added here becomes public API and changes the count pinned in
 * test/architecture/entry-counts.test.ts. Use named exports, not wildcards.
 * @module
 */
export { createPolicy } from './create-policy.js';
export type { FlowOptions, PolicySpec, TrustOptions } from './policy-spec.js';
export { allowValues, argumentRule, limitNumber, matchSchema, pathUnder } from './argument-rule.js';
export type {
  AllowValuesOptions,
  ArgumentRule,
  ArgumentRuleInput,
  CustomRuleOptions,
  LimitNumberOptions,
  MatchSchemaOptions,
  PathUnderOptions,
} from './argument-rule.js';
export { argumentFrom, valuesFrom } from './provenance/provenance-rules.js';
export type { ArgumentFromOptions, FreeTextJudgement, ProvenanceFrom, ValuesFromOptions } from './provenance/provenance-rules.js';
export type { PieceSources, ProvenanceOrigin, ProvenanceSource, ProvenanceView } from './provenance/provenance-index.js';
export type { ValueKind } from './provenance/value-detectors.js';
export { ISOLATION_KINDS, createIsolation } from './isolation.js';
export type { Isolation, IsolationContext, IsolationKind, IsolationOptions } from './isolation.js';
export type {
  AfterToolResultInput,
  AfterToolResultOutput,
  BeforeToolCallInput,
  Policy,
  PolicyCall,
  PolicyDecision,
  PolicyFlag,
  PolicyRewrite,
  PolicySession,
  PolicySnapshot,
  ProvenanceRuleAction,
  RemovedValue,
  RuleAction,
  StartRunOptions,
  TrustLabel,
} from './types.js';
