/**
 * The critical-argument rule (docs/policy.md, "Critical arguments"): a value of an argument that decides where money,
 * data or messages go may come from untrusted content only when the task pins it or a person confirms it. A rule that
 * vouches for an argument says where its values may come from (`valuesFrom` accepts "the invoice I read"); it cannot tell
 * the invoice's account from the attacker's account written into the same invoice. This rule does not try to: a critical
 * value that only untrusted output holds goes to a person, shown the value, where it sits, and every other value of its
 * kind that output holds — or is blocked.
 * @module
 */
import { readArgumentValues, stringLeaves } from '../argument-values.js';
import type { ProvenanceIndex, ProvenanceSource, ValueInSource } from './provenance-index.js';
import { sourcedValues } from './provenance-index.js';
import { DEFAULT_PROVENANCE_KINDS, describeDetected, type ValueKind } from './value-detectors.js';

/** A critical value the rule objects to, with the sentence a person (or the model, when blocked) reads. */
export interface CriticalFinding {
  /** The argument's concrete path (`iban`, `payees[1].iban`). */
  path: string;
  reason: string;
}

/** What the rule reads: the call, its tool's critical paths, the run's index, and the arguments a passing rule pins to values the task lists. */
export interface CriticalCheckInput {
  toolName: string;
  arguments: unknown;
  critical: readonly string[];
  provenance: ProvenanceIndex;
  /** The arguments (dotted paths) untrusted data could have reached, when the caller knows (a plan's holes); default: every argument. */
  influenced?: readonly string[] | undefined;
  /** Whether a passing rule about what the value is (`allowValues`, a vouching `limitNumber`…) pins this argument (top-level name or dotted path). */
  pinned: (path: string) => boolean;
}

const PINNING_ORIGINS: ReadonlySet<ProvenanceSource['origin']> = new Set(['user', 'system', 'trusted']);
/** Candidates listed beside a value; a source holding more is summarised by its count. */
const MAX_CANDIDATES = 6;

/** Every critical value of the call that the task does not pin and that came from untrusted output, or from nowhere. */
export function unpinnedCriticalValues(input: CriticalCheckInput): CriticalFinding[] {
  const findings: CriticalFinding[] = [];
  for (const path of input.critical) {
    if (input.pinned(path) || input.pinned(path.split('.')[0]!)) continue;
    // A planner's own argument never saw a tool's output: only the holes an extractor filled are judged.
    if (input.influenced && !input.influenced.some((hole) => hole === path || path.startsWith(`${hole}.`) || hole.startsWith(`${path}.`))) continue;
    for (const leaf of readArgumentValues(input.arguments, path).flatMap((found) => stringLeaves(found.value, found.path, true))) {
      const reason = judge(input, leaf.path, leaf.value as string | number);
      if (reason !== undefined) findings.push({ path: leaf.path, reason });
    }
  }
  return findings;
}

/** The reason a person must see this value, or `undefined` when a pinning source holds it (or it is empty). */
function judge(input: CriticalCheckInput, path: string, value: string | number): string | undefined {
  const { provenance, toolName } = input;
  const shown = typeof value === 'number' ? String(value) : value.trim();
  if (shown === '') return undefined;
  // Typed values are judged one by one (an IBAN inside "IBAN DE89… (ACME)"); a value no detector reads, by its whole text.
  const typed =
    typeof value === 'number'
      ? [{ kind: 'amount' as ValueKind, text: shown, normal: value.toFixed(2), sources: provenance.sourcesOfNumber(value) }]
      : sourcedValues(provenance, value, DEFAULT_PROVENANCE_KINDS).map((found) => ({
          kind: found.value.kind,
          text: describeDetected(found.value),
          normal: found.value.value,
          sources: found.sources,
        }));
  const pieces = typed.length > 0 ? typed : [{ kind: undefined, text: shown, normal: shown, sources: provenance.sourcesOfText(shown) }];
  for (const piece of pieces) {
    if (piece.sources.some((source) => PINNING_ORIGINS.has(source.origin))) continue;
    const label = `${path} ${JSON.stringify(clip(piece.text))}`;
    if (piece.sources.length === 0) {
      return `${label} is a critical argument of ${toolName} (it decides where the call's effect goes), and no text of the run holds that value: not the user's request, not a trusted result. It was written after untrusted output entered the run, so a person must confirm it.`;
    }
    const where = piece.sources.map((source) => describeSource(provenance, source, piece.kind, piece.normal)).join('; ');
    const candidates = piece.kind === undefined ? [] : otherCandidates(provenance, piece.sources, piece.kind, piece.normal);
    const others =
      candidates.length === 0
        ? ' No other value of its kind is there.'
        : ` ${candidates.length === 1 ? 'Another value of its kind is there' : `${candidates.length} other values of its kind are there`}: ${candidates
            .slice(0, MAX_CANDIDATES)
            .map((candidate) => `${JSON.stringify(clip(describeDetected(candidate.value)))} (${placeOf(candidate)})`)
            .join(', ')}${candidates.length > MAX_CANDIDATES ? ', …' : ''}; the model may have picked the wrong one.`;
    return `${label} is a critical argument of ${toolName} (it decides where the call's effect goes), and only untrusted output holds that value: ${where}. Neither the user's request nor a trusted result states it.${others} A person must confirm it.`;
  }
  return undefined;
}

/** `read_invoice (line 4: "IBAN: DE89 …")`. */
function describeSource(provenance: ProvenanceIndex, source: ProvenanceSource, kind: ValueKind | undefined, normal: string): string {
  const name = source.toolName ?? 'a tool';
  if (kind === undefined) return `the output of ${name}`;
  const at = provenance.valuesInOutput(source, kind).find((candidate) => candidate.value.value === normal && candidate.field === source.field);
  return at === undefined ? `the output of ${name}` : `the output of ${name} (${placeOf({ ...at, line: describeLine(at) })})`;
}

/** Where a value sits in its output: its field (and its line, in a field of several lines), or its line. */
function placeOf(at: ValueInSource): string {
  const line = `line ${at.lineNumber}: ${JSON.stringify(at.line)}`;
  if (at.field === undefined) return line;
  // A field is indexed as `"key":value`: one line says no more than the field's name.
  return at.lineNumber > 1 || at.line !== at.line.split('\n')[0] ? `field ${at.field}, ${line}` : `field ${at.field}`;
}

/** The line, with a secret on it shown only as its first characters. */
function describeLine(at: ValueInSource): string {
  return at.value.kind === 'secret' ? at.line.replace(at.value.text, describeDetected(at.value)) : at.line;
}

/** The distinct other values of `kind` the value's untrusted sources hold, first seen first. */
function otherCandidates(provenance: ProvenanceIndex, sources: readonly ProvenanceSource[], kind: ValueKind, normal: string): ValueInSource[] {
  const seen = new Set([normal]);
  const out: ValueInSource[] = [];
  for (const source of sources) {
    for (const candidate of provenance.valuesInOutput(source, kind)) {
      if (seen.has(candidate.value.value)) continue;
      seen.add(candidate.value.value);
      out.push({ ...candidate, line: describeLine(candidate) });
    }
  }
  return out;
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
