/**
 * A run's record read as the conversation it was: the system prompt and the user's messages and the model's text as
 * chat bubbles, each tool call as a card (its arguments as a table or a tree, its result as text with real line
 * breaks, a failed call's recovery text exactly as the model read it, and how the policy and a person decided on it),
 * and what else happened (a final answer that failed its schema, a turn cut short, the stop) as notes between them.
 * The record lines behind each entry are one click away as raw JSON. Built from the record only: nothing is shown that
 * the record does not hold.
 * @module
 */
import type { RunRecordLine } from '../../agent/index.js';
import type { ContentPart, ToolResult } from '../../tools/types.js';
import { formatIssuePath } from '../../tools/validation-issues.js';
import { formatDuration, formatTime, shown } from './console-format.js';
import { html, type Html } from './html.js';
import { textView, valueView } from './value-view.js';

type LineOf<Type extends RunRecordLine['type']> = Extract<RunRecordLine, { type: Type }>;

export interface ConversationMessage {
  kind: 'message';
  role: 'system' | 'user' | 'assistant';
  text: string;
  time: number;
  lines: RunRecordLine[];
}

/** One tool call, from its `tool_call` line to its result, with every decision on it in order. */
export interface ConversationCall {
  kind: 'call';
  callKey: string;
  toolName: string;
  time: number;
  call?: LineOf<'tool_call'>;
  result?: LineOf<'tool_result'>;
  policy: LineOf<'policy_decision'>[];
  /** The summary a person was asked to decide on, and what they decided. */
  asked?: string;
  decided?: LineOf<'confirmation_decided'>;
  lines: RunRecordLine[];
}

export interface ConversationNote {
  kind: 'note';
  tone: 'info' | 'warn' | 'bad';
  title: string;
  text?: string;
  time: number;
  lines: RunRecordLine[];
}

export type ConversationEntry = ConversationMessage | ConversationCall | ConversationNote;

/** The conversation a record holds, in the order it happened. */
export function buildConversation(lines: readonly RunRecordLine[]): ConversationEntry[] {
  const entries: ConversationEntry[] = [];
  const calls = new Map<string, ConversationCall>();
  // The system and user messages of a request that the page has not shown yet: a later request repeats the earlier ones.
  let messagesSeen = 0;
  const callOf = (line: RunRecordLine, time: number, callKey: string, toolName: string): ConversationCall => {
    let entry = calls.get(callKey);
    if (!entry) {
      entry = { kind: 'call', callKey, toolName, time, policy: [], lines: [] };
      calls.set(callKey, entry);
      entries.push(entry);
    }
    entry.lines.push(line);
    return entry;
  };
  for (const line of lines) {
    const time = Date.parse(line.time);
    switch (line.type) {
      case 'run_started':
        // A resume sends the whole conversation again: its messages were shown with the start.
        if (line.resumed) entries.push({ kind: 'note', tone: 'info', title: `Resumed with ${line.modelId}`, time, lines: [line] });
        break;
      case 'model_request': {
        const messages = Array.isArray(line.messages) ? line.messages : [];
        if (messages.length < messagesSeen) messagesSeen = 0;
        for (const message of messages.slice(messagesSeen)) {
          if (message?.role !== 'system' && message?.role !== 'user') continue;
          entries.push({ kind: 'message', role: message.role, text: messageText(message.content), time, lines: [line] });
        }
        messagesSeen = messages.length;
        break;
      }
      case 'model_response': {
        const content = Array.isArray(line.response?.content) ? line.response.content : [];
        const text = content
          .filter((part): part is { type: 'text'; text: string } => part?.type === 'text' && typeof part.text === 'string')
          .map((part) => part.text)
          .join('\n');
        if (text !== '') entries.push({ kind: 'message', role: 'assistant', text, time, lines: [line] });
        break;
      }
      case 'model_error':
        entries.push({
          kind: 'note',
          tone: 'bad',
          title: 'The model call failed',
          text: `${String(line.error?.name)}: ${String(line.error?.message)}`,
          time,
          lines: [line],
        });
        break;
      case 'tool_call':
        callOf(line, time, line.callKey, line.toolName).call = line;
        break;
      case 'policy_decision':
        callOf(line, time, line.callKey, line.toolName).policy.push(line);
        break;
      case 'tool_result': {
        const entry = callOf(line, time, line.callKey, line.toolName);
        // A resumed run answers a call again under its key: the later result is the one the model read.
        entry.result = line;
        break;
      }
      case 'confirmation_requested':
        for (const pending of listOf(line.pending)) callOf(line, time, pending.callKey, pending.toolName).asked = pending.summary;
        break;
      case 'confirmation_decided':
        callOf(line, time, line.callKey, line.toolName).decided = line;
        break;
      case 'output_invalid':
        entries.push({
          kind: 'note',
          tone: 'warn',
          title: line.repair ? 'The final answer failed its schema; the model was asked once more' : 'The final answer failed its schema',
          text: listOf(line.issues)
            .map((issue) => `${formatIssuePath(Array.isArray(issue.path) ? issue.path : [])}: ${issue.message}`)
            .join('\n'),
          time,
          lines: [line],
        });
        break;
      case 'turn_limited':
        entries.push({ kind: 'note', tone: 'warn', title: `Turn limited to ${line.limit} of ${line.requested} calls`, time, lines: [line] });
        break;
      case 'unexpected_stop':
        entries.push({ kind: 'note', tone: 'warn', title: `The model stopped early (${line.finishReason})`, time, lines: [line] });
        break;
      case 'call_superseded':
        entries.push({ kind: 'note', tone: 'warn', title: `Call ${line.callKey} (${line.toolName}) superseded`, time, lines: [line] });
        break;
      case 'routing':
        entries.push({
          kind: 'note',
          tone: 'info',
          title: `Routing: ${line.category ?? 'no category chosen'} (${listOf(line.tools).length} tools)`,
          time,
          lines: [line],
        });
        break;
      case 'stop':
        entries.push({
          kind: 'note',
          tone: line.status === 'completed' ? 'info' : line.status === 'stopped' ? 'bad' : 'warn',
          title: line.status === 'awaiting_confirmation' ? 'Paused: waiting for a person' : line.status === 'completed' ? 'Completed' : 'Stopped',
          ...(line.stopReason ? { text: stopReasonText(line.stopReason) } : {}),
          time,
          lines: [line],
        });
        break;
    }
  }
  return entries;
}

/** A record is hostile text: a field that should be a list and is not reads as an empty one. */
function listOf<Item>(value: readonly Item[] | undefined): readonly Item[] {
  return Array.isArray(value) ? value : [];
}

/** A stop reason in words: its kind, then the message the run recorded. */
export function stopReasonText(reason: { kind: string; message?: unknown }): string {
  const kind = String(reason.kind).replace(/_/g, ' ');
  return typeof reason.message === 'string' && reason.message !== '' ? `${kind}: ${reason.message}` : kind;
}

/** A message's text: its text parts in order, an image named by its type. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: unknown; text?: unknown; mimeType?: unknown } | null) =>
      part?.type === 'text' && typeof part.text === 'string' ? part.text : part?.type === 'image' ? `(image, ${String(part.mimeType)})` : '',
    )
    .filter((text) => text !== '')
    .join('\n');
}

/** A tool result's text as the model read it: its text parts in order, and what stands for the others. */
export function resultText(result: ToolResult | undefined): string {
  const parts: ContentPart[] = Array.isArray(result?.content) ? result.content : [];
  return parts
    .map((part) => {
      if (part === null || typeof part !== 'object') return '';
      switch (part.type) {
        case 'text':
          return part.text;
        case 'resource': {
          const resource = part.resource as { uri?: unknown; text?: unknown } | undefined;
          return typeof resource?.text === 'string' ? resource.text : `(resource ${String(resource?.uri)})`;
        }
        case 'resource_link':
          return `(link to ${part.uri})`;
        default:
          return `(${part.type}, ${part.mimeType})`;
      }
    })
    .join('\n');
}

/**
 * Entries a page shows at most: the first half and the last half of them, with a note between saying how many are left
 * out. Each entry is bounded (its text and its raw JSON), so this bounds the page of a run with thousands of calls.
 */
export const MAX_CONVERSATION_ENTRIES = 300;

export function conversationView(entries: readonly ConversationEntry[], runId: string): Html {
  if (entries.length === 0) return html`<p class="notice">The record holds no messages yet.</p>`;
  const render = (entry: ConversationEntry) => (entry.kind === 'message' ? bubble(entry) : entry.kind === 'call' ? callCard(entry) : noteView(entry));
  if (entries.length <= MAX_CONVERSATION_ENTRIES)
    return html`<ol id="conversation" class="conversation">
      ${entries.map(render)}
    </ol>`;
  const half = MAX_CONVERSATION_ENTRIES / 2;
  return html`<ol id="conversation" class="conversation">
    ${entries.slice(0, half).map(render)}
    <li class="note note-warn" id="conversation-cut">
      <strong>${entries.length - MAX_CONVERSATION_ENTRIES} entries of the conversation are not shown here</strong>: <code>toolwright logs ${runId}</code> prints
      the whole record.
    </li>
    ${entries.slice(-half).map(render)}
  </ol>`;
}

function bubble(entry: ConversationMessage): Html {
  const who = { system: 'System', user: 'User', assistant: 'Model' }[entry.role];
  return html`<li class="bubble bubble-${entry.role}" data-role="${entry.role}">
    <div class="bubble-head"><strong>${who}</strong> <span class="muted">${formatTime(entry.time)}</span></div>
    <div class="bubble-text">${textView(entry.text)}</div>
    ${rawLines(entry.lines)}
  </li>`;
}

function callCard(entry: ConversationCall): Html {
  const { call, result } = entry;
  const status = result?.status ?? (entry.asked !== undefined && !entry.decided ? 'awaiting_confirmation' : 'no_result');
  const failed = result !== undefined && (result.result?.isError === true || result.status !== 'succeeded');
  const args = result?.arguments ?? call?.arguments;
  const rewritten = call !== undefined && result !== undefined && JSON.stringify(call.arguments) !== JSON.stringify(result.arguments);
  const text = resultText(result?.result);
  return html`<li class="call-card${failed ? ' call-failed' : ''}" data-call-key="${entry.callKey}">
    <div class="call-head">
      <code class="call-tool">${entry.toolName}</code>
      ${call?.effect !== undefined ? html`<span class="effect effect-${call.effect}">${call.effect}</span>` : ''}
      <span class="status status-${status}">${status.replace(/_/g, ' ')}</span>
      ${result ? html`<span class="muted">${formatDuration(result.durationMs)}</span>` : ''}
      ${result?.trust !== undefined ? html`<span class="muted">result ${result.trust}${result.isolated ? ', isolated' : ''}</span>` : ''}
      <span class="muted">call ${entry.callKey}</span>
    </div>
    ${decisionsView(entry)}
    <div class="call-section">
      <div class="call-label">${rewritten ? 'Arguments as run (after the policy)' : 'Arguments'}</div>
      <div class="call-arguments">${args === undefined ? html`<span class="muted">none that parsed</span>` : valueView(args)}</div>
      ${
        rewritten
          ? html`<details class="call-original">
              <summary>arguments as the model sent them</summary>
              ${valueView(call.arguments)}
            </details>`
          : ''
      }
      ${
        call?.argumentsText !== undefined && (call.arguments === undefined || failed)
          ? html`<details class="call-original">
              <summary>argument text as the model wrote it</summary>
              <div>${textView(call.argumentsText)}</div>
            </details>`
          : ''
      }
    </div>
    ${
      result
        ? html`<div class="call-section">
            <div class="call-label">
              ${failed ? 'What the model was told (its recovery text)' : result.truncated ? 'Result (cut to the tool’s limit)' : 'Result'}${
                result.failure ? html` <code class="muted">${result.failure.code}</code>` : ''
              }
            </div>
            <div class="${failed ? 'call-result recovery' : 'call-result'}">${text !== '' ? textView(text) : html`<span class="muted">(no text)</span>`}</div>
            ${
              result.result?.structuredContent !== undefined
                ? html`<details class="call-structured">
                    <summary>structured result</summary>
                    ${valueView(result.result.structuredContent)}
                  </details>`
                : ''
            }
          </div>`
        : ''
    }
    ${rawLines(entry.lines)}
  </li>`;
}

/** The policy's decisions, what it removed, what it flagged, and a person's request and answer: each with its reason. */
function decisionsView(entry: ConversationCall): Html {
  const items: Html[] = [];
  for (const decision of entry.policy) {
    const rule = decision.ruleId !== undefined ? html` <code>${decision.ruleId}</code>` : '';
    if (decision.action !== 'allow' || decision.reason !== undefined)
      items.push(
        html`<li class="decision decision-${decision.action}">
          <strong
            >${{ allow: 'Allowed by the policy', block: 'Blocked by the policy', confirm: 'Sent to a person by the policy' }[decision.action] ?? decision.action}</strong
          >${rule}${decision.reason !== undefined ? html`: <span class="value-text">${decision.reason}</span>` : ''}
        </li>`,
      );
    for (const removed of listOf(decision.removed))
      items.push(
        html`<li class="decision decision-removed">
          <strong>Removed from <code>${removed.argumentPath}</code></strong> <code>${removed.ruleId}</code>:
          <span class="value-text">${removed.message}</span>
        </li>`,
      );
    for (const flag of listOf(decision.flags))
      items.push(
        html`<li class="decision decision-flag">
          <strong>Flagged <code>${flag.argumentPath}</code></strong> <code>${flag.ruleId}</code>: <span class="value-text">${flag.message}</span>
        </li>`,
      );
  }
  if (entry.asked !== undefined)
    items.push(html`<li class="decision decision-confirm"><strong>Asked a person</strong>: <span class="value-text">${entry.asked}</span></li>`);
  if (entry.decided) {
    const answer = { approve: 'Approved by a person', deny: 'Denied by a person', expired: 'Expired before a person decided' }[entry.decided.decision];
    items.push(
      html`<li class="decision decision-${entry.decided.decision}">
        <strong>${answer}</strong>${entry.decided.reason !== undefined ? html`: <span class="value-text">${entry.decided.reason}</span>` : ''}
      </li>`,
    );
  }
  return items.length > 0
    ? html`<ul class="decisions-list">
        ${items}
      </ul>`
    : html``;
}

function noteView(entry: ConversationNote): Html {
  return html`<li class="note note-${entry.tone}">
    <div><strong>${entry.title}</strong> <span class="muted">${formatTime(entry.time)}</span></div>
    ${entry.text !== undefined ? html`<div>${textView(entry.text)}</div>` : ''} ${rawLines(entry.lines)}
  </li>`;
}

function rawLines(lines: readonly RunRecordLine[]): Html {
  return html`<details class="raw">
    <summary>raw JSON</summary>
    <pre>${shown(lines.length === 1 ? lines[0] : lines)}</pre>
  </details>`;
}
