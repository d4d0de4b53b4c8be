/**
 * `createPolicy(spec)`: a declared, task-scoped tool policy. The spec names
 * the tools allowed, constraints on their arguments, per-tool call limits,
 * how results are labelled (trusted or not), what untrusted content may lead
 * to, and an optional isolation strategy. It checks the spec once; every run
 * gets its own session from `startRun`.
 *
 * @example
 * ```ts
 * const policy = createPolicy({
 *   allowTools: ['read_inbox', 'send_email'],
 *   rules: [allowValues({ tool: 'send_email', argument: 'to', values: contacts, label: "the task's contacts" })],
 *   callLimits: { send_email: 1 },
 *   flow: { untrustedWrites: 'confirm' },
 *   isolation: 'delimit',
 * });
 * await runAgent({ model, tools, prompt, policy });
 * ```
 * @module
 */
import { resolvePolicySpec, type PolicySpec } from './policy-spec.js';
import { PolicyRunSession } from './policy-session.js';
import type { Policy, PolicySession, StartRunOptions } from './types.js';

/** Checks a policy spec and returns the policy. Throws `InvalidArgumentError` for a malformed spec. */
export function createPolicy(spec: PolicySpec = {}): Policy {
  const resolved = resolvePolicySpec(spec);
  return Object.freeze({
    name: resolved.name,
    startRun(options: StartRunOptions = {}): PolicySession {
      return new PolicyRunSession(resolved, options);
    },
  });
}
