/**
 * Tool policies and instruction isolation: task-scoped allow lists, argument
 * constraints, call limits and information-flow rules, checked at the tool
 * boundary by the agent loop; and Spotlighting-style isolation of untrusted
 * tool output.
 * Internal barrel, not a package entry point (see package.json `exports`): what users can import is
 * chosen name by name in src/index.ts or a subpath entry. Use named exports, not wildcards.
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
export { DEFAULT_PROVENANCE_KINDS, VALUE_KINDS, detectValues } from './provenance/value-detectors.js';
export type { DetectedValue, ValueKind } from './provenance/value-detectors.js';
export { readArgumentValues } from './argument-values.js';
export type { ArgumentValue } from './argument-values.js';
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
