/**
 * One run's half of a policy: the taint bit, the calls let through per tool,
 * the untrusted texts seen (for the copied-argument check) and the isolation
 * secret. Rules are checked in a fixed order (deny list, allow list, call
 * limit, argument rules, information flow); the first block wins, otherwise
 * the first confirmation, otherwise the call is allowed with its flags.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ContentPart } from '../tools/types.js';
import { includesLinear } from '../shared/linear-search.js';
import { readArgumentValues, stringLeaves } from './argument-values.js';
import { TRUST_KEYWORD, schemaPathsMarked } from '../tools/critical-arguments.js';
import { ProvenanceIndex } from './provenance/provenance-index.js';
import { unvouchedArguments } from './provenance/unvouched-arguments.js';
import { unpinnedCriticalValues } from './provenance/critical-values.js';
import { callLimitCount } from './cleaned-call-limit.js';
import { outputSearchText } from './provenance/output-fields.js';
import type { ResolvedPolicySpec } from './policy-spec.js';
import { blockedMessage, callLimitReason, copiedArgumentReason, toolDeniedReason, toolNotAllowedReason, untrustedWriteReason } from './policy-messages.js';
import type {
  AfterToolResultInput,
  AfterToolResultOutput,
  BeforeToolCallInput,
  PolicyDecision,
  PolicyFlag,
  PolicySession,
  PolicySnapshot,
  RemovedValue,
  StartRunOptions,
  TrustLabel,
} from './types.js';
import type { ArgumentRule, ArgumentRuleInput } from './argument-rule.js';

/** Untrusted text kept per result for the copied-argument check; beyond this a value copied from the tail is missed. */
const MAX_KEPT_CHARS = 200_000;

interface UntrustedText {
  toolName: string;
  callId: string;
  text: string;
  /** The text as the copied-argument check searches it (`outputSearchText`, lower case): made on that check's first search. */
  lower?: string;
}

export class PolicyRunSession implements PolicySession {
  readonly #spec: ResolvedPolicySpec;
  readonly #token: string;
  readonly #callCounts = new Map<string, number>();
  readonly #untrusted: UntrustedText[] = [];
  readonly #trustedTexts: string[];
  readonly #trustedLower: string[];
  readonly #systemTexts: string[];
  readonly #trustedResults: { toolName: string; callId: string; text: string; field?: string }[] = [];
  readonly #provenance = new ProvenanceIndex();
  #tainted = false;

  constructor(spec: ResolvedPolicySpec, options: StartRunOptions) {
    this.#spec = spec;
    const restore = options.restore;
    if (restore) {
      this.#token = restore.token;
      this.#tainted = restore.tainted;
      for (const [tool, count] of Object.entries(restore.callCounts)) this.#callCounts.set(tool, count);
      for (const item of restore.untrusted) this.#untrusted.push({ toolName: item.toolName, callId: item.callId, text: item.text });
      this.#trustedTexts = [...restore.trustedTexts];
      this.#systemTexts = [...(restore.systemTexts ?? [])];
      this.#trustedResults.push(...(restore.trustedResults ?? []));
    } else {
      this.#token =
        options.seed !== undefined
          ? createHash('sha256')
              .update(`${String(options.seed)}\u0000${options.runId ?? ''}`)
              .digest('hex')
              .slice(0, 16)
          : randomBytes(8).toString('hex');
      this.#trustedTexts = [...(options.trustedTexts ?? [])];
      this.#systemTexts = [...(options.systemTexts ?? [])];
    }
    this.#trustedLower = this.#trustedTexts.map((text) => text.toLowerCase());
    const system = new Set(this.#systemTexts);
    for (const text of new Set([...this.#trustedTexts, ...this.#systemTexts])) this.#provenance.add({ origin: system.has(text) ? 'system' : 'user' }, text);
    // Results are indexed in the order they arrived only within each label; provenance asks "found where", never "found when".
    for (const item of this.#trustedResults) {
      // A trusted field of an untrusted result is one value; a trusted result is read as any tool output.
      if (item.field !== undefined) this.#provenance.add({ origin: 'trusted', toolName: item.toolName, callId: item.callId, field: item.field }, item.text);
      else this.#provenance.addToolOutput({ origin: 'trusted', toolName: item.toolName, callId: item.callId }, item.text);
    }
    for (const item of this.#untrusted) this.#provenance.addToolOutput({ origin: 'untrusted', toolName: item.toolName, callId: item.callId }, item.text);
  }

  get tainted(): boolean {
    return this.#tainted;
  }

  toolAllowed(toolName: string): boolean {
    const spec = this.#spec;
    return !spec.denyTools.has(toolName) && (!spec.allowTools || spec.allowTools.has(toolName));
  }

  beforeToolCall(input: BeforeToolCallInput): PolicyDecision {
    const spec = this.#spec;
    const name = input.tool.name;
    const flags: PolicyFlag[] = [];
    const block = (ruleId: string, reason: string, blocked: 'call' | 'arguments' = 'call'): PolicyDecision => ({
      action: 'block',
      ruleId,
      reason,
      message: blockedMessage(name, ruleId, reason, blocked),
      flags,
    });

    if (spec.denyTools.has(name)) return block('tool-denied', toolDeniedReason(name));
    if (spec.allowTools && !spec.allowTools.has(name)) return block('tool-not-allowed', toolNotAllowedReason(name, spec.allowList));
    const limit = spec.callLimits.get(name);
    // Used up for the user's calls, a call may still run cleaned (cleaned-call-limit.ts): decided once the rules have run.
    if (callLimitCount(this.#callCounts, name, limit, true) === undefined) return block('call-limit', callLimitReason(name, limit!));

    let confirm: { ruleId: string; reason: string } | undefined;
    let vouched: string[] = [];
    let pinned = new Set<string>();
    let args = input.arguments;
    const removed: RemovedValue[] = [];
    const ruleInput = { context: input.runContext, provenance: this.#provenance };
    // A rule that takes values out hands every rule the rewritten arguments again (a rule before it judged the old ones);
    // each pass that removes something makes a rule pass that failed, so the passes end.
    for (let pass = 0, again = true; again; pass++) {
      again = false;
      confirm = undefined;
      vouched = [];
      pinned = new Set();
      for (const rule of spec.rules) {
        if (!rule.tools.includes(name)) continue;
        let violation: string | undefined;
        try {
          violation = rule.check(args, ruleInput);
        } catch {
          // A rule that cannot decide does not let the call through.
          violation = `the rule could not check these arguments.`;
        }
        if (violation === undefined) {
          let withheld: readonly string[] = [];
          try {
            withheld = rule.withheldVouches?.(args, ruleInput) ?? [];
          } catch {
            // A rule that cannot say what it vouches for vouches for nothing.
            withheld = rule.vouches ?? [];
          }
          for (const path of rule.vouches ?? []) if (!withheld.includes(path)) vouched.push(path);
          // A rule about what the value is (a listed value, a cap, a folder, a schema), vouching for it, pins it for the critical
          // rule; a rule about where it came from does not: it cannot tell the document's value from one an outsider wrote into it.
          if (!rule.provenance) for (const path of rule.vouches ?? []) if (!withheld.includes(path)) pinned.add(path);
          continue;
        }
        if (rule.action === 'remove' && pass <= spec.rules.length) {
          const rewritten = removeValues(rule, args, ruleInput);
          if (rewritten) {
            args = rewritten.arguments;
            // A loop, not a spread: a long argument can hold more values than a call can take arguments.
            for (const item of rewritten.removed) removed.push({ ruleId: rule.id, ...item });
            again = true;
            break;
          }
        }
        if (rule.action !== 'confirm') return block(rule.id, violation, 'arguments');
        confirm ??= { ruleId: rule.id, reason: violation };
      }
    }
    const rewrite = removed.length > 0 ? { rewrite: { arguments: args, removed } } : {};
    const counted = callLimitCount(this.#callCounts, name, limit, removed.length > 0);
    if (counted === undefined) return block('call-limit', callLimitReason(name, limit!));

    if (input.tool.effect === 'write') {
      const critical = input.tool.critical;
      if (this.#tainted && critical && critical.length > 0 && spec.flow.criticalArguments !== 'off') {
        const findings = unpinnedCriticalValues({
          toolName: name,
          arguments: args,
          critical,
          provenance: this.#provenance,
          pinned: (path) => pinned.has(path),
          influenced: input.influencedArguments,
        });
        if (findings.length > 0) {
          const reason = findings.map((finding) => finding.reason).join(' ');
          if (spec.flow.criticalArguments === 'block') return block('critical-argument', reason, 'arguments');
          // A person asked for another rule's reason must see this one too: it says which value to check.
          confirm = confirm ? { ruleId: confirm.ruleId, reason: `${confirm.reason} ${reason}` } : { ruleId: 'critical-argument', reason };
        }
      }
      const copied = spec.flow.copiedArguments === 'off' ? [] : this.#copiedArguments(args);
      flags.push(...copied.map((item) => item.flag));
      const first = copied[0];
      if (first && spec.flow.copiedArguments === 'block') return block('copied-argument', first.reason, 'arguments');
      if (first && spec.flow.copiedArguments === 'confirm') confirm ??= { ruleId: 'copied-argument', reason: first.reason };
      if (this.#tainted && spec.flow.untrustedWrites !== 'allow' && !spec.flow.exemptTools.has(name)) {
        const unvouched = unvouchedArguments(args, vouched, input.influencedArguments);
        if (unvouched.length > 0) {
          const reason = untrustedWriteReason(name, this.#sources(), spec.flow.untrustedWrites, unvouched);
          if (spec.flow.untrustedWrites === 'block') return block('untrusted-write', reason);
          confirm ??= { ruleId: 'untrusted-write', reason };
        }
      }
    }

    // Counted when a call goes ahead or to a person: a declined confirmation still used up its chance.
    this.#callCounts.set(counted, (this.#callCounts.get(counted) ?? 0) + 1);
    if (confirm) return { action: 'confirm', ruleId: confirm.ruleId, reason: confirm.reason, flags, ...rewrite };
    return { action: 'allow', flags, ...rewrite };
  }

  afterToolResult(input: AfterToolResultInput): AfterToolResultOutput {
    const trust = input.restored?.trust ?? this.#label(input);
    const text = input.result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    const kept = text.length > MAX_KEPT_CHARS ? text.slice(0, MAX_KEPT_CHARS) : text;
    this.#provenance.addToolOutput({ origin: trust, toolName: input.tool.name, callId: input.call.id }, kept);
    if (trust === 'trusted') {
      this.#trustedResults.push({ toolName: input.tool.name, callId: input.call.id, text: kept });
      return { result: input.result, trust, isolated: false };
    }
    this.#tainted = true;
    this.#untrusted.push({ toolName: input.tool.name, callId: input.call.id, text: kept });
    // Restored results bring their trusted fields with the snapshot's trusted results.
    if (!input.restored) {
      for (const field of trustedFieldValues(input, this.#spec.trust.fields.get(input.tool.name))) {
        const item = { toolName: input.tool.name, callId: input.call.id, text: field.text, field: field.path };
        this.#trustedResults.push(item);
        this.#provenance.add({ origin: 'trusted', toolName: item.toolName, callId: item.callId, field: item.field }, item.text);
      }
    }
    const isolation = this.#spec.isolation;
    // A restored result was isolated (or not) when it ran, and is stored as the model was sent it.
    if (!isolation || input.restored) return { result: input.result, trust, isolated: false };
    const context = { token: this.#token, toolName: input.tool.name };
    // Structured content is dropped: a wire format that sent it would bypass the isolation.
    const content: ContentPart[] = input.result.content.map((part) =>
      part.type === 'text' ? { type: 'text', text: isolation.wrap(part.text, context) } : part,
    );
    return { result: { content, isError: input.result.isError }, trust, isolated: true };
  }

  allowedValues(toolName: string, argument: string): readonly (string | number | boolean)[] | undefined {
    let values: (string | number | boolean)[] | undefined;
    for (const rule of this.#spec.rules) {
      // A confirm rule lets other values through to a person, so only a blocking rule bounds what may be written.
      if (rule.action !== 'block' || !rule.allowed || rule.allowed.argument !== argument || !rule.tools.includes(toolName)) continue;
      const listed = rule.allowed.values;
      values = values === undefined ? [...listed] : values.filter((value) => listed.includes(value));
    }
    return values;
  }

  systemPrompt(): string | undefined {
    return this.#spec.isolation?.systemPrompt(this.#token);
  }

  snapshot(): PolicySnapshot {
    return {
      version: 1,
      token: this.#token,
      tainted: this.#tainted,
      callCounts: Object.fromEntries(this.#callCounts),
      untrusted: this.#untrusted.map(({ toolName, callId, text }) => ({ toolName, callId, text })),
      trustedTexts: [...this.#trustedTexts],
      systemTexts: [...this.#systemTexts],
      trustedResults: this.#trustedResults.map((item) => ({ ...item })),
    };
  }

  #label(input: AfterToolResultInput): TrustLabel {
    const trust = this.#spec.trust;
    if (trust.classify) {
      try {
        const label = trust.classify(input);
        if (label === 'trusted' || label === 'untrusted') return label;
      } catch {
        return 'untrusted';
      }
    }
    if (trust.untrustedTools.has(input.tool.name)) return 'untrusted';
    if (trust.trustedTools.has(input.tool.name)) return 'trusted';
    return trust.default;
  }

  #sources(): string[] {
    return [...new Set(this.#untrusted.map((item) => item.toolName))];
  }

  #copiedArguments(args: unknown): { flag: PolicyFlag; reason: string }[] {
    if (this.#untrusted.length === 0) return [];
    const found: { flag: PolicyFlag; reason: string }[] = [];
    for (const leaf of stringLeaves(args)) {
      const value = (leaf.value as string).trim();
      if (value.length < this.#spec.flow.minCopiedLength) continue;
      const lower = value.toLowerCase();
      // linear search: both the argument (the model's) and the texts (tools') may be written to make `includes` quadratic
      if (this.#trustedLower.some((text) => includesLinear(text, lower))) continue;
      const source = this.#untrusted.find((item) => includesLinear((item.lower ??= outputSearchText(item.text).toLowerCase()), lower));
      if (!source) continue;
      const reason = copiedArgumentReason(leaf.path, value, source.toolName);
      found.push({
        reason,
        flag: { ruleId: 'copied-argument', argumentPath: leaf.path, message: reason, source: { toolName: source.toolName, callId: source.callId } },
      });
    }
    return found;
  }
}

/** Output-schema marks per tool object: read once. */
const markedTrustedFields = new WeakMap<object, readonly string[]>();

/** The values of an untrusted result's trusted fields (the policy's `trust.fields` and the output schema's marks), as text, each with its concrete path. */
function trustedFieldValues(input: AfterToolResultInput, declared: readonly string[] | undefined): { path: string; text: string }[] {
  const structured = input.result.structuredContent;
  if (structured === undefined) return [];
  let marked = markedTrustedFields.get(input.tool);
  if (marked === undefined) {
    marked = input.tool.outputSchema ? schemaPathsMarked(input.tool.outputSchema, TRUST_KEYWORD, 'trusted') : [];
    markedTrustedFields.set(input.tool, marked);
  }
  const out: { path: string; text: string }[] = [];
  for (const path of new Set([...(declared ?? []), ...marked])) {
    for (const found of readArgumentValues(structured, path)) {
      // A field holding an object or a list of them is not a value: name its leaves.
      if (typeof found.value === 'string' || typeof found.value === 'number') out.push({ path: found.path, text: String(found.value) });
    }
  }
  return out;
}

/** A rule's rewrite, or `undefined` (the call is then blocked) when it has none, throws, or hands back nothing it removed. */
function removeValues(rule: ArgumentRule, args: unknown, input: ArgumentRuleInput): ReturnType<NonNullable<ArgumentRule['remove']>> {
  try {
    const rewritten = rule.remove?.(args, input);
    return rewritten && rewritten.removed.length > 0 ? rewritten : undefined;
  } catch {
    return undefined;
  }
}
