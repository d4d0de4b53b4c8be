import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TINY_MODEL_VERSION, tinyModelPath } from './tiny-model.js';

describe('where the tiny model is cached', () => {
  const file = `tiny-qwen3-v${TINY_MODEL_VERSION}.gguf`;

  it('uses .cache/models beside the sources in a checkout', () => {
    const checkout = join(sep, 'work', 'toolwright');
    expect(tinyModelPath(checkout, { TOOLWRIGHT_HOME: join(sep, 'home', 'ada', '.tw') })).toBe(join(checkout, '.cache', 'models', file));
  });

  it('uses $TOOLWRIGHT_HOME/models from an installed package, whose folder a global install may not let the user write', () => {
    const installed = join(sep, 'usr', 'lib', 'node_modules', 'toolwright');
    expect(tinyModelPath(installed, { TOOLWRIGHT_HOME: join(sep, 'home', 'ada', '.tw') })).toBe(join(sep, 'home', 'ada', '.tw', 'models', file));
  });

  it('falls back to ~/.toolwright/models when TOOLWRIGHT_HOME is unset or empty', () => {
    const installed = join(sep, 'app', 'node_modules', 'toolwright');
    expect(tinyModelPath(installed, { TOOLWRIGHT_HOME: '' })).toMatch(new RegExp(`\\.toolwright\\${sep}models\\${sep}${file.replace(/\./g, '\\.')}$`));
  });
});
