/**
 * A cheap, deterministic input-token estimate for budgets: about four
 * characters per token over the serialized messages and tool declarations,
 * rounded up. It is not any tokenizer's count; providers that can count
 * exactly may do better, but every estimate of the same request is the same.
 * @module
 */
import type { Message } from '../protocol/messages.js';
import type { ModelRequest } from '../protocol/model-exchange.js';
import { countMessage, countToolDeclaration, trackedConversation } from './conversation-token-estimate.js';

/** Characters per token assumed by the estimate (a common rule of thumb for English text and JSON). */
export const CHARACTERS_PER_TOKEN = 4;

/** Tokens charged per image or audio part: base64 length says nothing about what a provider charges for an image, so a flat figure is used. */
export const IMAGE_TOKEN_ESTIMATE = 1_000;

/**
 * Estimates the input tokens of a request: `ceil(characters / 4)` over messages and tool declarations, plus a flat figure per image or audio part.
 * For the agent loop's own conversation, counts kept from its earlier calls are reused (`conversation-token-estimate.ts`); the figure is the same.
 */
export function estimateInputTokens(request: Pick<ModelRequest, 'messages' | 'tools' | 'toolSearch'>): number {
  const conversation = trackedConversation(request.messages);
  let characters = 0;
  let images = 0;
  if (conversation) {
    ({ characters, images } = conversation.count(request.messages));
  } else {
    for (const message of request.messages) {
      const counted = countMessage(message);
      characters += counted.characters;
      images += counted.images;
    }
  }
  const shown = shownTools(request);
  for (const tool of request.tools ?? []) if (shown(tool.name)) characters += conversation ? conversation.toolCharacters(tool) : countToolDeclaration(tool);
  return Math.ceil(characters / CHARACTERS_PER_TOKEN) + images * IMAGE_TOKEN_ESTIMATE;
}

/** Estimates the tokens of generated text the same way, for models that report no usage. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
}

/**
 * Under native tool search the provider shows a deferred tool only once its search found it, so a deferred tool counts
 * only when the conversation already called it (a found tool the model has not called yet is not counted).
 */
function shownTools(request: Pick<ModelRequest, 'messages' | 'toolSearch'>): (name: string) => boolean {
  const deferred = request.toolSearch?.deferred;
  if (!deferred || deferred.length === 0) return () => true;
  const hidden = new Set(deferred);
  const called = calledToolNames(request.messages);
  return (name) => !hidden.has(name) || called.has(name);
}

/** For the loop's tracked conversation: the tool names its assistant turns called, and how many messages were read for them. */
const calledInConversation = new WeakMap<readonly Message[], { read: number; called: Set<string> }>();

/**
 * The tool names the conversation's assistant turns called. For a tracked conversation (append-only but for the system
 * message) only the messages added since the last estimate are read, so a long run under tool search is not quadratic.
 */
function calledToolNames(messages: readonly Message[]): ReadonlySet<string> {
  const tracked = trackedConversation(messages) !== undefined;
  let seen = tracked ? calledInConversation.get(messages) : undefined;
  if (seen === undefined || seen.read > messages.length) {
    seen = { read: 0, called: new Set() };
    if (tracked) calledInConversation.set(messages, seen);
  }
  for (; seen.read < messages.length; seen.read++) {
    const message = messages[seen.read]!;
    if (message.role !== 'assistant') continue;
    for (const part of message.content) if (part.type === 'tool-call') seen.called.add(part.name);
  }
  return seen.called;
}
