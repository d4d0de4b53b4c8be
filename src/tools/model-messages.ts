/**
 * The exact text a model reads when a call fails. Each message says what went
 * wrong and what to do next ("error messages are prompts"); none carries a stack
 * trace or an internal error message.
 * @module
 */
import type { JsonParseFailure } from '../shared/safe-json.js';
import type { ToolError } from './tool-error.js';
import type { JsonSchemaObject } from './types.js';
import { formatIssuePath, type ValidationIssue } from './validation-issues.js';

/** Schemas longer than this are cut in error messages, so one bad call cannot flood the context. */
const SCHEMA_IN_MESSAGE_MAX_CHARS = 4000;

export function unknownToolMessage(name: string, availableTools: readonly string[], closest: string | undefined): string {
  const shown = JSON.stringify(name.length > 80 ? name.slice(0, 77) + '…' : name);
  const available = availableTools.length === 0 ? 'none' : availableTools.join(', ');
  const hint = closest ? ` Did you mean "${closest}"?` : '';
  return `Unknown tool ${shown}.${hint} Available tools: ${available}. Call one of these by its exact name.`;
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

export function invalidArgumentsMessage(toolName: string, issues: readonly ValidationIssue[], inputSchema: JsonSchemaObject): string {
  const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
  const lines = issues.map((issue, index) => `${index + 1}. ${formatIssuePath(issue.path)}: ${issue.message}.`);
  let schema = JSON.stringify(inputSchema);
  if (schema.length > SCHEMA_IN_MESSAGE_MAX_CHARS) schema = schema.slice(0, SCHEMA_IN_MESSAGE_MAX_CHARS) + '… (schema cut)';
  return `Invalid arguments for tool "${toolName}" (${count}):\n${lines.join('\n')}\nFix ${issues.length === 1 ? 'it' : 'them'} and call "${toolName}" again. Its input schema is: ${schema}`;
}

export function toolErrorMessage(toolName: string, error: ToolError): string {
  const message = error.message.trim() || 'the tool reported a failure';
  const suggestion = error.suggestion ? ` ${ensureSentence(error.suggestion)}` : '';
  const retry = error.retryable
    ? ' Retrying the same call later may succeed.'
    : ' Retrying the same call with the same arguments will fail the same way.';
  return `Tool "${toolName}" failed: ${ensureSentence(message)}${suggestion}${retry}`;
}

export function internalErrorMessage(toolName: string): string {
  return `Tool "${toolName}" failed with an internal error; your arguments were valid. Do not retry the same call. Try a different approach, or tell the user that "${toolName}" is not working right now.`;
}

export function timeoutMessage(toolName: string, timeoutMs: number): string {
  return `Tool "${toolName}" did not finish within ${timeoutMs} ms and was stopped. A retry may succeed; if it times out again, ask for less (narrower filters, fewer items) or tell the user.`;
}

export function abortedMessage(toolName: string): string {
  return `The call to tool "${toolName}" was cancelled before it finished, because the run was stopped. Do not retry it.`;
}

export function truncationNotice(originalChars: number, keptChars: number): string {
  return `\n[Result truncated: it had ${originalChars} characters and only the first ${keptChars} are shown. If you need the rest, call again asking for less (filters, pagination).]`;
}

function ensureSentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
