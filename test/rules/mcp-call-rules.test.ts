/**
 * The call-rules table through the MCP server, with a real SDK client over an
 * in-memory transport: once with the client answering `elicitation/create` as
 * the person, once with a server-side confirmation handler.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/index.js';
import type { McpServerOptions } from '../../src/mcp/index.js';
import { silentLogger } from '../../src/tools/index.js';
import { CALL_RULE_CASES, expected, type CallRuleCase, type Observed, type PersonDecision } from './call-rules-table.js';

type Asker = 'elicitation' | 'handler';

async function throughMcp(rule: CallRuleCase, decision: PersonDecision, asker: Asker): Promise<Observed> {
  const ran: unknown[] = [];
  let asked: string | undefined;
  const options: McpServerOptions = { logger: silentLogger, ...(rule.context !== undefined ? { context: () => rule.context } : {}) };
  if (asker === 'handler') {
    options.confirmation = async (request) => {
      asked = request.summary;
      return decision === 'approve' ? { approved: true } : { approved: false, reason: 'not now' };
    };
  }
  const server = createMcpServer([rule.tool(ran)], options);
  const client = new Client({ name: 'rules-test', version: '1.0.0' }, { capabilities: asker === 'elicitation' ? { elicitation: { form: {} } } : {} });
  if (asker === 'elicitation') {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      // The prompt is "…needs your approval:\n<summary>\n  <argument lines>\nApprove this call?".
      asked = request.params.message.split('\n')[1];
      return { action: 'accept', content: { approve: decision === 'approve' } };
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const result = await client.callTool({ name: 'pay', arguments: rule.arguments });
    expect(result.isError).toBe(ran.length === 0);
    return { asked, runs: ran.length };
  } finally {
    await client.close();
  }
}

describe('call rules through the MCP server', () => {
  for (const asker of ['elicitation', 'handler'] as const) {
    describe(`asking through ${asker === 'elicitation' ? 'the client (elicitation)' : 'a confirmation handler'}`, () => {
      for (const rule of CALL_RULE_CASES) {
        for (const decision of ['approve', 'deny'] as const) {
          it(`${rule.name} (person would ${decision})`, async () => {
            expect(await throughMcp(rule, decision, asker)).toEqual(expected(rule, decision));
          });
        }
      }
    });
  }
});
