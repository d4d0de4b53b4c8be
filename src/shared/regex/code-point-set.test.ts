import { describe, expect, it } from 'vitest';
import { nonSurrogateCount } from './code-point-set.js';

describe('nonSurrogateCount', () => {
  it('counts the code points of a range that are not surrogates, as counting them one by one does', () => {
    const edges = [0, 0x41, 0xd7fe, 0xd7ff, 0xd800, 0xd801, 0xdbff, 0xdc00, 0xdffe, 0xdfff, 0xe000, 0xe001, 0xffff, 0x10ffff];
    for (const lo of edges)
      for (const hi of edges) {
        if (hi < lo) continue;
        let expected = 0;
        for (let codePoint = lo; codePoint <= hi; codePoint++) if (codePoint < 0xd800 || codePoint > 0xdfff) expected++;
        expect(nonSurrogateCount(lo, hi), `${lo.toString(16)}..${hi.toString(16)}`).toBe(expected);
      }
  });
});
