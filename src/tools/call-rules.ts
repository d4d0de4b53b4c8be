/**
 * The rules a tool declares about its calls, decided in one place for every
 * caller (the agent loop and the MCP server): whether a call needs a person
 * (`confirm`), the one line that person is shown (`summarize`), and how a call
 * is scheduled (`effect`). Both callers used to keep their own copies, which
 * disagreed; `test/rules/` runs one table of cases through both.
 * @module
 */
import type { Redactor } from '../shared/redaction/index.js';
import { safeParseJson } from '../shared/safe-json.js';
import { showInvisible } from '../shared/visible-text.js';
import { describeArguments, inlineArguments } from './call-summary.js';
import type { AnyTool } from './define-tool.js';
import type { ToolCallRuleInput, ToolEffect } from './types.js';

/** The longest custom summary line (a tool's `summarize`) a person is shown, in UTF-16 code units; a longer one is cut and ends with `…`. */
export const SUMMARY_MAX_CHARS = 300;

/**
 * Whether a call needs a person's approval before it runs. `confirm: true` or `false` decides alone; a function
 * decides from the arguments (and the run's `context`, passed as `{ context }`), and only a function that returns
 * exactly `false` lets the call run unasked. A function that returns `undefined` (a missing `return`), any other
 * non-boolean (a Promise from an `async` rule, `0`, `'no'`) or throws asks a person: a safety check that gave no clear
 * answer must fail towards asking.
 */
export function needsConfirmation(tool: AnyTool, args: unknown, context?: unknown): boolean {
  const rule: unknown = tool.confirm;
  if (typeof rule === 'boolean') return rule;
  if (typeof rule !== 'function') return true;
  try {
    return (rule as (value: unknown, call: ToolCallRuleInput) => unknown)(args, { context }) !== false;
  } catch {
    return true;
  }
}

export interface SummaryOptions {
  /** Applied to the arguments (by the tool's schema, names and values) before `summarize` sees them, and to the line. */
  redactor: Redactor;
  /** Why the call is asked about (a policy's reason), appended in parentheses after the cut. */
  reason?: string | undefined;
  /** The run's context, passed to `summarize` as `{ context }` as it is (not redacted: what `summarize` copies from it is redacted with the line). */
  context?: unknown;
}

/**
 * The one line shown to a person deciding on a call: the tool's `summarize(args)` when it returns a non-blank string
 * (cut at {@link SUMMARY_MAX_CHARS}), otherwise `name(<arguments>)` with the arguments that decide where the effect goes
 * first, each whole up to its cap, then the rest as canonical JSON, cut with the count of what was cut
 * (`describeArguments`, `src/tools/call-summary.ts`): `send_email(to: "a@b.example", {"body":"Hi…"}… (2400 more characters))`.
 * `summarize` receives the redacted arguments, so a secret field reads `[REDACTED]`; the line is redacted again, and
 * bidirectional and zero-width characters are written as `⟨U+XXXX⟩`. Surfaces show the arguments beside it
 * (`approvalText`), so a custom line cannot hide them either.
 */
export function summarizeCall(tool: AnyTool, args: unknown, options: SummaryOptions): string {
  const { redactor, reason, context } = options;
  const shown = redactor.toolArguments(tool.name, jsonCopy(args));
  const custom = customSummary(tool, shown, context);
  const line = showInvisible(
    custom !== undefined
      ? cutToLength(redactor.text(custom), SUMMARY_MAX_CHARS)
      : redactor.text(`${tool.name}(${inlineArguments(describeArguments(shown, tool.decisiveArguments))})`),
  );
  return reason ? `${line} (${showInvisible(redactor.text(reason))})` : line;
}

/** How a call is scheduled: `read` may run beside other reads; anything else runs alone, in the model's order. */
export function schedulingEffect(tool: AnyTool): ToolEffect {
  return tool.effect === 'read' ? 'read' : 'write';
}

function customSummary(tool: AnyTool, args: unknown, context: unknown): string | undefined {
  if (!tool.summarize) return undefined;
  try {
    const text: unknown = tool.summarize(args, { context });
    return typeof text === 'string' && text.trim() !== '' ? text : undefined;
  } catch {
    // A summary that cannot be written must not hide the call: the generic line stands in.
    return undefined;
  }
}

/** The arguments as JSON would carry them (what a stored call holds), or the value itself when JSON cannot carry it. */
function jsonCopy(value: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return value;
  }
  if (text === undefined) return undefined;
  const parsed = safeParseJson(text);
  return parsed.success ? parsed.value : value;
}

/** `text` cut to at most `max` code units with `…` last, never splitting a surrogate pair. */
function cutToLength(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}
