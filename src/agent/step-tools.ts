/**
 * The tools of one model call of the loop: what is declared, what its calls may resolve to, and how the request
 * narrows them (the provider's deferred search, or the tools allowed now).
 * @module
 */
import type { AnyTool } from '../tools/define-tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { LoopEnvironment } from './loop-environment.js';
import type { StepNarrowing } from './model-step.js';
import type { RunState } from './run-state.js';
import { searchStep } from './tool-search.js';

export interface StepTools {
  /** The tools a call of this step may name (the rest get the unknown-tool answer). */
  registry: ToolRegistry;
  /** The tools declared to the model. */
  offered: AnyTool[];
  narrowing?: StepNarrowing;
}

/**
 * Routing with `narrow: 'allowed_tools'` declares every tool and allows the routed ones; a provider's tool search
 * declares every tool the policy lets through, deferred; toolwright's declares its search tool and the tools found so
 * far. `routed` is the registry routing left (all tools when it chose none).
 */
export function stepTools(env: LoopEnvironment, state: RunState, routed: ToolRegistry): StepTools {
  const search = env.toolSearch;
  if (search) {
    const step = searchStep(search, env.registry.list(), state.searchLoadedTools ?? [], (name) => env.callPolicy.mayLoad(name));
    if (!step.toolSearch) return { registry: env.registry.subset(step.tools.map((tool) => tool.name)), offered: step.tools };
    // The provider loads what it finds, so a call may name any tool of the run; the policy still decides each call.
    return { registry: env.registry, offered: step.tools, narrowing: { toolSearch: step.toolSearch } };
  }
  const routing = env.routing;
  if (state.routedTools && routing && routing.narrow === 'allowed_tools') {
    return { registry: routed, offered: env.registry.list(), narrowing: { allowedTools: routed.names() } };
  }
  return { registry: routed, offered: routed.list() };
}
