/**
 * An opt-in prompt cache for the fake provider server (`startProviderServer({ promptCache: true })`), so a run's cache
 * counts come from what the SDK really sent rather than from numbers a test queued. Token counts are toolwright's text
 * estimate (`estimateTextTokens`, about 4 characters a token) of the bytes of the request's blocks.
 *
 * Anthropic Messages, as its prompt-caching pages describe: the prompt is read in the order tools → system → messages,
 * block by block; a `cache_control` breakpoint writes the prefix up to and including its block, when that prefix reaches
 * the minimum cacheable length (1,024 tokens, Claude Sonnet 4's); a later request reads the longest prefix written before
 * that ends at one of its breakpoints or at one of the 20 blocks before each (the API's lookback). Usage:
 * `cache_read_input_tokens` (the prefix read), `cache_creation_input_tokens` (from there to the last breakpoint written),
 * `input_tokens` (the rest). Tools declared with `defer_loading` are outside the prompt until a search finds them: a
 * `tool_search_tool_result` counts the declarations of the tools it references, where the API expands them.
 *
 * OpenAI Chat Completions, as OpenAI's prompt-caching guide describes: automatic, for prompts of 1,024 tokens or more, per
 * `prompt_cache_key` (one shared partition without one); the prompt is the tools, then each message; a request reads the
 * longest character prefix it shares with an earlier request of its partition, rounded down to 1,024 tokens plus a
 * multiple of 128. Usage: `prompt_tokens_details.cached_tokens`, and no writes (OpenAI bills none).
 *
 * Not simulated: the cache's lifetime (5 minutes, or 1 hour; entries never expire here), the model as part of the key
 * beyond the request's `model` field, what changing `tool_choice`, images or thinking settings invalidates on Anthropic,
 * the request's other parameters, the Responses and Gemini endpoints (their turns keep the usage queued).
 * @module
 */
import { createHash } from 'node:crypto';
import { estimateTextTokens } from '../../src/models/estimate-tokens.js';

/** The minimum cacheable prompt, in tokens: OpenAI's, and Anthropic's for Claude Sonnet 4 and Opus 4. */
export const DEFAULT_MINIMUM_CACHEABLE_TOKENS = 1024;
/** How many blocks before a breakpoint Anthropic checks for an earlier cache entry. */
const ANTHROPIC_LOOKBACK_BLOCKS = 20;
/** OpenAI counts cache hits past the minimum in steps of this many tokens. */
const OPENAI_CACHE_INCREMENT = 128;

/** Where a block sits in the prompt. */
export type PromptSection = 'tools' | 'system' | 'messages';

/** One block of a request's prompt as a provider's cache sees it: its bytes, and whether a breakpoint marks it. */
export interface PromptBlock {
  section: PromptSection;
  text: string;
  breakpoint: boolean;
}

/** The input side of a turn's usage, as the cache counted it. */
export interface SimulatedUsage {
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
}

const withoutCacheControl = ({ cache_control: _mark, ...rest }: Record<string, unknown>) => rest;

/** An Anthropic Messages body as blocks, in the order the API caches them: tools → system → messages. */
export function anthropicPromptBlocks(body: any): PromptBlock[] {
  const blocks: PromptBlock[] = [];
  const tools: Record<string, unknown>[] = Array.isArray(body?.tools) ? body.tools : [];
  const declarations = new Map(tools.map((tool) => [tool.name, JSON.stringify(withoutCacheControl(tool))]));
  for (const tool of tools) {
    const shown = tool.defer_loading !== true;
    // A breakpoint on a deferred tool marks the prefix of the tools shown before it.
    if (shown) blocks.push({ section: 'tools', text: JSON.stringify(withoutCacheControl(tool)), breakpoint: tool.cache_control !== undefined });
    else if (tool.cache_control !== undefined && blocks.length > 0) blocks[blocks.length - 1]!.breakpoint = true;
  }
  const system = typeof body?.system === 'string' ? [{ type: 'text', text: body.system }] : Array.isArray(body?.system) ? body.system : [];
  for (const block of system)
    blocks.push({ section: 'system', text: JSON.stringify(withoutCacheControl(block)), breakpoint: block.cache_control !== undefined });
  for (const message of Array.isArray(body?.messages) ? body.messages : []) {
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    for (const [index, block] of content.entries()) {
      // The message's role counts once, with its first block, as it appears once per message in the body.
      let text = (index === 0 ? JSON.stringify({ role: message.role }) : '') + JSON.stringify(withoutCacheControl(block));
      if (block.type === 'tool_search_tool_result') {
        for (const reference of block.content?.tool_references ?? []) text += declarations.get(reference.tool_name) ?? '';
      }
      blocks.push({ section: 'messages', text, breakpoint: block.cache_control !== undefined });
    }
  }
  return blocks;
}

/** An OpenAI Chat Completions body as blocks: the tools, then each message (leading system and developer messages as `system`). */
export function openAIChatPromptBlocks(body: any): PromptBlock[] {
  const blocks: PromptBlock[] = [];
  for (const tool of Array.isArray(body?.tools) ? body.tools : []) blocks.push({ section: 'tools', text: JSON.stringify(tool), breakpoint: false });
  let leading = true;
  for (const message of Array.isArray(body?.messages) ? body.messages : []) {
    leading &&= message.role === 'system' || message.role === 'developer';
    blocks.push({ section: leading ? 'system' : 'messages', text: JSON.stringify(message), breakpoint: false });
  }
  return blocks;
}

/** The blocks of a request body the simulation knows, by endpoint path; `undefined` for the endpoints it does not simulate. */
export function promptBlocks(path: string, body: any): PromptBlock[] | undefined {
  if (path === '/v1/messages') return anthropicPromptBlocks(body);
  if (path === '/v1/chat/completions') return openAIChatPromptBlocks(body);
  return undefined;
}

/** The estimated tokens of the first `count` blocks, as the simulation counts them. */
export function prefixTokens(blocks: readonly PromptBlock[], count = blocks.length): number {
  return estimateTextTokens(
    blocks
      .slice(0, count)
      .map((block) => block.text)
      .join(''),
  );
}

/** One server's prompt cache; see the module comment for what it simulates. */
export class PromptCacheSimulator {
  readonly #minimumTokens: number;
  /** Anthropic: the hash of every prefix written, keyed by model and the prefix's blocks. */
  readonly #anthropicEntries = new Set<string>();
  /** OpenAI Chat: the prompt text of every earlier request, per `prompt_cache_key`. */
  readonly #openAIPrompts = new Map<string, string[]>();

  constructor(minimumTokens = DEFAULT_MINIMUM_CACHEABLE_TOKENS) {
    this.#minimumTokens = minimumTokens;
  }

  /** The input usage of a request to `path`, cached entries updated; `undefined` for an endpoint not simulated. */
  usage(path: string, body: any): SimulatedUsage | undefined {
    if (path === '/v1/messages') return this.#anthropic(body);
    if (path === '/v1/chat/completions') return this.#openAIChat(body);
    return undefined;
  }

  /** Forgets every entry. */
  reset(): void {
    this.#anthropicEntries.clear();
    this.#openAIPrompts.clear();
  }

  #anthropic(body: any): SimulatedUsage {
    const blocks = anthropicPromptBlocks(body);
    // keys[i]: the prefix of the first i + 1 blocks, chained so each costs one hash of its own bytes.
    const keys: string[] = [];
    let key = createHash('sha256').update(String(body?.model)).digest('hex');
    for (const block of blocks) keys.push((key = createHash('sha256').update(key).update(block.text).digest('hex')));
    const breakpoints = blocks.flatMap((block, index) => (block.breakpoint ? [index + 1] : []));
    let read = 0;
    for (const end of breakpoints) {
      for (let length = end; length > 0 && length >= end - ANTHROPIC_LOOKBACK_BLOCKS; length--) {
        if (this.#anthropicEntries.has(keys[length - 1]!)) {
          read = Math.max(read, length);
          break;
        }
      }
    }
    let written = read;
    for (const end of breakpoints) {
      if (prefixTokens(blocks, end) < this.#minimumTokens) continue;
      this.#anthropicEntries.add(keys[end - 1]!);
      written = Math.max(written, end);
    }
    const cachedInputTokens = prefixTokens(blocks, read);
    return { inputTokens: prefixTokens(blocks), cachedInputTokens, cacheWriteTokens: prefixTokens(blocks, written) - cachedInputTokens };
  }

  #openAIChat(body: any): SimulatedUsage {
    const prompt = openAIChatPromptBlocks(body)
      .map((block) => block.text)
      .join('');
    const partition = typeof body?.prompt_cache_key === 'string' ? body.prompt_cache_key : '';
    const earlier = this.#openAIPrompts.get(partition) ?? [];
    let shared = 0;
    for (const previous of earlier) shared = Math.max(shared, commonPrefixLength(previous, prompt));
    const sharedTokens = estimateTextTokens(prompt.slice(0, shared));
    const cachedInputTokens =
      sharedTokens < this.#minimumTokens
        ? 0
        : this.#minimumTokens + Math.floor((sharedTokens - this.#minimumTokens) / OPENAI_CACHE_INCREMENT) * OPENAI_CACHE_INCREMENT;
    if (estimateTextTokens(prompt) >= this.#minimumTokens) this.#openAIPrompts.set(partition, [...earlier, prompt]);
    return { inputTokens: estimateTextTokens(prompt), cachedInputTokens, cacheWriteTokens: 0 };
  }
}

function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}
