/**
 * The exact text a model reads when a call fails. Each message says what went
 * wrong and what to do next ("error messages are prompts"); none carries a stack
 * trace or an internal error message.
 * @module
 */
import type { ForbiddenKey, JsonLimitExceeded, JsonParseFailure } from '../shared/safe-json.js';
import type { ToolError } from './tool-error.js';
import type { JsonSchemaObject } from './types.js';
import { formatIssuePath, type ValidationIssue } from './validation-issues.js';

/** Schemas longer than this are cut in error messages, so one bad call cannot flood the context. */
const SCHEMA_IN_MESSAGE_MAX_CHARS = 4000;
/** A model fixes the first few problems and learns the rest from the next answer; a list of thousands only floods its context. */
const MAX_LISTED_PROBLEMS = 10;
/** The listed problems together stay under this; the schema comes on top (itself cut at {@link SCHEMA_IN_MESSAGE_MAX_CHARS}). */
const PROBLEMS_IN_MESSAGE_MAX_CHARS = 4000;
/** One problem line stays under this, whatever key or value it quotes. */
const PROBLEM_LINE_MAX_CHARS = 400;

export function unknownToolMessage(name: string, availableTools: readonly string[], closest: string | undefined): string {
  const shown = JSON.stringify(name.length > 80 ? name.slice(0, 77) + '…' : name);
  const available = availableTools.length === 0 ? 'none' : availableTools.join(', ');
  const hint = closest ? ` Did you mean "${closest}"?` : '';
  return `Unknown tool ${shown}.${hint} Available tools: ${available}. Call one of these by its exact name.`;
}

/** A call from the provider's code runner to a tool that only the model may call directly (`allowedCallers`). */
export function callerNotAllowedMessage(toolName: string): string {
  return `Tool "${toolName}" cannot be called from code. Call it directly, as a tool call of your own, outside the code you run.`;
}

export function invalidJsonMessage(toolName: string, failure: JsonParseFailure): string {
  const where = failure.line !== undefined ? ` at line ${failure.line}, column ${failure.column}` : '';
  const excerpt = failure.excerpt !== undefined ? ` Near: ${failure.excerpt}` : '';
  return (
    `The arguments for tool "${toolName}" are not valid JSON: ${failure.message}${where}.${excerpt}\n` +
    `Send the arguments again as one JSON object: keys in double quotes, strings in double quotes, no trailing commas, no comments.`
  );
}

export function argumentsNotObjectMessage(toolName: string, received: string): string {
  return `The arguments for tool "${toolName}" must be a JSON object (like {"key": "value"}); got ${received}. Call "${toolName}" again with an object.`;
}

/**
 * Lists the first {@link MAX_LISTED_PROBLEMS} problems (fewer if their text passes
 * {@link PROBLEMS_IN_MESSAGE_MAX_CHARS}), counts the rest, and appends the schema, cut if long.
 */
export function invalidArgumentsMessage(toolName: string, issues: readonly ValidationIssue[], inputSchema: JsonSchemaObject): string {
  const total = issues.length;
  const count = total === 1 ? '1 problem' : `${formatCount(total)} problems`;
  let schema = JSON.stringify(inputSchema);
  if (schema.length > SCHEMA_IN_MESSAGE_MAX_CHARS) schema = schema.slice(0, SCHEMA_IN_MESSAGE_MAX_CHARS) + '… (schema cut)';
  return `Invalid arguments for tool "${toolName}" (${count}):\n${problemLines(issues)}\nFix ${total === 1 ? 'it' : 'them'} and call "${toolName}" again. Its input schema is: ${schema}`;
}

/** The first {@link MAX_LISTED_PROBLEMS} problems, one a line (fewer if their text passes {@link PROBLEMS_IN_MESSAGE_MAX_CHARS}), then a count of the rest. */
function problemLines(issues: readonly ValidationIssue[]): string {
  const lines: string[] = [];
  let listedChars = 0;
  for (const [index, issue] of issues.entries()) {
    if (index >= MAX_LISTED_PROBLEMS) break;
    const line = cutText(`${index + 1}. ${formatIssuePath(issue.path)}: ${issue.message}.`, PROBLEM_LINE_MAX_CHARS);
    if (lines.length > 0 && listedChars + line.length > PROBLEMS_IN_MESSAGE_MAX_CHARS) break;
    lines.push(line);
    listedChars += line.length + 1;
  }
  const unlisted = issues.length - lines.length;
  if (unlisted > 0) lines.push(`…and ${formatCount(unlisted)} more problem${unlisted === 1 ? '' : 's'}.`);
  return lines.join('\n');
}

/**
 * The repair turn's text when a final answer fails its output schema: the problems, listed and cut as for arguments,
 * then the schema. It asks for the whole answer again, since a model cannot patch the one it sent.
 */
export function invalidOutputMessage(outputName: string, issues: readonly ValidationIssue[], schema: JsonSchemaObject): string {
  const listed = problemLines(issues);
  const count = issues.length === 1 ? '1 problem' : `${formatCount(issues.length)} problems`;
  return `Your final answer does not match the schema of "${outputName}" (${count}):\n${listed}\n${answerAgain(outputName, schema)}`;
}

/** The repair turn's text when a final answer is not JSON, or JSON past the argument limits. */
export function outputNotJsonMessage(outputName: string, failure: JsonParseFailure, schema: JsonSchemaObject): string {
  const where = failure.line !== undefined ? ` at line ${failure.line}, column ${failure.column}` : '';
  return `Your final answer could not be read as JSON: ${failure.message}${where}.\n${answerAgain(outputName, schema)}`;
}

function answerAgain(outputName: string, schema: JsonSchemaObject): string {
  let text = JSON.stringify(schema);
  if (text.length > SCHEMA_IN_MESSAGE_MAX_CHARS) text = text.slice(0, SCHEMA_IN_MESSAGE_MAX_CHARS) + '… (schema cut)';
  return `Give your final answer again, complete, as one JSON value following the schema of "${outputName}" (no other text): ${text}`;
}

export function argumentsTooDeepMessage(toolName: string, exceeded: JsonLimitExceeded): string {
  return (
    `The arguments for tool "${toolName}" nest ${exceeded.atLeast ? 'at least ' : ''}${formatCount(exceeded.found)} levels deep; the limit is ${formatCount(exceeded.max)}. ` +
    `Send a flatter object (at most ${formatCount(exceeded.max)} levels of objects and arrays inside one another) and call "${toolName}" again.`
  );
}

/** Arguments within a raised depth limit that still nest too deep for the validator to follow. */
export function argumentsTooDeepToCheckMessage(toolName: string, exceeded: JsonLimitExceeded): string {
  return (
    `The arguments for tool "${toolName}" nest ${exceeded.atLeast ? 'more than ' : ''}${formatCount(exceeded.atLeast ? exceeded.max : exceeded.found)} levels deep, too deep to be checked against its schema. ` +
    `Send a flatter object (at most ${formatCount(exceeded.max)} levels of objects and arrays inside one another) and call "${toolName}" again.`
  );
}

export function argumentsTooLargeMessage(toolName: string, exceeded: JsonLimitExceeded): string {
  const size = exceeded.atLeast ? `more than ${formatCount(exceeded.max)}` : formatCount(exceeded.found);
  return (
    `The arguments for tool "${toolName}" are ${size} characters of JSON; the limit is ${formatCount(exceeded.max)}. ` +
    `Send less: shorter values or fewer items, or split the work over several calls to "${toolName}".`
  );
}

/** The same text whether the key arrived in JSON text (OpenAI) or in an already parsed object (Anthropic, MCP). */
export function forbiddenKeyMessage(toolName: string, forbidden: ForbiddenKey): string {
  return `The arguments for tool "${toolName}" use the key "${forbidden.key}" at ${forbidden.path || '/'}, which is not allowed (it could alter object prototypes). Rename or remove it and call "${toolName}" again.`;
}

/** The retry advice that ends {@link toolErrorMessage}'s text (an MCP client reads it back from a toolwright server's result). */
export const RETRY_LATER_ADVICE = 'Retrying the same call later may succeed.';
export const RETRY_FAILS_ADVICE = 'Retrying the same call with the same arguments will fail the same way.';

export function toolErrorMessage(toolName: string, error: ToolError): string {
  const message = error.message.trim() || 'the tool reported a failure';
  const suggestion = error.suggestion ? ` ${ensureSentence(error.suggestion)}` : '';
  const retry = ` ${error.retryable ? RETRY_LATER_ADVICE : RETRY_FAILS_ADVICE}`;
  return `Tool "${toolName}" failed: ${ensureSentence(message)}${suggestion}${retry}`;
}

export function internalErrorMessage(toolName: string): string {
  return `Tool "${toolName}" failed with an internal error; your arguments were valid. Do not retry the same call. Try a different approach, or tell the user that "${toolName}" is not working right now.`;
}

/** The validator itself failed (a schema Ajv compiles but cannot run, such as a self-referencing `$dynamicRef`): the tool's fault, not the model's. */
export function schemaFailureMessage(toolName: string): string {
  return `Tool "${toolName}" could not check your arguments: its input schema cannot be evaluated, which is a fault in the tool's definition, not in your call. Do not retry "${toolName}". Try a different approach, or tell the user that "${toolName}" is not working right now.`;
}

export function timeoutMessage(toolName: string, timeoutMs: number): string {
  return `Tool "${toolName}" did not finish within ${timeoutMs} ms and was stopped. A retry may succeed; if it times out again, ask for less (narrower filters, fewer items) or tell the user.`;
}

export function abortedMessage(toolName: string): string {
  return `The call to tool "${toolName}" was cancelled before it finished, because the run was stopped. Do not retry it.`;
}

/** A write stopped (cancelled or timed out) whose tool was still running when the grace period ended. */
export function stillRunningMessage(toolName: string, graceMs: number): string {
  return `The call to tool "${toolName}" was stopped, but the tool was still running ${graceMs} ms later, so whether it took effect is unknown. No other call runs beside it until it ends. Check its effect with a read-only tool before calling it again, or tell the user.`;
}

/** A call refused because a stopped call it must not overlap is still running. */
export function blockedByStillRunningMessage(toolName: string, runningToolName: string): string {
  return `Tool "${toolName}" was not run: an earlier call to "${runningToolName}" was stopped but is still running, and a write never runs beside another call. Try again later; if it keeps being refused, tell the user that "${runningToolName}" did not stop.`;
}

export function truncationNotice(originalChars: number, keptChars: number): string {
  return `\n[Result truncated: it had ${originalChars} characters and only the first ${keptChars} are shown. If you need the rest, call again asking for less (filters, pagination).]`;
}

function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

function cutText(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

function ensureSentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
