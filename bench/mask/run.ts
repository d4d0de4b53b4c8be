/**
 * `npm run bench:mask` — toolwright's token-mask engine against XGrammar's WebAssembly
 * build, in one Node process, on the same vocabularies, schemas and token sequences.
 *
 * For each vocabulary (Qwen3, Llama 3, Gemma 3): index build time, compile time, time to
 * the first mask, per-token mask time (p50/p90/p99/max) over full generations of
 * realistic tool calls (the tokenizer's own tokens of valid arguments, then EOS), accept
 * time, memory, and whether steady-state tokens allocate. Engines are interleaved token
 * by token with a fixed number of rounds; every figure is also a ratio to XGrammar.
 *
 * Cold start: fresh processes (bench/mask/cold-start.ts) time `loadVocabulary` + compile +
 * first mask with the vocabulary's index file absent (built and written), present and named
 * by its memo (no hashing), and present without a memo (the tokenizer hashed), interleaved,
 * `--cold-runs=5` of each.
 *
 * Remembered strings: after the cases, arrays of 50 and 200 unique strings sharing prefixes, an object of 100
 * undeclared keys under `minProperties: 2`, arrays of 40 unique objects (with and without declared properties), objects of keys that can run out (a
 * `propertyNames` enum, a `maxLength`) under `minProperties: 2` and GitHub's create_issue with 40 assignees, each
 * against the same text without the keyword, interleaved (bench/mask/written-strings.ts): warm mask p50/p99 inside
 * the items and keys the matcher remembers.
 *
 * Pumped first round: each generated schema compiled once more, its first round run with the look-ahead pumped before every
 * mask as the local provider pumps it while the model computes (`lookAheadWhilePending`, its default units per token).
 *
 * Flags: --vocab=qwen3,llama3,gemma3  --rounds=10  --xgrammar=default|all|none  --cold-runs=5  --json-only
 * `--precompute-work=N` compiles with that compile-time look-ahead budget instead of the default (600000: the former default).
 * `--property-order=any` instead compares propertyOrder 'any' with the schema's order (property-order.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TokenizerLoader } from '@lenml/tokenizers';
import { compileJsonSchema, Vocabulary, type CompiledGrammar, type GrammarMatcher, type LoadedVocabulary } from '../../src/decoding/index.js';
import type { AnyTool } from '../../src/tools/index.js';
import { tools as badTools } from '../../examples/bad-tools/index.js';
import { tools as conformanceTools } from '../../examples/mcp-conformance/tools.js';
import { toolCases, type ToolCase } from '../../test/decoding/tool-schemas.js';
import { DEFAULT_LOOK_AHEAD_PER_TOKEN, lookAheadWhilePending } from '../../src/models/local/idle-look-ahead.js';
import { distribution, type Distribution } from './distribution.js';
import { loadXGrammar, xgrammarMaskKernel } from './load-xgrammar.js';
import { benchPropertyOrder } from './property-order.js';
import { benchWrittenStrings, type WrittenStringsResult } from './written-strings.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = new Map<string, string | undefined>(
  process.argv.slice(2).map((arg): [string, string | undefined] => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key!, value];
  }),
);
const VOCABS = (args.get('vocab') ?? 'qwen3,llama3,gemma3').split(',') as ('qwen3' | 'llama3' | 'gemma3')[];
const ROUNDS = Number(args.get('rounds') ?? 10);
const XGRAMMAR_MODE = args.get('xgrammar') ?? 'default';
const JSON_ONLY = args.has('json-only');
const COLD_RUNS = Number(args.get('cold-runs') ?? 5);
/** The compile-time look-ahead budget (`precomputeWork`) of every compile here; undefined: the default. */
const PRECOMPUTE_WORK = args.get('precompute-work') === undefined ? undefined : Number(args.get('precompute-work'));
const compileOptions = PRECOMPUTE_WORK === undefined ? {} : { precomputeWork: PRECOMPUTE_WORK };
/** Cases XGrammar compiles by default: the issue's three tools and one pack tool with maxLength 500 (XGrammar needs ~20 s for it). */
const XGRAMMAR_DEFAULT: ReadonlySet<string> = new Set(['update_subscription', 'conjugate', 'search_documents', 'pack:create_refund']);

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const now = (): number => performance.now();
const log = (line: string): void => {
  if (!JSON_ONLY) console.log(line);
};

function repoToolCases(): ToolCase[] {
  const extra: AnyTool[] = [...badTools, ...(conformanceTools as unknown as AnyTool[])];
  return [...toolCases(), ...extra.map((tool) => ({ name: `example:${tool.name}`, schema: tool.inputSchema, instances: [] }))];
}

interface CaseResult {
  name: string;
  oursCompileMs: number;
  oursFirstMaskMs: number;
  /** Best of three more compile + first mask, process caches warm. */
  oursCompileAgainMs?: number;
  xgrammarCompileMs?: number;
  xgrammarFirstMaskMs?: number;
  generatedTokens: number;
  /** First-round tokens whose mask needed a trie walk (a state the compile-time look-ahead did not reach): a count, so load does not blur it. */
  firstRoundWalks: number;
  firstRoundTokens: number;
  oursStates: number;
  oursBytes: number;
}

interface VocabularyResult {
  vocabulary: string;
  size: number;
  readMs: number;
  parseMs: number;
  oursIndexMs: number;
  xgrammarIndexMs: number;
  oursIndexBytes: number;
  cases: CaseResult[];
  maxCompilePlusFirstMaskMs: { ours: number; case: string };
  maxCompilePlusFirstMaskAgainMs: { ours: number; case: string };
  mask: { ours: Distribution; oursFirstRound: Distribution; oursWarm: Distribution; xgrammar: Distribution };
  pumped: PumpedFirstRound;
  accept: { ours: Distribution; xgrammar: Distribution };
  tokensWhereXGrammarDisagrees: number;
  steadyState: { tokens: number; heapDeltaBytes: number; bytesPerToken: number; gcEvents: number };
  /** Masks inside strings the matcher remembers (bench/mask/written-strings.ts), after the cases above. */
  writtenStrings: WrittenStringsResult[];
  memory: { oursGrammarBytes: number; xgrammarWasmGrowthBytes: number };
  coldStart: ColdStart;
}

/** The first round again, on fresh grammars, with the look-ahead pumped before every mask as the local provider pumps it. */
interface PumpedFirstRound {
  /** Look-ahead work units per token. */
  unitsPerToken: number;
  mask: Distribution;
  /** Masks that walked the trie. */
  walks: number;
  tokens: number;
  /** One `lookAhead` chunk between two returns to the event loop. */
  chunk: Distribution;
}

/** What bench/mask/cold-start.ts prints: `loadToFirstMaskMs` is the whole figure, vocabulary load + compile + first mask. */
interface ColdRun {
  index: 'read' | 'built';
  keyedBy: 'memo' | 'hash';
  processStartToEntryMs: number;
  importMs: number;
  vocabularyMs: number;
  vocabularyParts: LoadedVocabulary['timings'];
  compileMs: number;
  firstMaskMs: number;
  compileAndFirstMaskMs: number;
  loadToFirstMaskMs: number;
  /** After the first mask: reading the index groups a load leaves to first use (0 when the index was built). */
  restOfIndexMs: number;
}

/** Medians over `COLD_RUNS` processes of each kind. */
interface ColdStart {
  /** Index file named by its memo: the tokenizer is not read. */
  withIndexAndMemo: ColdRun;
  /** Index file found by hashing the tokenizer (no memo). */
  withIndexFile: ColdRun;
  withoutIndexFile: ColdRun;
}

type ColdKind = 'memo' | 'hash' | 'built';

/**
 * Fresh processes, interleaved per round: one without an index file (it builds and writes
 * the index and the memo), then one through the memo and one with the memo removed, in
 * alternating order.
 */
function coldStart(name: string): ColdStart {
  const tokenizer = resolve(root, `node_modules/@lenml/tokenizer-${name}/models/tokenizer.json`);
  const runs: Record<ColdKind, ColdRun[]> = { memo: [], hash: [], built: [] };
  for (let round = 0; round < COLD_RUNS; round++) {
    const indexDir = mkdtempSync(resolve(tmpdir(), 'toolwright-bench-index-'));
    try {
      const order: ColdKind[] = round % 2 === 0 ? ['built', 'memo', 'hash'] : ['built', 'hash', 'memo'];
      for (const expected of order) {
        if (expected === 'hash') for (const file of readdirSync(indexDir)) if (file.endsWith('.memo.json')) rmSync(resolve(indexDir, file));
        const output = execFileSync(process.execPath, ['--import', 'tsx', resolve(root, 'bench/mask/cold-start.ts'), tokenizer, indexDir], {
          encoding: 'utf8',
        });
        const run = JSON.parse(output.trim().split('\n').pop()!) as ColdRun;
        const kind: ColdKind = run.index === 'built' ? 'built' : run.keyedBy;
        if (kind !== expected) throw new Error(`cold start expected ${expected}, got ${kind}: ${output}`);
        runs[expected].push(run);
      }
    } finally {
      rmSync(indexDir, { recursive: true, force: true });
    }
  }
  const median = (list: ColdRun[]): ColdRun => {
    const middle = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const pick = (key: keyof Omit<ColdRun, 'index' | 'keyedBy' | 'vocabularyParts'>): number => middle(list.map((run) => run[key]));
    const parts = Object.fromEntries(
      Object.keys(list[0]!.vocabularyParts).map((key) => [key, middle(list.map((run) => run.vocabularyParts[key as keyof LoadedVocabulary['timings']]))]),
    ) as unknown as LoadedVocabulary['timings'];
    return {
      index: list[0]!.index,
      keyedBy: list[0]!.keyedBy,
      processStartToEntryMs: pick('processStartToEntryMs'),
      importMs: pick('importMs'),
      vocabularyMs: pick('vocabularyMs'),
      vocabularyParts: parts,
      compileMs: pick('compileMs'),
      firstMaskMs: pick('firstMaskMs'),
      compileAndFirstMaskMs: pick('compileAndFirstMaskMs'),
      loadToFirstMaskMs: pick('loadToFirstMaskMs'),
      restOfIndexMs: pick('restOfIndexMs'),
    };
  };
  return { withIndexAndMemo: median(runs.memo), withIndexFile: median(runs.hash), withoutIndexFile: median(runs.built) };
}

async function benchVocabulary(name: 'qwen3' | 'llama3' | 'gemma3', xgrammar: ReturnType<typeof loadXGrammar>): Promise<VocabularyResult> {
  const folder = resolve(root, `node_modules/@lenml/tokenizer-${name}/models`);
  let start = now();
  const text = readFileSync(resolve(folder, 'tokenizer.json'), 'utf8');
  const readMs = now() - start;
  start = now();
  const json = JSON.parse(text) as { model: { vocab: Record<string, number> }; added_tokens: { id: number; content: string }[] };
  const parseMs = now() - start;

  gc();
  start = now();
  const vocabulary = Vocabulary.fromTokenizerJson(json).buildIndex();
  const oursIndexMs = now() - start;

  // XGrammar's index starts, like ours, from the parsed tokenizer.json: its token list is part of the cost
  start = now();
  const raw: string[] = [];
  for (const [token, id] of Object.entries(json.model.vocab)) raw[id] = token;
  for (const token of json.added_tokens) raw[token.id] = token.content;
  for (let id = 0; id < vocabulary.tokenCount; id++) raw[id] ??= `<|toolwright_unused_${id}|>`;
  const tokenizerInfo = await xgrammar.TokenizerInfo.createTokenizerInfo(
    raw,
    vocabulary.encoding === 'byte-level' ? 'byte_level' : 'byte_fallback',
    false,
    vocabulary.size,
    [...vocabulary.eosTokenIds],
  );
  const xgrammarIndexMs = now() - start;
  const compiler = await xgrammar.GrammarCompiler.createGrammarCompiler(tokenizerInfo, false);

  const config = JSON.parse(readFileSync(resolve(folder, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
  const tokenizer = TokenizerLoader.fromPreTrained({ tokenizerJSON: json as never, tokenizerConfig: config as never }) as unknown as {
    encode(text: string, options: { add_special_tokens: boolean }): number[];
  };
  const eos = vocabulary.eosTokenIds[0]!;
  log(`\n== ${name}: ${vocabulary.size} tokens; index ours ${oursIndexMs.toFixed(0)} ms, XGrammar ${xgrammarIndexMs.toFixed(0)} ms`);

  // warm the JIT (not the caches of the measured schemas): a throwaway schema through both engines
  {
    const warmSchema = {
      type: 'object',
      properties: {
        x: { type: 'string', pattern: '^[a-z]+$' },
        y: { type: 'integer' },
        z: { type: 'array', items: { type: 'string' } },
        w: { type: 'string', minLength: 2, maxLength: 12 },
      },
    };
    const warmText = '{"x":"warm","y":12,"z":["a b","c"],"w":"up to\\nten"}';
    const warm = compileJsonSchema(warmSchema, vocabulary);
    const warmX = await xgrammar.GrammarMatcher.createGrammarMatcher(await compiler.compileJSONSchema(JSON.stringify(warmSchema), false, -1, [',', ':'], true));
    const warmKernel = xgrammarMaskKernel(warmX);
    const warmMask = new Uint32Array(vocabulary.maskWords);
    for (let repeat = 0; repeat < 5; repeat++) {
      const matcher = warm.matcher();
      warmX.reset();
      for (const token of [...tokenizer.encode(warmText, { add_special_tokens: false }), eos]) {
        matcher.fillMask(warmMask);
        matcher.accept(token);
        warmKernel();
        warmX.acceptToken(token);
      }
    }
    warmX.dispose();
  }

  const cases: CaseResult[] = [];
  const oursMask: number[] = [];
  const oursFirst: number[] = [];
  const oursWarm: number[] = [];
  const xgMask: number[] = [];
  const oursAccept: number[] = [];
  const xgAccept: number[] = [];
  let disagreements = 0;
  let maxCompile = { ours: 0, case: '' };
  let maxCompileAgain = { ours: 0, case: '' };
  const mask = new Uint32Array(vocabulary.maskWords);
  const wasmBefore = process.memoryUsage().arrayBuffers;
  let oursGrammarBytes = 0;
  let steadyCase: { grammar: CompiledGrammar; sequences: number[][] } | undefined;
  const pumped = { masks: [] as number[], chunks: [] as number[], walks: 0 };

  for (const toolCase of repoToolCases()) {
    start = now();
    const grammar = compileJsonSchema(toolCase.schema, vocabulary, compileOptions);
    const compiled = now();
    const matcher = grammar.matcher();
    matcher.fillMask(mask);
    const firstMask = now();
    const result: CaseResult = {
      name: toolCase.name,
      oursCompileMs: compiled - start,
      oursFirstMaskMs: firstMask - compiled,
      generatedTokens: 0,
      oursStates: 0,
      firstRoundWalks: 0,
      firstRoundTokens: 0,
      oursBytes: 0,
    };
    if (result.oursCompileMs + result.oursFirstMaskMs > maxCompile.ours)
      maxCompile = { ours: result.oursCompileMs + result.oursFirstMaskMs, case: toolCase.name };
    // again, with the vocabulary's caches (format automata, number automata, content masks) already built: the usual cost of one more grammar
    let again = Infinity;
    for (let repeat = 0; repeat < 3; repeat++) {
      const repeatStart = now();
      compileJsonSchema(toolCase.schema, vocabulary, compileOptions).matcher().fillMask(mask);
      again = Math.min(again, now() - repeatStart);
    }
    result.oursCompileAgainMs = again;
    if (again > maxCompileAgain.ours) maxCompileAgain = { ours: again, case: toolCase.name };

    const runXGrammar = toolCase.instances.length > 0 && (XGRAMMAR_MODE === 'all' || (XGRAMMAR_MODE !== 'none' && XGRAMMAR_DEFAULT.has(toolCase.name)));
    let xMatcher: Awaited<ReturnType<typeof xgrammar.GrammarMatcher.createGrammarMatcher>> | undefined;
    let xKernel: (() => void) | undefined;
    if (runXGrammar) {
      start = now();
      const xCompiled = await compiler.compileJSONSchema(JSON.stringify(toolCase.schema), false, -1, [',', ':'], true);
      const compiledAt = now();
      xMatcher = await xgrammar.GrammarMatcher.createGrammarMatcher(xCompiled, [...vocabulary.eosTokenIds]);
      xKernel = xgrammarMaskKernel(xMatcher);
      xKernel();
      result.xgrammarCompileMs = compiledAt - start;
      result.xgrammarFirstMaskMs = now() - compiledAt;
    }

    const sequences = toolCase.instances.map((instance) => [...tokenizer.encode(grammar.format(instance)!, { add_special_tokens: false }), eos]);
    const timeXGrammar = xMatcher !== undefined && xKernel !== undefined;
    if (timeXGrammar || XGRAMMAR_MODE === 'none') {
      const walksBeforeGeneration = grammar.statistics().maskWalks;
      result.firstRoundTokens = sequences.reduce((sum, sequence) => sum + sequence.length, 0);
      for (let round = 0; round < ROUNDS; round++) {
        if (round === 1) result.firstRoundWalks = grammar.statistics().maskWalks - walksBeforeGeneration;
        for (const sequence of sequences) {
          const ours: GrammarMatcher = grammar.matcher();
          xMatcher?.reset();
          for (const token of sequence) {
            // alternate which engine goes first, so cache and scheduler effects even out
            let oursTime: number;
            let xTime = 0;
            if (((round + token) & 1) === 0 || !timeXGrammar) {
              start = now();
              ours.fillMask(mask);
              oursTime = now() - start;
              if (timeXGrammar) {
                start = now();
                xKernel!();
                xTime = now() - start;
              }
            } else {
              start = now();
              xKernel!();
              xTime = now() - start;
              start = now();
              ours.fillMask(mask);
              oursTime = now() - start;
            }
            oursMask.push(oursTime);
            (round === 0 ? oursFirst : oursWarm).push(oursTime);
            if (timeXGrammar) xgMask.push(xTime);
            if ((mask[token >>> 5]! & (1 << (token & 31))) === 0)
              throw new Error(`${name} ${toolCase.name}: toolwright's mask refuses token ${token} of a valid instance`);
            start = now();
            const acceptedOurs = ours.accept(token);
            oursAccept.push(now() - start);
            if (timeXGrammar) {
              start = now();
              const acceptedX = xMatcher!.acceptToken(token);
              xgAccept.push(now() - start);
              if (!acceptedX) disagreements++;
            }
            if (!acceptedOurs) throw new Error(`${name} ${toolCase.name}: toolwright refuses token ${token}`);
            result.generatedTokens++;
          }
        }
      }
      if (ROUNDS === 1) result.firstRoundWalks = grammar.statistics().maskWalks - walksBeforeGeneration;
      if (sequences.length > 0) await pumpedFirstRound(compileJsonSchema(toolCase.schema, vocabulary, compileOptions), sequences, mask, pumped);
      xMatcher?.dispose();
      steadyCase ??= { grammar, sequences };
    }
    const stats = grammar.statistics();
    result.oursStates = stats.states;
    result.oursBytes = stats.bytes;
    oursGrammarBytes += stats.bytes;
    cases.push(result);
    log(
      `  ${toolCase.name.padEnd(44)} compile ${result.oursCompileMs.toFixed(2).padStart(7)} ms + first mask ${result.oursFirstMaskMs.toFixed(2).padStart(6)} ms` +
        (result.xgrammarCompileMs === undefined
          ? ''
          : `   | XGrammar ${result.xgrammarCompileMs.toFixed(0).padStart(6)} ms + ${result.xgrammarFirstMaskMs!.toFixed(2)} ms`),
    );
  }

  // steady state: a long warm generation must not allocate (no minor GCs, flat heap)
  let steadyState = { tokens: 0, heapDeltaBytes: 0, bytesPerToken: 0, gcEvents: 0 };
  if (steadyCase !== undefined) {
    const matcher = steadyCase.grammar.matcher();
    const sequences = steadyCase.sequences;
    // indexed loops: a for-of here would allocate iterators and blame the engine
    const runOnce = (): number => {
      let tokens = 0;
      for (let index = 0; index < sequences.length; index++) {
        const sequence = sequences[index]!;
        matcher.reset();
        for (let position = 0; position < sequence.length; position++) {
          matcher.fillMask(mask);
          matcher.accept(sequence[position]!);
          tokens++;
        }
      }
      return tokens;
    };
    // long enough for the JIT to finish optimizing, so its code allocations are not counted
    for (let warm = 0; warm < 200; warm++) runOnce();
    let gcEvents = 0;
    const observer = new PerformanceObserver((list) => {
      gcEvents += list.getEntries().length;
    });
    gc();
    observer.observe({ entryTypes: ['gc'] });
    const heapBefore = process.memoryUsage().heapUsed;
    let tokens = 0;
    for (let repeat = 0; repeat < 200; repeat++) tokens += runOnce();
    const heapAfter = process.memoryUsage().heapUsed;
    await new Promise((resolveTimeout) => setTimeout(resolveTimeout, 20));
    observer.disconnect();
    steadyState = { tokens, heapDeltaBytes: heapAfter - heapBefore, bytesPerToken: (heapAfter - heapBefore) / tokens, gcEvents };
  }

  const writtenStrings = await benchWrittenStrings(
    (schema) => compileJsonSchema(schema, vocabulary, { ...compileOptions, layout: 'flexible' }),
    (text) => tokenizer.encode(text, { add_special_tokens: false }),
    eos,
    mask,
    ROUNDS,
  );
  for (const entry of writtenStrings)
    log(
      `  written strings: ${entry.name.padEnd(54)} ${String(entry.tokens).padStart(5)} tokens, warm mask p50 / p99 ${entry.tracked.warm.p50.toFixed(2)} / ${entry.tracked.warm.p99.toFixed(2)} µs (no memory ${entry.untracked.warm.p50.toFixed(2)} / ${entry.untracked.warm.p99.toFixed(2)} µs)`,
    );

  return {
    vocabulary: name,
    size: vocabulary.size,
    readMs,
    parseMs,
    oursIndexMs,
    xgrammarIndexMs,
    oursIndexBytes: vocabulary.byteSize(),
    cases,
    maxCompilePlusFirstMaskMs: maxCompile,
    maxCompilePlusFirstMaskAgainMs: maxCompileAgain,
    mask: { ours: distribution(oursMask), oursFirstRound: distribution(oursFirst), oursWarm: distribution(oursWarm), xgrammar: distribution(xgMask) },
    pumped: {
      unitsPerToken: DEFAULT_LOOK_AHEAD_PER_TOKEN,
      mask: distribution(pumped.masks),
      walks: pumped.walks,
      tokens: pumped.masks.length,
      chunk: distribution(pumped.chunks),
    },
    accept: { ours: distribution(oursAccept), xgrammar: distribution(xgAccept) },
    tokensWhereXGrammarDisagrees: disagreements,
    steadyState,
    writtenStrings,
    memory: { oursGrammarBytes, xgrammarWasmGrowthBytes: process.memoryUsage().arrayBuffers - wasmBefore },
    coldStart: coldStart(name),
  };
}

/**
 * The first round of `grammar` (fresh, compiled after the plain first round, so the vocabulary-wide caches are warm), with
 * the look-ahead pumped before every mask through the local provider's own pump, the token never arriving first: the case
 * of a model slower than the pump. Only the masks are timed; each look-ahead chunk is timed apart.
 */
async function pumpedFirstRound(
  grammar: CompiledGrammar,
  sequences: readonly number[][],
  mask: Uint32Array,
  into: { masks: number[]; chunks: number[]; walks: number },
): Promise<void> {
  const modelStillComputing = new Promise<never>(() => undefined);
  for (const sequence of sequences) {
    const matcher = grammar.matcher();
    const timedChunk = (units: number): boolean => {
      const start = now();
      const left = matcher.lookAhead(units);
      into.chunks.push(now() - start);
      return left;
    };
    for (const token of sequence) {
      await lookAheadWhilePending(modelStillComputing, timedChunk);
      const walks = grammar.statistics().maskWalks;
      const start = now();
      matcher.fillMask(mask);
      into.masks.push(now() - start);
      into.walks += grammar.statistics().maskWalks - walks;
      if (!matcher.accept(token)) throw new Error(`the pumped first round refuses token ${token}`);
    }
  }
}

function ratio(ours: number, theirs: number): string {
  return theirs > 0 ? `${(ours / theirs).toFixed(3)}×` : 'n/a';
}

function report(results: readonly VocabularyResult[]): void {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  const rows: string[] = [line(['vocabulary', 'figure', 'toolwright', 'XGrammar (wasm)', 'ratio']), line(['---', '---', '---:', '---:', '---:'])];
  const us = (value: number): string => `${value.toFixed(1)} µs`;
  const ms = (value: number): string => `${value.toFixed(1)} ms`;
  for (const result of results) {
    const x = result.mask.xgrammar;
    const o = result.mask.ours;
    const xgCases = result.cases.filter((entry) => entry.xgrammarCompileMs !== undefined);
    const oursCompile = xgCases.reduce((sum, entry) => sum + entry.oursCompileMs + entry.oursFirstMaskMs, 0);
    const xgCompile = xgCases.reduce((sum, entry) => sum + entry.xgrammarCompileMs! + entry.xgrammarFirstMaskMs!, 0);
    const add = (figure: string, ours: string, theirs: string, r: string): void => {
      rows.push(line([`${result.vocabulary} (${result.size})`, figure, ours, theirs, r]));
    };
    add('vocabulary index build', ms(result.oursIndexMs), ms(result.xgrammarIndexMs), ratio(result.oursIndexMs, result.xgrammarIndexMs));
    const cold = result.coldStart;
    add(
      `cold process: load vocabulary + compile + first mask, index+memo / index only / built (median of ${COLD_RUNS})`,
      `${ms(cold.withIndexAndMemo.loadToFirstMaskMs)} / ${ms(cold.withIndexFile.loadToFirstMaskMs)} / ${ms(cold.withoutIndexFile.loadToFirstMaskMs)}`,
      '',
      `${ratio(cold.withIndexAndMemo.loadToFirstMaskMs, cold.withIndexFile.loadToFirstMaskMs)} / ${ratio(cold.withIndexAndMemo.loadToFirstMaskMs, cold.withoutIndexFile.loadToFirstMaskMs)}`,
    );
    for (const [label, run] of [
      ['index+memo', cold.withIndexAndMemo],
      ['index only', cold.withIndexFile],
    ] as const) {
      const parts = run.vocabularyParts;
      add(`  of which (${label}): vocabulary load / compile / first mask`, `${ms(run.vocabularyMs)} / ${ms(run.compileMs)} / ${ms(run.firstMaskMs)}`, '', '');
      add(`  after it, not counted (${label}): the index groups left to first use, all read`, ms(run.restOfIndexMs), '', '');
      add(
        `    vocabulary load (${label}): find the index (memo or hash) / read / checksum / structure checks / decode`,
        `${ms(parts.locateMs)} / ${ms(parts.readMs)} / ${ms(parts.checksumMs)} / ${ms(parts.structureMs)} / ${ms(parts.decodeMs)}`,
        '',
        '',
      );
      add(`  not counted (${label}): module import through tsx / process start to entry`, `${ms(run.importMs)} / ${ms(run.processStartToEntryMs)}`, '', '');
    }
    add(`compile + first mask, ${xgCases.length} shared schemas (sum)`, ms(oursCompile), ms(xgCompile), ratio(oursCompile, xgCompile));
    for (const entry of xgCases) {
      add(
        `  compile + first mask: ${entry.name}`,
        ms(entry.oursCompileMs + entry.oursFirstMaskMs),
        ms(entry.xgrammarCompileMs! + entry.xgrammarFirstMaskMs!),
        ratio(entry.oursCompileMs + entry.oursFirstMaskMs, entry.xgrammarCompileMs! + entry.xgrammarFirstMaskMs!),
      );
    }
    add(
      `compile + first mask, worst of ${result.cases.length} repo tool schemas (first in process)`,
      ms(result.maxCompilePlusFirstMaskMs.ours),
      '',
      result.maxCompilePlusFirstMaskMs.case,
    );
    add(
      `compile + first mask, worst of ${result.cases.length} repo tool schemas (best of 3 more)`,
      ms(result.maxCompilePlusFirstMaskAgainMs.ours),
      '',
      result.maxCompilePlusFirstMaskAgainMs.case,
    );
    add(`mask p50 (${o.count} tokens)`, us(o.p50), us(x.p50), ratio(o.p50, x.p50));
    add('mask p90', us(o.p90), us(x.p90), ratio(o.p90, x.p90));
    add('mask p99', us(o.p99), us(x.p99), ratio(o.p99, x.p99));
    add('mask max', us(o.max), us(x.max), ratio(o.max, x.max));
    add('mask mean', us(o.mean), us(x.mean), ratio(o.mean, x.mean));
    add('mask p50 / p99, first round only (cold caches)', `${us(result.mask.oursFirstRound.p50)} / ${us(result.mask.oursFirstRound.p99)}`, '', '');
    const generated = result.cases.filter((entry) => entry.firstRoundTokens > 0);
    add(
      '  first-round masks that walked the trie (states the compile-time look-ahead did not reach)',
      `${generated.reduce((sum, entry) => sum + entry.firstRoundWalks, 0)} of ${generated.reduce((sum, entry) => sum + entry.firstRoundTokens, 0)} tokens`,
      '',
      generated.map((entry) => `${entry.name} ${entry.firstRoundWalks}`).join(', '),
    );
    const pumped = result.pumped;
    add(
      `mask p50 / p99, first round with the look-ahead pumped between tokens (${pumped.unitsPerToken} units per token, as the local provider does)`,
      `${us(pumped.mask.p50)} / ${us(pumped.mask.p99)}`,
      '',
      `${pumped.walks} of ${pumped.tokens} masks walked the trie`,
    );
    add(
      '  one look-ahead chunk between returns to the event loop: p50 / p99 / max',
      `${us(pumped.chunk.p50)} / ${us(pumped.chunk.p99)} / ${us(pumped.chunk.max)}`,
      '',
      '',
    );
    add('mask p50 / p99, later rounds (warm)', `${us(result.mask.oursWarm.p50)} / ${us(result.mask.oursWarm.p99)}`, '', '');
    for (const entry of result.writtenStrings) {
      add(
        `  inside remembered strings, warm mask p50 / p99: ${entry.name} (${entry.tokens} tokens, flexible layout)`,
        `${us(entry.tracked.warm.p50)} / ${us(entry.tracked.warm.p99)}`,
        '',
        `no memory: ${us(entry.untracked.warm.p50)} / ${us(entry.untracked.warm.p99)}`,
      );
      add(
        '    first round p50 / p99; accept p50 / p99 (no memory); accept + rollback(1) at the end; heap over masks inside the last strings',
        `${us(entry.tracked.firstRound.p50)} / ${us(entry.tracked.firstRound.p99)}; ${us(entry.tracked.accept.p50)} / ${us(entry.tracked.accept.p99)} (${us(entry.untracked.accept.p50)} / ${us(entry.untracked.accept.p99)}); ${us(entry.acceptRollbackUs)}`,
        '',
        `${entry.masksInsideLastStrings.heapGrowthBytes} B over ${entry.masksInsideLastStrings.masks} masks, ${entry.masksInsideLastStrings.gcEvents} GCs`,
      );
    }
    add(
      'accept p50 / p99',
      `${us(result.accept.ours.p50)} / ${us(result.accept.ours.p99)}`,
      `${us(result.accept.xgrammar.p50)} / ${us(result.accept.xgrammar.p99)}`,
      ratio(result.accept.ours.p50, result.accept.xgrammar.p50),
    );
    add(
      'memory: index / grammars after the run',
      `${(result.oursIndexBytes / 2 ** 20).toFixed(1)} MiB / ${(result.memory.oursGrammarBytes / 2 ** 20).toFixed(1)} MiB`,
      `wasm growth ${(result.memory.xgrammarWasmGrowthBytes / 2 ** 20).toFixed(1)} MiB`,
      '',
    );
    add(
      'steady state: heap growth over a long warm generation',
      `${result.steadyState.heapDeltaBytes} B over ${result.steadyState.tokens} tokens (${result.steadyState.bytesPerToken.toFixed(2)} B/token, ${result.steadyState.gcEvents} GCs)`,
      '',
      '',
    );
  }
  console.log(rows.join('\n'));
}

async function main(): Promise<void> {
  if (args.get('property-order') === 'any') return benchPropertyOrder(VOCABS, ROUNDS);
  const xgrammar = loadXGrammar();
  const results: VocabularyResult[] = [];
  for (const name of VOCABS) results.push(await benchVocabulary(name, xgrammar));
  if (!JSON_ONLY) {
    console.log(
      `\nnode ${process.version}, ${ROUNDS} rounds per instance, compile-time look-ahead ${PRECOMPUTE_WORK ?? 'at its default'}, XGrammar ${XGRAMMAR_MODE === 'none' ? 'off' : `@mlc-ai/web-xgrammar (kernel timed: GetNextTokenBitmask)`}\n`,
    );
    report(results);
  }
  console.log(JSON.stringify({ node: process.version, rounds: ROUNDS, results }, null, JSON_ONLY ? 2 : undefined));
}

await main();
