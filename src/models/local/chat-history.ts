/**
 * The prompt of a local model: neutral messages rendered through the model's own
 * chat template (node-llama-cpp's chat wrapper for the file), and the reuse of
 * what the context already holds, so that a conversation's next turn evaluates
 * only its new tokens.
 * @module
 */
import type { ChatHistoryItem, ChatModelFunctions, ChatWrapper, LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { AnyTool } from '../../tools/define-tool.js';
import type { Message } from '../../protocol/messages.js';
import { resultText } from '../../formats/content-as-text.js';
import { describedWithExamples } from '../../formats/tool-examples-description.js';
import { reasoningNotReplayed } from '../../formats/reasoning-parts.js';

/** The prompt's tokens, ending where the model's answer begins; conversion losses go to `warnings`. */
export function renderPrompt(
  chatWrapper: ChatWrapper,
  model: LlamaModel,
  messages: readonly Message[],
  offered: readonly AnyTool[],
  warnings: FormatWarning[],
): Token[] {
  const chatHistory: ChatHistoryItem[] = [...toChatHistory(messages, warnings), { type: 'model', response: [] }];
  const functions = offered.length > 0 ? toChatFunctions(offered) : undefined;
  const state = chatWrapper.generateContextState({ chatHistory, availableFunctions: functions, documentFunctionParams: true });
  return state.contextText.tokenize(model.tokenizer);
}

function toChatFunctions(tools: readonly AnyTool[]): ChatModelFunctions {
  const functions: Record<string, { description: string; params: unknown }> = {};
  for (const tool of tools) functions[tool.name] = { description: describedWithExamples(tool), params: tool.inputSchema };
  return functions as ChatModelFunctions;
}

/** Neutral messages → node-llama-cpp chat history; each call is paired with its result, as the chat wrappers expect. */
export function toChatHistory(messages: readonly Message[], warnings: FormatWarning[]): ChatHistoryItem[] {
  const results = new Map<string, string>();
  for (const message of messages) if (message.role === 'tool') for (const part of message.results) results.set(part.callId, resultText(part.result.content));
  const history: ChatHistoryItem[] = [];
  messages.forEach((message, messageIndex) => {
    switch (message.role) {
      case 'system':
        history.push({ type: 'system', text: message.content });
        break;
      case 'user': {
        if (typeof message.content === 'string') history.push({ type: 'user', text: message.content });
        else {
          const texts = message.content.map((part) => (part.type === 'text' ? part.text : `[an image (${part.mimeType}) the local model cannot see]`));
          if (message.content.some((part) => part.type === 'image')) {
            warnings.push({
              type: 'unsupported',
              provider: 'local' as never,
              feature: 'image-input',
              path: '',
              details: 'local models receive images as a text placeholder',
            } as FormatWarning);
          }
          history.push({ type: 'user', text: texts.join('\n') });
        }
        break;
      }
      case 'assistant': {
        const response: (string | { type: 'functionCall'; name: string; params: unknown; result: unknown })[] = [];
        for (const [partIndex, part] of message.content.entries()) {
          if (part.type === 'text') response.push(part.text);
          else if (part.type === 'reasoning')
            warnings.push(
              reasoningNotReplayed(part, 'local' as never, `/messages/${messageIndex}/content/${partIndex}`, 'a local model takes no reasoning input'),
            );
          else response.push({ type: 'functionCall', name: part.name, params: part.arguments ?? {}, result: results.get(part.id) ?? '(no result)' });
        }
        history.push({ type: 'model', response: response as ChatHistoryItem extends { response: infer R } ? R : never });
        break;
      }
      case 'tool':
        break;
    }
  });
  return history;
}

/**
 * How many leading tokens the context can keep: the common prefix of what it holds and
 * what is wanted, short of the last wanted token, which must be evaluated to sample the next.
 */
export function reusablePrefixLength(held: readonly number[], wanted: readonly number[]): number {
  let common = 0;
  while (common < held.length && common < wanted.length - 1 && held[common] === wanted[common]) common++;
  return common;
}

/** The part of a context sequence that prefix reuse touches. */
export type PrefixReusingSequence = Pick<LlamaContextSequence, 'contextTokens' | 'nextTokenIndex' | 'eraseContextTokenRanges'>;

/** Erases what the context holds past the reusable prefix of `wanted`, and returns the tokens still to evaluate. */
export async function keepReusablePrefix(sequence: PrefixReusingSequence, wanted: readonly Token[]): Promise<Token[]> {
  const held = sequence.contextTokens;
  const common = reusablePrefixLength(held, wanted);
  if (common < held.length) await sequence.eraseContextTokenRanges([{ start: common, end: sequence.nextTokenIndex }]);
  return wanted.slice(common);
}
