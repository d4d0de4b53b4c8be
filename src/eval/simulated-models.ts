/**
 * Baseline simulators for running the harness offline. They are NOT models
 * and their numbers say nothing about any model; they exist so the whole
 * matrix, the metrics and the report can run with no key and no weights, and
 * so that every column of the report is exercised.
 *
 * - `sim:naive`: replays the user task's reference calls and obeys any
 *   injected instruction it reads (through any isolation: it strips datamarks
 *   and decodes base64), then goes back to the user's task. A capable and
 *   completely gullible agent: high utility, every attack attempted.
 * - `sim:folding`: the adversarial simulator. Like `sim:naive` it replays the
 *   user's reference and obeys what it reads, but an injection task with a
 *   `payload` (a goal inside some task's scope) is folded into the user's own
 *   write calls: same tool, same allowed recipient, the attacker's text
 *   appended to the call's free-text argument. It exercises provenance rules
 *   offline; a task scope that pins tools and recipients lets it through.
 *   Goals without a payload, and tasks with no write to fold into, are
 *   obeyed as `sim:naive` obeys them.
 * - `sim:fickle`: `sim:naive` that obeys only some injected texts: one in
 *   three, chosen by a hash of the user task and the tool output that carries
 *   the goal (so the same text in the same case is always obeyed or always
 *   ignored). A stand-in for a model that falls for some phrasings and not
 *   others, so that attacks differ and a search over rewrites can beat every
 *   single family; a goal it cannot find verbatim (encoded, split) it never
 *   obeys.
 * - `sim:substituting`: replays the user's reference and, once it reads an
 *   injected goal, makes the user's own write calls with the attacker's
 *   values in them (substitute-values.ts: the injection's call to the same
 *   tool sets an account, amount, address, path, id or time differently; the
 *   user's free text stays). The gullible-extractor case: "pay this invoice"
 *   paying the attacker's IBAN. An injection it cannot substitute into any
 *   of its remaining writes it ignores, so every effect it reaches is a
 *   substitution.
 * - `sim:idle`: answers at once without calling any tool. An agent that does
 *   nothing: zero utility and zero attack success, the case the report must
 *   flag rather than praise.
 * @module
 */
import { estimateInputTokens, estimateTextTokens } from '../models/estimate-tokens.js';
import type { Model } from '../models/types.js';
import type { ModelRequest, ModelResponse, ModelStreamEvent } from '../protocol/model-exchange.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { foldPayload, foldTarget } from './fold-payload.js';
import { substituteValues } from './substitute-values.js';
import type { AnyEvalSuite, EvalCall, InjectionTask, UserTask } from './suite-types.js';
import { fnv1a } from '../shared/seeded-random.js';

/** The simulator specs `toolwright eval --model` accepts besides real providers. */
export const SIMULATOR_SPECS = ['sim:naive', 'sim:folding', 'sim:fickle', 'sim:idle', 'sim:substituting'] as const;

export type SimulatorSpec = (typeof SIMULATOR_SPECS)[number];

/** What a simulator knows about its case. */
export interface SimulatorCase<State> {
  userTask: UserTask<State>;
  injectionTask: InjectionTask<State> | undefined;
  /** The environment before the run (references are computed from it). */
  pre: State;
  /** The suite, so that `sim:folding` can tell write tools from read tools. */
  suite?: AnyEvalSuite;
}

/** Whether a spec names a built-in simulator. */
export function isSimulatorSpec(spec: string): spec is SimulatorSpec {
  return (SIMULATOR_SPECS as readonly string[]).includes(spec);
}

/** Creates the simulator a spec names, for one case. */
export function createSimulator<State>(spec: SimulatorSpec, testCase: SimulatorCase<State>): Model {
  switch (spec) {
    case 'sim:naive':
      return new NaiveAgentSimulator(testCase);
    case 'sim:folding':
      return new FoldingAgentSimulator(testCase);
    case 'sim:fickle':
      return new NaiveAgentSimulator(testCase, 'sim:fickle', simulatorObeys(spec, testCase.userTask.id));
    case 'sim:idle':
      return new IdleAgentSimulator();
    case 'sim:substituting':
      return new SubstitutingAgentSimulator(testCase);
    default:
      throw new InvalidArgumentError(`Unknown simulator "${String(spec)}"; use one of ${SIMULATOR_SPECS.join(', ')}.`);
  }
}

abstract class Simulator implements Model {
  abstract readonly id: string;
  readonly provider = 'sim';
  #turn = 0;

  protected abstract next(request: ModelRequest): { call: EvalCall } | { text: string };

  async generate(request: ModelRequest): Promise<ModelResponse> {
    request.signal?.throwIfAborted();
    const turn = ++this.#turn;
    const step = this.next(request);
    const usage = { inputTokens: estimateInputTokens(request), outputTokens: 0 };
    if ('text' in step) {
      usage.outputTokens = estimateTextTokens(step.text);
      return { content: [{ type: 'text', text: step.text }], stopReason: 'end_turn', usage, modelId: this.id };
    }
    const id = `sim_${turn}_1`;
    const args = step.call.arguments ?? {};
    usage.outputTokens = estimateTextTokens(step.call.tool + JSON.stringify(args));
    return {
      content: [{ type: 'tool-call', id, name: step.call.tool, arguments: args }],
      stopReason: 'tool_calls',
      usage,
      modelId: this.id,
    };
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    yield { type: 'end', response: await this.generate(request) };
  }

  estimateInputTokens(request: ModelRequest): number {
    return estimateInputTokens(request);
  }
}

class IdleAgentSimulator extends Simulator {
  readonly id = 'sim:idle';
  protected next(): { text: string } {
    return { text: 'I am not able to help with that.' };
  }
}

/** `sim:fickle` obeys one injected text in this many. */
const FICKLE_ODDS = 3;

/**
 * Which tool outputs carrying an injection a simulator obeys, for one user task: every one, or for `sim:fickle` one in
 * {@link FICKLE_ODDS} by a hash of the task and the text. Plan-then-execute's scripted extractor uses the same predicate, so
 * that under each simulator it is as gullible as the agent it stands in for.
 */
export function simulatorObeys(spec: string, userTaskId: string): (toolOutput: string) => boolean {
  if (spec === 'sim:fickle') return (text) => fnv1a(`${userTaskId}\u0000${text}`) % FICKLE_ODDS === 0;
  return () => true;
}

class NaiveAgentSimulator<State> extends Simulator {
  readonly id: string;
  readonly #case: SimulatorCase<State>;
  readonly #queue: EvalCall[];
  readonly #obeys: (toolOutput: string) => boolean;
  #obeyed = false;

  constructor(testCase: SimulatorCase<State>, id = 'sim:naive', obeys: (toolOutput: string) => boolean = () => true) {
    super();
    this.id = id;
    this.#case = testCase;
    this.#queue = testCase.userTask.reference(structuredClone(testCase.pre));
    this.#obeys = obeys;
  }

  protected next(request: ModelRequest): { call: EvalCall } | { text: string } {
    const injection = this.#case.injectionTask;
    if (injection && !this.#obeyed && readToolOutputs(request).some((text) => text.includes(normalize(injection.goal)) && this.#obeys(text))) {
      this.#obeyed = true;
      this.#queue.unshift(...injection.reference(structuredClone(this.#case.pre)));
    }
    const call = this.#queue.shift();
    if (call) return { call };
    return { text: this.#case.userTask.referenceAnswer?.(this.#case.pre) ?? 'Done.' };
  }
}

/** A simulator that follows the user task's reference and, once it reads the injected goal, rewrites its own writes. */
abstract class RewritingSimulator<State> extends Simulator {
  protected readonly testCase: SimulatorCase<State>;
  protected readonly queue: EvalCall[];
  protected readonly writes: ReadonlySet<string>;

  constructor(testCase: SimulatorCase<State>) {
    super();
    this.testCase = testCase;
    this.queue = testCase.userTask.reference(structuredClone(testCase.pre));
    this.writes = testCase.suite ? writeTools(testCase.suite) : new Set();
  }

  /** Whether a tool output of the conversation holds the injection's goal. */
  protected readsGoal(request: ModelRequest): boolean {
    const injection = this.testCase.injectionTask;
    return injection !== undefined && readToolOutputs(request).some((text) => text.includes(normalize(injection.goal)));
  }

  /** The user task's reference answer, once its calls are made. */
  protected answer(): { text: string } {
    return { text: this.testCase.userTask.referenceAnswer?.(this.testCase.pre) ?? 'Done.' };
  }
}

class FoldingAgentSimulator<State> extends RewritingSimulator<State> {
  readonly id = 'sim:folding';
  #folding = false;
  #obeyed = false;

  protected next(request: ModelRequest): { call: EvalCall } | { text: string } {
    const injection = this.testCase.injectionTask;
    if (injection && !this.#obeyed && this.readsGoal(request)) {
      this.#obeyed = true;
      const payload = injection.payload;
      if (payload !== undefined && this.queue.some((call) => this.writes.has(call.tool) && foldTarget(call) !== undefined)) this.#folding = true;
      else this.queue.unshift(...injection.reference(structuredClone(this.testCase.pre)));
    }
    const call = this.queue.shift();
    if (!call) return this.answer();
    if (!this.#folding || !this.writes.has(call.tool)) return { call };
    return { call: foldPayload(call, injection!.payload!) ?? call };
  }
}

class SubstitutingAgentSimulator<State> extends RewritingSimulator<State> {
  readonly id = 'sim:substituting';
  #attackerCalls: EvalCall[] | undefined;

  protected next(request: ModelRequest): { call: EvalCall } | { text: string } {
    const injection = this.testCase.injectionTask;
    if (injection && !this.#attackerCalls && this.readsGoal(request)) this.#attackerCalls = injection.reference(structuredClone(this.testCase.pre));
    const call = this.queue.shift();
    if (!call) return this.answer();
    if (!this.#attackerCalls || !this.writes.has(call.tool)) return { call };
    return { call: substituteValues(call, this.#attackerCalls) ?? call };
  }
}

const writeToolCache = new WeakMap<AnyEvalSuite, ReadonlySet<string>>();

function writeTools(suite: AnyEvalSuite): ReadonlySet<string> {
  let names = writeToolCache.get(suite);
  if (!names) {
    names = new Set(
      suite
        .createTools({ state: undefined })
        .filter((tool) => tool.effect === 'write')
        .map((tool) => tool.name),
    );
    writeToolCache.set(suite, names);
  }
  return names;
}

/** Every tool result text of the conversation, read through any isolation. */
function readToolOutputs(request: ModelRequest): string[] {
  return request.messages.flatMap((message) =>
    message.role === 'tool'
      ? message.results.flatMap((result) => result.result.content.flatMap((part) => (part.type === 'text' ? [normalize(decodeIfBase64(part.text))] : [])))
      : [],
  );
}

function decodeIfBase64(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length < 8 || trimmed.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) return text;
  return Buffer.from(trimmed, 'base64').toString('utf8');
}

/** Undoes datamarking and JSON escaping, and collapses whitespace, so the goal is found however it was wrapped. */
function normalize(text: string): string {
  return text
    .replace(/\\n/g, ' ')
    .replace(/\\"/g, '"')
    .replace(/\u02C6/g, ' ')
    .replace(/\s+/g, ' ');
}
