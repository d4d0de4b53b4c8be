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
import { routingCategories, selectCategoryTool, type RoutingCategories } from './route-tools.js';

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
    // The routing call's list, selector included: the same bytes at every step, so the prompt cached by the routing call is read.
    return { registry: routed, offered: routingCall(env)?.tools ?? env.registry.list(), narrowing: { allowedTools: routed.names() } };
  }
  return { registry: routed, offered: routed.list() };
}

/** The routing call of a run: its categories, the forced selector, what it declares and how it narrows. */
export interface RoutingCall {
  categories: RoutingCategories;
  selector: AnyTool;
  /** `[selector]`; with `narrow: 'allowed_tools'`, every tool and then the selector, the list every later step declares too. */
  tools: AnyTool[];
  narrowing?: StepNarrowing;
}

const routingCalls = new WeakMap<LoopEnvironment, RoutingCall | null>();

/** The run's routing call, made once per run (the same selector object every step), or `undefined` when routing does not apply. */
export function routingCall(env: LoopEnvironment): RoutingCall | undefined {
  let call = routingCalls.get(env);
  if (call === undefined) {
    const all = env.registry.list();
    // A run that searches its tools needs no category call.
    const categories = routingCategories(all, env.toolSearch ? false : env.routing);
    const selector = categories && selectCategoryTool(categories.names, categories.descriptions);
    const keepList = env.routing !== false && env.routing?.narrow === 'allowed_tools';
    call =
      categories && selector
        ? keepList
          ? { categories, selector, tools: [...all, selector], narrowing: { allowedTools: [selector.name] } }
          : { categories, selector, tools: [selector] }
        : null;
    routingCalls.set(env, call);
  }
  return call ?? undefined;
}
