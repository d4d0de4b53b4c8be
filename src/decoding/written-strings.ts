/**
 * The run-time memory behind `uniqueItems` over strings: per array being written, the item strings it holds (decoded,
 * so `"a"` and `"\u0061"` are one), and the rule that an item string may not close equal to one of them. Objects that
 * keep their undeclared keys distinct (`ObjectAlternative.distinctKeys`) use it the same way, a key for an item; arrays of
 * objects and arrays (`ArrayAlternative.uniqueContainers`) keep their items' canonical JSON, read from the bytes kept since
 * the item's `{` or `[` when its `}` or `]` comes (`trackedContainer`, `duplicateClose` of that byte); arrays of
 * numbers (`uniqueNumbers`) their values, at the byte after the number (`held-integers.ts`, `held-numbers.ts`). The automaton
 * cannot hold an unbounded set of strings in its states, so the matcher keeps this beside its state history and applies
 * it after any mask taken from the automaton's caches (shared by every matcher, so they never see a set).
 *
 * Which array an item (or object a key) belongs to is syntax: the innermost `[` or `{` still open outside strings, the same for every
 * configuration of a state. So the memory scans the bytes for nesting and string bounds, keeps the items per nesting
 * depth (a fresh container when one opens there), and asks the automaton only whether a closing quote ends such an
 * item (`trackedItem`) and where a repeated one leads (`duplicateClose`: other anyOf branches may still take it).
 *
 * The hot path (a mask per token) allocates nothing and does not grow with the item being written: the scan decodes
 * string content as bytes are accepted (escapes and UTF-8 characters cut across tokens included) and keeps the range of
 * held items that begin like the string so far, narrowed by binary search per decoded unit; a mask reads the range.
 * Rollback restores the scan kept per step and undoes, from a log, the items and containers added since, so it costs
 * what it undoes. An item string is allocated when it closes and is kept.
 * @module
 */
import { BACKSLASH, CLOSE_BRACE, DIGIT_ZERO, CLOSE_BRACKET, MINUS_SIGN, OPEN_BRACE, OPEN_BRACKET, POINT, QUOTE } from '../shared/json-bytes.js';
import { closedItemTokens, firstRestText, LEAF_RESTS, leafRestTokens, reachingQuotes, type ClosedItemTokens } from './closed-item-tokens.js';
import { ContainerTexts, PendingContainers } from './container-texts.js';
import { doubled, grown } from './grown-arrays.js';
import { DecodingLimitError } from './decoding-errors.js';
import { ExhaustionBound } from './exhaustion-bound.js';
import { compareFrom, HeldStrings, textOfUnits } from './held-strings.js';
import { DUPLICATE_CONTAINER, DUPLICATE_NUMBER } from './derived-transitions.js';
import { DEAD, UNKNOWN, type JsonAutomaton } from './json-automaton.js';
import type { FirstByteGroups } from './first-byte-groups.js';
import { NUMBER_SYMBOL_OF_BYTE, type NumberConstraint } from './number-language.js';
import { mayReachOnlyHeld, NUMBER_BOUNDS, PendingNumbers, readNumber, startsNumber, type HeldNumbers } from './held-integers.js';
import { minusTokens, numbersReachOnlyHeld, pointTokens, TRACKED_RANGED } from './held-numbers.js';
import { RangeDigitWalks } from './range-digit-walks.js';
import {
  closeTokens,
  digitTokens,
  quoteTokens,
  unitTokens,
  type CloseTokens,
  type ClosedText,
  type DigitTokens,
  type QuoteTokens,
  type UnitIndex,
  type UnitTokens,
} from './quote-tokens.js';
import type { Vocabulary } from './vocabulary.js';
import { AFTER_BACKSLASH, BOUNDARY, Scan, SCAN_FIELDS, UTF8_LEFT } from './written-scan.js';

/**
 * Undo log entries other than a container replaced at a depth (≥ 0): an item string added, an object or array item
 * added, an integer item added (its value in `undoOffset`), and (`UNDO_OPENED - depth`) where the container at a depth opened.
 */
const UNDO_STRING = -1;
const UNDO_CONTAINER = -2;
const UNDO_NUMBER = -3;
const UNDO_OPENED = -4;

/** A number written under no range. */
const NO_RANGES: readonly NumberConstraint[] = [];

export class WrittenStrings {
  private readonly automaton: JsonAutomaton;
  private readonly vocabulary: Vocabulary;
  /** The scan after the last step, and a trial's scan (a trial never changes `committed`). */
  private readonly committed = new Scan();
  private readonly trial = new Scan();
  /** Per step of the matcher: the scan after it (`SCAN_FIELDS` each; step 0: nothing written). */
  private steps = new Int32Array(256 * SCAN_FIELDS);
  /** The decoded UTF-16 code units of every string written (so a string's units survive a rollback into it), then a trial's. */
  private units = new Uint16Array(1024);
  /** Per depth: the items of the container open there (undefined until its first item, and again when one opens there). */
  private readonly held: (HeldStrings | undefined)[] = [];
  private rememberedBytes = 0;
  /**
   * What rollback undoes, latest last: an item added to `undoHeld` (`undoDepth` -1, its value in `undoValue`), or
   * the container at depth `undoDepth` replaced (`undoHeld` was there). Per step the scan keeps the log's length.
   */
  private readonly undoDepth: number[] = [];
  private readonly undoHeld: (HeldStrings | undefined)[] = [];
  private readonly undoValue: string[] = [];
  /** With `UNDO_OPENED` entries: the offset that was there. */
  private readonly undoOffset: number[] = [];
  /** Where the grammar remembers object and array items: every byte accepted (then a trial's), to read an item's text when it closes. */
  private raw = new Uint8Array(1024);
  /** Per depth: where in `raw` the container open there began. */
  private openedAt = new Int32Array(64);
  /** A trial's containers opened (depth, offset), read before `openedAt` (a trial never changes it). */
  private trialOpenedDepth = new Int32Array(8);
  private trialOpenedOffset = new Int32Array(8);
  private trialOpenedCount = 0;
  /** Object and array items a trial closed. */
  private readonly pendingContainers = new PendingContainers();
  /** Integer items a trial closed. */
  private readonly pendingNumbers = new PendingNumbers();
  /** Integer items held by every array (0: a token that writes one integer repeats none). */
  private heldNumberCount = 0;
  private digits: DigitTokens | undefined;
  /** The canonical texts of object and array items closed, the last few of a mask kept. */
  private readonly containerTexts = new ContainerTexts();
  /** Counts the steps accepted (before and after the bytes) and rolled back: the committed bytes and items are the same while it is. */
  private epoch = 0;
  /** `heldLeaf`'s answer for the committed string at `leafArray`, kept while `epoch` is `leafEpoch`. */
  private leafEpoch = -1;
  private leafArray = -1;
  private leafHeld = false;
  /** Per step: `rememberedBytes` after it. */
  private rememberedAfter = new Float64Array(256);
  /** Items a trial closed: their depth and units (a trial never changes `held`). */
  private pendingDepth = new Int32Array(8);
  private pendingStart = new Int32Array(8);
  private pendingEnd = new Int32Array(8);
  private pendingCount = 0;
  /** While trying: the least depth a container opened at (its items and those above start empty). */
  private freshFrom = Infinity;
  /**
   * The vocabulary's quote tables, looked up once per memory: a `WeakMap.get` per mask allocated 40 bytes a mask
   * once a second vocabulary had been seen in the process (bench:mask's written-strings rows, heap growth).
   */
  private tokens: QuoteTokens | undefined;
  /** The tokens by first unit, for items whose completions can run out: built on first need, once per vocabulary. */
  private byUnit: UnitTokens | undefined;
  private closing: CloseTokens | undefined;
  private closedItems: ClosedItemTokens | undefined;
  /** Which tokens can fail on the memory where items can run out: built on first need. */
  private bound: ExhaustionBound | undefined;
  /** @internal Off: every candidate token is walked where items can run out (tests compare the masks). */
  boundedWalks = true;
  /** @internal On: every allowed token is walked, none left out by a list or a bound (tests compare the masks). */
  walksEveryToken = false;
  /** @internal Off: under ranges every token of digits only is walked, none left out (tests compare the masks). */
  skipsRangeDigits = true;
  /** The tokens of digits only walked under ranges: built on first need. */
  private rangeWalks: RangeDigitWalks | undefined;

  constructor(automaton: JsonAutomaton, vocabulary: Vocabulary) {
    this.automaton = automaton;
    this.vocabulary = vocabulary;
  }

  /**
   * Steps `state` through `bytes[from, to)` and remembers the items they close; DEAD (and nothing remembered) when
   * the automaton refuses a byte or an item would repeat one of its array.
   * @throws DecodingLimitError (`uniqueItemsMaxStringBytes`) when the items remembered pass the limit.
   */
  accept(state: number, bytes: Uint8Array, from: number, to: number): number {
    this.epoch++;
    if (this.walk(state, bytes, from, to, false) === DEAD) return DEAD;
    const next = this.walk(state, bytes, from, to, true);
    this.epoch++;
    return next;
  }

  /** Records that the matcher's step `step` is done (after `accept`, or an end-of-sequence token that adds no bytes). */
  endStep(step: number): void {
    if ((step + 1) * SCAN_FIELDS > this.steps.length) {
      const bigger = new Int32Array(Math.max((step + 1) * SCAN_FIELDS, this.steps.length * 2));
      bigger.set(this.steps);
      this.steps = bigger;
      const remembered = new Float64Array(bigger.length / SCAN_FIELDS);
      remembered.set(this.rememberedAfter);
      this.rememberedAfter = remembered;
    }
    this.committed.save(this.steps, step * SCAN_FIELDS);
    this.rememberedAfter[step] = this.rememberedBytes;
  }

  /** Back to the memory after step `step` (0: nothing written): the scan kept for that step, the items added since taken out. */
  rollback(step: number): void {
    this.epoch++;
    this.committed.load(this.steps, step * SCAN_FIELDS);
    this.rememberedBytes = this.rememberedAfter[step]!;
    const keep = this.committed.undoLength;
    for (let entry = this.undoDepth.length - 1; entry >= keep; entry--) {
      const depth = this.undoDepth[entry]!;
      if (depth === UNDO_STRING) this.undoHeld[entry]!.remove(this.undoValue[entry]!);
      else if (depth === UNDO_CONTAINER) this.undoHeld[entry]!.containers.delete(this.undoValue[entry]!);
      else if (depth === UNDO_NUMBER) {
        this.undoHeld[entry]!.numbers.remove(this.undoOffset[entry]!);
        this.heldNumberCount--;
      } else if (depth <= UNDO_OPENED) this.openedAt[UNDO_OPENED - depth] = this.undoOffset[entry]!;
      else this.held[depth] = this.undoHeld[entry];
    }
    this.undoDepth.length = keep;
    this.undoHeld.length = keep;
    this.undoValue.length = keep;
    this.undoOffset.length = keep;
  }

  /**
   * Clears in `mask` (the automaton's mask for `state`) every token that would close an item string equal to an
   * earlier item of its array. Only tokens with enough quotes to do so are tried, and only while they are allowed.
   */
  filterMask(state: number, mask: Uint32Array): void {
    if (this.walksEveryToken) return this.tryAllowed(state, mask);
    if (this.automaton.remembersClosedItems) this.tryReachingClose(state, mask);
    if (this.automaton.remembersNumbers) {
      // inside a number item that would repeat a held one if it ended here, every token that ends it is walked; else only a
      // token with a digit can repeat one (one it writes, or one it takes to a held value) or reach held ones, or a point
      const scan = this.committed;
      if (scan.numberStart >= 0 && this.automaton.trackedNumber[state] !== 0 && this.heldIfEndedHere(scan)) return this.tryAllowed(state, mask);
      const digits = (this.digits ??= digitTokens(this.vocabulary));
      this.tryGroups(state, mask, this.heldNumberCount > 0 ? digits.mixedByFirstByte : digits.twoNumbersByFirstByte);
      const held = scan.inString === 0 ? this.held[scan.depth]?.numbers : undefined;
      const holds = held !== undefined && held.sorted.length > 0;
      // under a range a prefix of any length can run out (`held-ranges.ts`), a lone `-` too
      const ranged = holds && this.automaton.remembersRanges;
      if (ranged) this.tryDigitsUnderRanges(state, mask, held, digits.longestPure);
      else if (holds && mayReachOnlyHeld(this.raw, scan.numberStart, scan.rawEnd, digits.longestPure, held)) this.tryTokens(state, mask, digits.pure);
      if (ranged) this.tryTokens(state, mask, minusTokens(this.vocabulary));
      if (holds && scan.numberStart >= 0) this.tryTokens(state, mask, pointTokens(this.vocabulary));
      if (!this.automaton.tracksStrings && !this.automaton.remembersContainers) return;
    }
    if (this.automaton.remembersContainers) {
      this.tryClosingTokens(state, mask);
      if (!this.automaton.tracksStrings) return;
    }
    const tokens = (this.tokens ??= quoteTokens(this.vocabulary));
    if (this.automaton.exhaustible[state] === 1) return this.filterExhaustible(state, mask, (this.byUnit ??= unitTokens(this.vocabulary)));
    // a token that closes an item and follows it with a comma can use up a language from anywhere
    if (this.automaton.countsItems) this.tryTokens(state, mask, tokens.atLeast[2]!);
    const scan = this.committed;
    const held = this.held[scan.depth];
    const holds = held !== undefined && held.sorted.length > 0;
    if (scan.inString === 0) {
      // between items: a token whose first string is not held repeats nothing unless it holds two more
      if (holds) this.tryTokens(state, mask, tokens.atLeast[2]!, tokens.itemText);
      else this.tryTokens(state, mask, tokens.atLeast[4]!);
      return;
    }
    if (holds && this.automaton.trackedItem[state] === 1) {
      // inside an item: its close repeats an item only where the item so far and the token's text before its quote make one
      if (scan.phase === BOUNDARY) {
        if (scan.low < scan.high) return this.tryRests(state, mask, tokens);
      } else if (this.shortestRest() <= tokens.longestQuoteToken + 1) {
        // inside a character (cut escape or UTF-8) no token's text is known alone, but a held item only a token's
        // length (plus the character's second unit) away can be repeated; the others need more than one token
        return this.tryTokens(state, mask, tokens.atLeast[1]!);
      }
    }
    this.tryTokens(state, mask, tokens.atLeast[3]!);
  }

  /**
   * Under ranges, the tokens of digits only that may write a dead prefix (`range-digit-walks.ts`), chosen per first
   * digit by the kinds of items the number is written as after it (no more after more digits).
   */
  private tryDigitsUnderRanges(state: number, mask: Uint32Array, held: HeldNumbers, longestPure: number): void {
    const walks = (this.rangeWalks ??= new RangeDigitWalks(this.vocabulary));
    const { automaton, raw } = this;
    const scan = this.committed;
    walks.begin(mask, raw, scan.numberStart, scan.rawEnd, held);
    for (let digit = 0; digit < 10; digit++) {
      let at = state;
      if (scan.numberStart < 0) {
        at = automaton.trans[state * 256 + DIGIT_ZERO + digit]!;
        if (at === UNKNOWN) at = automaton.transition(state, DIGIT_ZERO + digit);
      }
      const kinds = at === DEAD ? 0 : automaton.trackedNumber[at]!;
      if (kinds === 0) continue;
      // items under no range may be dead only where `mayReachOnlyHeld` says so: then every token is walked
      const unranged = (kinds & ~TRACKED_RANGED) !== 0 && mayReachOnlyHeld(raw, scan.numberStart, scan.rawEnd, longestPure, held);
      walks.add(digit, unranged || !this.skipsRangeDigits ? undefined : (automaton.trackedRanges[at] ?? NO_RANGES));
    }
    this.tryTokens(state, mask, walks.ids, undefined, false, walks.count);
  }

  /**
   * Where the items' strings can run out (`JsonAutomaton.exhaustible`), a token fails also where it takes an item to
   * a prefix whose every completion is held, or opens an item when every string is held. Every dead prefix begins a
   * held item that extends the string so far, so besides the tokens with a comma or two quotes, only those whose first
   * unit (inside the item, or in the item their quote opens) is the next unit of such a held item are walked, and the
   * few whose first unit is not known alone; inside a character cut across tokens, every allowed token. Of those, only
   * the ones that can fail on the memory (`ExhaustionBound`: too few completions, or a quote that may repeat an item).
   */
  private filterExhaustible(state: number, mask: Uint32Array, tokens: UnitTokens): void {
    const scan = this.committed;
    const bound = (this.bound ??= new ExhaustionBound(
      this.automaton.countedLanguages,
      tokens,
      (this.tokens ??= quoteTokens(this.vocabulary)).atLeast[3]!,
      this.vocabulary,
    ));
    // a character cut across tokens may already count (an escape or UTF-8 character under way)
    const written = scan.inString === 0 ? -1 : scan.unitsEnd - scan.contentStart + (scan.phase === BOUNDARY ? 0 : 1);
    const rest = scan.inString === 1 && scan.low < scan.high ? this.shortestRest() : Infinity;
    bound.prepare(this.boundedWalks, written, scan.high - scan.low, rest, this.held, scan.depth, this.automaton.trackedItem[state]!);
    if (scan.inString === 1)
      bound.noteNextUnits(this.held[scan.depth]?.sorted, scan.low, scan.high, scan.unitsEnd - scan.contentStart, scan.phase === BOUNDARY);
    const few = scan.inString === 1 && scan.phase === BOUNDARY ? bound.fewCandidates(mask) : -1;
    for (let index = 0; index < few; index++) this.tryToken(state, mask, bound.candidates[index]!);
    if (few >= 0 && scan.low < scan.high) this.tryRests(state, mask, this.tokens!);
    if (few >= 0) return;
    this.tryTokens(state, mask, tokens.commaOrQuotes, undefined, true);
    const held = this.held[scan.depth];
    if (scan.inString === 0) {
      this.tryTokens(state, mask, tokens.openingWalked, undefined, true);
      if (held !== undefined) this.tryByNextUnit(state, mask, tokens.openingByUnit, held.sorted, 0, held.sorted.length, 0);
      return;
    }
    if (scan.low === scan.high) return;
    if (scan.phase !== BOUNDARY) return this.tryAllowed(state, mask, bound);
    this.tryTokens(state, mask, tokens.insideWalked, undefined, true);
    this.tryByNextUnit(state, mask, tokens.insideByUnit, held!.sorted, scan.low, scan.high, scan.unitsEnd - scan.contentStart);
  }

  /**
   * Walks the allowed tokens of `index` whose unit is the unit at `written` of some item of `sorted[low, high)` (items
   * that share their first `written` units, so sorted by that unit; one as long as that, if any, sorts first).
   */
  private tryByNextUnit(state: number, mask: Uint32Array, index: UnitIndex, sorted: readonly string[], low: number, high: number, written: number): void {
    let item = low;
    if (item < high && sorted[item]!.length === written) item++;
    while (item < high) {
      const unit = sorted[item]!.charCodeAt(written);
      let at = 0;
      let end = index.units.length;
      while (at < end) {
        const middle = (at + end) >>> 1;
        if (index.units[middle]! < unit) at = middle + 1;
        else end = middle;
      }
      for (; at < index.units.length && index.units[at] === unit; at++) {
        const id = index.ids[at]!;
        if ((mask[id >>> 5]! & (1 << (id & 31))) !== 0 && this.bound!.mustWalk(id)) this.tryToken(state, mask, id);
      }
      end = high;
      while (item < end) {
        const middle = (item + end) >>> 1;
        if (sorted[middle]!.charCodeAt(written) <= unit) item = middle + 1;
        else end = middle;
      }
    }
  }

  /**
   * Walks the allowed tokens with enough `}`/`]` outside strings to close an object or array item of the innermost array
   * holding some (each close leaves one container), or, where none holds any, two items in one token.
   */
  private tryClosingTokens(state: number, mask: Uint32Array): void {
    const tokens = (this.closing ??= closeTokens(this.vocabulary));
    const scan = this.committed;
    const byCloses = scan.inString === 0 ? tokens.outside : scan.phase === AFTER_BACKSLASH ? tokens.any : tokens.inside;
    let need = 2;
    for (let array = scan.depth; array >= 0; array--) {
      if ((this.held[array]?.containers.size ?? 0) > 0) {
        need = Math.max(1, scan.depth - array);
        break;
      }
    }
    for (let index = 0; index < byCloses.ids.length && byCloses.closes[index]! >= need; index++) {
      const id = byCloses.ids[index]!;
      if ((mask[id >>> 5]! & (1 << (id & 31))) !== 0) this.tryToken(state, mask, id);
    }
  }

  /** Where object items can run out: the tokens that may take one to its only `}` as an item held (`closed-item-tokens.ts`). */
  private tryReachingClose(state: number, mask: Uint32Array): void {
    const tokens = (this.closedItems ??= closedItemTokens(this.vocabulary));
    this.tryTokens(state, mask, tokens.closingThenOpening);
    const scan = this.committed;
    let depth = scan.depth;
    while (depth >= 0 && (this.held[depth]?.containers.size ?? 0) === 0) depth--;
    if (depth < 0) return;
    const quotes = (this.tokens ??= quoteTokens(this.vocabulary));
    // the last value: only a close as some held item's string repeats one (-1: elsewhere, all walked)
    const leaves = this.automaton.closingValue[state] === 1 ? this.held[scan.depth - 1]?.leaves : undefined;
    const rests = leafRestTokens(quotes, leaves, this.units, scan);
    this.tryTokens(state, mask, LEAF_RESTS, undefined, false, Math.max(0, rests));
    this.tryTokens(state, mask, rests >= 0 ? quotes.walkedInside : reachingQuotes(quotes, this.automaton, state, scan));
    this.tryTokens(state, mask, rests >= 0 ? quotes.atLeast[3]! : scan.inString === 0 ? tokens.opening : tokens.closingThenOpening);
  }

  /**
   * Walks every allowed token (inside a cut character, where no token's text is known alone; or one that may end an
   * integer equal to a held one), or, given the bound prepared for this mask, those it says may fail.
   */
  private tryAllowed(state: number, mask: Uint32Array, bound?: ExhaustionBound): void {
    for (let word = 0; word < mask.length; word++) {
      let bits = mask[word]!;
      while (bits !== 0) {
        const low = bits & -bits;
        const id = word * 32 + (31 - Math.clz32(low));
        if (bound === undefined || bound.mustWalk(id)) this.tryToken(state, mask, id);
        bits ^= low;
      }
    }
  }

  /** Walks the allowed tokens of `groups`, but no group whose first byte the state refuses (none of them is allowed). */
  private tryGroups(state: number, mask: Uint32Array, groups: FirstByteGroups): void {
    for (let group = 0; group < groups.firstBytes.length; group++) {
      const byte = groups.firstBytes[group]!;
      if (this.automaton.trans[state * 256 + byte] === DEAD) continue;
      for (let index = groups.starts[byte]!; index < groups.starts[byte + 1]!; index++) {
        const id = groups.ids[index]!;
        if ((mask[id >>> 5]! & (1 << (id & 31))) !== 0) this.tryToken(state, mask, id);
      }
    }
  }

  /**
   * Walks each allowed token of `candidates` and clears the ones that fail; with `texts` (by position in the list),
   * only those that must be walked or whose first string is a held item; `bounded`: only those that `mustWalk`.
   */
  private tryTokens(state: number, mask: Uint32Array, candidates: Int32Array, texts?: readonly ClosedText[], bounded = false, count = candidates.length): void {
    const held = this.held[this.committed.depth];
    for (let index = 0; index < count; index++) {
      const id = candidates[index]!;
      if ((mask[id >>> 5]! & (1 << (id & 31))) === 0 || (bounded && !this.bound!.mustWalk(id))) continue;
      if (texts !== undefined) {
        const text = texts[index];
        // a length outside the held items' is the cheap common answer: no repeat
        if (text === null || (text !== undefined && (text.length < held!.shortest || text.length > held!.longest || !held!.values.has(text)))) continue;
      }
      this.tryToken(state, mask, id);
    }
  }

  /**
   * Inside an item that some held items begin like: walks the allowed tokens that must be walked, and those whose text
   * before their quote is the rest of a held item, found per held item (whose rest a token can hold) by binary search.
   */
  private tryRests(state: number, mask: Uint32Array, tokens: QuoteTokens): void {
    const walked = tokens.walkedInside;
    for (let index = 0; index < walked.length; index++) {
      if ((mask[walked[index]! >>> 5]! & (1 << (walked[index]! & 31))) !== 0) this.tryToken(state, mask, walked[index]!);
    }
    const scan = this.committed;
    const sorted = this.held[scan.depth]!.sorted;
    const written = scan.unitsEnd - scan.contentStart;
    const texts = tokens.closingTexts;
    for (let item = scan.low; item < scan.high; item++) {
      const value = sorted[item]!;
      if (value.length - written > tokens.longestClosingText) continue;
      for (let at = firstRestText(tokens, value, written); at < texts.length && compareFrom(value, written, texts[at]!) === 0; at++) {
        const id = tokens.byClosingText[at]!;
        if ((mask[id >>> 5]! & (1 << (id & 31))) !== 0) this.tryToken(state, mask, id);
      }
    }
  }

  /** The fewest units a held item that begins like the string being written has past it (Infinity: none). */
  private shortestRest(): number {
    const scan = this.committed;
    const sorted = this.held[scan.depth]!.sorted;
    let shortest = Infinity;
    for (let index = scan.low; index < scan.high; index++) shortest = Math.min(shortest, sorted[index]!.length);
    return shortest - (scan.unitsEnd - scan.contentStart);
  }

  /** Walks token `id` from `state` and clears it in `mask` when it fails. */
  private tryToken(state: number, mask: Uint32Array, id: number): void {
    const offsets = this.vocabulary.tokenOffsets;
    if (this.walk(state, this.vocabulary.tokenBytesFlat, offsets[id]!, offsets[id + 1]!, false) === DEAD) mask[id >>> 5]! &= ~(1 << (id & 31));
  }

  /**
   * Steps `state` through `bytes[from, to)`, scanning nesting and strings and decoding string content. `commit`: the
   * scan and the items closed are kept (the caller knows the bytes pass); otherwise nothing changes and the items
   * closed are checked against each other too. Transitions not computed yet are computed (as `accept` would).
   */
  private walk(state: number, bytes: Uint8Array, from: number, to: number, commit: boolean): number {
    const automaton = this.automaton;
    const scan = commit ? this.committed : this.trial;
    if (!commit) scan.copy(this.committed);
    this.pendingCount = 0;
    this.pendingContainers.count = 0;
    this.pendingNumbers.count = 0;
    this.trialOpenedCount = 0;
    this.freshFrom = Infinity;
    const keepsRaw = automaton.remembersContainers || automaton.remembersNumbers;
    let at = state;
    for (let offset = from; offset < to; offset++) {
      const byte = bytes[offset]!;
      let next = UNKNOWN;
      let duplicates = 0;
      if (keepsRaw) {
        if (scan.rawEnd === this.raw.length) this.raw = grown(this.raw);
        this.raw[scan.rawEnd++] = byte;
      }
      if (scan.inString === 0 && automaton.remembersNumbers) {
        if (scan.numberStart >= 0 && NUMBER_SYMBOL_OF_BYTE[byte]! < 0) {
          if (automaton.trackedNumber[at] !== 0 && this.endsHeldNumber(scan, commit)) duplicates = DUPLICATE_NUMBER;
          scan.numberStart = -1;
        } else if (scan.numberStart < 0 && startsNumber(byte)) scan.numberStart = scan.rawEnd - 1;
      }
      if (scan.inString === 1) {
        if (scan.phase !== BOUNDARY) {
          const point = scan.continueCharacter(byte);
          if (point >= 0) this.decodedPoint(scan, point);
        } else if (byte === BACKSLASH) scan.phase = AFTER_BACKSLASH;
        else if (byte === QUOTE) {
          scan.inString = 0;
          if (automaton.trackedItem[at] === 1 && this.closesHeld(scan, commit)) next = automaton.derived.duplicateClose(at);
        } else if (byte < 0x80) this.decoded(scan, byte);
        else {
          scan.phase = UTF8_LEFT + (byte >= 0xf0 ? 3 : byte >= 0xe0 ? 2 : 1);
          scan.partial = byte & (byte >= 0xf0 ? 0x07 : byte >= 0xe0 ? 0x0f : 0x1f);
        }
        if (scan.inString === 1) scan.contentBytes++;
      } else if (byte === QUOTE) this.openString(scan);
      else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
        scan.depth++;
        if (commit) this.replaceHeld(scan.depth, undefined);
        else this.forget(scan.depth);
        if (automaton.remembersContainers) this.opened(scan, commit);
      } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
        if (automaton.trackedContainer[at] === 1 && this.closesHeldContainer(scan, commit)) duplicates |= DUPLICATE_CONTAINER;
        scan.depth--;
      }
      if (duplicates !== 0) next = automaton.derived.duplicateClose(at, byte, duplicates);
      if (next === UNKNOWN) next = automaton.trans[at * 256 + byte]!;
      at = next !== UNKNOWN ? next : automaton.transition(at, byte);
      if (at === DEAD) return DEAD;
      // an object item that can now only close as an item held (`closedItem`) is a dead end
      if (automaton.closingOnly[at] === 1 && this.closeRepeats(scan)) {
        at = automaton.derived.withoutClosingOnly(at);
        if (at === DEAD) return DEAD;
      }
      if (scan.numberStart >= 0 && automaton.trackedNumber[at] !== 0 && this.reachesOnlyHeld(scan, at)) {
        at = automaton.derived.withoutTrackedNumbers(at);
        if (at === DEAD) return DEAD;
      }
      // an item's prefix (or the empty one before an item) whose every completion is held is a dead end
      if (automaton.exhaustion[at]! !== Infinity && (scan.inString === 0 || scan.phase === BOUNDARY)) {
        const held = this.heldExtending(scan);
        if (held >= automaton.exhaustion[at]!) at = automaton.derived.withoutExhausted(at, held);
        if (at === DEAD) return DEAD;
      }
    }
    return at;
  }

  /**
   * The items of the scan's container that extend the string being written (outside a string: all of them), held
   * or closed by this trial.
   */
  private heldExtending(scan: Scan): number {
    let count: number;
    const written = scan.unitsEnd - scan.contentStart;
    if (scan.inString === 1) count = scan.high - scan.low;
    else count = scan.depth < this.freshFrom ? (this.held[scan.depth]?.sorted.length ?? 0) : 0;
    for (let index = 0; index < this.pendingCount; index++) {
      if (this.pendingDepth[index] !== scan.depth) continue;
      if (scan.inString === 0) count++;
      else if (
        this.pendingEnd[index]! - this.pendingStart[index]! >= written &&
        this.sameUnits(this.pendingStart[index]!, this.pendingStart[index]! + written, scan.contentStart, scan.unitsEnd)
      )
        count++;
    }
    return count;
  }

  /** A string opens: its content starts, and every item of its container may still be the one it writes. */
  private openString(scan: Scan): void {
    scan.inString = 1;
    scan.phase = BOUNDARY;
    scan.contentStart = scan.unitsEnd;
    scan.contentBytes = 0;
    const held = scan.depth < this.freshFrom ? this.held[scan.depth] : undefined;
    scan.low = 0;
    scan.high = held?.sorted.length ?? 0;
  }

  /** A code point of the string, decoded: its UTF-16 units. */
  private decodedPoint(scan: Scan, point: number): void {
    if (point < 0x10000) return this.decoded(scan, point);
    this.decoded(scan, 0xd800 + ((point - 0x10000) >>> 10));
    this.decoded(scan, 0xdc00 + ((point - 0x10000) & 0x3ff));
  }

  /** One decoded code unit of the string: kept, and the range of items that begin like the string narrowed to it. */
  private decoded(scan: Scan, unit: number): void {
    if (scan.unitsEnd === this.units.length) {
      const bigger = new Uint16Array(this.units.length * 2);
      bigger.set(this.units);
      this.units = bigger;
    }
    const at = scan.unitsEnd - scan.contentStart;
    this.units[scan.unitsEnd++] = unit;
    if (scan.low < scan.high) scan.narrow(this.held[scan.depth]!.sorted, at, unit);
  }

  /**
   * A tracked item string closes: true when it repeats an item of its container (or one a trial closed before);
   * otherwise it is remembered (`commit`) or kept as pending.
   */
  private closesHeld(scan: Scan, commit: boolean): boolean {
    const length = scan.unitsEnd - scan.contentStart;
    // the items of the range begin like the string: the one as long as it, if any, sorts first
    if (scan.low < scan.high && this.held[scan.depth]!.sorted[scan.low]!.length === length) return true;
    for (let index = 0; index < this.pendingCount; index++) {
      if (this.pendingDepth[index] === scan.depth && this.sameUnits(this.pendingStart[index]!, this.pendingEnd[index]!, scan.contentStart, scan.unitsEnd)) {
        return true;
      }
    }
    if (commit) this.remember(scan.depth, textOfUnits(this.units, scan.contentStart, scan.unitsEnd), scan.contentBytes);
    else this.addPending(scan.depth, scan.contentStart, scan.unitsEnd);
    return false;
  }

  private sameUnits(start: number, end: number, otherStart: number, otherEnd: number): boolean {
    if (end - start !== otherEnd - otherStart) return false;
    for (let index = 0; index < end - start; index++) if (this.units[start + index] !== this.units[otherStart + index]) return false;
    return true;
  }

  private addPending(depth: number, start: number, end: number): void {
    if (this.pendingCount === this.pendingDepth.length) {
      this.pendingDepth = doubled(this.pendingDepth);
      this.pendingStart = doubled(this.pendingStart);
      this.pendingEnd = doubled(this.pendingEnd);
    }
    this.pendingDepth[this.pendingCount] = depth;
    this.pendingStart[this.pendingCount] = start;
    this.pendingEnd[this.pendingCount++] = end;
  }

  /** A container opened at the scan's depth, its byte the last in `raw`: where it began, logged (or a trial's). */
  private opened(scan: Scan, commit: boolean): void {
    const depth = scan.depth;
    if (!commit) {
      if (this.trialOpenedCount === this.trialOpenedDepth.length) {
        this.trialOpenedDepth = doubled(this.trialOpenedDepth);
        this.trialOpenedOffset = doubled(this.trialOpenedOffset);
      }
      this.trialOpenedDepth[this.trialOpenedCount] = depth;
      this.trialOpenedOffset[this.trialOpenedCount++] = scan.rawEnd - 1;
      return;
    }
    if (depth >= this.openedAt.length) this.openedAt = doubled(this.openedAt);
    this.log(UNDO_OPENED - depth, undefined, '', this.openedAt[depth]!);
    this.openedAt[depth] = scan.rawEnd - 1;
  }

  /**
   * An object or array item closes (its close the last byte in `raw`): true when its value repeats an item of its
   * array (or one a trial closed before); otherwise it is remembered (`commit`) or kept as pending. A text that is not
   * JSON is no item (the automaton refuses its close).
   */
  private closesHeldContainer(scan: Scan, commit: boolean): boolean {
    const array = scan.depth - 1;
    const start = this.itemStart(scan);
    const pending = this.pendingContainers;
    // a trial's first item whose last value (a string just closed) no item held has inside it repeats none: unread
    if (!commit && pending.count === 0 && this.endsInString(scan) && !this.heldLeaf(scan, array)) {
      pending.add(array, undefined, start, scan.rawEnd);
      return false;
    }
    const text = this.containerTexts.between(this.raw, start, scan.rawEnd, this.committed.rawEnd, this.committed.inString === 1, this.epoch);
    if (text === undefined) return false;
    if (this.repeats(array, text)) return true;
    if (commit) this.remember(array, text, text.length, true);
    else pending.add(array, text, start, scan.rawEnd);
    return false;
  }

  /** The object closing at the scan's last byte in `raw` ends in a string value: the last string the scan read. */
  private endsInString(scan: Scan): boolean {
    let at = scan.rawEnd - 2;
    while (this.raw[at] === 0x20 || this.raw[at] === 0x0a || this.raw[at] === 0x0d || this.raw[at] === 0x09) at--;
    return this.raw[at] === QUOTE;
  }

  /**
   * Some item held at `array` has the last string the scan read inside it (`HeldStrings.hasLeaf`): the committed
   * string's answer kept for the mask, as every token that closes the item after it asks.
   */
  private heldLeaf(scan: Scan, array: number): boolean {
    const held = array < this.freshFrom ? this.held[array] : undefined;
    if (held === undefined) return false;
    // a trial's string that is the committed one: the same units while the epoch is (a commit walk changes them)
    const kept = scan !== this.committed && scan.contentStart === this.committed.contentStart && scan.unitsEnd === this.committed.unitsEnd;
    if (kept && this.leafEpoch === this.epoch && this.leafArray === array) return this.leafHeld;
    const answer = held.hasLeaf(this.units, scan.contentStart, scan.unitsEnd);
    if (kept) {
      this.leafEpoch = this.epoch;
      this.leafArray = array;
      this.leafHeld = answer;
    }
    return answer;
  }

  /** Where in `raw` the container open at the scan's depth began (a trial's, or committed). */
  private itemStart(scan: Scan): number {
    for (let index = this.trialOpenedCount - 1; index >= 0; index--) if (this.trialOpenedDepth[index] === scan.depth) return this.trialOpenedOffset[index]!;
    return this.openedAt[scan.depth]!;
  }

  /** The canonical `text` is an item held by the array at `depth` (or one a trial closed there before). */
  private repeats(array: number, text: string): boolean {
    if (array < this.freshFrom && this.held[array]?.containers.has(text) === true) return true;
    const { committed, raw } = this;
    return this.pendingContainers.has(array, text, this.containerTexts, raw, committed.rawEnd, committed.inString === 1, this.epoch);
  }

  /** The object item open at the scan's depth, closed right after the last byte in `raw`, would repeat an item (`closingOnly`). */
  private closeRepeats(scan: Scan): boolean {
    const array = scan.depth - 1;
    // a string just closed that no item held has inside it repeats none, unparsed (a trial's items have no leaves)
    if (this.raw[scan.rawEnd - 1] === QUOTE && this.pendingContainers.count === 0 && !this.heldLeaf(scan, array)) return false;
    if (scan.rawEnd === this.raw.length) this.raw = grown(this.raw);
    this.raw[scan.rawEnd] = CLOSE_BRACE;
    const text = this.containerTexts.between(this.raw, this.itemStart(scan), scan.rawEnd + 1, this.committed.rawEnd, this.committed.inString === 1, this.epoch);
    return text !== undefined && this.repeats(array, text);
  }

  /**
   * A number item ends at the scan's last byte in `raw` (the byte after it): true when its value repeats an item of its
   * array (or one a trial closed before); otherwise it is remembered (`commit`) or kept as pending.
   */
  private endsHeldNumber(scan: Scan, commit: boolean): boolean {
    // the value is read into NUMBER_BOUNDS: no double passes a call here (V8 would allocate it)
    if (!readNumber(this.raw, scan.numberStart, scan.rawEnd - 1)) return false;
    const held = scan.depth < this.freshFrom ? this.held[scan.depth] : undefined;
    if ((held?.numbers.countInBounds() ?? 0) > 0 || this.pendingNumbers.countInBounds(scan.depth) > 0) return true;
    if (!commit) this.pendingNumbers.addRead(scan.depth);
    else {
      this.remember(scan.depth, '', scan.rawEnd - 1 - scan.numberStart, false, NUMBER_BOUNDS[0]);
      this.heldNumberCount++;
    }
    return false;
  }

  /**
   * The committed number being written, ended now, would repeat a held one (or is no number yet; a lone `-` is not, but
   * the tokens after it begin with a digit, and those that can fail are in the lists of tokens with one; after a point
   * no token ends one).
   */
  private heldIfEndedHere(scan: Scan): boolean {
    if (scan.rawEnd - scan.numberStart === 1 && this.raw[scan.numberStart] === MINUS_SIGN) return false;
    if (!readNumber(this.raw, scan.numberStart, scan.rawEnd)) return this.raw[scan.rawEnd - 1] !== POINT;
    return (this.held[scan.depth]?.numbers.countInBounds() ?? 0) > 0;
  }

  /** Every completion of the number being written (as the kinds of items `state` writes) is held by its array (or closed by the trial). */
  private reachesOnlyHeld(scan: Scan, state: number): boolean {
    const held = scan.depth < this.freshFrom ? this.held[scan.depth]?.numbers : undefined;
    const { trackedNumber, trackedRanges } = this.automaton;
    return numbersReachOnlyHeld(this.raw, scan.numberStart, scan.rawEnd, held, this.pendingNumbers, scan.depth, trackedNumber[state]!, trackedRanges[state]);
  }

  /** A trial opened a container at `depth`: what the items held and closed say of that depth and above no longer holds. */
  private forget(depth: number): void {
    this.freshFrom = Math.min(this.freshFrom, depth);
    this.pendingNumbers.forget(depth);
    this.pendingContainers.forget(depth);
    let kept = 0;
    for (let index = 0; index < this.pendingCount; index++) {
      if (this.pendingDepth[index]! >= depth) continue;
      this.pendingDepth[kept] = this.pendingDepth[index]!;
      this.pendingStart[kept] = this.pendingStart[index]!;
      this.pendingEnd[kept++] = this.pendingEnd[index]!;
    }
    this.pendingCount = kept;
  }

  /** Puts `held` at `depth`, logged so rollback puts back what was there. */
  private replaceHeld(depth: number, held: HeldStrings | undefined): void {
    const old = this.held[depth];
    if (old === held) return;
    this.log(depth, old, '', 0);
    while (this.held.length < depth) this.held.push(undefined);
    this.held[depth] = held;
  }

  /** An item string (or, `container`, an object or array item's canonical text; or an integer item, `number`) of the container at `depth`, `bytes` long. */
  private remember(depth: number, value: string, bytes: number, container = false, number?: number): void {
    this.rememberedBytes += bytes;
    if (this.rememberedBytes > this.automaton.rememberedBytesLimit) {
      throw new DecodingLimitError('uniqueItemsMaxStringBytes', this.automaton.rememberedBytesLimit);
    }
    let held = this.held[depth];
    if (held === undefined) {
      held = new HeldStrings();
      this.replaceHeld(depth, held);
    }
    if (number !== undefined) {
      held.numbers.add(number);
      return this.log(UNDO_NUMBER, held, '', number);
    }
    if (container) held.addContainer(value);
    else held.add(value);
    this.log(container ? UNDO_CONTAINER : UNDO_STRING, held, value, 0);
  }

  /** One entry of the undo log (`undoDepth`), counted in the committed scan. */
  private log(depth: number, held: HeldStrings | undefined, value: string, offset: number): void {
    this.undoDepth.push(depth);
    this.undoHeld.push(held);
    this.undoValue.push(value);
    this.undoOffset.push(offset);
    this.committed.undoLength++;
  }
}
