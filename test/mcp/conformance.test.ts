/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`,
 * server mode) against `toolwright serve --http` with the conformance pack.
 * A scenario passes when it has no FAILURE check and at least one SUCCESS
 * (the CLI's own ✓ also counts scenarios with no checks at all).
 *
 * 0.1.13 is the last release that runs on Node 20; its server scenarios are
 * those of 0.1.16, the current `latest`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startHttpServe } from './serve-cli.js';
import type { ServingCli } from './serve-cli.js';

/** The 30 scenarios of the active suite; all must pass. */
const ACTIVE_SCENARIOS = [
  'server-initialize',
  'logging-set-level',
  'ping',
  'completion-complete',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-with-logging',
  'tools-call-error',
  'tools-call-with-progress',
  'tools-call-sampling',
  'tools-call-elicitation',
  'elicitation-sep1034-defaults',
  'server-sse-multiple-streams',
  'elicitation-sep1330-enums',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'resources-subscribe',
  'resources-unsubscribe',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'dns-rebinding-protection',
];

const CONFORMANCE = resolve(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
/** A conformant server finishes in seconds; each missing server-to-client round trip costs the suite a 60 s client timeout. */
const RUN_LIMIT_MS = 240_000;

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO';
  errorMessage?: string;
}

describe('MCP conformance suite against toolwright serve --http', () => {
  let server: ServingCli;
  let output: string;
  beforeAll(async () => {
    server = await startHttpServe();
    output = mkdtempSync(join(tmpdir(), 'toolwright-conformance-'));
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    if (output) rmSync(output, { recursive: true, force: true });
  });

  it(
    'passes all 30 active scenarios',
    async () => {
      await promisify(execFile)(process.execPath, [CONFORMANCE, 'server', '--url', server.url, '-o', output], {
        cwd: ROOT,
        timeout: RUN_LIMIT_MS,
        maxBuffer: 16 * 1024 * 1024,
      }).catch(
        // Exit code 1 means some check failed; the per-scenario results below say which.
        (error: { code?: unknown; stdout?: string }) => {
          if (error.code !== 1) throw error;
        },
      );
      const results = new Map<string, Check[]>();
      for (const folder of readdirSync(output)) {
        const scenario = folder.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
        results.set(scenario, JSON.parse(readFileSync(join(output, folder, 'checks.json'), 'utf8')) as Check[]);
      }
      const passed = [...results]
        .filter(([, checks]) => checks.some((check) => check.status === 'SUCCESS') && !checks.some((check) => check.status === 'FAILURE'))
        .map(([name]) => name);
      const failures = [...results]
        .filter(([name]) => !passed.includes(name))
        .map(
          ([name, checks]) =>
            `${name}: ${
              checks
                .filter((check) => check.status !== 'SUCCESS')
                .map((check) => `${check.id} ${check.status} ${check.errorMessage ?? ''}`)
                .join('; ') || 'no checks'
            }`,
        );
      expect(failures).toEqual([]);
      expect(passed.sort()).toEqual([...ACTIVE_SCENARIOS].sort());
      // The server stayed up and logged no stack trace for anything the suite sent.
      expect(server.child.exitCode).toBeNull();
      expect(server.stderr()).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
      // SIGTERM closes the ~35 sessions the suite left open and exits cleanly.
      expect(await server.stop()).toBe(0);
    },
    RUN_LIMIT_MS + 30_000,
  );
});
