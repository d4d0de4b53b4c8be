/**
 * Optional peers (provider SDKs, better-sqlite3, zod) load on first use, so an
 * app that never calls OpenAI does not need `openai` installed. When one is
 * missing, the user gets a coded error naming the package to install instead
 * of Node's bare `ERR_MODULE_NOT_FOUND`.
 * @module
 */
import { MissingPeerError } from './errors.js';

/** Whether `error` is Node's "cannot find package" for `packageName` itself (not for something it imports). */
export function isMissingPackage(error: unknown, packageName: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = String((error as { message?: unknown }).message);
  // ESM: "Cannot find package 'openai' imported from …"; CommonJS: "Cannot find module 'zod/v4/core'".
  return [`'${packageName}'`, `"${packageName}"`, `'${packageName}/`, `"${packageName}/`].some((quoted) => message.includes(quoted));
}

/**
 * Runs `load` (a literal `import('pkg')`, so bundlers and TypeScript still see the
 * specifier) and turns a missing `packageName` into {@link MissingPeerError}.
 * Any other failure (a broken native addon, a syntax error) is rethrown as is.
 */
export async function loadPeer<T>(packageName: string, feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissingPackage(error, packageName)) throw new MissingPeerError(packageName, feature, { cause: error });
    throw error;
  }
}
