import { defineConfig } from 'vitest/config';

/** The provider suites that run a second time against `openai` 7 (see test/provider-server/use-openai-v7.ts). */
const OPENAI_PROVIDER_SUITES = [
  'openai-majors',
  'parallel-tool-calls',
  'provider-cases',
  'request-bodies',
  'response-mapping',
  'responses-namespaces',
  'stream-agent-providers',
  'structured-output',
].map((name) => `test/provider-server/${name}.test.ts`);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default on a 2-core machine is one worker (cores - 1); most of the suite waits on child processes,
    // servers and sockets, so two share the machine well and the suite's wall time drops.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'default', provide: { openaiMajor: 6 }, include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'openai-7', provide: { openaiMajor: 7 }, include: OPENAI_PROVIDER_SUITES, setupFiles: ['test/provider-server/use-openai-v7.ts'] },
      },
    ],
  },
});
