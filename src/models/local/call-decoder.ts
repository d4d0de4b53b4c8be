/**
 * Decoding one response of a local model, token by token: free text, then at most
 * one tool call, whose name is restricted to the offered tools and whose arguments
 * follow the tool's input schema under the token mask.
 *
 * Phases: `text` → (the call's start token, or at once when a call is required)
 * → `name` (skipped when one tool is offered) → `arguments` → `done`. With an
 * answer grammar (a run's output schema) there is no free text: the first token
 * either opens a call or starts the answer, `answer` → `done`, decoded under the
 * answer's grammar as arguments are under a tool's. Each sampled
 * token goes to {@link CallDecoder.accept}, which says which tokens to feed without
 * sampling (the call framing, the rest of the name, jump-forward text), which
 * stream events the token produced, and whether generation stops. The mask for the
 * next token goes to the `applyMask` hook; the decoder never sees node-llama-cpp,
 * so scripted token streams drive it in tests as the engine does in production.
 * @module
 */
import type { CompiledGrammar } from '../../decoding/compiled-grammar.js';
import type { GrammarMatcher } from '../../decoding/grammar-matcher.js';
import type { Vocabulary } from '../../decoding/vocabulary.js';
import { toolCallPartFromText } from '../../formats/tool-call-part.js';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { TextPart, ToolCallPart } from '../../protocol/messages.js';
import type { ModelResponse, ModelStreamEvent, StopReason } from '../../protocol/model-exchange.js';
import type { AnyTool } from '../../tools/define-tool.js';
import type { ClosingPreference } from './closing-preference.js';
import { JsonPrefixTracker } from './closing-preference.js';
import type { LocalModelStats } from './local-model-options.js';

/** How the chat template frames a tool call, in tokens of the model. */
export interface CallFormat {
  /** Token that opens a call when the model writes it in free text (the prefix's first token). */
  startToken: number;
  prefixTokens: readonly number[];
  /** Text between the tool name and its arguments. */
  paramsPrefixText: string;
  suffixTokens: readonly number[];
  /** The suffix as text (special tokens rendered), where unconstrained arguments end. */
  suffixText: string;
}

/** What the decoder needs from a loaded model; built once per model. */
export interface CallDecoderSetup {
  vocabulary: Vocabulary;
  callFormat: CallFormat;
  /** Text tokens grouped by their first byte, to build name masks without scanning the vocabulary. */
  tokensByFirstByte: readonly Uint32Array[];
  closing: ClosingPreference;
  /** The model's tokenizer, without special tokens. */
  tokenize(text: string): number[];
  /** The model's detokenizer, without special tokens. */
  detokenize(tokens: readonly number[]): string;
  isEndOfGeneration(token: number): boolean;
}

export interface CompiledToolGrammar {
  grammar: CompiledGrammar;
  /** Said once per tool: the parts of its schema the mask relaxes. */
  warnings: readonly FormatWarning[];
}

/** One response's decoding settings. */
export interface CallDecoding {
  /** The tools the model may call (empty: text only). */
  tools: readonly AnyTool[];
  /** Open a call at once instead of letting the model choose. */
  mustCall: boolean;
  constrained: boolean;
  jumpForward: boolean;
  maxOutputTokens: number;
  /** Argument tokens after which the mask steers toward the nearest valid end. */
  callTokenBudget: number;
  /** Argument tokens after which the call is cut. */
  maxCallTokens: number;
  grammarFor(tool: AnyTool): CompiledToolGrammar;
  /** The grammar a final answer follows (a run's output schema); without one, an answer is free text. Needs `constrained`. */
  answerGrammar?: CompiledToolGrammar;
  /** The mask for the next sampled token (bit i set: token i allowed); `undefined` lifts it. */
  applyMask(mask: Uint32Array | undefined): void;
  /** The model's counters, advanced in place. */
  stats: LocalModelStats;
}

export type DecoderPhase = 'text' | 'name' | 'arguments' | 'answer' | 'done';

export interface DecodeStep {
  /** Stream events the step produced, in order. */
  events: ModelStreamEvent[];
  /** Tokens to feed after the accepted one without sampling them. */
  forced: number[];
  /** Generation ends here: the call is complete, the model ended its turn, or a token cap was reached. */
  stop: boolean;
}

interface NameTarget {
  tool: AnyTool;
  /** UTF-8 of `name + paramsPrefix`. */
  bytes: number[];
  nameLength: number;
}

const decoder = new TextDecoder();

export class CallDecoder {
  readonly #setup: CallDecoderSetup;
  readonly #decoding: CallDecoding;
  readonly #mask: Uint32Array;
  readonly #tracker = new JsonPrefixTracker();
  readonly #targets: NameTarget[];
  /** The suffix as an unconstrained call's text would contain it. */
  readonly #suffixInText: string;
  readonly #content: (TextPart | ToolCallPart)[] = [];
  readonly #grammarWarnings: FormatWarning[] = [];
  #events: ModelStreamEvent[] = [];
  #phase: DecoderPhase = 'text';
  #stopReason: StopReason = 'end_turn';
  #outputTokens = 0;
  readonly #textTokens: number[] = [];
  #emittedText = '';
  #nameBytes: number[] = [];
  #callName = '';
  #matcher: GrammarMatcher | undefined;
  #argumentBytes: number[] = [];
  #callTokens = 0;
  /** The grammar allows no further token but the end (a complete value with nothing optional left). */
  #nothingButEnd = false;

  constructor(setup: CallDecoderSetup, decoding: CallDecoding) {
    this.#setup = setup;
    this.#decoding = decoding;
    this.#mask = new Uint32Array(setup.vocabulary.maskWords);
    this.#targets = decoding.tools.map((tool) => ({ tool, bytes: utf8(tool.name + setup.callFormat.paramsPrefixText), nameLength: utf8(tool.name).length }));
    this.#suffixInText = decoder.decode(Uint8Array.from(utf8(setup.callFormat.suffixText)));
  }

  get phase(): DecoderPhase {
    return this.#phase;
  }

  get stopReason(): StopReason {
    return this.#stopReason;
  }

  /** Sampled and forced tokens counted against `maxOutputTokens`. */
  get outputTokens(): number {
    return this.#outputTokens;
  }

  /** Text and the call, in the order the model produced them. */
  get content(): readonly (TextPart | ToolCallPart)[] {
    return this.#content;
  }

  get grammarWarnings(): readonly FormatWarning[] {
    return this.#grammarWarnings;
  }

  /**
   * Computes ahead, within `workUnits`, the masks the arguments (or the answer) can need next
   * (`GrammarMatcher.lookAhead`); false when there is nothing to look ahead for (no grammar in
   * use, the value complete, or everything reachable done).
   */
  lookAhead(workUnits: number): boolean {
    const matcher = this.#matcher;
    if (matcher === undefined || this.#isDone() || matcher.isTerminated()) return false;
    return matcher.lookAhead(workUnits);
  }

  /** Before the first sampled token: opens the call when one is required; `forced` then follows the prompt. */
  begin(): DecodeStep {
    if (!this.#decoding.mustCall) return this.#beginAnswer();
    const forced = [...this.#setup.callFormat.prefixTokens, ...this.#enterName()];
    this.#decoding.stats.forcedTokens += forced.length;
    if (this.#argumentsComplete()) {
      // Everything was forced: nothing is left to sample.
      this.#outputTokens += forced.length;
      this.#finishCall();
    }
    return this.#step(forced, this.#isDone());
  }

  /** One sampled token. */
  accept(token: number): DecodeStep {
    if (this.#isDone()) return this.#step([], true);
    this.#outputTokens++;
    this.#decoding.stats.sampledTokens++;
    let forced: number[] = [];
    if (this.#phase === 'text') {
      if (this.#setup.isEndOfGeneration(token)) return this.#step([], true);
      if (this.#matcher !== undefined && token !== this.#setup.callFormat.startToken) {
        // The answer's first token (the mask allowed only those and the call's start).
        this.#phase = 'answer';
        forced = this.#acceptAnswerToken(token);
      } else if (this.#decoding.tools.length > 0 && token === this.#setup.callFormat.startToken) {
        this.#flushText(true);
        this.#endText();
        forced = [...this.#setup.callFormat.prefixTokens.slice(1), ...this.#enterName()];
        if (this.#argumentsComplete()) this.#finishCall();
      } else {
        this.#textTokens.push(token);
        this.#flushText(false);
      }
    } else if (this.#phase === 'name') forced = this.#acceptNameToken(token);
    else if (this.#phase === 'answer') forced = this.#acceptAnswerToken(token);
    else forced = this.#acceptArgumentToken(token);

    if (this.#isDone()) {
      this.#outputTokens += forced.length;
      this.#decoding.stats.forcedTokens += forced.length;
      return this.#step([], true);
    }
    if (this.#outputTokens >= this.#decoding.maxOutputTokens) {
      if (this.#phase === 'arguments') this.#finishCall('max_tokens');
      if (this.#phase === 'answer') this.#finishAnswer('max_tokens');
      this.#stopReason = 'max_tokens';
      return this.#step([], true);
    }
    this.#decoding.stats.forcedTokens += forced.length;
    this.#outputTokens += forced.length;
    return this.#step(forced, false);
  }

  /** After the last token: the rest of the text, unless a call was under way. */
  end(): ModelStreamEvent[] {
    // Generation ended with the answer unfinished: not a reason the model gave.
    if (this.#phase === 'answer') this.#finishAnswer('other');
    if (this.#phase === 'text' || this.#phase === 'name') {
      this.#flushText(true);
      this.#endText();
    }
    return this.#step([], true).events;
  }

  /** A method, not a comparison, so that the phase a transition set is read back unnarrowed. */
  #isDone(): boolean {
    return this.#phase === 'done';
  }

  #step(forced: number[], stop: boolean): DecodeStep {
    const events = this.#events;
    this.#events = [];
    return { events, forced, stop };
  }

  /**
   * With an answer grammar: no tools (or none may be called) starts the answer at once; otherwise the first token is
   * masked to the answer's first tokens and the call's start token.
   */
  #beginAnswer(): DecodeStep {
    const answer = this.#decoding.answerGrammar;
    if (!answer || !this.#decoding.constrained) return this.#step([], false);
    for (const warning of answer.warnings) if (!this.#grammarWarnings.includes(warning)) this.#grammarWarnings.push(warning);
    this.#matcher = answer.grammar.matcher();
    this.#argumentBytes = [];
    this.#callTokens = 0;
    this.#tracker.reset();
    if (this.#decoding.tools.length > 0) {
      this.#setArgumentsMask();
      const start = this.#setup.callFormat.startToken;
      this.#mask[start >>> 5]! |= 1 << (start & 31);
      this.#decoding.applyMask(this.#mask);
      return this.#step([], false);
    }
    this.#phase = 'answer';
    const forced = this.#jumpForward();
    this.#decoding.stats.forcedTokens += forced.length;
    this.#outputTokens += forced.length;
    this.#flushAnswer(false);
    if (!this.#matcher.isTerminated()) this.#setArgumentsMask();
    if (this.#argumentsComplete()) this.#finishAnswer();
    return this.#step(forced, this.#isDone());
  }

  #acceptAnswerToken(token: number): number[] {
    const bytes = this.#setup.vocabulary.isTextToken(token) ? this.#setup.vocabulary.tokenBytes(token) : new Uint8Array();
    const matcher = this.#matcher!;
    this.#callTokens++;
    if (!matcher.accept(token)) throw new Error(`the token mask let through token ${token}, which the answer's grammar refuses; please report this`);
    this.#argumentBytes.push(...bytes);
    this.#tracker.push(bytes);
    const forced = this.#jumpForward();
    this.#flushAnswer(false);
    if (!matcher.isTerminated()) this.#setArgumentsMask();
    if (this.#argumentsComplete()) this.#finishAnswer();
    else if (this.#callTokens >= this.#decoding.maxCallTokens) this.#finishAnswer('max_tokens');
    return forced;
  }

  /** The answer so far as text deltas, a trailing partial UTF-8 sequence held back until the next token completes it. */
  #flushAnswer(final: boolean): void {
    const text = decoder.decode(Uint8Array.from(this.#argumentBytes));
    const safe = final ? text : text.endsWith('\uFFFD') ? text.slice(0, text.lastIndexOf('\uFFFD')) : text;
    if (safe.length > this.#emittedText.length) {
      this.#events.push({ type: 'text-delta', text: safe.slice(this.#emittedText.length) });
      this.#emittedText = safe;
    }
  }

  #finishAnswer(stopReason: StopReason = 'end_turn'): void {
    this.#flushAnswer(true);
    const text = decoder.decode(Uint8Array.from(this.#argumentBytes));
    if (text.length > 0) this.#content.push({ type: 'text', text });
    this.#emittedText = '';
    this.#phase = 'done';
    this.#stopReason = stopReason;
  }

  #acceptNameToken(token: number): number[] {
    const { vocabulary } = this.#setup;
    this.#nameBytes.push(...(vocabulary.isTextToken(token) ? vocabulary.tokenBytes(token) : []));
    const named = this.#targets.find((target) => this.#nameBytes.length > target.nameLength && startsWith(target.bytes, this.#nameBytes));
    if (named) {
      const forced = this.#enterArguments(named.tool, this.#nameBytes);
      if (this.#argumentsComplete()) this.#finishCall();
      return forced;
    }
    if (!this.#targets.some((target) => startsWith(target.bytes, this.#nameBytes))) {
      // Only reachable unconstrained: the model named no offered tool. Report the call as written, for the registry to answer.
      this.#callName = decoder.decode(Uint8Array.from(this.#nameBytes)).replace(/".*$/s, '');
      this.#finishCall();
    } else if (this.#decoding.constrained) this.#setNameMask();
    return [];
  }

  #acceptArgumentToken(token: number): number[] {
    const { vocabulary, callFormat } = this.#setup;
    let forced: number[] = [];
    this.#callTokens++;
    const bytes = vocabulary.isTextToken(token) ? vocabulary.tokenBytes(token) : new Uint8Array();
    const matcher = this.#matcher;
    if (matcher) {
      if (!matcher.accept(token)) throw new Error(`the token mask let through token ${token}, which the grammar refuses; please report this`);
      this.#argumentBytes.push(...bytes);
      this.#tracker.push(bytes);
      forced = this.#jumpForward();
      if (!matcher.isTerminated()) this.#setArgumentsMask();
      if (this.#argumentsComplete()) this.#finishCall();
    } else {
      this.#argumentBytes.push(...bytes);
      // Unconstrained: the call ends where the format's suffix begins, or at the end of generation.
      const text = decoder.decode(Uint8Array.from(this.#argumentBytes));
      if (this.#setup.isEndOfGeneration(token) || token === callFormat.suffixTokens.at(-1) || text.includes(this.#suffixInText)) {
        this.#argumentBytes = utf8(cutAtSuffix(text, callFormat.suffixText));
        this.#finishCall();
      }
    }
    if (this.#phase === 'arguments' && this.#callTokens >= this.#decoding.maxCallTokens) this.#finishCall('max_tokens');
    return forced;
  }

  /** Starts a call; returns the tokens to force (none until a name is chosen among several tools). */
  #enterName(): number[] {
    this.#nameBytes = [];
    if (this.#targets.length === 1) return this.#enterArguments(this.#targets[0]!.tool, []);
    this.#phase = 'name';
    if (this.#decoding.constrained) this.#setNameMask();
    else this.#decoding.applyMask(undefined);
    return [];
  }

  /** The tool is chosen: forces the rest of `name + paramsPrefix` and what the grammar fixes at the start of the arguments. */
  #enterArguments(tool: AnyTool, alreadyGenerated: readonly number[]): number[] {
    this.#callName = tool.name;
    const target = utf8(tool.name + this.#setup.callFormat.paramsPrefixText);
    const rest = decoder.decode(Uint8Array.from(target.slice(alreadyGenerated.length)));
    const forced = rest.length > 0 ? this.#setup.tokenize(rest) : [];
    this.#phase = 'arguments';
    this.#argumentBytes = [];
    this.#callTokens = 0;
    this.#tracker.reset();
    if (this.#decoding.constrained) {
      const compiled = this.#decoding.grammarFor(tool);
      for (const warning of compiled.warnings) if (!this.#grammarWarnings.includes(warning)) this.#grammarWarnings.push(warning);
      this.#matcher = compiled.grammar.matcher();
      forced.push(...this.#jumpForward());
      this.#setArgumentsMask();
    } else {
      this.#matcher = undefined;
      this.#decoding.applyMask(undefined);
    }
    return forced;
  }

  /** Text the grammar fixes from here, as tokens the matcher accepts; they go into the arguments unsampled. */
  #jumpForward(): number[] {
    const matcher = this.#matcher;
    if (!this.#decoding.jumpForward || !matcher) return [];
    const text = matcher.forcedText();
    if (text.length === 0) return [];
    const accepted: number[] = [];
    for (const token of this.#setup.tokenize(text)) {
      if (!matcher.accept(token)) break;
      accepted.push(token);
      const bytes = this.#setup.vocabulary.tokenBytes(token);
      this.#argumentBytes.push(...bytes);
      this.#tracker.push(bytes);
    }
    this.#decoding.stats.jumpForwardTokens += accepted.length;
    return accepted;
  }

  /** The arguments are a complete value and the grammar allows nothing more (e.g. `{}` for a tool without parameters). */
  #argumentsComplete(): boolean {
    const matcher = this.#matcher;
    return (
      (this.#phase === 'arguments' || this.#phase === 'answer') &&
      matcher !== undefined &&
      (matcher.isTerminated() || (matcher.canTerminate() && this.#nothingButEnd))
    );
  }

  #setNameMask(): void {
    const started = performance.now();
    const { vocabulary, tokensByFirstByte } = this.#setup;
    const mask = this.#mask;
    const generated = this.#nameBytes;
    mask.fill(0);
    // Only tokens whose first byte is some target's next byte can continue a name.
    const open = this.#targets.filter((target) => startsWith(target.bytes, generated));
    const nextBytes = new Set(open.map((target) => target.bytes[generated.length]!));
    for (const byte of nextBytes) {
      for (const id of tokensByFirstByte[byte]!) {
        const bytes = vocabulary.tokenBytes(id);
        if (this.#targets.some((target) => continuesName(target, generated, bytes))) mask[id >>> 5]! |= 1 << (id & 31);
      }
    }
    this.#publishMask(started);
  }

  #setArgumentsMask(): void {
    const started = performance.now();
    const mask = this.#mask;
    this.#matcher!.fillMask(mask);
    for (const id of this.#setup.vocabulary.eosTokenIds) mask[id >>> 5]! &= ~(1 << (id & 31));
    this.#nothingButEnd = mask.every((word) => word === 0);
    if (this.#callTokens >= this.#decoding.callTokenBudget) this.#setup.closing.narrow(mask, this.#tracker);
    this.#publishMask(started);
  }

  #publishMask(started: number): void {
    this.#decoding.applyMask(this.#mask);
    this.#decoding.stats.maskedSteps++;
    this.#decoding.stats.maskMs += performance.now() - started;
  }

  #flushText(final: boolean): void {
    if (this.#textTokens.length === 0) return;
    const text = this.#setup.detokenize(this.#textTokens);
    // Hold back a trailing partial UTF-8 sequence until the next token completes it.
    const safe = final ? text : text.endsWith('\uFFFD') ? text.slice(0, text.lastIndexOf('\uFFFD')) : text;
    if (safe.length > this.#emittedText.length) {
      const delta = safe.slice(this.#emittedText.length);
      this.#emittedText = safe;
      this.#events.push({ type: 'text-delta', text: delta });
    }
  }

  #endText(): void {
    const text = this.#setup.detokenize(this.#textTokens);
    if (text.trim().length > 0) this.#content.push({ type: 'text', text });
    this.#textTokens.length = 0;
    this.#emittedText = '';
  }

  #finishCall(stopReason: StopReason = 'tool_calls'): void {
    const argumentsText = decoder.decode(Uint8Array.from(this.#argumentBytes));
    const index = this.#content.filter((part) => part.type === 'tool-call').length;
    const id = `call_local_${index + 1}`;
    const part = toolCallPartFromText(id, this.#callName, argumentsText);
    this.#content.push(part);
    this.#events.push(
      { type: 'tool-call-start', index, id, name: part.name },
      { type: 'tool-call-delta', index, argumentsDelta: argumentsText, partialArguments: part.arguments },
      { type: 'tool-call-end', index, call: part },
    );
    this.#phase = 'done';
    this.#stopReason = stopReason;
  }
}

/** The response a decoder's result makes. */
export function toModelResponse(
  decoded: Pick<CallDecoder, 'content' | 'stopReason' | 'outputTokens'>,
  facts: { inputTokens: number; modelId: string; warnings: readonly FormatWarning[] },
): ModelResponse {
  const content = [...decoded.content];
  const response: ModelResponse = {
    content,
    stopReason: decoded.stopReason,
    usage: { inputTokens: facts.inputTokens, outputTokens: decoded.outputTokens },
    modelId: facts.modelId,
  };
  if (facts.warnings.length > 0) response.warnings = [...facts.warnings];
  return response;
}

/** Text tokens by their first byte (256 lists), for {@link CallDecoderSetup.tokensByFirstByte}. */
export function groupTextTokensByFirstByte(vocabulary: Vocabulary): Uint32Array[] {
  const groups: number[][] = Array.from({ length: 256 }, () => []);
  for (let id = 0; id < vocabulary.tokenCount; id++) {
    if (!vocabulary.isTextToken(id)) continue;
    const bytes = vocabulary.tokenBytes(id);
    if (bytes.length > 0) groups[bytes[0]!]!.push(id);
  }
  return groups.map((ids) => Uint32Array.from(ids));
}

function cutAtSuffix(text: string, suffix: string): string {
  const at = text.indexOf(suffix);
  let cut = at >= 0 ? text.slice(0, at) : text;
  // Formats whose suffix closes the JSON object ("}\n</tool_call>") leave the arguments' own closing brace in place.
  if (suffix.startsWith('}') && at >= 0) cut = cut.trimEnd();
  return cut;
}

function utf8(text: string): number[] {
  return [...new TextEncoder().encode(text)];
}

function startsWith(whole: readonly number[], prefix: readonly number[]): boolean {
  if (prefix.length > whole.length) return false;
  for (let index = 0; index < prefix.length; index++) if (whole[index] !== prefix[index]) return false;
  return true;
}

/** Whether `token` after `generated` stays within `name + paramsPrefix` and never runs past its end. */
function continuesName(target: { bytes: number[] }, generated: readonly number[], token: Uint8Array): boolean {
  const total = generated.length + token.length;
  if (total > target.bytes.length) return false;
  for (let index = 0; index < generated.length; index++) if (target.bytes[index] !== generated[index]) return false;
  for (let index = 0; index < token.length; index++) if (target.bytes[generated.length + index] !== token[index]) return false;
  return true;
}
