/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector --cli`), a real
 * client, lists and calls toolwright tools over stdio and over HTTP: the same
 * commands docs/mcp.md shows.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFORMANCE_PACK, ROOT, cliCommand, startHttpServe } from './serve-cli.js';
import type { ServingCli } from './serve-cli.js';

const INSPECTOR = resolve(ROOT, 'node_modules/.bin/mcp-inspector');
let home: string;

function inspector(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolveRun) => {
    execFile(
      INSPECTOR,
      ['--cli', ...args],
      // A throwaway HOME: the Inspector creates ~/.mcp-inspector; the memory store keeps it away from any keychain.
      { cwd: ROOT, timeout: 60_000, env: { ...process.env, HOME: home, MCP_INSPECTOR_SECRET_STORE: 'memory' } },
      (error, stdout, stderr) => resolveRun({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'toolwright-inspector-'));
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

describe('MCP Inspector CLI over stdio', () => {
  const [node, serveArgs] = cliCommand('serve', '--tools', CONFORMANCE_PACK);

  it('lists the tools with their annotations', async () => {
    const run = await inspector([node, ...serveArgs, '--method', 'tools/list']);
    expect(run.code).toBe(0);
    const { tools } = JSON.parse(run.stdout) as { tools: { name: string; annotations: unknown }[] };
    expect(tools).toHaveLength(14);
    expect(tools[0]).toMatchObject({ name: 'test_simple_text', annotations: { readOnlyHint: true, openWorldHint: false } });
  }, 90_000);

  it('calls a tool with arguments', async () => {
    const run = await inspector([
      '-q',
      '--format',
      'json',
      node,
      ...serveArgs,
      '--method',
      'tools/call',
      '--tool-name',
      'json_schema_2020_12_tool',
      '--tool-args-json',
      '{"name":"Ada"}',
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      result: { content: [{ type: 'text', text: 'JSON Schema 2020-12 tool called with: {"name":"Ada"}' }], isError: false },
    });
  }, 90_000);
});

describe('MCP Inspector CLI over Streamable HTTP', () => {
  let server: ServingCli;
  beforeAll(async () => {
    server = await startHttpServe();
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('calls a tool', async () => {
    const run = await inspector(['--format', 'json', server.url, '--method', 'tools/call', '--tool-name', 'test_simple_text']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ result: { content: [{ type: 'text', text: 'This is a simple text response for testing.' }], isError: false } });
  }, 90_000);

  it('shows a tool error as isError, with exit code 5', async () => {
    const run = await inspector(['--format', 'json', server.url, '--method', 'tools/call', '--tool-name', 'test_error_handling']);
    expect(run.code).toBe(5);
    expect(JSON.parse(run.stdout)).toEqual({
      result: {
        content: [
          {
            type: 'text',
            text: 'Tool "test_error_handling" failed: This tool intentionally returns an error for testing. Retrying the same call with the same arguments will fail the same way.',
          },
        ],
        isError: true,
      },
    });
  }, 90_000);
});
