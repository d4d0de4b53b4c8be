/**
 * Tool results → Responses API `function_call_output` input items. Text-only
 * results are sent as a string; results with images or files as a list of
 * `input_text` / `input_image` / `input_file` parts. Audio, links and text
 * resources become text, with a warning.
 * @module
 */
import type { ResponseFunctionCallOutputItem, ResponseInputItem } from 'openai/resources/responses/responses';
import { contentPartAsText, resultParts, type CallResult } from '../content-as-text.js';
import type { FormatWarning } from '../../protocol/format-warning.js';

/** One `function_call_output` item; `call_id` is always set (`openai` 7 types it optional). */
export type OpenAIResponsesResultItem = ResponseInputItem.FunctionCallOutput & { call_id: string };

export interface OpenAIResponsesResultItems {
  /** One item per call, in the order given; append them to `input`. */
  items: OpenAIResponsesResultItem[];
  /** Parts that could not be sent as they are. */
  warnings: FormatWarning[];
}

const PROVIDER_NAME = 'A Responses function_call_output';

function fileName(uri: string): string {
  const last = uri.split(/[/\\]/).pop();
  return last && last.length > 0 ? last : 'file';
}

export function toOpenAIResponsesResultItem(call: CallResult): { item: OpenAIResponsesResultItem; warnings: FormatWarning[] } {
  const warnings: FormatWarning[] = [];
  const parts: ResponseFunctionCallOutputItem[] = [];
  let richParts = false;
  resultParts(call.result).forEach((part, index) => {
    if (part.type === 'image') {
      richParts = true;
      parts.push({ type: 'input_image', image_url: `data:${part.mimeType};base64,${part.data}` });
    } else if (part.type === 'resource' && 'blob' in part.resource) {
      richParts = true;
      const resource = part.resource;
      parts.push({
        type: 'input_file',
        filename: fileName(resource.uri),
        file_data: `data:${resource.mimeType ?? 'application/octet-stream'};base64,${resource.blob}`,
      });
    } else {
      const converted = contentPartAsText(part, 'openai', `/content/${index}`, PROVIDER_NAME);
      if (converted.warning) warnings.push({ ...converted.warning, tool: call.callId });
      parts.push({ type: 'input_text', text: converted.text });
    }
  });
  const output = richParts ? parts : parts.map((part) => (part.type === 'input_text' ? part.text : '')).join('\n');
  return { item: { type: 'function_call_output', call_id: call.callId, output }, warnings };
}

export function toOpenAIResponsesResultItems(calls: Iterable<CallResult>): OpenAIResponsesResultItems {
  const items: OpenAIResponsesResultItem[] = [];
  const warnings: FormatWarning[] = [];
  for (const call of calls) {
    const converted = toOpenAIResponsesResultItem(call);
    items.push(converted.item);
    warnings.push(...converted.warnings);
  }
  return { items, warnings };
}
