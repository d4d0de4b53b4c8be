/**
 * Text stand-ins for result parts a provider cannot carry, so the model still
 * learns that something was returned, and a warning for each.
 * @module
 */
import type { ContentPart, ToolResult } from '../tools/types.js';
import type { FormatWarning } from '../protocol/format-warning.js';

function size(base64: string): string {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const bytes = Math.floor((base64.length * 3) / 4) - padding;
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** The part as text and, when that loses something, the warning saying what. */
export function contentPartAsText(
  part: ContentPart,
  provider: FormatWarning['provider'],
  path: string,
  providerName: string,
): { text: string; warning?: FormatWarning } {
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'image':
      return {
        text: `[The tool returned an image (${part.mimeType}, ${size(part.data)}) that cannot be shown here.]`,
        warning: {
          type: 'unsupported',
          provider,
          feature: 'image-content',
          path,
          details: `${providerName} cannot carry this image in a tool result; the model sees a text placeholder instead`,
        },
      };
    case 'audio':
      return {
        text: `[The tool returned audio (${part.mimeType}, ${size(part.data)}) that cannot be played here.]`,
        warning: {
          type: 'unsupported',
          provider,
          feature: 'audio-content',
          path,
          details: `${providerName} cannot carry audio in a tool result; the model sees a text placeholder instead`,
        },
      };
    case 'resource_link': {
      const label = part.title ?? part.name;
      return {
        text: `Resource: ${label} <${part.uri}>${part.mimeType ? ` (${part.mimeType})` : ''}${part.description ? ` — ${part.description}` : ''}`,
        warning: { type: 'rewritten', provider, feature: 'resource-link', path, details: `${providerName} has no resource links; the link is given as text` },
      };
    }
    case 'resource': {
      const resource = part.resource;
      if ('text' in resource) {
        return {
          text: `Resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}:\n${resource.text}`,
          warning: {
            type: 'rewritten',
            provider,
            feature: 'embedded-resource',
            path,
            details: `${providerName} has no embedded resources; the resource's text is given inline`,
          },
        };
      }
      return {
        text: `[The tool returned a file ${resource.uri} (${[resource.mimeType, size(resource.blob)].filter(Boolean).join(', ')}) that cannot be shown here.]`,
        warning: {
          type: 'unsupported',
          provider,
          feature: 'embedded-resource',
          path,
          details: `${providerName} cannot carry this binary resource in a tool result; the model sees a text placeholder instead`,
        },
      };
    }
  }
}

/** The parts to send: `content`, or the structured value as JSON text when a tool returned only that. */
export function resultParts(result: ToolResult): ContentPart[] {
  if (result.content.length === 0 && result.structuredContent !== undefined) return [{ type: 'text', text: JSON.stringify(result.structuredContent) }];
  return result.content;
}

/** A result, or a registry execution carrying one, with the call id the provider needs. */
export interface CallResult {
  /** The provider's call id, echoed back. */
  callId: string;
  result: ToolResult;
}

/** Turns result content into plain text for wire formats that carry only text. */
export function resultText(content: readonly ContentPart[]): string {
  return content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}
