/**
 * `streamAgent`: the same run as `runAgent`, told as it happens. Every model
 * call streams (`model.stream`), and the run is an async iterable of typed
 * events — text and reasoning deltas, tool calls as their arguments form, tool
 * progress, the record's own events (tool results, policy decisions,
 * confirmations, the final `stop`) and a `step_finished` with the totals so
 * far — plus the final result. The loop, its guards and its record are
 * `runAgent`'s own: only where the model's answer comes from differs.
 *
 * @example
 * ```ts
 * const run = streamAgent({ model, tools, prompt: 'Weather in Paris?' });
 * for await (const event of run) {
 *   if (event.type === 'text_delta') process.stdout.write(event.text);
 * }
 * const result = await run.result;
 * ```
 * @module
 */
import { InvalidStateError } from '../../shared/errors.js';
import type { OutputOf, OutputOption } from '../../tools/define-output.js';
import type { LoopStreamSink } from '../agent-loop.js';
import type { AgentResult } from '../agent-result.js';
import type { ModelDelta } from './fold-model-stream.js';
import { runRedactor } from '../redact.js';
import { resumeAgentRun, type ConfirmationDecision, type ResumeAgentOptions } from '../resume-agent.js';
import { prepareAgentRun, type AgentRuntimeOptions, type ContextRequirement, type RunAgentOptions } from '../run-agent.js';
import type { RunEvent } from '../run-event.js';
import type { RunState } from '../run-state.js';
import type { AgentDeltaEvent, AgentStreamEvent } from './stream-event.js';
import { redactAgentStream, type RedactStreamOptions } from './stream-redaction.js';

export type { AgentDeltaEvent, AgentStreamEvent, StreamedRunEvent } from './stream-event.js';

/** A run under way: iterate it for its events (once), await `result` for its end. */
export interface AgentStream<Output = unknown> extends AsyncIterable<AgentStreamEvent> {
  readonly runId: string;
  /**
   * The run's result, as `runAgent` would return it. It rejects only where `runAgent` would (a broken run store, for
   * instance), never for what the model or a tool does.
   */
  readonly result: Promise<AgentResult<Output>>;
  /** Stops the run as its `signal` would: it ends with `stop` (`aborted`), its record and store consistent. */
  abort(reason?: unknown): void;
  /**
   * The events as the run's record would hold them: secrets redacted by the tools' schemas, by field name and by value
   * shape. Text is held back a little (see {@link RedactStreamOptions.holdBackChars}) so that a secret cut across
   * deltas is redacted whole. Iterates the same events as the stream itself: use one or the other.
   */
  redacted(options?: RedactStreamOptions): AsyncIterable<AgentStreamEvent>;
}

/**
 * How far a reader may fall behind a streamed run: once this many events, or this many characters of the model's
 * output (text, reasoning and argument deltas), wait unread, the model's stream is read on only as the reader catches up.
 * A reader that stops reading (an SSE client that never reads) thus holds at most this much, however long the answer.
 */
export const STREAM_HIGH_WATER_MARK = Object.freeze({ events: 1024, modelChars: 1_048_576 });

/**
 * Starts a run like {@link runAgent} and streams it. The run starts at once; events queue until they are read, and none
 * is dropped. Until the stream is iterated the run does not wait for it; once it is, a reader more than
 * {@link STREAM_HIGH_WATER_MARK} behind holds back the model's stream until it catches up (the record's own events and
 * tool progress still queue). Leaving the `for await` loop early (`break`, `return`, a throw) aborts the run and waits
 * until it has stopped. Throws at once for the mistakes `runAgent` rejects for.
 */
export function streamAgent<Ctx = undefined, Output extends OutputOption | undefined = undefined>(
  options: Omit<RunAgentOptions<Ctx>, 'output'> & { output?: Output } & ContextRequirement<Ctx>,
): AgentStream<OutputOf<Output>> {
  return startStream(options as RunAgentOptions, (hooked, streaming) => {
    const prepared = prepareAgentRun({ ...(options as RunAgentOptions), ...hooked }, streaming);
    return { runId: prepared.state.runId, result: prepared.run() };
  }) as AgentStream<OutputOf<Output>>;
}

/**
 * `resumeAgent`, streamed: records the decisions and, once every call of the run's pending turn is decided, continues
 * the run as {@link streamAgent} runs one. Its errors (a refused token, a run not found or leased) reject `result` and
 * end the iteration, as `resumeAgent` rejects for them. A run that still waits for other decisions ends at once, with
 * `stop` (`awaiting_confirmation`).
 */
export function resumeAgentStream<Ctx = undefined>(
  runId: string,
  decisions: readonly ConfirmationDecision[],
  options: ResumeAgentOptions<Ctx> & ContextRequirement<Ctx>,
): AgentStream {
  return startStream(options, (hooked, streaming) => ({ runId, result: resumeAgentRun(runId, decisions, { ...options, ...hooked }, streaming) }));
}

/** What a streamed run's start is given: the options it must run with, and the sink factory for the loop. */
type StreamStart = (
  hooked: { signal: AbortSignal; onEvent: (event: RunEvent & { runId: string }) => void },
  streaming: (state: RunState) => LoopStreamSink,
) => { runId: string; result: Promise<AgentResult> };

function startStream(options: AgentRuntimeOptions, start: StreamStart): AgentStream {
  const reader = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, reader.signal]) : reader.signal;
  const queue = new EventQueue<AgentStreamEvent>();
  let state: RunState | undefined;
  let sawStop = false;
  /** The step whose `step_finished` is still to be sent. */
  let openStep: number | undefined;
  const calls = new Map<string, { callId: string; toolName: string }>();

  const push = (event: AgentStreamEvent, modelChars = 0) => queue.push(event, modelChars);
  const finishStep = () => {
    if (openStep === undefined || !state) return;
    const step = state.steps[openStep];
    openStep = undefined;
    if (!step) return;
    push({
      type: 'step_finished',
      step: step.index,
      kind: step.kind,
      finishReason: step.finishReason,
      text: step.text,
      toolCalls: step.toolCalls.length,
      usage: { ...state.usage },
      costUsd: state.costUsd,
      runId: state.runId,
    });
  };
  const onEvent = (event: RunEvent & { runId: string }) => {
    if (event.type === 'model_request') {
      finishStep();
      push({ type: 'step_started', step: event.step, runId: event.runId });
    } else if (event.type === 'model_response') {
      openStep = event.step;
    } else {
      if (event.type === 'stop') {
        finishStep();
        sawStop = true;
      }
      push({ ...event });
    }
    const listener = options.onEvent;
    if (listener) {
      try {
        listener(event);
      } catch {
        // As in runAgent: a failing listener does not end the run.
      }
    }
  };
  const sink: LoopStreamSink = {
    modelDelta: (step, delta) => {
      const event = deltaEvent(step, delta, calls);
      if (!event) return undefined;
      push({ ...event, runId: state?.runId ?? '' }, modelCharsOf(delta));
      return signal.aborted ? undefined : queue.room();
    },
    toolProgress: (report) => push({ type: 'tool_progress', ...report, runId: state?.runId ?? '' }),
  };

  const started = start({ signal, onEvent }, (runState) => {
    state = runState;
    return sink;
  });
  const runId = started.runId;
  // An aborted run must not stay parked behind a reader that is gone.
  const wakeModel = () => queue.wakeProducers();
  signal.addEventListener('abort', wakeModel, { once: true });
  const result = started.result
    .then((ended) => {
      // A resume that found other calls still undecided ends without running the loop: its stream still ends with stop.
      if (!sawStop) {
        push({
          type: 'stop',
          status: ended.status,
          ...(ended.status === 'stopped' ? { stopReason: ended.stopReason } : {}),
          usage: { ...ended.usage },
          costUsd: ended.costUsd,
          runId: ended.runId,
        });
      }
      return ended;
    })
    .finally(() => {
      signal.removeEventListener('abort', wakeModel);
      queue.close();
    });
  // The caller may only iterate; a rejection is still theirs through `result` and the iterator.
  result.catch(() => {});
  const abort = (reason?: unknown) => {
    if (!reader.signal.aborted) reader.abort(reason ?? new Error('the stream was aborted by its reader'));
  };

  let iterated = false;
  const events = (): AsyncIterator<AgentStreamEvent> => {
    if (iterated)
      throw new InvalidStateError('An agent stream can be read once: iterate it (or its redacted() view) in one place, and await run.result elsewhere.');
    iterated = true;
    queue.startReading();
    return {
      next: async () => {
        const next = await queue.next();
        if (next !== undefined) return { value: next, done: false };
        // Every event was read: a run that failed for a caller's mistake (not the model's) reports it here too.
        await result;
        return { value: undefined, done: true };
      },
      return: async () => {
        // The reader left early: stop the run and let it finish its record before the loop exits.
        abort(new Error('the stream was closed by its reader'));
        queue.discard();
        await result.catch(() => {});
        return { value: undefined, done: true };
      },
    };
  };

  const stream: AgentStream = {
    runId,
    result,
    abort,
    [Symbol.asyncIterator]: events,
    redacted: (redactOptions) => redactAgentStream({ [Symbol.asyncIterator]: events }, runRedactor(options), redactOptions),
  };
  return stream;
}

function deltaEvent(step: number, delta: ModelDelta, calls: Map<string, { callId: string; toolName: string }>): AgentDeltaEvent | undefined {
  switch (delta.type) {
    case 'text-delta':
      return delta.text === '' ? undefined : { type: 'text_delta', step, text: delta.text };
    case 'reasoning-delta':
      return delta.text === '' ? undefined : { type: 'reasoning_delta', step, text: delta.text };
    case 'tool-call-start':
      calls.set(`${step}.${delta.index}`, { callId: delta.id, toolName: delta.name });
      return { type: 'tool_call_start', step, index: delta.index, callId: delta.id, toolName: delta.name };
    case 'tool-call-delta': {
      const call = calls.get(`${step}.${delta.index}`) ?? { callId: '', toolName: '' };
      return { type: 'tool_call_delta', step, index: delta.index, ...call, argumentsDelta: delta.argumentsDelta, partialArguments: delta.partialArguments };
    }
    case 'tool-call-end':
      return { type: 'tool_call_end', step, index: delta.index, call: delta.call };
    default:
      return undefined;
  }
}

/** The characters of the model's output a delta carries, counted against {@link STREAM_HIGH_WATER_MARK}. */
function modelCharsOf(delta: ModelDelta): number {
  if (delta.type === 'text-delta' || delta.type === 'reasoning-delta') return delta.text.length;
  return delta.type === 'tool-call-delta' ? delta.argumentsDelta.length : 0;
}

/**
 * A queue with one reader, which never drops an item: pushing never waits, and the reader waits for the run. Once
 * reading started, {@link room} tells the producer that can wait (the model's stream) to wait while the reader is more
 * than {@link STREAM_HIGH_WATER_MARK} behind.
 */
class EventQueue<T> {
  /** Read entries are cleared to `undefined`, so that what was read can be collected before the array is compacted. */
  #items: ({ item: T; modelChars: number } | undefined)[] = [];
  #head = 0;
  #modelChars = 0;
  #reading = false;
  #closed = false;
  #discarded = false;
  #waiting: ((item: T | undefined) => void) | undefined;
  #producers: (() => void)[] = [];

  push(item: T, modelChars = 0): void {
    if (this.#closed || this.#discarded) return;
    const waiting = this.#waiting;
    if (waiting) {
      this.#waiting = undefined;
      waiting(item);
      return;
    }
    this.#items.push({ item, modelChars });
    this.#modelChars += modelChars;
  }

  /** Reading started: from now on a producer that can wait is told to when the reader falls behind. */
  startReading(): void {
    this.#reading = true;
  }

  /** A promise that settles once the reader caught up, when it is behind (and reading, and the queue open); else `undefined`. */
  room(): Promise<void> | undefined {
    if (!this.#reading || this.#closed || this.#discarded || !this.#full()) return undefined;
    return new Promise((resolve) => this.#producers.push(resolve));
  }

  /** Lets every waiting producer go on (the reader caught up, left, or the run is over). */
  wakeProducers(): void {
    const producers = this.#producers;
    this.#producers = [];
    for (const wake of producers) wake();
  }

  #full(): boolean {
    return this.#items.length - this.#head >= STREAM_HIGH_WATER_MARK.events || this.#modelChars >= STREAM_HIGH_WATER_MARK.modelChars;
  }

  /** The next item, or `undefined` once the queue is closed and drained. */
  next(): Promise<T | undefined> {
    if (this.#head < this.#items.length) {
      const { item, modelChars } = this.#items[this.#head]!;
      this.#items[this.#head++] = undefined;
      this.#modelChars -= modelChars;
      if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
        this.#items = this.#items.slice(this.#head);
        this.#head = 0;
      }
      if (this.#producers.length > 0 && !this.#full()) this.wakeProducers();
      return Promise.resolve(item);
    }
    if (this.#closed || this.#discarded) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  close(): void {
    this.#closed = true;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.(undefined);
    this.wakeProducers();
  }

  /** The reader is gone: drop what is queued and whatever comes. */
  discard(): void {
    this.#discarded = true;
    this.#items = [];
    this.#head = 0;
    this.#modelChars = 0;
    this.close();
  }
}
