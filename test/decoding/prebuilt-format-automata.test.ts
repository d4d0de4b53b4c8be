/**
 * The format automata shipped prebuilt (src/decoding/prebuilt-format-automata.ts, and for Node the time
 * family's file src/decoding/prebuilt-time-automata.bin.gz) are what building the formats' regexes (and
 * their products) gives today, the files are what their script writes, and a grammar cache uses them
 * instead of determinizing the regexes again.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatLanguage } from '../../src/decoding/string-formats.js';
import { GrammarCache } from '../../src/decoding/grammar-cache.js';
import { PREBUILT_FORMAT_AUTOMATA } from '../../src/decoding/prebuilt-format-automata.js';
import { FILE_PREBUILT_FORMATS, productKey, unpackTimeAutomata } from '../../src/decoding/prebuilt-time-automata.js';
import { deserializeDfa, deserializeDfaBytes, serializeDfa } from '../../src/decoding/serialized-dfa.js';
import { CodePointDfa } from '../../src/shared/regex/code-point-dfa.js';
import { parseRegex } from '../../src/shared/regex/parse-regex.js';
import { generateModule, generateTimeAutomata, MODULE_PATH, PREBUILT_FORMATS, TIME_AUTOMATA_PATH } from '../../scripts/generate-format-automata.js';

const shape = (dfa: CodePointDfa): unknown => ({ start: dfa.start, accepting: [...dfa.accepting], transitions: dfa.transitions.map((ranges) => [...ranges]) });

describe('prebuilt format automata', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('is the file scripts/generate-format-automata.ts writes today (so each automaton is what building its regex gives)', async () => {
    expect(readFileSync(MODULE_PATH, 'utf8')).toBe(await generateModule());
  });

  it('holds every pattern of the chosen formats, each decoding to the automaton of its regex', () => {
    const keys: string[] = [];
    for (const name of PREBUILT_FORMATS) {
      const language = formatLanguage(name)!;
      if (language.kind !== 'string') throw new Error(name);
      for (const alternative of language.alternatives)
        for (const source of alternative.patterns) {
          const key = `${language.ignoreCase ? 'i' : '-'}${source}`;
          keys.push(key);
          const built = CodePointDfa.fromRegex(parseRegex(source, { ignoreAsciiCase: language.ignoreCase }));
          expect(shape(deserializeDfa(PREBUILT_FORMAT_AUTOMATA[key]!)), name).toEqual(shape(built));
        }
    }
    expect(Object.keys(PREBUILT_FORMAT_AUTOMATA).sort()).toEqual(keys.sort());
  });

  it('serializes any automaton losslessly, negative target offsets and the empty language included', () => {
    for (const dfa of [
      CodePointDfa.fromRegex(parseRegex('^(?:[a-z]+\\.)*[a-z]{2,}$')),
      CodePointDfa.fromRegex(parseRegex('^[\\u{10000}-\\u{10ffff}]é+$')),
      CodePointDfa.literals(['zeta', 'alpha', 'alp']),
      CodePointDfa.any(),
      new CodePointDfa([], new Uint8Array(0), -1),
    ])
      expect(shape(deserializeDfa(serializeDfa(dfa)))).toEqual(shape(dfa));
  });

  it('a grammar cache builds no automaton from a prebuilt regex, and gets the same answers', () => {
    const fromRegex = vi.spyOn(CodePointDfa, 'fromRegex');
    const cache = new GrammarCache();
    const uri = formatLanguage('uri')!;
    if (uri.kind !== 'string') throw new Error('uri');
    const dfa = cache.pattern(uri.alternatives[0]!.patterns[0]!, uri.ignoreCase);
    expect(fromRegex).not.toHaveBeenCalled();
    expect([dfa.matches('https://example.com/a?b#c'), dfa.matches('HTTP://X'), dfa.matches('no scheme'), dfa.matches('')]).toEqual([true, true, false, false]);
    // a regex that is not prebuilt is still built
    cache.pattern('^[a-z]+$', false);
    expect(fromRegex).toHaveBeenCalledTimes(1);
  });

  it('the time file is what the script writes, and holds each regex of the time formats and each product of an alternative, state by state', () => {
    const packed = gunzipSync(readFileSync(TIME_AUTOMATA_PATH));
    expect(Buffer.from(packed).equals(Buffer.from(generateTimeAutomata())), 'rerun npx tsx scripts/generate-format-automata.ts').toBe(true);
    const entries = unpackTimeAutomata(packed);
    const keys: string[] = [];
    for (const name of FILE_PREBUILT_FORMATS) {
      const language = formatLanguage(name)!;
      if (language.kind !== 'string') throw new Error(name);
      const keyOf = (source: string): string => `${language.ignoreCase ? 'i' : '-'}${source}`;
      for (const alternative of language.alternatives) {
        const built = alternative.patterns.map((source) => CodePointDfa.fromRegex(parseRegex(source, { ignoreAsciiCase: language.ignoreCase })));
        alternative.patterns.forEach((source, index) => {
          keys.push(keyOf(source));
          expect(shape(deserializeDfaBytes(entries.get(keyOf(source))!)), name).toEqual(shape(built[index]!));
        });
        if (built.length > 1) {
          keys.push(productKey(alternative.patterns.map(keyOf)));
          expect(shape(deserializeDfaBytes(entries.get(productKey(alternative.patterns.map(keyOf)))!)), `${name} product`).toEqual(
            shape(CodePointDfa.intersect(built)),
          );
        }
      }
    }
    expect([...entries.keys()].sort()).toEqual([...new Set(keys)].sort());
  });

  it('in Node, a grammar cache builds neither a regex nor a product of the time formats, and gets the same answers', () => {
    const fromRegex = vi.spyOn(CodePointDfa, 'fromRegex');
    const intersect = vi.spyOn(CodePointDfa, 'intersect');
    const cache = new GrammarCache();
    const dateTime = formatLanguage('date-time')!;
    if (dateTime.kind !== 'string') throw new Error('date-time');
    const products = dateTime.alternatives.map((alternative) =>
      cache.intersection(alternative.patterns.map((source) => cache.pattern(source, dateTime.ignoreCase))),
    );
    expect([fromRegex.mock.calls.length, intersect.mock.calls.length]).toEqual([0, 0]);
    const valid = (text: string): boolean => products.some((dfa) => dfa.matches(text));
    // the last two are leap seconds: 23:59:60 UTC is one, 22:59:60 UTC is not
    expect(['2024-02-29T12:30:00Z', '2024-02-30T12:30:00Z', '2024-01-01t00:00:00.5+01:00', '2016-12-31T23:59:60Z', '2016-12-31T22:59:60Z'].map(valid)).toEqual([
      true,
      false,
      true,
      true,
      false,
    ]);
    // a product with a schema's own regex is still built
    cache.intersection([cache.pattern(dateTime.alternatives[0]!.patterns[0]!, true), cache.pattern('^2024', false)]);
    expect([fromRegex.mock.calls.length, intersect.mock.calls.length]).toEqual([1, 1]);
  });

  it('without a file system (a browser, a Worker), a grammar cache builds the time formats from their regexes, with the same answers', async () => {
    vi.resetModules();
    vi.doMock('../../src/shared/node-builtin.js', () => ({ nodeBuiltin: () => undefined }));
    try {
      const fresh = await import('../../src/decoding/grammar-cache.js');
      const { CodePointDfa: FreshDfa } = await import('../../src/shared/regex/code-point-dfa.js');
      const fromRegex = vi.spyOn(FreshDfa, 'fromRegex');
      const cache = new fresh.GrammarCache();
      const time = formatLanguage('time')!;
      if (time.kind !== 'string') throw new Error('time');
      const products = time.alternatives.map((alternative) => cache.intersection(alternative.patterns.map((source) => cache.pattern(source, time.ignoreCase))));
      expect(fromRegex.mock.calls.length).toBeGreaterThan(0);
      const prebuilt = new GrammarCache();
      const expected = time.alternatives.map((alternative) =>
        prebuilt.intersection(alternative.patterns.map((source) => prebuilt.pattern(source, time.ignoreCase))),
      );
      expect(products.map(shape)).toEqual(expected.map(shape));
    } finally {
      vi.doUnmock('../../src/shared/node-builtin.js');
      vi.resetModules();
    }
  });
});
