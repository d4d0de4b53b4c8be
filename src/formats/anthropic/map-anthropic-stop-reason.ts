import type { StopReason } from '../../protocol/model-exchange.js';

/**
 * Anthropic `stop_reason` → {@link StopReason}: `end_turn` and `stop_sequence`
 * end the turn, `tool_use` asks for tools, `max_tokens` and
 * `model_context_window_exceeded` ran out of room, `refusal` (the model's
 * safety classifiers stopped it) is `refusal`; anything else (`pause_turn`,
 * future values) is `other`.
 */
export function mapAnthropicStopReason(stopReason: string | null | undefined, hasToolCalls: boolean): StopReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return hasToolCalls ? 'tool_calls' : 'end_turn';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max_tokens';
    case 'refusal':
      return 'refusal';
    default:
      return 'other';
  }
}
