import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import { CodePointDfa, MAX_DFA_STATES } from '../shared/regex/code-point-dfa.js';
import { parseRegex } from '../shared/regex/parse-regex.js';
import { formatLanguage } from './string-formats.js';

/** The format's one alternative as the engine compiles it, and the same source as a JavaScript regex with ajv-formats' flags. */
function urlLanguage(): { dfa: CodePointDfa; rewritten: RegExp } {
  const language = formatLanguage('url');
  if (language?.kind !== 'string' || language.alternatives.length !== 1 || language.alternatives[0]!.patterns.length !== 1)
    throw new Error(`url is not one string pattern: ${JSON.stringify(language)}`);
  const [source] = language.alternatives[0]!.patterns as [string];
  return { dfa: CodePointDfa.fromRegex(parseRegex(source, { ignoreAsciiCase: language.ignoreCase })), rewritten: new RegExp(source, 'iu') };
}

/** Every octet text of one to three digits, leading zeros included ("0" … "999", "00" … "099", "000" … "099"). */
const OCTET_TEXTS = [1, 2, 3].flatMap((digits) => Array.from({ length: 10 ** digits }, (_, value) => String(value).padStart(digits, '0')));

describe('format "url": ajv-formats\' lookaheads rewritten as differences', () => {
  const ajvUrl = fullFormats.url as RegExp;
  const { dfa, rewritten } = urlLanguage();

  const disagreements = (texts: Iterable<string>): string[] => {
    const out: string[] = [];
    for (const text of texts) {
      const expected = ajvUrl.test(text);
      if (dfa.matches(text) !== expected || rewritten.test(text) !== expected) out.push(`${text}: ajv-formats says ${expected}`);
    }
    return out;
  };

  function* firstTwoOctets(): Generator<string> {
    for (const first of OCTET_TEXTS)
      for (const second of ['0', '00', '1', '15', '16', '016', '31', '32', '168', '254', '255', '256'])
        for (const rest of ['.0.1', '.1.254', '.01.1', '.1.0', '.1.255', '.1', ':80', '.1.1:8080/p', '.1.1.example.com'])
          yield `http://${first}.${second}${rest}`;
    // the second octet decides for 169, 172 and 192 only; the others show the first octet alone decides
    for (const first of ['10', '127', '169', '172', '192', '1', '11', '168', '173', '191', '223'])
      for (const second of OCTET_TEXTS) yield `http://user@${first}.${second}.1.1/path`;
  }

  it('accepts exactly what ajv-formats accepts on every first and second octet text around the private ranges', () => {
    expect(disagreements(firstTwoOctets())).toEqual([]);
  });

  it('lets the userinfo split decide as the lookaheads do (a later "@" can move the host past a private address)', () => {
    const texts = [
      'http://10.0.0.1',
      'http://user:pw@10.0.0.1',
      'http://a@10.0.0.1@8.8.8.8',
      'http://a@8.8.8.8@10.0.0.1',
      'http://1.2.3.4/@10.0.0.1',
      'http://10.0.0.1.example.com',
      'http://10.0.0.1:8080@example.com',
      'http://192.168.0.1@example.com',
      'ftp://:@172.16.0.1',
      'ftp://:@172.16.0.1.io',
    ];
    expect(disagreements(texts)).toEqual([]);
    // both sides occur, so the comparison above can fail
    expect(new Set(texts.map((text) => ajvUrl.test(text)))).toEqual(new Set([true, false]));
  });

  it('folds case as the iu flags do: ASCII letters, and U+017F (long s) for the scheme\'s "s"', () => {
    const texts = ['HTTPS://EXAMPLE.COM', 'http\u017f://example.com', 'ftp\u017f://example.com', 'http://\u212Aelvin.example', 'http://example.\u017f\u017f'];
    expect(texts.map((text) => ajvUrl.test(text))).toEqual([true, true, false, true, true]);
    expect(disagreements(texts)).toEqual([]);
  });

  it('agrees on every BMP code point (and every 97th astral one) in the scheme (where "s" may be), a host label, the TLD, the userinfo and the path', () => {
    function* oneCharacterApart(): Generator<string> {
      for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += codePoint < 0x10000 ? 1 : 97) {
        if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
        const char = String.fromCodePoint(codePoint);
        yield* [`http${char}://a.com`, `http://x${char}y.com`, `http://a.b${char}`, `http://a${char}b@1.2.3.4/${char}`];
      }
    }
    expect(disagreements(oneCharacterApart())).toEqual([]);
  });

  it('compiles to a small automaton, far inside the DFA budget', () => {
    expect(dfa.stateCount).toBeLessThan(MAX_DFA_STATES / 100);
  });
});
