import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/shared/errors.js';

const doc = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/errors.md'), 'utf8');

describe('error codes', () => {
  it('documents every code in docs/errors.md', () => {
    expect(Object.keys(ERROR_CODES).filter((code) => !doc.includes(`\`${code}\``))).toEqual([]);
  });

  it('documents no code that no longer exists', () => {
    const documented = [...doc.matchAll(/`(TW_[A-Z_]+)`/g)].map((match) => match[1]!);
    expect(documented.filter((code) => !(code in ERROR_CODES))).toEqual([]);
  });
});
