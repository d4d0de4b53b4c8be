/**
 * The effect a caller gives another framework's tools when bringing them under
 * toolwright (`fromAISDKTools`, `fromOpenAIAgentsTools`): their own tool
 * objects say nothing about side effects, so the caller must.
 * @module
 */
import { InvalidArgumentError } from '../shared/errors.js';
import type { ToolEffect } from '../tools/types.js';

/**
 * `effect` when it is one effect for all tools, otherwise the tool's own entry in the map (an own key, never one
 * inherited from `Object.prototype`). A tool the map leaves out, or any value but `read` or `write`, throws, naming
 * `adapter` and the tool.
 */
export function foreignToolEffect(effect: ToolEffect | Readonly<Record<string, ToolEffect>>, name: string, adapter: string): ToolEffect {
  const given = typeof effect === 'string' ? effect : Object.prototype.hasOwnProperty.call(effect, name) ? effect[name] : undefined;
  if (given !== 'read' && given !== 'write') {
    throw new InvalidArgumentError(`${adapter}: no effect for the tool "${name}"; add it to options.effect as "read" or "write".`);
  }
  return given;
}
