/**
 * Tool results → the one `role: "user"` message of `tool_result` blocks that
 * answers an assistant turn's `tool_use` blocks. Text, images (JPEG, PNG, GIF,
 * WebP) and PDFs are carried over; other parts become text, with a warning.
 * @module
 */
import type { Base64ImageSource, ImageBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ContentPart } from '../../tools/types.js';
import { contentPartAsText, resultParts, type CallResult } from '../content-as-text.js';
import type { FormatWarning } from '../../protocol/format-warning.js';

/** The `content` of a `tool_result` block in list form. */
type ToolResultContent = Exclude<ToolResultBlockParam['content'], string | undefined>;

export interface AnthropicResultMessage {
  /** One user message whose content is a `tool_result` block per call, in the order given. */
  message: MessageParam & { role: 'user'; content: ToolResultBlockParam[] };
  /** Parts that could not be sent as they are. */
  warnings: FormatWarning[];
}

const IMAGE_TYPES = new Set<string>(['image/jpeg', 'image/png', 'image/gif', 'image/webp'] satisfies Base64ImageSource['media_type'][]);
const PROVIDER_NAME = 'An Anthropic tool_result';

function toBlock(part: ContentPart, path: string, callId: string, warnings: FormatWarning[]): ToolResultContent[number] | undefined {
  if (part.type === 'text') return part.text === '' ? undefined : { type: 'text', text: part.text };
  if (part.type === 'image' && IMAGE_TYPES.has(part.mimeType)) {
    const image: ImageBlockParam = { type: 'image', source: { type: 'base64', media_type: part.mimeType as Base64ImageSource['media_type'], data: part.data } };
    return image;
  }
  if (part.type === 'resource' && 'blob' in part.resource && part.resource.mimeType === 'application/pdf') {
    return { type: 'document', title: part.resource.uri, source: { type: 'base64', media_type: 'application/pdf', data: part.resource.blob } };
  }
  const converted = contentPartAsText(part, 'anthropic', path, PROVIDER_NAME);
  if (part.type === 'image') {
    // Reached only for image types Anthropic does not read.
    warnings.push({
      type: 'unsupported',
      provider: 'anthropic',
      feature: 'image-content',
      path,
      details: `Anthropic reads JPEG, PNG, GIF and WebP images only, not ${part.mimeType}; the model sees a text placeholder instead`,
      tool: callId,
    });
  } else if (converted.warning) {
    warnings.push({ ...converted.warning, tool: callId });
  }
  return { type: 'text', text: converted.text };
}

/** One `tool_result` block. */
export function toAnthropicToolResultBlock(call: CallResult): { block: ToolResultBlockParam; warnings: FormatWarning[] } {
  const warnings: FormatWarning[] = [];
  const content: ToolResultContent = [];
  resultParts(call.result).forEach((part, index) => {
    const block = toBlock(part, `/content/${index}`, call.callId, warnings);
    if (block) content.push(block);
  });
  // Anthropic rejects empty text blocks, so an empty result carries no content at all.
  const block: ToolResultBlockParam = { type: 'tool_result', tool_use_id: call.callId, is_error: call.result.isError };
  if (content.length > 0) block.content = content;
  return { block, warnings };
}

export function toAnthropicResultMessage(calls: Iterable<CallResult>): AnthropicResultMessage {
  const content: ToolResultBlockParam[] = [];
  const warnings: FormatWarning[] = [];
  for (const call of calls) {
    const converted = toAnthropicToolResultBlock(call);
    content.push(converted.block);
    warnings.push(...converted.warnings);
  }
  return { message: { role: 'user', content }, warnings };
}
