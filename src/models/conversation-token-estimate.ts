/**
 * The counts behind the input-token estimate, kept between model calls for a
 * conversation that only grows. The agent loop calls the model again and again
 * with the same messages array, one assistant and one tool message longer each
 * time; recounting the whole history before every call made a step's cost grow
 * with the conversation (and was most of a step). A tracked conversation keeps
 * per-message counts as prefix sums: a call counts only the messages it has not
 * seen, after one reference comparison per message to notice a message
 * replaced, inserted or removed (those positions are counted again).
 *
 * What it assumes: a message object is not changed in place once counted, and a
 * tool's declaration is not changed during the conversation (the registry
 * compiles its schema once for the run on the same assumption). Only arrays
 * passed to {@link trackConversation} are tracked; any other request is counted
 * from scratch, as before.
 * @module
 */
import type { Message } from '../protocol/messages.js';
import type { AnyTool } from '../tools/define-tool.js';

/** Serialized characters of a part of a request, and its image or audio parts (charged at a flat figure, not by their bytes). */
export interface CharacterCount {
  characters: number;
  images: number;
}

/** Serialized characters of one message, with image and audio bytes left out and counted as parts instead. */
export function countMessage(message: Message): CharacterCount {
  // Without a `"data":` key nothing is replaced, and serializing without a replacer function is the cheaper way to the same text.
  const plain = JSON.stringify(message);
  if (!plain.includes('"data":')) return { characters: plain.length, images: 0 };
  let images = 0;
  // Image bytes are replaced before serializing so that their base64 length does not swamp the estimate.
  const serialized = JSON.stringify(message, function (this: unknown, key: string, value: unknown) {
    if (key === 'data' && typeof value === 'string' && isMediaPart(this)) {
      images++;
      return '';
    }
    return value;
  });
  return { characters: serialized.length, images };
}

/** Characters of a tool's declaration as the estimate counts them: name, description, serialized input schema and examples. */
export function countToolDeclaration(tool: Pick<AnyTool, 'name' | 'description' | 'inputSchema' | 'examples'>): number {
  // Every provider is sent the examples, as a field or in the description.
  const examples = tool.examples === undefined || tool.examples.length === 0 ? 0 : JSON.stringify(tool.examples).length;
  return tool.name.length + tool.description.length + JSON.stringify(tool.inputSchema).length + examples;
}

/** Per-message prefix sums of one conversation, and the declaration length of each tool offered in it. */
export class ConversationTokenEstimate {
  /** The messages counted so far, in order: position `i` is what `#characters[i + 1]` includes last. */
  readonly #counted: Message[] = [];
  readonly #characters: number[] = [0];
  readonly #images: number[] = [0];
  readonly #tools = new WeakMap<object, number>();

  /** The counts of `messages`, counting only the messages past the longest prefix already counted. */
  count(messages: readonly Message[]): CharacterCount {
    const counted = this.#counted;
    const limit = Math.min(messages.length, counted.length);
    let same = 0;
    while (same < limit && messages[same] === counted[same]) same++;
    if (same < counted.length) {
      counted.length = same;
      this.#characters.length = same + 1;
      this.#images.length = same + 1;
    }
    for (let index = same; index < messages.length; index++) {
      const message = messages[index]!;
      const { characters, images } = countMessage(message);
      counted.push(message);
      this.#characters.push(this.#characters[index]! + characters);
      this.#images.push(this.#images[index]! + images);
    }
    return { characters: this.#characters[messages.length]!, images: this.#images[messages.length]! };
  }

  /** {@link countToolDeclaration}, once per tool object. */
  toolCharacters(tool: AnyTool): number {
    let characters = this.#tools.get(tool);
    if (characters === undefined) {
      characters = countToolDeclaration(tool);
      this.#tools.set(tool, characters);
    }
    return characters;
  }
}

const tracked = new WeakMap<readonly Message[], ConversationTokenEstimate>();

/**
 * Marks a messages array as a conversation its owner only appends to (it may also replace whole messages), so that
 * `estimateInputTokens` counts each message once. The agent loop tracks its run's messages; idempotent.
 */
export function trackConversation(messages: readonly Message[]): void {
  if (!tracked.has(messages)) tracked.set(messages, new ConversationTokenEstimate());
}

/** The counts kept for a tracked messages array, or `undefined` for any other array. */
export function trackedConversation(messages: readonly Message[]): ConversationTokenEstimate | undefined {
  return tracked.get(messages);
}

function isMediaPart(holder: unknown): boolean {
  const type = (holder as { type?: unknown } | null)?.type;
  return type === 'image' || type === 'audio';
}
