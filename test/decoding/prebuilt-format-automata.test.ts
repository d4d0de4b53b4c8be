/**
 * The format automata shipped prebuilt (src/decoding/prebuilt-format-automata.ts) are what building
 * the formats' regexes gives today, the file is what its script writes, and a grammar cache uses them
 * instead of determinizing the regexes again.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatLanguage } from '../../src/decoding/string-formats.js';
import { GrammarCache } from '../../src/decoding/grammar-cache.js';
import { PREBUILT_FORMAT_AUTOMATA } from '../../src/decoding/prebuilt-format-automata.js';
import { deserializeDfa, serializeDfa } from '../../src/decoding/serialized-dfa.js';
import { CodePointDfa } from '../../src/shared/regex/code-point-dfa.js';
import { parseRegex } from '../../src/shared/regex/parse-regex.js';
import { generateModule, MODULE_PATH, PREBUILT_FORMATS } from '../../scripts/generate-format-automata.js';

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
});
