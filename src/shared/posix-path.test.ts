import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveFromRoot } from './posix-path.js';
import { mulberry32 } from './seeded-random.js';

describe('resolveFromRoot', () => {
  it("gives node:path's posix.resolve('/', text) for paths of dots, slashes and names", () => {
    const random = mulberry32(28);
    const pieces = ['/', '//', '.', '..', '...', 'etc', 'a b', '.env', '~', '\\', 'x/'];
    const texts = ['', '/', '.', '..', '../..', '/etc/../../passwd', './a/./b/', 'a//b'];
    for (let index = 0; index < 2000; index++) {
      let text = '';
      const length = Math.floor(random() * 8);
      for (let position = 0; position < length; position++) text += pieces[Math.floor(random() * pieces.length)];
      texts.push(text);
    }
    for (const text of texts) expect(resolveFromRoot(text), JSON.stringify(text)).toBe(posix.resolve('/', text));
  });
});
