/**
 * Test drivers for the mask engine: random-logit sampling that always finishes,
 * alternative tokenizations of a text, and the checks of the run-time memory of strings
 * written (masks against accept(), random generations, tokens that repeat in one go).
 */
import {
  compileJsonSchema,
  UnsupportedSchemaError,
  type CompiledGrammar,
  type CompileJsonSchemaOptions,
  type GrammarMatcher,
  type Vocabulary,
} from '../../src/decoding/index.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { mulberry32 } from '../../src/shared/seeded-random.js';
import { byteVocabulary } from './byte-vocabulary.js';

/** Deterministic PRNG (mulberry32). */
export const createRandom = mulberry32;

export function maskHas(mask: Uint32Array, id: number): boolean {
  return (mask[id >>> 5]! & (1 << (id & 31))) !== 0;
}

/**
 * One id drawn uniformly among those set in the mask (`random()` called once), or -1 for an empty mask: the id
 * `allowedIds(mask, words, out)[Math.floor(random() * out.length)]` picks, without listing ids (a dense mask of a real
 * vocabulary sets 150,000 of them, and listing them cost tens of milliseconds a step).
 */
export function randomAllowedId(mask: Uint32Array, words: number, random: () => number): number {
  let count = 0;
  for (let word = 0; word < words; word++) count += bitCount(mask[word]!);
  if (count === 0) return -1;
  let rank = Math.floor(random() * count);
  for (let word = 0; ; word++) {
    let bits = mask[word]!;
    const inWord = bitCount(bits);
    if (rank >= inWord) {
      rank -= inWord;
      continue;
    }
    for (; rank > 0; rank--) bits &= bits - 1;
    return word * 32 + (31 - Math.clz32(bits & -bits));
  }
}

function bitCount(word: number): number {
  let bits = word - ((word >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return (((bits + (bits >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Ids set in the mask, appended to `out` (cleared first). */
export function allowedIds(mask: Uint32Array, words: number, out: number[]): number[] {
  out.length = 0;
  for (let word = 0; word < words; word++) {
    let bits = mask[word]!;
    while (bits !== 0) {
      const low = bits & -bits;
      out.push(word * 32 + (31 - Math.clz32(low)));
      bits ^= low;
    }
  }
  return out;
}

const singleByteCache = new WeakMap<Vocabulary, Int32Array>();

/** Per byte: a text token that is exactly that byte (-1 if none). */
export function singleByteTokens(vocabulary: Vocabulary): Int32Array {
  let table = singleByteCache.get(vocabulary);
  if (table === undefined) {
    table = new Int32Array(256).fill(-1);
    for (let id = 0; id < vocabulary.size; id++) {
      const bytes = vocabulary.tokenBytes(id);
      if (bytes.length === 1 && vocabulary.isTextToken(id) && table[bytes[0]!] === -1) table[bytes[0]!] = id;
    }
    singleByteCache.set(vocabulary, table);
  }
  return table;
}

const nextByteCache = new WeakMap<CompiledGrammar, Map<number, number>>();

/**
 * The first byte of a shortest way from the matcher's state to a complete value
 * (breadth-first over the automaton, printable ASCII first), cached per state.
 */
export function completionByte(grammar: CompiledGrammar, matcher: GrammarMatcher): number {
  let cache = nextByteCache.get(grammar);
  if (cache === undefined) {
    cache = new Map();
    nextByteCache.set(grammar, cache);
  }
  const start = matcher.automatonState;
  const known = cache.get(start);
  if (known !== undefined) return known;
  const automaton = grammar.automaton;
  for (const [lo, hi] of [
    [0x20, 0x7e],
    [0, 255],
  ] as const) {
    const parent = new Map<number, [number, number]>([[start, [-1, -1]]]);
    let frontier = [start];
    while (frontier.length > 0) {
      const next: number[] = [];
      for (const state of frontier) {
        for (let byte = lo; byte <= hi; byte++) {
          const target = automaton.transition(state, byte);
          if (target < 0 || parent.has(target)) continue;
          parent.set(target, [state, byte]);
          if (automaton.accepting[target] === 1) {
            // record the whole path: every state on it now knows its next byte
            for (let at = target; at !== start;) {
              const [from, via] = parent.get(at)!;
              cache.set(from, via);
              at = from;
            }
            return cache.get(start)!;
          }
          next.push(target);
        }
      }
      frontier = next;
    }
  }
  throw new Error('no completion: the state is a dead end');
}

export interface Generation {
  readonly tokens: number[];
  readonly text: string;
  /** Steps at which some token checked against the mask disagreed with accept(). */
  readonly disagreements: string[];
}

/**
 * Samples `randomSteps` tokens uniformly among those the mask allows (argmax of random
 * logits), then finishes along a shortest completion with single-byte tokens, then EOS.
 * Every step checks: the mask is not empty, the chosen token is in it and accepted, and
 * `probes` random vocabulary ids agree between the mask bit and accept().
 */
export function generate(grammar: CompiledGrammar, random: () => number, randomSteps: number, probes = 4): Generation {
  const vocabulary = grammar.vocabulary;
  const matcher = grammar.matcher();
  const mask = new Uint32Array(vocabulary.maskWords);
  const allowed: number[] = [];
  const tokens: number[] = [];
  const disagreements: string[] = [];
  const bytes = singleByteTokens(vocabulary);
  const decoder = new TextDecoder();
  const out: number[] = [];
  for (let step = 0; step < 4000; step++) {
    matcher.fillMask(mask);
    const pick = (): number => {
      // dense masks: random probes find a member fast; sparse ones: list them
      for (let attempt = 0; attempt < 64; attempt++) {
        const id = Math.floor(random() * vocabulary.size);
        if (maskHas(mask, id)) return id;
      }
      allowedIds(mask, vocabulary.maskWords, allowed);
      if (allowed.length === 0) throw new Error(`dead end after ${JSON.stringify(decoder.decode(Uint8Array.from(out)))}`);
      return allowed[Math.floor(random() * allowed.length)]!;
    };
    const first = pick();
    for (let probe = 0; probe < probes; probe++) {
      const id = probe === 0 ? first : Math.floor(random() * vocabulary.size);
      const expected = maskHas(mask, id);
      const actual = matcher.accept(id);
      if (actual) matcher.rollback(1);
      if (actual !== expected)
        disagreements.push(
          `token ${id} ${JSON.stringify(vocabulary.tokenText(id))}: mask ${expected}, accept ${actual} after ${JSON.stringify(decoder.decode(Uint8Array.from(out)))}`,
        );
    }
    let choice: number;
    if (step < randomSteps) {
      choice = first;
    } else if (matcher.canTerminate()) {
      choice = vocabulary.eosTokenIds[0]!;
    } else {
      const byte = completionByte(grammar, matcher);
      choice = bytes[byte]!;
      if (choice < 0) throw new Error(`no single-byte token for byte ${byte}`);
      // the shortest completion knows only the automaton: it may close an item (string, object, array, integer) its uniqueItems array holds
      if ((grammar.automaton.tracksStrings || grammar.automaton.remembersContainers || grammar.automaton.remembersNumbers) && !maskHas(mask, choice))
        choice = first;
    }
    if (!maskHas(mask, choice)) throw new Error(`completion token ${choice} is not in the mask`);
    if (!matcher.accept(choice)) throw new Error(`allowed token ${choice} ${JSON.stringify(vocabulary.tokenText(choice))} was not accepted`);
    tokens.push(choice);
    if (matcher.isTerminated()) return { tokens, text: decoder.decode(Uint8Array.from(out)), disagreements };
    out.push(...vocabulary.tokenBytes(choice));
  }
  throw new Error('generation did not finish in 4000 steps');
}

/** Feeds `ids` then EOS; returns the index of the first refused token, or -1 when all pass and the value is complete. */
export function feed(grammar: CompiledGrammar, ids: readonly number[]): number {
  const matcher = grammar.matcher();
  const mask = new Uint32Array(grammar.vocabulary.maskWords);
  for (let index = 0; index < ids.length; index++) {
    matcher.fillMask(mask);
    if (!maskHas(mask, ids[index]!) || !matcher.accept(ids[index]!)) return index;
  }
  matcher.fillMask(mask);
  const eos = grammar.vocabulary.eosTokenIds[0]!;
  return maskHas(mask, eos) && matcher.accept(eos) ? -1 : ids.length;
}

/**
 * Whether `grammar` takes `text` both whole (`acceptString`, then able to end) and token by token as `encode` splits it
 * (`feed`, every token in the mask); a disagreement between the two ways is added to `problems`, naming `where`.
 */
export function acceptedBothWays(grammar: CompiledGrammar, encode: (text: string) => number[], text: string, where: string, problems: string[]): boolean {
  const matcher = grammar.matcher();
  const whole = matcher.acceptString(text) && matcher.canTerminate();
  const tokens = feed(grammar, encode(text)) === -1;
  if (whole !== tokens) problems.push(`${where}: acceptString says ${whole}, token by token ${tokens}: ${text}`);
  return whole && tokens;
}

/** A tokenizer's vocabulary and its own encoding, as `loadTestTokenizer` gives them. */
export interface EncodingVocabulary {
  readonly vocabulary: Vocabulary;
  readonly encode: (text: string) => number[];
}

/**
 * Every value of `universe` written as each of `texts(value, flexible)`, under `schema` compiled on each tokenizer in
 * both layouts, taken whole and token by token: the texts where either way disagrees with `validate` (the registry).
 */
export function universeDisagreements(
  schema: unknown,
  options: CompileJsonSchemaOptions | undefined,
  tokenizers: ReadonlyMap<string, EncodingVocabulary>,
  universe: readonly unknown[],
  texts: (value: unknown, flexible: boolean) => string[],
  validate: (value: unknown) => boolean,
): string[] {
  const failures: string[] = [];
  for (const [vocabularyName, tokenizer] of tokenizers) {
    for (const layout of ['compact', 'flexible'] as const) {
      const grammar = compileJsonSchema(schema, tokenizer.vocabulary, { ...options, layout });
      for (const value of universe) {
        const expected = validate(value);
        for (const text of texts(value, layout === 'flexible')) {
          const matcher = grammar.matcher();
          const whole = matcher.acceptString(text) && matcher.canTerminate();
          const tokens = feed(grammar, tokenizer.encode(text)) === -1;
          if (whole !== expected || tokens !== expected)
            failures.push(`${vocabularyName} ${layout} ${text}: registry ${expected}, acceptString ${whole}, tokens ${tokens}`);
        }
      }
    }
  }
  return failures;
}

/**
 * The instances of each case checked against the registry on one tokenizer, each written as `grammar.format` writes it
 * (else compact JSON) and taken both ways: a valid one rejected or an invalid one accepted is a problem, and so is a
 * disagreement between the two ways. `checkCase` sees each case's grammar first (to assert on it).
 */
export function instanceDisagreements(
  cases: readonly { readonly name: string; readonly schema: unknown; readonly instances: readonly unknown[] }[],
  tokenizer: EncodingVocabulary,
  checkCase: (grammar: CompiledGrammar, name: string) => void = () => {},
): string[] {
  const problems: string[] = [];
  for (const testCase of cases) {
    const validator = compileSchema(testCase.schema as never);
    const grammar = compileJsonSchema(testCase.schema, tokenizer.vocabulary);
    checkCase(grammar, testCase.name);
    for (const value of testCase.instances) {
      const text = grammar.format(value) ?? JSON.stringify(value);
      const valid = validator.validate(value).success;
      if (acceptedBothWays(grammar, tokenizer.encode, text, testCase.name, problems) !== valid)
        problems.push(`${testCase.name}: ${valid ? 'valid instance rejected' : 'INVALID instance accepted'}: ${text}`);
    }
  }
  return problems;
}

/** The registry's verdict on a value under `schema` (its validator compiled once), as the exhaustive tests compare with. */
export function registryVerdict(schema: unknown): (value: unknown) => boolean {
  const validator = compileSchema(schema as Record<string, unknown>);
  return (value) => validator.validate(value).success;
}

/** Every list of up to `most` entries of `keys` (repeats included) with `values`: objects as written, key by key. */
export function everyEntryList(keys: readonly string[], values: readonly unknown[], most: number): [string, unknown][][] {
  return everyArray(
    keys.flatMap((key) => values.map((value): [string, unknown] => [key, value])),
    most,
  );
}

/** Every array of 0 to `most` items drawn from `values` (with repeats), shortest first: the small universes the exhaustive tests compare over. */
export function everyArray<T>(values: readonly T[], most: number): T[][] {
  const out: T[][] = [[]];
  let layer: T[][] = [[]];
  for (let length = 1; length <= most; length++) {
    layer = layer.flatMap((array) => values.map((value) => [...array, value]));
    out.push(...layer);
  }
  return out;
}

const characterTokenCache = new WeakMap<Vocabulary, Map<string, number>>();

/** Per character of two to four bytes: the first text token that is exactly that character (a walk of the whole vocabulary, once). */
function characterTokens(vocabulary: Vocabulary): Map<string, number> {
  let byText = characterTokenCache.get(vocabulary);
  if (byText === undefined) {
    byText = new Map<string, number>();
    const decoder = new TextDecoder();
    for (let id = 0; id < vocabulary.size; id++) {
      const tokenBytes = vocabulary.tokenBytes(id);
      if (tokenBytes.length > 1 && tokenBytes.length <= 4 && vocabulary.isTextToken(id)) {
        const decoded = decoder.decode(tokenBytes);
        if ([...decoded].length === 1 && !decoded.includes('\ufffd') && !byText.has(decoded)) byText.set(decoded, id);
      }
    }
    characterTokenCache.set(vocabulary, byText);
  }
  return byText;
}

/** One token per character where the vocabulary has it, else that character's byte tokens. */
export function tokenizePerCharacter(vocabulary: Vocabulary, text: string): number[] {
  const bytes = singleByteTokens(vocabulary);
  const byText = characterTokens(vocabulary);
  const ids: number[] = [];
  const encoder = new TextEncoder();
  for (const char of text) {
    const encoded = encoder.encode(char);
    if (encoded.length === 1 && bytes[encoded[0]!]! >= 0) ids.push(bytes[encoded[0]!]!);
    else if (byText.has(char)) ids.push(byText.get(char)!);
    else for (const byte of encoded) ids.push(bytes[byte]!);
  }
  return ids;
}

/** A random segmentation into vocabulary tokens (random prefix lengths found through the trie). */
export function tokenizeRandomly(vocabulary: Vocabulary, text: string, random: () => number): number[] {
  const data = new TextEncoder().encode(text);
  const trie = vocabulary.trie;
  const ids: number[] = [];
  let at = 0;
  while (at < data.length) {
    // collect every token that is a prefix of data[at..]
    const candidates: number[] = [];
    let node = 0;
    let depth = 1;
    while (node < trie.nodeCount && at + depth - 1 < data.length) {
      if (trie.nodeDepth[node]! < depth) break;
      if (trie.nodeDepth[node] === depth && trie.nodeByte[node] === data[at + depth - 1]) {
        if (trie.nodeToken[node]! >= 0) candidates.push(trie.nodeToken[node]!);
        node++;
        depth++;
      } else {
        node = trie.nodeEnd[node]!;
      }
    }
    const pick = candidates[Math.floor(random() * candidates.length)]!;
    ids.push(pick);
    at += vocabulary.tokenBytes(pick).length;
  }
  return ids;
}

/**
 * After `prefix`, compares every mask bit with what `accept` does with that token (EOS aside), for grammars whose
 * matcher applies a run-time rule after the automaton's mask (the memory of strings written): returns the
 * disagreements and how many tokens the automaton's own mask allows that the rule cleared.
 */
export function maskAgainstAccept(grammar: CompiledGrammar, vocabulary: Vocabulary, prefix: string): { disagreements: string[]; cleared: number } {
  const matcher = grammar.matcher();
  if (!matcher.acceptString(prefix)) return { disagreements: [`${prefix}: the prefix itself is refused`], cleared: 0 };
  const mask = new Uint32Array(vocabulary.maskWords);
  matcher.fillMask(mask);
  const automatonMask = new Uint32Array(vocabulary.maskWords);
  grammar.writeMask(matcher.automatonState, automatonMask);
  const disagreements: string[] = [];
  let cleared = 0;
  for (let id = 0; id < vocabulary.size; id++) {
    if (vocabulary.eosTokenIds.includes(id)) continue;
    const accepted = matcher.accept(id);
    if (accepted) matcher.rollback(1);
    if (accepted !== maskHas(mask, id))
      disagreements.push(`${prefix} + ${JSON.stringify(vocabulary.tokenText(id))}: mask ${maskHas(mask, id)}, accept ${accepted}`);
    if (maskHas(automatonMask, id) && !maskHas(mask, id)) cleared++;
  }
  return { disagreements, cleared };
}

/**
 * {@link maskAgainstAccept} after each `[grammar, prefix, clears]`: the mask bits that disagree with `accept()`, and the
 * prefixes marked `clears` where the run-time rule cleared no token the automaton allows (so the case proved nothing).
 */
export function clearingProblems(
  cases: readonly (readonly [CompiledGrammar, string, boolean])[],
  vocabulary: Vocabulary,
): { disagreements: string[]; notCleared: string[] } {
  const disagreements: string[] = [];
  const notCleared: string[] = [];
  for (const [grammar, prefix, clears] of cases) {
    const found = maskAgainstAccept(grammar, vocabulary, prefix);
    disagreements.push(...found.disagreements);
    if (clears && found.cleared === 0) notCleared.push(prefix);
  }
  return { disagreements, notCleared };
}

/** The `UnsupportedSchemaError` compiling `schema` on the byte vocabulary throws; any other outcome fails the test. */
export function refusalOf(schema: unknown, options?: CompileJsonSchemaOptions): UnsupportedSchemaError {
  try {
    compileJsonSchema(schema, byteVocabulary(), options);
  } catch (error) {
    if (error instanceof UnsupportedSchemaError) return error;
    throw error;
  }
  throw new Error(`expected a refusal, but the schema compiled: ${JSON.stringify(schema)}`);
}

/**
 * Random generations of each schema (`generate`: `runs` of `randomSteps` sampled tokens with 8 probes a step, one
 * seeded random per schema): the probed mask bits that disagreed with accept(), the texts whose value `validatorOf`'s
 * validator refuses, and what `check` finds wrong in a text (undefined: nothing).
 */
export function randomGenerationProblems(
  vocabulary: Vocabulary,
  schemas: Readonly<Record<string, Record<string, unknown>>>,
  options: {
    seed: number;
    runs: number;
    randomSteps: number;
    validatorOf: (schema: Record<string, unknown>) => (value: unknown) => boolean;
    check?: (text: string) => string | undefined;
  },
): string[] {
  const problems: string[] = [];
  for (const [name, schema] of Object.entries(schemas)) {
    const validate = options.validatorOf(schema);
    const grammar = compileJsonSchema(schema, vocabulary);
    const random = createRandom(options.seed);
    for (let run = 0; run < options.runs; run++) {
      const generation = generate(grammar, random, options.randomSteps, 8);
      problems.push(...generation.disagreements);
      if (!validate(JSON.parse(generation.text))) problems.push(`${name}: invalid ${generation.text}`);
      const found = options.check?.(generation.text);
      if (found !== undefined) problems.push(`${name}: ${found} ${generation.text}`);
    }
  }
  return problems;
}

/** A state where one token (of a byte vocabulary's `extra` tokens, or a single byte) would close a repeated string in one go. */
export interface RepeatOneTokenAway {
  readonly prefix: string;
  /** Tokens the mask clears and accept() refuses. */
  readonly refused?: readonly string[];
  /** Tokens accept() refuses (their mask bit not checked). */
  readonly refusedByAccept?: readonly string[];
  /** Tokens the mask keeps. */
  readonly allowed?: readonly string[];
  /** Text accepted after the checks that completes the value: the refusals left the matcher as it was. */
  readonly completedBy?: string;
}

/**
 * Over `byteVocabulary(extra)` (ids 0–255 the bytes, then `extra`): from each case's prefix, checks its tokens against
 * the mask and accept() with one matcher; returns what did not hold.
 */
export function repeatTokenProblems(schema: Record<string, unknown>, extra: readonly string[], cases: readonly RepeatOneTokenAway[]): string[] {
  const vocabulary = byteVocabulary(extra);
  const grammar = compileJsonSchema(schema, vocabulary);
  const mask = new Uint32Array(vocabulary.maskWords);
  const idOf = (text: string): number => {
    if (extra.includes(text)) return 256 + extra.indexOf(text);
    return new TextEncoder().encode(text).length === 1 ? text.charCodeAt(0) : -1;
  };
  const problems: string[] = [];
  for (const { prefix, refused = [], refusedByAccept = [], allowed = [], completedBy } of cases) {
    const matcher = grammar.matcher();
    if (!matcher.acceptString(prefix)) {
      problems.push(`${prefix}: the prefix itself is refused`);
      continue;
    }
    matcher.fillMask(mask);
    for (const text of [...refused, ...allowed]) {
      if (idOf(text) < 0) problems.push(`${text}: neither one byte nor an extra token`);
      else if (maskHas(mask, idOf(text)) !== allowed.includes(text)) problems.push(`${prefix} + ${text}: mask ${maskHas(mask, idOf(text))}`);
    }
    for (const text of [...refused, ...refusedByAccept]) if (matcher.accept(idOf(text))) problems.push(`${prefix} + ${text}: accepted`);
    if (completedBy !== undefined && !(matcher.acceptString(completedBy) && matcher.canTerminate())) {
      problems.push(`${prefix} + ${completedBy}: not accepted as a complete value`);
    }
  }
  return problems;
}

/**
 * Over the byte vocabulary (compact layout unless `options` says), every text the mask allows up to `depth` bytes (the
 * whole text, `prefix` included): the texts whose mask is empty (a dead end), whose mask bits disagree with accept(), or
 * that end (EOS allowed) with a value the registry refuses.
 */
export function byteWalkProblems(schema: Record<string, unknown>, options: CompileJsonSchemaOptions | undefined, depth: number, prefix = ''): string[] {
  const grammar = compileJsonSchema(schema, byteVocabulary(), options);
  return walkProblems(grammar, prefix, depth - prefix.length, undefined, registryVerdict(schema));
}

/**
 * Over the byte vocabulary `grammar` was compiled on, from `prefix`: every byte's mask bit against accept(), and every
 * text the mask allows on the bytes of `walked` up to `depth` more bytes; the texts whose mask is empty and that
 * cannot end (dead ends), and the disagreements.
 */
export function prefixWalkProblems(grammar: CompiledGrammar, prefix: string, walked: string, depth: number): string[] {
  return walkProblems(grammar, prefix, depth, walked, undefined);
}

/** The walk of `byteWalkProblems` and `prefixWalkProblems`: on every byte, or those of `walked`; ends checked by `validate` where given. */
function walkProblems(
  grammar: CompiledGrammar,
  prefix: string,
  depth: number,
  walked: string | undefined,
  validate: ((value: unknown) => boolean) | undefined,
): string[] {
  const vocabulary = grammar.vocabulary;
  const eos = vocabulary.eosTokenIds[0]!;
  const problems: string[] = [];
  const matcher = grammar.matcher();
  const mask = new Uint32Array(vocabulary.maskWords);
  const visit = (text: string, left: number): void => {
    matcher.fillMask(mask);
    const allowed: number[] = [];
    for (let byte = 0; byte < 256; byte++) {
      const accepted = matcher.accept(byte);
      if (accepted) matcher.rollback(1);
      if (accepted !== maskHas(mask, byte)) problems.push(`${text} + ${String.fromCharCode(byte)}: mask ${maskHas(mask, byte)}, accept ${accepted}`);
      if (accepted) allowed.push(byte);
    }
    const ends = maskHas(mask, eos);
    if (ends !== matcher.canTerminate()) problems.push(`${text}: EOS bit ${ends}, canTerminate ${!ends}`);
    if (ends && validate !== undefined && !validate(JSON.parse(text))) problems.push(`${text}: complete, but the registry refuses it`);
    if (allowed.length === 0 && !ends) problems.push(`${text}: dead end`);
    if (left <= 0) return;
    for (const byte of allowed) {
      if (walked !== undefined && !walked.includes(String.fromCharCode(byte))) continue;
      matcher.accept(byte);
      visit(text + String.fromCharCode(byte), left - 1);
      matcher.rollback(1);
    }
  };
  if (!matcher.acceptString(prefix)) return [`${prefix}: the prefix itself is refused`];
  visit(prefix, depth);
  return problems;
}

/** True when some object of the JSON `text` writes a key twice (decoded): JSON.parse keeps the last, so its value differs from the text. */
export function repeatsKey(text: string): boolean {
  const keys: (Set<string> | null)[] = [];
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (char === '{') keys.push(new Set());
    else if (char === '[') keys.push(null);
    else if (char === '}' || char === ']') keys.pop();
    else if (char === '"') {
      let end = at + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const value = JSON.parse(text.slice(at, end + 1)) as string;
      const set = keys.at(-1);
      if (set != null && /^\s*:/.test(text.slice(end + 1))) {
        if (set.has(value)) return true;
        set.add(value);
      }
      at = end;
    }
  }
  return false;
}

/** The array of `items` (spellings) written compactly, and in the flexible layout also one item a line and spaced. */
export function arrayLayouts(items: readonly string[], flexible: boolean): string[] {
  const compact = `[${items.join(',')}]`;
  if (!flexible) return [compact];
  return [compact, `[\n  ${items.join(',\n  ')}\n]`, `[ ${items.join(' , ')} ]`];
}

/** Whether `text` compiles under `schema` on the byte vocabulary and the mask takes it whole. */
export function acceptsWhole(schema: Record<string, unknown>, text: string): boolean {
  const matcher = compileJsonSchema(schema, byteVocabulary()).matcher();
  return matcher.acceptString(text) && matcher.canTerminate();
}
