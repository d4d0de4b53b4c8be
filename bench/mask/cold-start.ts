/**
 * One cold process of `bench:mask`'s cold-start figure: from the process's start, load a
 * vocabulary with `loadVocabulary` (its index file read when `--index-dir` holds one, named
 * by the memo beside it when that is there, else by hashing the tokenizer; else built and
 * written), compile a tool schema and fill the first mask. Prints one JSON line with the
 * whole figure (`loadToFirstMaskMs`: vocabulary load + compile + first mask) and its parts;
 * what comes before the entry point (Node's start) and the module import are printed
 * beside it, not counted in it: through tsx they time the TypeScript transform, not the
 * library. After it, `restOfIndexMs`: reading what the load leaves to first use (the string
 * statistics' tries and length lists), which the first mask did not need.
 *
 * Usage: tsx bench/mask/cold-start.ts <tokenizer.json> <index dir>
 */
const atEntry = performance.now();
const [tokenizerPath, indexDir] = process.argv.slice(2);
const { loadVocabulary, compileJsonSchema } = await import('../../src/decoding/index.js');
const { toolCases } = await import('../../test/decoding/tool-schemas.js');
const schema = toolCases().find((entry) => entry.name === 'update_subscription')!.schema;
const imported = performance.now();
const cpuBefore = process.cpuUsage();
const loaded = loadVocabulary(tokenizerPath!, { indexDir: indexDir! });
const vocabularyReady = performance.now();
// CPU time (all of the process's threads) is far less inflated than wall time on a loaded machine
const vocabularyCpu = process.cpuUsage(cpuBefore);
const matcher = compileJsonSchema(schema, loaded.vocabulary).matcher();
const compiled = performance.now();
matcher.fillMask(new Uint32Array(loaded.vocabulary.maskWords));
const firstMask = performance.now();
// what the load leaves to first use (the string statistics' tries and length lists), read now: a later mask's cost, not the first's
loaded.vocabulary.buildIndex();
const restOfIndex = performance.now();
console.log(
  JSON.stringify({
    index: loaded.index,
    keyedBy: loaded.keyedBy,
    readError: loaded.readError,
    saveError: loaded.saveError,
    processStartToEntryMs: atEntry,
    importMs: imported - atEntry,
    vocabularyMs: vocabularyReady - imported,
    vocabularyCpuMs: (vocabularyCpu.user + vocabularyCpu.system) / 1000,
    vocabularyParts: loaded.timings,
    compileMs: compiled - vocabularyReady,
    firstMaskMs: firstMask - compiled,
    compileAndFirstMaskMs: firstMask - vocabularyReady,
    loadToFirstMaskMs: firstMask - imported,
    restOfIndexMs: restOfIndex - firstMask,
  }),
);
