/**
 * The schema → automaton work that does not depend on tokens (regex and format DFAs, their
 * intersections, number automata, the character classes DFA states loop on, the literal and
 * complement automata of enums and key names), cached for every grammar compiled through the
 * same owner. Each `Vocabulary` holds one; the cache is bounded in estimated bytes and drops
 * the least recently used automata beyond that. Masks of string positions are shared across
 * grammars by their automaton's id, so every automaton a lowering builds goes through here:
 * the same enum in many tools is one automaton, and its positions are walked once.
 * @module
 */
import { getOwn } from '../shared/own.js';
import { AutomatonWorkLimitError, CodePointDfa, type AutomatonWork } from '../shared/regex/code-point-dfa.js';
import { parsePattern, splitCountedTail } from '../shared/regex/parse-regex.js';
import { BoundedCache, OBJECT_OVERHEAD_BYTES } from './bounded-cache.js';
import { fractionalNumberAutomaton } from './fractional-number-language.js';
import { keySignatureLanguages, type KeySignatureLanguage, type KeySignatureOverflow } from './key-signature-languages.js';
import { intersectNumberAutomata, intersectTwoNumberAutomata, type ScaledModulus } from './multiple-of-language.js';
import { numberAutomaton, type NumberAutomaton, type NumberConstraint } from './number-language.js';
import { PREBUILT_FORMAT_AUTOMATA } from './prebuilt-format-automata.js';
import { filePrebuiltDfa, patternKey } from './prebuilt-time-automata.js';
import { deserializeDfa } from './serialized-dfa.js';
import { formatComplement, formatLanguage, type FormatAlternative } from './string-formats.js';

/**
 * The states one step of a format's union may reach before it is minimized: the `time` family's superset
 * (`formatComplement` in string-formats.ts) reaches 30,000–40,000 there and 21,300 once minimized. A format's automata are not the
 * schema's to choose and are built once per cache, so they get a budget of their own.
 */
const MAX_FORMAT_UNION_STATES = 50_000;

/**
 * Default bound. The largest automata are the `time` family's leap-second products (up
 * to 12,500 states each, about 1 MiB); every format of ajv-formats together fits well
 * within this, so only a process compiling very many distinct patterns evicts.
 */
export const DEFAULT_GRAMMAR_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Automata with more transition ranges than this are not looked up by structure: writing out the key
 * would cost about what sharing saves. Literal sets and their complements are far smaller.
 */
const MAX_CANONICAL_RANGES = 4096;

/** Printable ASCII characters (no quote or backslash, which need escapes) on which a DFA state loops to itself. */
export interface LoopClass {
  /** The characters, as a string: names the class across automata. */
  readonly key: string;
  /** 256-entry table, 1 for a member byte. */
  readonly members: Uint8Array;
}

/** Loop classes of one DFA: per state (undefined when it loops on none) and the distinct ones. */
export interface DfaLoopClasses {
  readonly byState: readonly (LoopClass | undefined)[];
  readonly distinct: readonly LoopClass[];
}

/** A schema pattern as an automaton plus the length bounds its counted tail was turned into. */
export interface SchemaPattern {
  readonly dfa: CodePointDfa;
  readonly minLength: number;
  readonly maxLength: number;
}

export class GrammarCache {
  private readonly patterns: BoundedCache<string, CodePointDfa>;
  private readonly schemaPatterns: BoundedCache<string, SchemaPattern>;
  private readonly intersections: BoundedCache<string, CodePointDfa>;
  /** Number automata (null: no number), and `multipleOf` products (undefined: past their state budget, refused again at no cost). */
  private readonly numbers: BoundedCache<string, NumberAutomaton | null | undefined>;
  private readonly loops: BoundedCache<CodePointDfa, DfaLoopClasses>;
  /** Automata built outside the regex path (literal sets, complements, `any`), by their structure: equal ones become one. */
  private readonly canonicals: BoundedCache<string, CodePointDfa>;
  private readonly complements: BoundedCache<CodePointDfa, CodePointDfa>;
  private readonly keySignatures: BoundedCache<string, readonly KeySignatureLanguage[] | KeySignatureOverflow>;
  /** An automaton already looked up by structure, and what it came to: the structure is written out once per object. */
  private readonly canonicalOf = new WeakMap<CodePointDfa, CodePointDfa>();
  /** The key of each automaton {@link pattern} gave: a product of the time formats' regexes is looked up prebuilt by them. */
  private readonly patternKeyOf = new WeakMap<CodePointDfa, string>();
  /** For each part of a format's complement ({@link formatComplement}), the parts of that complement. */
  private readonly complementPartsOf = new WeakMap<CodePointDfa, readonly CodePointDfa[]>();
  private builtCount = 0;

  /** @param maxBytes estimated bytes for all its automata together, split evenly between its eight kinds */
  constructor(readonly maxBytes: number = DEFAULT_GRAMMAR_CACHE_BYTES) {
    const share = maxBytes / 8;
    this.patterns = new BoundedCache(share, dfaBytes);
    this.schemaPatterns = new BoundedCache(share, (pattern) => dfaBytes(pattern.dfa));
    this.intersections = new BoundedCache(share, dfaBytes);
    this.numbers = new BoundedCache(
      share,
      (automaton) => OBJECT_OVERHEAD_BYTES + (automaton == null ? 0 : automaton.next.byteLength + automaton.accepting.byteLength),
    );
    this.loops = new BoundedCache(share, (loops) => loops.byState.length * 8 + loops.distinct.length * (256 + OBJECT_OVERHEAD_BYTES));
    // the key is the automaton written out, about twice its typed arrays
    this.canonicals = new BoundedCache(share, (dfa) => 3 * dfaBytes(dfa));
    this.complements = new BoundedCache(share, dfaBytes);
    this.keySignatures = new BoundedCache(share, (languages) => {
      let bytes = OBJECT_OVERHEAD_BYTES;
      if (typeof languages !== 'string') for (const { matched, dfa } of languages) bytes += dfaBytes(dfa) + 8 * matched.length;
      return bytes;
    });
  }

  private get kinds(): readonly BoundedCache<unknown, unknown>[] {
    return [
      this.patterns,
      this.schemaPatterns,
      this.intersections,
      this.numbers,
      this.loops,
      this.canonicals,
      this.complements,
      this.keySignatures,
    ] as BoundedCache<unknown, unknown>[];
  }

  /** Entries held, over all kinds (tests and capacity planning). */
  get size(): number {
    return this.kinds.reduce((sum, kind) => sum + kind.size, 0);
  }

  /** Estimated bytes held, over all kinds. */
  get bytes(): number {
    return this.kinds.reduce((sum, kind) => sum + kind.bytes, 0);
  }

  /** Automata (and loop-class tables) built so far, each a cache miss: what sharing saves is counted here, not timed. */
  get built(): number {
    return this.builtCount;
  }

  /** `compute`, counted as one build. */
  private build<T>(compute: () => T): T {
    const value = compute();
    this.builtCount++;
    return value;
  }

  /**
   * The DFA of a regex (`ignoreCase`: ASCII letters match either case, as ajv-formats' `i` flag). `work` meters the
   * construction (a cached automaton costs nothing); past its budget, {@link AutomatonWorkLimitError} names the pattern.
   */
  pattern(source: string, ignoreCase: boolean, work?: AutomatonWork): CodePointDfa {
    const key = patternKey(source, ignoreCase);
    return this.patterns.getOrCompute(key, () =>
      this.build(() => {
        // the formats' costliest regexes ship as their automata (decoded per cache: nothing is shared between vocabularies)
        const prebuilt = getOwn(PREBUILT_FORMAT_AUTOMATA, key);
        const dfa =
          (prebuilt === undefined ? filePrebuiltDfa([key]) : deserializeDfa(prebuilt)) ??
          naming(`the pattern ${JSON.stringify(source)}`, () => CodePointDfa.fromPattern(parsePattern(source, { ignoreAsciiCase: ignoreCase }), work));
        this.patternKeyOf.set(dfa, key);
        return dfa;
      }),
    );
  }

  /**
   * A schema `pattern`: `^L C{m,n}$` with a fixed-length `L` becomes `^L C*$` plus length bounds (which bound the
   * whole text, so they still hold beside leading lookaheads).
   */
  schemaPattern(source: string, work?: AutomatonWork): SchemaPattern {
    return this.schemaPatterns.getOrCompute(source, () => {
      const parsed = parsePattern(source);
      const split = splitCountedTail(parsed.tree);
      return split === undefined
        ? { dfa: this.pattern(source, false, work), minLength: 0, maxLength: Infinity }
        : {
            dfa: naming(`the pattern ${JSON.stringify(source)}`, () => CodePointDfa.fromPattern({ tree: split.tree, lookaheads: parsed.lookaheads }, work)),
            minLength: split.minLength,
            maxLength: split.maxLength,
          };
    });
  }

  /**
   * The product of several automata, by their ids (a time format's product, where Node does not read it prebuilt, took
   * 50–105 ms to build on the loaded 2-core machine).
   */
  intersection(automata: readonly CodePointDfa[], work?: AutomatonWork): CodePointDfa {
    // an automaton met twice (the complement of one `date-time` reached from two branches) is intersected once: its
    // product with itself has as many states as it has, past the budget for the 21,300 of that complement
    if (new Set(automata).size < automata.length) automata = [...new Set(automata)];
    if (automata.length === 1) return automata[0]!;
    return this.intersections.getOrCompute(automata.map((automaton) => automaton.id).join(','), () =>
      this.build(() => {
        // two parts of one format's complement: a string of both is in each (`¬A ∧ ¬B` with one `date-time` in A and B
        // pairs every part with every part), so their product is left out, which can only narrow, and is left out exactly
        // where the pairs come whole; the product of the superset's 21,300 states with another part passes the budget
        const partsTogether = automata.some((automaton) => {
          const siblings = this.complementPartsOf.get(automaton);
          return siblings !== undefined && automata.some((other) => other !== automaton && siblings.includes(other));
        });
        if (partsTogether) return new CodePointDfa([], new Uint8Array(0), -1);
        const keys = automata.map((automaton) => this.patternKeyOf.get(automaton));
        const prebuilt = keys.every((key): key is string => key !== undefined) ? filePrebuiltDfa(keys) : undefined;
        return prebuilt ?? naming(`the intersection of ${automata.length} patterns and formats`, () => CodePointDfa.intersect(automata, work));
      }),
    );
  }

  /** The automaton of number texts within `constraint` (null when the interval holds no number). */
  numberAutomaton(constraint: NumberConstraint): NumberAutomaton | null {
    // `?? null`: only the `multipleOf` keys hold undefined
    return this.numbers.getOrCompute(numberKey(constraint), () => this.build(() => numberAutomaton(constraint))) ?? null;
  }

  /**
   * The texts of {@link numberAutomaton} for `constraint` whose value is a multiple of every `moduli` (of none, for an
   * `excluded` modulus; null: none),
   * undefined when the product passes `maxStates` states. `{type: integer, multipleOf: 4096}` cut to ±2^53 is a product of
   * 21,804 states, so the same `multipleOf` in many tools is built once.
   */
  multipleOfAutomaton(constraint: NumberConstraint, moduli: readonly ScaledModulus[], maxStates: number): NumberAutomaton | null | undefined {
    const key = `multipleOf${numberKey(constraint)}${moduli.map(({ modulus, scale, excluded }) => `|${excluded === true ? '!' : ''}${modulus}e-${scale}`).join('')}<${maxStates}`;
    return this.numbers.getOrCompute(key, () =>
      this.build(() => {
        const base = this.numberAutomaton(constraint);
        return base === null ? null : intersectNumberAutomata(base, moduli, maxStates);
      }),
    );
  }

  /**
   * The automaton of number texts within `constraint` that parse to a non-integer (null when none does). Its product
   * with {@link fractionalNumbers} takes 5–50 ms, and a complement of `integer` asks for it again for every
   * alternative over the same range, in one schema and across schemas.
   */
  fractionalNumberAutomaton(constraint: NumberConstraint): NumberAutomaton | null {
    return (
      this.numbers.getOrCompute(`fractional${numberKey(constraint)}`, () =>
        this.build(() => {
          const base = this.numberAutomaton(constraint);
          return base === null ? null : intersectTwoNumberAutomata(base, this.fractionalNumbers());
        }),
      ) ?? null
    );
  }

  /** The automaton of number texts that parse to a non-integer double (the complement of `integer` among numbers). */
  fractionalNumbers(): NumberAutomaton {
    return this.numbers.getOrCompute('fractional', () => fractionalNumberAutomaton())!;
  }

  /** The loop classes of every state of `dfa` (a time format's DFA has thousands of states: computed once). */
  loopClasses(dfa: CodePointDfa): DfaLoopClasses {
    return this.loops.getOrCompute(dfa, () => this.build(() => computeLoopClasses(dfa)));
  }

  /**
   * The automaton of exactly `texts` (an enum's strings, an object's declared key names): one automaton
   * per set of texts, whatever their order, so the masks of its positions are shared by every grammar.
   */
  literals(texts: readonly string[], work?: AutomatonWork): CodePointDfa {
    const sorted = [...new Set(texts)].sort();
    // keyed by the texts, so a repeated enum costs no construction at all (structural keys never start with "L")
    return this.canonicals.getOrCompute(`L${JSON.stringify(sorted)}`, () => this.canonical(this.build(() => CodePointDfa.literals(sorted, work))));
  }

  /** The automaton accepting every string (one per cache: positions of free strings share their masks). */
  anyString(): CodePointDfa {
    return this.canonical(CodePointDfa.any());
  }

  /**
   * The strings outside a format whose complement `string-formats.ts` builds in parts (the `time` family), as automata
   * whose union they are: the complement of the union of its superset's alternatives (about 21,300 states), then each
   * part the superset holds that the format rejects. Built once per cache; undefined for the other formats.
   */
  formatComplement(name: string): readonly CodePointDfa[] | undefined {
    const parts = formatComplement(name);
    const language = formatLanguage(name);
    if (parts === undefined || language?.kind !== 'string') return undefined;
    const automaton = ({ patterns }: FormatAlternative): CodePointDfa => this.intersection(patterns.map((source) => this.pattern(source, language.ignoreCase)));
    const within = parts.within.map(automaton);
    // "|": no key of an intersection (ids joined by commas) starts with it
    const union = this.intersections.getOrCompute(`|${within.map((dfa) => dfa.id).join(',')}`, () =>
      this.build(() => CodePointDfa.union(within, undefined, MAX_FORMAT_UNION_STATES)),
    );
    const outside = [this.complement(union), ...parts.rejected.map(automaton)];
    for (const part of outside) this.complementPartsOf.set(part, outside);
    return outside;
  }

  /** The complement of `dfa` among all strings, built once per automaton (give it a cached or {@link canonical} one). */
  complement(dfa: CodePointDfa, work?: AutomatonWork): CodePointDfa {
    return this.complements.getOrCompute(dfa, () => this.canonical(this.build(() => dfa.complement(work))));
  }

  /**
   * {@link keySignatureLanguages} of cached or canonical automata, built once per combination and signature budget (the
   * overflow is kept too: the same object refused again costs nothing). `work` meters the product's construction.
   */
  keySignatureLanguages(
    excluded: CodePointDfa,
    patterns: readonly CodePointDfa[],
    maxSignatures: number,
    work?: AutomatonWork,
  ): readonly KeySignatureLanguage[] | KeySignatureOverflow {
    const key = `${maxSignatures}:${[excluded, ...patterns].map((dfa) => dfa.id).join(',')}`;
    return this.keySignatures.getOrCompute(key, () => {
      const languages = this.build(() =>
        naming(`the key automaton of ${patterns.length} patterns`, () =>
          keySignatureLanguages(excluded, patterns, { maxSignatures, ...(work ? { work } : {}) }),
        ),
      );
      return typeof languages === 'string' ? languages : languages.map(({ matched, dfa }) => ({ matched, dfa: this.canonical(dfa) }));
    });
  }

  /**
   * The automaton structurally equal to `dfa` that this cache already holds, or `dfa` itself from now on.
   * Equal structure is equal behaviour, so sharing it (and the masks keyed by its id) is exact.
   */
  canonical(dfa: CodePointDfa): CodePointDfa {
    const known = this.canonicalOf.get(dfa);
    if (known !== undefined) return known;
    let ranges = 0;
    for (const state of dfa.transitions) ranges += state.length / 3;
    if (ranges > MAX_CANONICAL_RANGES) return dfa;
    let key = `${dfa.start}|${dfa.accepting.join('')}`;
    for (const ranges of dfa.transitions) key += `|${ranges.join(',')}`;
    const canonical = this.canonicals.getOrCompute(key, () => dfa);
    this.canonicalOf.set(dfa, canonical);
    return canonical;
  }
}

/** The constraint written exactly: `String` keeps ±Infinity apart (JSON writes both as null), and -0 is written as such. */
function numberKey(constraint: NumberConstraint): string {
  const { integer, minimum, exclusiveMinimum, maximum, exclusiveMaximum } = constraint;
  return [integer, minimum, exclusiveMinimum, maximum, exclusiveMaximum].map((field) => (Object.is(field, -0) ? '-0' : String(field))).join(',');
}

/** Runs `build`, naming what it built in an {@link AutomatonWorkLimitError} that does not name it yet. */
function naming<T>(subject: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof AutomatonWorkLimitError) error.subject ??= subject;
    throw error;
  }
}

function dfaBytes(dfa: CodePointDfa): number {
  let bytes = OBJECT_OVERHEAD_BYTES + dfa.accepting.byteLength;
  for (const ranges of dfa.transitions) bytes += ranges.byteLength + OBJECT_OVERHEAD_BYTES;
  return bytes;
}

function computeLoopClasses(dfa: CodePointDfa): DfaLoopClasses {
  const distinct = new Map<string, LoopClass>();
  const byState: (LoopClass | undefined)[] = [];
  for (let state = 0; state < dfa.stateCount; state++) {
    let key = '';
    for (let byte = 0x20; byte < 0x7f; byte++) {
      if (byte !== 0x22 && byte !== 0x5c && dfa.step(state, byte) === state) key += String.fromCharCode(byte);
    }
    if (key === '') {
      byState.push(undefined);
      continue;
    }
    let loop = distinct.get(key);
    if (loop === undefined) {
      const members = new Uint8Array(256);
      for (let index = 0; index < key.length; index++) members[key.charCodeAt(index)] = 1;
      loop = { key, members };
      distinct.set(key, loop);
    }
    byState.push(loop);
  }
  return { byState, distinct: [...distinct.values()] };
}
