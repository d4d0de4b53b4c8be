import { describe, expect, it } from 'vitest';
import { MissingPeerError, ToolwrightError } from './errors.js';
import { isMissingPackage, loadPeer } from './load-peer.js';

function nodeError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('loadPeer', () => {
  it('turns a missing package into MissingPeerError naming the npm i command', async () => {
    const missing = nodeError('ERR_MODULE_NOT_FOUND', "Cannot find package 'openai' imported from /app/node_modules/toolwright/dist/models/openai/x.js");
    const failure = await loadPeer('openai', 'An OpenAI model (openai:…)', () => Promise.reject(missing)).catch((error: unknown) => error);
    expect(MissingPeerError.isInstance(failure)).toBe(true);
    const error = failure as MissingPeerError;
    expect(error.code).toBe('TW_MISSING_PEER');
    expect(error.packageName).toBe('openai');
    expect(error.message).toContain('npm i openai');
    expect(error.cause).toBe(missing);
  });

  it('rethrows a failure that is not the peer itself missing (a dependency of it, a broken addon)', async () => {
    const inner = nodeError('ERR_MODULE_NOT_FOUND', "Cannot find package 'formdata-node' imported from /app/node_modules/openai/index.mjs");
    await expect(loadPeer('openai', 'x', () => Promise.reject(inner))).rejects.toBe(inner);
    const broken = new Error('The module was compiled against a different Node.js version');
    await expect(loadPeer('better-sqlite3', 'x', () => Promise.reject(broken))).rejects.toBe(broken);
  });

  it('recognises CommonJS and subpath forms of the message', () => {
    expect(isMissingPackage(nodeError('MODULE_NOT_FOUND', "Cannot find module 'zod/v4/core'"), 'zod')).toBe(true);
    expect(isMissingPackage(nodeError('MODULE_NOT_FOUND', "Cannot find module 'zod4-alt'"), 'zod')).toBe(false);
    expect(isMissingPackage('not an error', 'zod')).toBe(false);
  });

  it('returns what the loader returns', async () => {
    await expect(loadPeer('node:path', 'x', () => import('node:path'))).resolves.toHaveProperty('join');
  });

  it('reports a really absent package through the real module loader', async () => {
    const name = 'toolwright-no-such-peer-package';
    const failure = await loadPeer(name, 'This test', () => import(/* @vite-ignore */ name)).catch((error: unknown) => error);
    expect(ToolwrightError.isInstance(failure) && (failure as MissingPeerError).packageName).toBe(name);
  });
});
