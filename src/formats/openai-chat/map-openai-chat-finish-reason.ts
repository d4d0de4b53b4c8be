import type { StopReason } from '../../protocol/model-exchange.js';

/**
 * Chat Completions `finish_reason` → {@link StopReason}. Some compatible
 * servers answer `stop` even when the message holds tool calls; the calls win,
 * since the agent must run them either way.
 */
export function mapOpenAIChatFinishReason(finishReason: string | null | undefined, hasToolCalls: boolean): StopReason {
  switch (finishReason) {
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'stop':
      return hasToolCalls ? 'tool_calls' : 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'content_filter';
    default:
      return hasToolCalls ? 'tool_calls' : 'other';
  }
}
