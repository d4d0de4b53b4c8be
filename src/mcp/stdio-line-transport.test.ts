import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InvalidStateError } from '../shared/errors.js';
import { StdioLineTransport } from './stdio-line-transport.js';

describe('StdioLineTransport', () => {
  it('refuses a second start with a coded error that says who starts it', async () => {
    const transport = new StdioLineTransport(new PassThrough(), new PassThrough());
    await transport.start();
    const second = await transport.start().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(InvalidStateError.isInstance(second) && second.code).toBe('TW_INVALID_STATE');
    expect((second as Error).message).toContain('Server.connect() starts it');
    await transport.close();
  });
});
