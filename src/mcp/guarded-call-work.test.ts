/**
 * The work a guarded MCP call costs the server: the server prepares the call (to tell an unknown tool from bad
 * arguments), and its session's guards check and run that same call without validating or hashing it again.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as loopBreaker from '../agent/loop-breaker.js';
import { createPolicy } from '../policy/index.js';
import { ToolRegistry, defineTool, silentLogger } from '../tools/index.js';
import { createMcpServer, type McpServerOptions } from './create-mcp-server.js';
import type * as LoopBreaker from '../agent/loop-breaker.js';

vi.mock('../agent/loop-breaker.js', async (importOriginal) => {
  const original = await importOriginal<typeof LoopBreaker>();
  return { ...original, callSignature: vi.fn(original.callSignature) };
});

const ran: string[] = [];
const refund = defineTool<{ invoice: string; amount: number }>({
  name: 'refund',
  description: 'Refunds an invoice.',
  effect: 'write',
  inputSchema: {
    type: 'object',
    properties: { invoice: { type: 'string' }, amount: { type: 'number' } },
    required: ['invoice', 'amount'],
    additionalProperties: false,
  },
  execute: ({ invoice, amount }) => (ran.push(`refund ${invoice} ${amount}`), 'refunded'),
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  vi.restoreAllMocks();
  ran.length = 0;
});

async function connect(options: McpServerOptions, elicit?: boolean): Promise<Client> {
  const server = createMcpServer([refund], { logger: silentLogger, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'work-test', version: '1.0.0' }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { approve: true } }));
  await client.connect(clientSide);
  closers.push(() => client.close());
  return client;
}

describe('a guarded MCP call', () => {
  it('is validated once and hashed once when its session has a policy and a call budget', async () => {
    const client = await connect({ policy: createPolicy({}), limits: { maxToolCalls: 10 } });
    const prepare = vi.spyOn(ToolRegistry.prototype, 'prepare');
    const signature = vi.mocked(loopBreaker.callSignature);
    signature.mockClear();
    const result = await client.callTool({ name: 'refund', arguments: { invoice: 'INV-1', amount: 5 } });
    expect(result.isError).toBeFalsy();
    expect(ran).toEqual(['refund INV-1 5']);
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(signature).toHaveBeenCalledTimes(1);
  });

  it('is validated once and hashed once when the guard asks a person through elicitation', async () => {
    const client = await connect({ guardToolCall: () => ({ action: 'confirm', reason: 'refunds need a person' }) }, true);
    const prepare = vi.spyOn(ToolRegistry.prototype, 'prepare');
    const signature = vi.mocked(loopBreaker.callSignature);
    signature.mockClear();
    const result = await client.callTool({ name: 'refund', arguments: { invoice: 'INV-2', amount: 7 } });
    expect(result.isError).toBeFalsy();
    expect(ran).toEqual(['refund INV-2 7']);
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(signature).toHaveBeenCalledTimes(1);
  });

  it('still refuses bad arguments with the registry text, and counts a repeated call when the loop breaker is on', async () => {
    const client = await connect({ limits: { maxIdenticalCalls: 2 } });
    const bad = await client.callTool({ name: 'refund', arguments: { invoice: 'INV-3' } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('amount');
    await client.callTool({ name: 'refund', arguments: { invoice: 'INV-4', amount: 1 } });
    const second = await client.callTool({ name: 'refund', arguments: { invoice: 'INV-4', amount: 1 } });
    expect(JSON.stringify(second.content)).toContain('was called 2 times with the same arguments');
    expect(ran).toEqual(['refund INV-4 1', 'refund INV-4 1']);
  });
});
