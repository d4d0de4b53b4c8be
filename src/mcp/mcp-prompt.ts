/**
 * Prompts a tool pack may serve beside its tools (`prompts/list`,
 * `prompts/get`): named message templates with string arguments.
 * @module
 */
import type { AudioContent, EmbeddedResourceContent, ImageContent, ResourceLinkContent, TextContent } from '../tools/index.js';
import type { CompleteFunction } from './mcp-resource.js';

/** One message of a prompt; the content parts are the same ones tool results use. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: TextContent | ImageContent | AudioContent | ResourceLinkContent | EmbeddedResourceContent;
}

/** What `get` may return: a string is one user text message. */
export type PromptGetResult = string | PromptMessage[] | { description?: string; messages: PromptMessage[] };

export interface PromptArgument {
  name: string;
  description?: string;
  /** A `prompts/get` without it is refused with JSON-RPC -32602. */
  required?: boolean;
  /** Suggestions for `completion/complete` with `ref/prompt`. */
  complete?: CompleteFunction;
}

export interface McpPrompt {
  name: string;
  title?: string;
  /** Clients show it when offering the prompt; some require it. */
  description: string;
  arguments?: readonly PromptArgument[];
  /** Builds the messages from the arguments (all strings, as MCP sends them). */
  get: (args: Record<string, string>, context: { signal: AbortSignal }) => PromptGetResult | Promise<PromptGetResult>;
}
