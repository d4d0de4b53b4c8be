/**
 * Neutral messages → the AI SDK's `LanguageModelV4Prompt` (or V3), which the
 * provider package then writes in its own wire format. System messages all go
 * first (several providers take system text only before the conversation);
 * images become file parts; each tool result becomes a `tool-result` part whose
 * output is text (`error-text` for a failed call), or content parts when the
 * tool returned files. A call whose arguments never parsed is replayed as `{}`
 * with a text note quoting what the model sent, since providers re-serialize
 * `input` themselves. Provider options a call came back with (Gemini's thought
 * signatures) are replayed when the caller keeps them.
 * @module
 */
import type { LanguageModelV4Message, LanguageModelV4Prompt, LanguageModelV4ToolResultOutput } from '@ai-sdk/provider';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { AssistantMessage, Message, ToolCallPart, ToolResultPart, UserMessage } from '../../protocol/messages.js';
import type { ContentPart } from '../../tools/types.js';
import { contentPartAsText, resultParts } from '../content-as-text.js';
import { objectCallInput } from '../object-call-input.js';
import { aiSDKReasoningPromptPart } from './ai-sdk-reasoning.js';
import { aiSDKItemsBefore } from './ai-sdk-tool-search.js';
import type { AISDKProviderOptions, AISDKSpecificationVersion } from './ai-sdk-types.js';

export interface AISDKPromptOptions {
  /** The model's specification version: `v4` (the default) and `v3` write files differently. */
  version?: AISDKSpecificationVersion;
  /** The provider options to send with a replayed call: what the provider returned with it as `providerMetadata`. */
  callProviderOptions?: (call: ToolCallPart) => AISDKProviderOptions | undefined;
}

export interface AISDKPrompt {
  prompt: LanguageModelV4Prompt;
  warnings: FormatWarning[];
}

type AssistantContent = Extract<LanguageModelV4Message, { role: 'assistant' }>['content'];
type UserContent = Extract<LanguageModelV4Message, { role: 'user' }>['content'];
type ResultContent = Extract<LanguageModelV4ToolResultOutput, { type: 'content' }>['value'];

const PROVIDER_NAME = 'This AI SDK tool result';

export function convertToAISDKPrompt(messages: readonly Message[], options: AISDKPromptOptions = {}): AISDKPrompt {
  const version = options.version ?? 'v4';
  const system: LanguageModelV4Message[] = [];
  const rest: LanguageModelV4Message[] = [];
  const warnings: FormatWarning[] = [];
  messages.forEach((message, messageIndex) => {
    switch (message.role) {
      case 'system':
        if (rest.length > 0) {
          warnings.push({
            type: 'rewritten',
            provider: 'ai-sdk',
            feature: 'late-system-message',
            path: `/messages/${messageIndex}`,
            details: 'system messages are sent before the conversation, where every AI SDK provider takes them; this one was moved there',
          });
        }
        system.push({ role: 'system', content: message.content });
        break;
      case 'user': {
        const content = userContent(message, version);
        if (content.length > 0) rest.push({ role: 'user', content });
        break;
      }
      case 'assistant': {
        const content = assistantContent(message, messageIndex, options, warnings);
        if (content.length > 0) rest.push({ role: 'assistant', content });
        break;
      }
      case 'tool':
        rest.push({
          role: 'tool',
          content: message.results.map((part, resultIndex) => ({
            type: 'tool-result',
            toolCallId: part.callId,
            toolName: part.toolName,
            output: toolResultOutput(part, version, `/messages/${messageIndex}/results/${resultIndex}`, warnings),
          })),
        });
        break;
    }
  });
  return { prompt: [...system, ...rest], warnings };
}

function userContent(message: UserMessage, version: AISDKSpecificationVersion): UserContent {
  if (typeof message.content === 'string') return message.content === '' ? [] : [{ type: 'text', text: message.content }];
  return message.content.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : filePart(part.data, part.mimeType, version)));
}

/** A prompt file part: V4 tags its data, V3 carries the base64 text as it is. */
function filePart(base64: string, mediaType: string, version: AISDKSpecificationVersion): UserContent[number] {
  if (version === 'v3') return { type: 'file', mediaType, data: base64 } as unknown as UserContent[number];
  return { type: 'file', mediaType, data: { type: 'data', data: base64 } };
}

function assistantContent(message: AssistantMessage, messageIndex: number, options: AISDKPromptOptions, warnings: FormatWarning[]): AssistantContent {
  const content: AssistantContent = [];
  const partCount = message.content.length;
  message.content.forEach((part, partIndex) => {
    // What the provider ran in this turn (a native tool search) goes back where it was.
    content.push(...aiSDKItemsBefore(message.providerItems, partIndex, partCount));
    if (part.type === 'text') {
      if (part.text !== '') content.push({ type: 'text', text: part.text });
      return;
    }
    if (part.type === 'reasoning') {
      const reasoning = aiSDKReasoningPromptPart(part, `/messages/${messageIndex}/content/${partIndex}`, warnings);
      if (reasoning !== undefined) content.push(reasoning);
      return;
    }
    const { input, note, warning } = objectCallInput(part, {
      provider: 'ai-sdk',
      path: `/messages/${messageIndex}/content/${partIndex}`,
      requirement: "AI SDK providers take a call's input as an object",
    });
    if (note !== undefined) content.push({ type: 'text', text: note });
    if (warning !== undefined) warnings.push({ ...warning, tool: part.id });
    const providerOptions = options.callProviderOptions?.(part);
    content.push({ type: 'tool-call', toolCallId: part.id, toolName: part.name, input, ...(providerOptions ? { providerOptions } : {}) });
  });
  content.push(...aiSDKItemsBefore(message.providerItems, partCount, partCount));
  return content;
}

function toolResultOutput(part: ToolResultPart, version: AISDKSpecificationVersion, path: string, warnings: FormatWarning[]): LanguageModelV4ToolResultOutput {
  const parts = resultParts(part.result);
  const asText = () =>
    parts
      .map((content, index) => {
        const converted = contentPartAsText(content, 'ai-sdk', `${path}/content/${index}`, PROVIDER_NAME);
        if (converted.warning) warnings.push({ ...converted.warning, tool: part.callId });
        return converted.text;
      })
      .join('\n');
  // Failures are the registry's recovery text; the provider marks them as errors where its wire can.
  if (part.result.isError) return { type: 'error-text', value: asText() };
  if (parts.every((content) => content.type === 'text')) return { type: 'text', value: asText() };
  return { type: 'content', value: parts.map((content, index) => resultContent(content, version, `${path}/content/${index}`, part.callId, warnings)) };
}

function resultContent(part: ContentPart, version: AISDKSpecificationVersion, path: string, callId: string, warnings: FormatWarning[]): ResultContent[number] {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
    case 'audio':
      return resultFile(part.data, part.mimeType, version, part.type === 'image');
    case 'resource':
      if ('blob' in part.resource) return resultFile(part.resource.blob, part.resource.mimeType ?? 'application/octet-stream', version, false);
      break;
    default:
      break;
  }
  const converted = contentPartAsText(part, 'ai-sdk', path, PROVIDER_NAME);
  if (converted.warning) warnings.push({ ...converted.warning, tool: callId });
  return { type: 'text', text: converted.text };
}

/** A file in a tool result: V4 has one tagged file part, V3 separate image and file parts. */
function resultFile(base64: string, mediaType: string, version: AISDKSpecificationVersion, image: boolean): ResultContent[number] {
  if (version === 'v3') return { type: image ? 'image-data' : 'file-data', data: base64, mediaType } as unknown as ResultContent[number];
  return { type: 'file', data: { type: 'data', data: base64 }, mediaType };
}
