/**
 * Differential soundness: for each schema of `differential-schemas.ts`, under both layouts and
 * every property order the compile options support, every boundary instance generated from
 * the schema (`boundary-instances.ts`) is accepted by the mask exactly when the registry's
 * validator accepts it. "Accepted" is checked twice: the whole text through `acceptString`
 * then `canTerminate`, and token by token with the tokenizer's own segmentation, each token
 * checked against the mask before `accept`, then EOS. The whole cross product (every schema,
 * every instance) runs under each of the Qwen3, Llama 3 and Gemma 3 vocabularies, each with
 * its own tokenizer (which must reproduce the text byte for byte); no sampling per vocabulary,
 * since the three together cost about 27 s of CPU (Gemma's 262k-token index included). A valid instance is offered in
 * the grammar's layout (`grammar.format`), and under `propertyOrder: 'any'` also with its
 * keys reversed; an invalid one in every serialization tried (layout, insertion order, sorted
 * and reversed keys) and must be refused in all (token by token in the first of them).
 *
 * A schema the engine refuses is skipped and listed with the keyword the refusal names, so
 * the test starts covering a keyword the moment it is enforced; a refusal that names no
 * keyword of the schema fails. `DECODING_DIFF_RUNS=N` checks N instance samples (seeds) of
 * up to 400 instances each instead of one of 160.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError, type CompiledGrammar, type Vocabulary, type CompileJsonSchemaOptions } from '../../src/decoding/index.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { boundaryInstances } from './boundary-instances.js';
import { DIFFERENTIAL_CASES, type DifferentialCase } from './differential-schemas.js';
import { feed } from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const RUNS = Number(process.env.DECODING_DIFF_RUNS ?? 1);
const MAX_INSTANCES = RUNS > 1 ? 400 : 160;
const SEEDS = Array.from({ length: RUNS }, (_, run) => run + 1);
const LAYOUTS = ['compact', 'flexible'] as const;
/** Every vocabulary the mask engine is tested on: byte-level BPE (Qwen3, Llama 3) and SentencePiece with byte fallback (Gemma 3). */
const VOCABULARIES = ['qwen3', 'llama3', 'gemma3'] as const;

type PropertyOrder = 'schema' | 'any';

/**
 * The property orders this build's `compileJsonSchema` supports: `'any'` counts only when a
 * grammar compiled with it accepts two required properties written in reverse order (an
 * unknown option is ignored, and schema order would refuse them).
 */
function supportedPropertyOrders(vocabulary: Vocabulary): PropertyOrder[] {
  const orders: PropertyOrder[] = ['schema'];
  try {
    const probe = { type: 'object', properties: { a: { const: 1 }, b: { const: 2 } }, required: ['a', 'b'], additionalProperties: false };
    const grammar = compileJsonSchema(probe, vocabulary, { propertyOrder: 'any' } as CompileJsonSchemaOptions);
    const matcher = grammar.matcher();
    if (matcher.acceptString('{"b":2,"a":1}') && matcher.canTerminate()) orders.push('any');
  } catch {
    // the option exists but refuses the probe: schema order only
  }
  return orders;
}

function compactWithKeys(value: unknown, order: (keys: string[]) => string[]): string | undefined {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(order(Object.keys(inner)).map((name) => [name, (inner as Record<string, unknown>)[name]]))
      : inner,
  );
}

/** A layout text's keys reversed at every level, when re-serializing the parsed text reproduces it (so numbers and escapes keep their layout form). */
function reversedLayoutText(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  // integer-like keys are reordered by any JavaScript object, so the round trip cannot be trusted
  if (compactWithKeys(parsed, (keys) => keys) !== text || /"\d+":/.test(text)) return undefined;
  return compactWithKeys(parsed, (keys) => [...keys].reverse());
}

const textEncoder = new TextEncoder();

/** Whether the token byte strings, concatenated, are exactly `expected`. */
function sameBytes(parts: readonly Uint8Array[], expected: Uint8Array): boolean {
  let offset = 0;
  for (const part of parts) {
    if (offset + part.length > expected.length) return false;
    for (let index = 0; index < part.length; index++) if (part[index] !== expected[offset + index]) return false;
    offset += part.length;
  }
  return offset === expected.length;
}

/** Whether some key order of the instance differs from the given text (so reversing it tests something). */
const hasSeveralKeys = (text: string): boolean => /[{,]"[^"]*":[^]*,"/.test(text);

describe('differential soundness: mask acceptance equals the registry validator on boundary instances', () => {
  it('generates valid and invalid instances for every schema (guards the fixtures, refused schemas included)', () => {
    const oneSided: string[] = [];
    for (const testCase of DIFFERENTIAL_CASES) {
      const validator = compileSchema(testCase.schema as never);
      const labels = boundaryInstances(testCase.schema, { seed: 1, maxInstances: MAX_INSTANCES }).map((value) => validator.validate(value).success);
      if (!labels.includes(true) || !labels.includes(false)) oneSided.push(`${testCase.name}: ${labels.filter(Boolean).length} valid of ${labels.length}`);
    }
    expect(oneSided).toEqual([]);
  });
});

for (const vocabularyName of VOCABULARIES)
  describe(`differential soundness under the ${vocabularyName} vocabulary`, () => {
    let vocabulary: Vocabulary;
    let encode: (text: string) => number[];
    let orders: PropertyOrder[];

    beforeAll(() => {
      ({ vocabulary, encode } = loadTestTokenizer(vocabularyName));
      orders = supportedPropertyOrders(vocabulary);
    }, 120_000);

    afterAll(() => {
      // three vocabularies' indexes and tokenizers would otherwise stay alive until the file ends
      vocabulary = undefined as unknown as Vocabulary;
      encode = undefined as unknown as typeof encode;
    });

    /**
     * The mask's verdict on a text: through acceptString, and token by token when `byToken` (a disagreement between the two ways is
     * itself reported).
     */
    const verdict = (grammar: CompiledGrammar, text: string, problems: string[], where: string, byToken = true): boolean => {
      const matcher = grammar.matcher();
      const whole = matcher.acceptString(text) && matcher.canTerminate();
      let tokens = whole;
      if (byToken) {
        const ids = encode(text);
        // a tokenizer that normalizes the text would test another string than acceptString did
        if (
          !sameBytes(
            ids.map((id) => vocabulary.tokenBytes(id)),
            textEncoder.encode(text),
          )
        )
          problems.push(`${where}: the tokenizer does not reproduce the text: ${text.slice(0, 160)}`);
        tokens = feed(grammar, ids) === -1;
      }
      if (whole !== tokens) problems.push(`${where}: acceptString says ${whole}, token by token ${tokens}: ${text.slice(0, 160)}`);
      return whole && tokens;
    };

    const checkCase = (
      testCase: DifferentialCase,
      layout: (typeof LAYOUTS)[number],
      order: PropertyOrder,
      seeds: readonly number[],
    ): { problems: string[]; refusal?: string } => {
      const options = {
        layout,
        ...(order === 'any' ? { propertyOrder: order } : {}),
        ...(testCase.limits === undefined ? {} : { limits: testCase.limits }),
      } as CompileJsonSchemaOptions;
      let grammar: CompiledGrammar;
      try {
        grammar = compileJsonSchema(testCase.schema, vocabulary, options);
      } catch (error) {
        if (!(UnsupportedSchemaError.isInstance(error) && error instanceof UnsupportedSchemaError)) throw error;
        // a refusal must name a keyword the schema uses: anything else would hide an approximation
        const named = error.keyword !== '' && JSON.stringify(testCase.schema).includes(`"${error.keyword}"`);
        return { problems: named ? [] : [`refusal names "${error.keyword}", which the schema does not use`], refusal: `${error.keyword} at ${error.pointer}` };
      }
      const validator = compileSchema(testCase.schema as never);
      const problems: string[] = [];
      let valid = 0;
      let invalid = 0;
      const instances = seeds.flatMap((seed) => boundaryInstances(testCase.schema, { seed, maxInstances: MAX_INSTANCES }));
      for (const value of instances) {
        const where = `${testCase.name} [${layout}, ${order} order]`;
        const registryAccepts = validator.validate(value).success;
        if (registryAccepts && testCase.knownLimit?.applies(value) === true) {
          // the documented narrowing holds: the mask refuses the value (an acceptance means the docs are stale)
          const text = grammar.format(value) ?? JSON.stringify(value);
          if (verdict(grammar, text, problems, where))
            problems.push(`${where}: accepted past the known limit (${testCase.knownLimit.limit}): ${text.slice(0, 160)}`);
        } else if (registryAccepts) {
          valid++;
          const text = grammar.format(value);
          if (text === undefined) {
            problems.push(`${where}: valid instance has no layout text: ${JSON.stringify(value)?.slice(0, 160)}`);
            continue;
          }
          if (!verdict(grammar, text, problems, where)) problems.push(`${where}: valid instance rejected: ${text.slice(0, 160)}`);
          const reversed = order === 'any' && hasSeveralKeys(text) ? reversedLayoutText(text) : undefined;
          if (reversed !== undefined && !verdict(grammar, reversed, problems, where))
            problems.push(`${where}: valid instance with keys reversed rejected: ${reversed.slice(0, 160)}`);
        } else {
          invalid++;
          const texts = new Set(
            [
              grammar.format(value),
              JSON.stringify(value),
              compactWithKeys(value, (keys) => [...keys].sort()),
              compactWithKeys(value, (keys) => [...keys].reverse()),
            ].filter((text): text is string => text !== undefined),
          );
          // the first text (the layout's, else compact JSON) also token by token; the other orders through acceptString, to keep the run short
          [...texts].forEach((text, index) => {
            if (verdict(grammar, text, problems, where, index === 0)) problems.push(`${where}: INVALID instance accepted: ${text.slice(0, 160)}`);
          });
        }
      }
      // instances on both sides, or the case proves nothing
      if (valid === 0 || invalid === 0) problems.push(`${testCase.name}: generated ${valid} valid and ${invalid} invalid instances; both sides are needed`);
      return { problems };
    };

    for (const layout of LAYOUTS) {
      it(`${layout} layout: every compiled schema agrees with the validator on every boundary instance`, () => {
        const problems: string[] = [];
        const refused = new Map<string, string>();
        let checked = 0;
        for (const order of orders)
          for (const testCase of DIFFERENTIAL_CASES) {
            if (testCase.propertyOrders !== undefined && !testCase.propertyOrders.includes(order)) continue;
            const result = checkCase(testCase, layout, order, SEEDS);
            problems.push(...result.problems);
            if (result.refusal !== undefined) refused.set(`${testCase.name} [${order} order]`, result.refusal);
            else checked++;
          }
        console.log(
          `differential soundness (${vocabularyName}, ${layout}; property orders: ${orders.join(', ')}): ${checked} schemas checked; refused today, skipped:\n` +
            [...refused].map(([name, reason]) => `  ${name}: ${reason}`).join('\n'),
        );
        expect(problems).toEqual([]);
        // the controls compile today, so the test is never vacuous
        expect(checked).toBeGreaterThanOrEqual(3 * orders.length);
      }, 300_000);
    }
  });
