import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../shared/errors.js';
import { writeGguf } from './gguf-writer.js';

describe('writeGguf', () => {
  it('refuses a Q8_0 tensor whose length is not a multiple of the block size, before writing anything', async () => {
    const path = join(tmpdir(), `toolwright-gguf-writer-${process.pid}.gguf`);
    const written = writeGguf(path, {}, [{ name: 'odd', dims: [31], type: 'Q8_0', data: new Float32Array(31) }]);
    await expect(written).rejects.toThrow(InvalidArgumentError);
    await expect(written).rejects.toThrow('Tensor odd has 31 values; Q8_0 stores blocks of 32');
    expect(existsSync(path)).toBe(false);
  });
});
