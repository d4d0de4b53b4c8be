/**
 * `npm run bench:patterns`: what linear-time patterns and per-tool Ajv instances cost.
 *
 * 1. Pattern tests: toolwright's lazily determinized automaton against V8's native
 *    `RegExp` (`u` flag), on every pattern of the example tool packs, with matching
 *    and non-matching texts. The two engines are interleaved round by round,
 *    alternating which goes first; the median of the per-round ratios is the figure.
 * 2. Registering tools: compiling 200 input schemas with one isolated Ajv per schema
 *    (what the registry does now) against one shared Ajv keyed by `$id` (what it did
 *    before), interleaved the same way; then `new ToolRegistry(200 tools)` as a whole.
 *
 *   npm run bench:patterns
 *   npm run bench:patterns -- --rounds 10 --tests 200000 --tools 200
 *
 * `--property-escapes` instead measures what `\p{…}` costs (property-escapes.ts).
 */
import { parseArgs } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { tools as badTools } from '../../examples/bad-tools/index.js';
import { tools as conjugateTools } from '../../examples/conjugate/index.js';
import { tools as subscriptionTools } from '../../examples/subscriptions/index.js';
import { compileLinearRegExp } from '../../src/shared/regex/linear-regexp.js';
import { parseRegex, type RegexNode } from '../../src/shared/regex/parse-regex.js';
import { compileSchema, defineTool, ToolRegistry, silentLogger } from '../../src/tools/index.js';
import type { AnyTool, JsonSchemaObject } from '../../src/tools/index.js';
import { listSchemaPatterns } from '../../src/tools/schema-patterns.js';
import { benchPropertyEscapes } from './property-escapes.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    tests: { type: 'string', default: '100000' },
    tools: { type: 'string', default: '200' },
    json: { type: 'boolean', default: false },
    'property-escapes': { type: 'boolean', default: false },
  },
});
if (values['property-escapes']) {
  benchPropertyEscapes();
  process.exit(0);
}
const ROUNDS = Number(values.rounds);
const TESTS = Number(values.tests);
const TOOL_COUNT = Number(values.tools);

const median = (numbers: number[]): number => {
  const sorted = [...numbers].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

/** A string the pattern matches, built by walking its tree. */
function sample(node: RegexNode, next: () => number): string {
  switch (node.type) {
    case 'set': {
      const range = Math.floor(next() * (node.set.length / 2)) * 2;
      const lo = node.set[range]!;
      return String.fromCodePoint(lo + Math.floor(next() * (Math.min(node.set[range + 1]!, lo + 25) - lo + 1)));
    }
    case 'concat':
      return node.items.map((item) => sample(item, next)).join('');
    case 'alt':
      return sample(node.items[Math.floor(next() * node.items.length)]!, next);
    case 'repeat': {
      const count = node.min + Math.floor(next() * (Math.min(node.max, node.min + 3) - node.min + 1));
      return Array.from({ length: count }, () => sample(node.item, next)).join('');
    }
    default:
      return '';
  }
}

// --- 1. pattern tests --------------------------------------------------------

const patterns = [
  ...new Set([...badTools, ...conjugateTools, ...subscriptionTools].flatMap((tool) => listSchemaPatterns(tool.inputSchema).map((site) => site.pattern))),
];
const next = random(42);
const texts = patterns.map((pattern) => {
  const tree = parseRegex(pattern, { loneSurrogates: true });
  const matching = Array.from({ length: 8 }, () => sample(tree, next));
  // Near misses: one character changed, or a character appended past a `$`.
  const missing = matching.map((text, index) => (index % 2 === 0 ? `${text}!` : `#${text.slice(1)}`));
  return [...matching, ...missing];
});
const native = patterns.map((pattern) => new RegExp(pattern, 'u'));
const linear = patterns.map((pattern) => compileLinearRegExp(pattern));
for (const [index, regExp] of native.entries()) {
  for (const text of texts[index]!) {
    if (regExp.test(text) !== linear[index]!.test(text)) throw new Error(`the engines disagree on ${JSON.stringify(text)} for /${patterns[index]}/u`);
  }
}

function runTests(engines: readonly { test(text: string): boolean }[]): number {
  let matched = 0;
  const started = performance.now();
  for (let round = 0; round < TESTS;) {
    for (let index = 0; index < engines.length && round < TESTS; index++) {
      for (const text of texts[index]!) {
        if (engines[index]!.test(text)) matched++;
        round++;
      }
    }
  }
  if (matched === 0) throw new Error('nothing matched');
  return ((performance.now() - started) * 1e6) / TESTS;
}

runTests(native);
runTests(linear);
const patternRounds: { nativeNs: number; linearNs: number; ratio: number }[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const [nativeNs, linearNs] = round % 2 === 0 ? [runTests(native), runTests(linear)] : (([l, n]) => [n, l])([runTests(linear), runTests(native)]);
  patternRounds.push({ nativeNs: nativeNs!, linearNs: linearNs!, ratio: linearNs! / nativeNs! });
}

// --- 2. registering tools ------------------------------------------------------

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

function toolSet(offset: number): AnyTool[] {
  const examples = [...badTools, ...conjugateTools, ...subscriptionTools];
  return Array.from({ length: TOOL_COUNT }, (_, index) => {
    const model = examples[index % examples.length]!;
    return defineTool({
      name: `tool_${offset}_${index}`,
      description: model.description,
      effect: 'read',
      inputSchema: { ...(model.inputSchema as JsonSchemaObject), $id: `https://bench.example.com/${offset}/${index}.json` },
      execute: () => 'ok',
    });
  });
}

/** The registry's compile step as it was: one process-wide Ajv (created once, as before), native RegExp, schemas reused by `$id`. */
const sharedAjv = new Ajv2020({ allErrors: true, verbose: true, strict: false, allowUnionTypes: true, validateFormats: true });
addFormats(sharedAjv);
function registerShared(tools: readonly AnyTool[]): void {
  for (const tool of tools) {
    const schema = tool.inputSchema as JsonSchemaObject;
    if (typeof schema.$id !== 'string' || sharedAjv.getSchema(schema.$id) === undefined) sharedAjv.compile({ ...schema });
  }
}

/** The registry's compile step as it is now: one isolated Ajv per schema, linear-time patterns. */
function registerIsolated(tools: readonly AnyTool[]): void {
  for (const tool of tools) compileSchema(tool.inputSchema, tool.name);
}

let offset = 0;
const timeMs = (work: () => void): number => {
  const started = performance.now();
  work();
  return performance.now() - started;
};
const registerRounds: { sharedMs: number; isolatedMs: number; ratio: number }[] = [];
timeMs(() => registerShared(toolSet(offset++)));
timeMs(() => registerIsolated(toolSet(offset++)));
for (let round = 0; round < ROUNDS; round++) {
  // Fresh tool objects and ids each time: the old shared Ajv would otherwise just look them up.
  const sharedTools = toolSet(offset++);
  const isolatedTools = toolSet(offset++);
  let sharedMs: number;
  let isolatedMs: number;
  if (round % 2 === 0) {
    sharedMs = timeMs(() => registerShared(sharedTools));
    isolatedMs = timeMs(() => registerIsolated(isolatedTools));
  } else {
    isolatedMs = timeMs(() => registerIsolated(isolatedTools));
    sharedMs = timeMs(() => registerShared(sharedTools));
  }
  registerRounds.push({ sharedMs, isolatedMs, ratio: isolatedMs / sharedMs });
}
const registryMs = median(Array.from({ length: ROUNDS }, () => timeMs(() => new ToolRegistry(toolSet(offset++), { logger: silentLogger }))));

const result = {
  patterns: {
    count: patterns.length,
    texts: texts.flat().length,
    testsPerRound: TESTS,
    medianNativeNsPerTest: median(patternRounds.map((round) => round.nativeNs)),
    medianLinearNsPerTest: median(patternRounds.map((round) => round.linearNs)),
    medianRatio: median(patternRounds.map((round) => round.ratio)),
  },
  register: {
    tools: TOOL_COUNT,
    medianSharedMs: median(registerRounds.map((round) => round.sharedMs)),
    medianIsolatedMs: median(registerRounds.map((round) => round.isolatedMs)),
    medianRatio: median(registerRounds.map((round) => round.ratio)),
    medianWholeRegistryMs: registryMs,
  },
};

if (values.json) {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} else {
  const { patterns: p, register: r } = result;
  process.stdout.write(
    [
      `pattern tests: ${p.count} patterns from the example packs, ${p.texts} texts (half matching), ${ROUNDS} interleaved rounds of ${TESTS} tests`,
      `  native RegExp (backtracking, JIT): ${p.medianNativeNsPerTest.toFixed(0)} ns/test`,
      `  toolwright lazy DFA (linear):      ${p.medianLinearNsPerTest.toFixed(0)} ns/test`,
      `  median per-round ratio DFA/native: ${p.medianRatio.toFixed(2)}×`,
      `registering ${r.tools} tools, ${ROUNDS} interleaved rounds`,
      `  one shared Ajv keyed by $id (before): ${r.medianSharedMs.toFixed(1)} ms`,
      `  one isolated Ajv per schema (now):    ${r.medianIsolatedMs.toFixed(1)} ms`,
      `  median per-round ratio now/before:    ${r.medianRatio.toFixed(2)}×`,
      `  new ToolRegistry(${r.tools} tools), everything included: ${r.medianWholeRegistryMs.toFixed(1)} ms`,
      '',
    ].join('\n'),
  );
}
