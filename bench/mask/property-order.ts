/**
 * `npm run bench:mask -- --property-order=any`: what `propertyOrder: 'any'` costs against
 * the schema's order, on every repo tool schema with instances, over one vocabulary at a
 * time. Both grammars run the same token sequences (the tokenizer's own tokens of each
 * valid instance in schema order, then EOS), interleaved token by token and round by round,
 * alternating which goes first; `any` also runs each instance with its keys reversed, which
 * only it accepts. Reports compile + first mask, automaton states after the run, and mask
 * p50/p99 (all rounds, first round, later rounds), each as a ratio any / schema.
 */
import { compileJsonSchema, type CompiledGrammar } from '../../src/decoding/index.js';
import { loadTestTokenizer } from '../../test/decoding/test-tokenizer.js';
import { toolCases } from '../../test/decoding/tool-schemas.js';

const now = (): number => performance.now();

/** Microseconds at a quantile. */
function quantile(samples: readonly number[], at: number): number {
  const sorted = [...samples].sort((left, right) => left - right);
  return (sorted[Math.min(sorted.length - 1, Math.floor(at * sorted.length))] ?? NaN) * 1000;
}

/** The value with every object's keys in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([key, item]) => [key, reversed(item)]),
    );
  return value;
}

export async function benchPropertyOrder(vocabularies: readonly ('qwen3' | 'llama3' | 'gemma3')[], rounds: number): Promise<void> {
  const results: Record<string, unknown>[] = [];
  for (const name of vocabularies) {
    const { vocabulary, encode } = loadTestTokenizer(name);
    const eos = vocabulary.eosTokenIds[0]!;
    const mask = new Uint32Array(vocabulary.maskWords);
    const samples = {
      schema: [] as number[],
      any: [] as number[],
      schemaFirst: [] as number[],
      anyFirst: [] as number[],
      schemaWarm: [] as number[],
      anyWarm: [] as number[],
      anyReversed: [] as number[],
    };
    const lines: string[] = [];
    let compileSchema = 0;
    let compileAny = 0;
    const cases = toolCases().filter((toolCase) => toolCase.instances.length > 0);
    for (const toolCase of cases) {
      // warm both orders' vocabulary caches (formats, numbers) so neither pays the other's first-use cost
      compileJsonSchema(toolCase.schema, vocabulary).matcher().fillMask(mask);
      const timed = (propertyOrder: 'schema' | 'any'): { grammar: CompiledGrammar; ms: number } => {
        let best = Infinity;
        let grammar: CompiledGrammar | undefined;
        for (let repeat = 0; repeat < 3; repeat++) {
          const start = now();
          grammar = compileJsonSchema(toolCase.schema, vocabulary, { propertyOrder });
          grammar.matcher().fillMask(mask);
          best = Math.min(best, now() - start);
        }
        return { grammar: grammar!, ms: best };
      };
      const schemaOrder = timed('schema');
      const anyOrder = timed('any');
      compileSchema = Math.max(compileSchema, schemaOrder.ms);
      compileAny = Math.max(compileAny, anyOrder.ms);
      const sequences = toolCase.instances.map((instance) => [...encode(schemaOrder.grammar.format(instance)!), eos]);
      const reversedSequences = toolCase.instances.map((instance) => [...encode(JSON.stringify(reversed(instance))), eos]);
      for (let round = 0; round < rounds; round++) {
        for (const sequence of sequences) {
          const ours = schemaOrder.grammar.matcher();
          const theirs = anyOrder.grammar.matcher();
          for (const token of sequence) {
            const measure = (matcher: typeof ours): number => {
              const start = now();
              matcher.fillMask(mask);
              const elapsed = now() - start;
              if ((mask[token >>> 5]! & (1 << (token & 31))) === 0)
                throw new Error(`${name} ${toolCase.name}: a mask refuses token ${token} of a valid instance`);
              matcher.accept(token);
              return elapsed;
            };
            // alternate which order goes first, so cache and scheduler effects even out
            let schemaTime: number;
            let anyTime: number;
            if (((round + token) & 1) === 0) {
              schemaTime = measure(ours);
              anyTime = measure(theirs);
            } else {
              anyTime = measure(theirs);
              schemaTime = measure(ours);
            }
            samples.schema.push(schemaTime);
            samples.any.push(anyTime);
            (round === 0 ? samples.schemaFirst : samples.schemaWarm).push(schemaTime);
            (round === 0 ? samples.anyFirst : samples.anyWarm).push(anyTime);
          }
        }
        for (const sequence of reversedSequences) {
          const matcher = anyOrder.grammar.matcher();
          for (const token of sequence) {
            const start = now();
            matcher.fillMask(mask);
            samples.anyReversed.push(now() - start);
            if (!matcher.accept(token)) throw new Error(`${name} ${toolCase.name}: propertyOrder any refuses a token of the reversed-key instance`);
          }
        }
      }
      const states = [schemaOrder.grammar.statistics().states, anyOrder.grammar.statistics().states];
      lines.push(
        `| ${name} | ${toolCase.name} | ${schemaOrder.ms.toFixed(2)} / ${anyOrder.ms.toFixed(2)} ms | ${states[0]} / ${states[1]} (${(states[1]! / states[0]!).toFixed(2)}×) |`,
      );
    }
    const ratio = (any: number, schema: number): string => `${(any / schema).toFixed(2)}×`;
    const row = (label: string, schema: readonly number[], any: readonly number[], at: number): string =>
      `| ${name} | ${label} | ${quantile(schema, at).toFixed(1)} µs | ${quantile(any, at).toFixed(1)} µs | ${ratio(quantile(any, at), quantile(schema, at))} |`;
    console.log(`\n== ${name}: ${cases.length} tool schemas with instances, ${rounds} rounds, ${samples.schema.length} tokens per order`);
    console.log('| vocabulary | tool | compile + first mask (best of 3), schema / any | states after the run, schema / any |\n| --- | --- | ---: | ---: |');
    for (const line of lines) console.log(line);
    console.log('| vocabulary | figure | schema order | any order | any / schema |\n| --- | --- | ---: | ---: | ---: |');
    console.log(row('mask p50', samples.schema, samples.any, 0.5));
    console.log(row('mask p99', samples.schema, samples.any, 0.99));
    console.log(row('mask p50, first round', samples.schemaFirst, samples.anyFirst, 0.5));
    console.log(row('mask p99, first round', samples.schemaFirst, samples.anyFirst, 0.99));
    console.log(row('mask p50, later rounds', samples.schemaWarm, samples.anyWarm, 0.5));
    console.log(row('mask p99, later rounds', samples.schemaWarm, samples.anyWarm, 0.99));
    console.log(
      `| ${name} | worst compile + first mask | ${compileSchema.toFixed(2)} ms | ${compileAny.toFixed(2)} ms | ${ratio(compileAny, compileSchema)} |`,
    );
    console.log(
      `| ${name} | any order, keys reversed: mask p50 / p99 | | ${quantile(samples.anyReversed, 0.5).toFixed(1)} / ${quantile(samples.anyReversed, 0.99).toFixed(1)} µs | |`,
    );
    results.push({
      vocabulary: name,
      maskP50Us: { schema: quantile(samples.schema, 0.5), any: quantile(samples.any, 0.5) },
      maskP99Us: { schema: quantile(samples.schema, 0.99), any: quantile(samples.any, 0.99) },
      maskP99FirstRoundUs: { schema: quantile(samples.schemaFirst, 0.99), any: quantile(samples.anyFirst, 0.99) },
      maskP99LaterRoundsUs: { schema: quantile(samples.schemaWarm, 0.99), any: quantile(samples.anyWarm, 0.99) },
      worstCompileMs: { schema: compileSchema, any: compileAny },
    });
  }
  console.log(JSON.stringify({ propertyOrder: results }));
}
