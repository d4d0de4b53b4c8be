import { homedir } from 'node:os';
import { join } from 'node:path';
import * as fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeBuiltin } from './node-builtin.js';
import { toolwrightHome } from './toolwright-home.js';

const getBuiltinModule = process.getBuiltinModule;
afterEach(() => {
  process.getBuiltinModule = getBuiltinModule;
});

/** A runtime without Node's built-ins, as a browser is: `process.getBuiltinModule` gone for the test. */
function withoutBuiltins(): void {
  (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
}

describe('nodeBuiltin', () => {
  it('gives Node’s own module where the runtime has it', () => {
    expect(nodeBuiltin('node:fs')?.readFileSync).toBe(fs.readFileSync);
  });

  it('gives undefined where the runtime has no built-ins', () => {
    withoutBuiltins();
    expect(nodeBuiltin('node:fs')).toBeUndefined();
  });
});

describe('toolwrightHome without built-ins', () => {
  it('still answers TOOLWRIGHT_HOME, and asks for it instead of guessing a home folder', () => {
    expect(toolwrightHome({})).toBe(join(homedir(), '.toolwright'));
    withoutBuiltins();
    expect(toolwrightHome({ TOOLWRIGHT_HOME: '/srv/toolwright' })).toBe('/srv/toolwright');
    expect(() => toolwrightHome({})).toThrow(expect.objectContaining({ code: 'TW_INVALID_ARGUMENT', message: expect.stringContaining('Set TOOLWRIGHT_HOME') }));
  });
});
