/**
 * One fake provider server for a test file (or `describe` block): started before its tests, reset before each, closed
 * after all. Kept apart from `index.ts`, which benchmarks import outside vitest.
 * @module
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startProviderServer, type ProviderServer, type ProviderServerOptions } from './provider-server.js';

/** Registers the hooks; `started` receives the server once it listens (assign it to the file's `server`). */
export function useProviderServer(started: (server: ProviderServer) => void, options?: ProviderServerOptions): void {
  let server: ProviderServer | undefined;
  beforeAll(async () => {
    server = await startProviderServer(options);
    started(server);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => server?.reset());
}
