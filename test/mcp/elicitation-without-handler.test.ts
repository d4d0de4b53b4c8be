/**
 * A client that declares elicitation but sets no handler for it (issue #30, friction 7): the official SDK's `Client`
 * then answers `elicitation/create` with "Method not found". `toolwright serve` over stdio must not run the call,
 * answer a tool error that says why and what to do, log one line without a stack trace, and keep serving.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/create-mcp-server.js';
import { defineTool } from '../../src/tools/index.js';
import { ROOT, cliCommand } from './serve-cli.js';

const PACK = 'test/mcp/fixtures/confirmed-write-pack.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolwright-elicitation-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('toolwright serve, a client that declares elicitation without answering it', () => {
  it.each([
    ['elicitation: {}', {}],
    ['elicitation: { form: {} }', { form: {} }],
  ])(
    '%s: the call does not run, the tool error says why, stderr has one line and no stack',
    async (_label, elicitation) => {
      const [command, args] = cliCommand('serve', PACK);
      const ranFile = join(dir, 'ran.log');
      const transport = new StdioClientTransport({ command, args, cwd: ROOT, env: { ...getDefaultEnvironment(), TW_TEST_RAN_FILE: ranFile }, stderr: 'pipe' });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const client = new Client({ name: 'no-elicitation-handler', version: '1' }, { capabilities: { elicitation } });
      await client.connect(transport);
      try {
        const startup = stderr;
        const result = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/x' } });
        expect(result.isError).toBe(true);
        const text = (result.content as Array<{ text: string }>)[0]!.text;
        expect(text).toBe(
          'The call to "delete_file" did not run: it needs a person\'s approval, and asking for it failed: the client declared the "elicitation" capability but does not handle elicitation/create requests (it answered "Method not found"). ' +
            'Call that was refused: delete_file(path: "/tmp/x"). Do not call it again unless the person asks you to. Tell the person what you want to do. ' +
            'To approve it they can use an MCP client whose elicitation works, or restart the server with `toolwright serve --approve delete_file` to let this tool run without asking.',
        );
        // Still serving: a second call is answered the same way.
        expect((await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/y' } })).isError).toBe(true);
        expect(await readFile(ranFile, 'utf8').catch(() => '')).toBe('');
        // One line per refused call, and no stack frame.
        const line =
          '[toolwright] asking to confirm "delete_file" failed: the client declared the "elicitation" capability but does not handle elicitation/create requests (it answered "Method not found"); the call did not run';
        expect(stderr.slice(startup.length)).toBe(`${line}\n${line}\n`);
        expect(stderr).not.toMatch(/^\s+at /m);
      } finally {
        await client.close();
      }
    },
    60_000,
  );
});

describe('createMcpServer, a client that never answers the confirmation', () => {
  it('refuses the call at confirmationTimeoutMs, saying so, and logs one line without the error object', async () => {
    let ran = false;
    const deleteFile = defineTool<{ path: string }>({
      name: 'delete_file',
      description: 'Deletes a file.',
      effect: 'write',
      confirm: true,
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      execute: ({ path }) => {
        ran = true;
        return `deleted ${path}`;
      },
    });
    const logged: Array<[string, Record<string, unknown>]> = [];
    const server = createMcpServer([deleteFile], { confirmationTimeoutMs: 200, logger: { error: (message, details) => logged.push([message, details]) } });
    const client = new Client({ name: 'silent', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, () => new Promise<never>(() => {}));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    const result = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/x' } });
    expect(result.isError).toBe(true);
    expect((result.content as Array<{ text: string }>)[0]!.text).toContain('asking for it failed: nobody answered within 200 ms. Call that was refused:');
    expect(ran).toBe(false);
    expect(logged).toEqual([
      ['asking to confirm "delete_file" failed: nobody answered within 200 ms; the call did not run', { toolName: 'delete_file', errorCode: -32001 }],
    ]);
    await client.close();
  });
});
