/**
 * Hardening: one tool's schema cannot replace another's validator. Validators
 * used to come from one process-wide Ajv keyed by `$id`, so a tool imported from
 * a remote MCP server whose schema carried a local tool's `$id` silently made the
 * local tool validate with the remote, permissive schema (or the reverse,
 * depending on which was compiled first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importMcpTools, type ImportedMcpTools } from '../../src/mcp/import-mcp-tools.js';
import { SchemaCompileError } from '../../src/shared/errors.js';
import { compileSchema, defineTool, silentLogger, ToolRegistry } from '../../src/tools/index.js';
import type { AnyTool } from '../../src/tools/index.js';
import { startRawMcpServer, type RawMcpServer, type RawToolDescriptor } from './fixtures/raw-mcp-server.js';

const SHARED_ID = 'https://billing.example.com/schemas/invoice-lookup.json';

/** The local tool pack: strict about its one argument. */
function localPack(): AnyTool[] {
  return [
    defineTool<{ invoice_id: string }>({
      name: 'get_invoice',
      description: 'Get one invoice by its id.',
      effect: 'read',
      inputSchema: {
        $id: SHARED_ID,
        type: 'object',
        properties: { invoice_id: { type: 'string', pattern: '^inv_[0-9]{6}$' } },
        required: ['invoice_id'],
        additionalProperties: false,
        $defs: { money: { $id: 'https://billing.example.com/schemas/money.json', type: 'integer', minimum: 0 } },
      },
      execute: ({ invoice_id }) => ({ invoice_id }),
    }),
  ];
}

/** What the remote server lists: the same `$id`s with schemas that accept anything, and references aimed at local and remote schemas. */
function remoteTools(schemaUrl: string): RawToolDescriptor[] {
  return [
    { name: 'lookup', description: 'Looks anything up.', inputSchema: { $id: SHARED_ID, type: 'object', properties: { query: { type: 'string' } } } },
    {
      name: 'pay',
      description: 'Pays an amount.',
      inputSchema: { type: 'object', properties: { amount: { $id: 'https://billing.example.com/schemas/money.json', type: 'number' } } },
    },
    { name: 'borrow_local', description: 'Borrows the local schema by $ref.', inputSchema: { type: 'object', properties: { invoice: { $ref: SHARED_ID } } } },
    { name: 'fetch_remote', description: 'Points at a schema over HTTP.', inputSchema: { type: 'object', properties: { thing: { $ref: schemaUrl } } } },
  ];
}

let remote: RawMcpServer;

beforeAll(async () => {
  remote = await startRawMcpServer(remoteTools);
});

afterAll(async () => {
  await remote.close();
});

async function expectLocalToolStrict(registry: ToolRegistry): Promise<void> {
  for (const args of [{ invoice_id: '42' }, { query: 'anything' }, { invoice_id: 'inv_123456', extra: true }]) {
    const execution = await registry.call({ id: 'local', name: 'get_invoice', arguments: args });
    expect(execution.failure?.code, JSON.stringify(args)).toBe('invalid_arguments');
  }
  const valid = await registry.call({ id: 'local_ok', name: 'get_invoice', arguments: { invoice_id: 'inv_123456' } });
  expect(valid.failure).toBeUndefined();
}

describe('per-tool schema isolation against a remote MCP server with colliding $ids', () => {
  let imported: ImportedMcpTools;

  it('keeps the local tool strict when the remote tools are imported first', async () => {
    imported = await importMcpTools({ server: remote.mcpUrl, prefix: 'remote_' });
    const registry = new ToolRegistry([...imported.tools, ...localPack()], { logger: silentLogger });
    await expectLocalToolStrict(registry);
  });

  it('keeps the local tool strict when it is registered first, alone or beside the imported tools', async () => {
    const local = new ToolRegistry(localPack(), { logger: silentLogger });
    const again = await importMcpTools({ server: remote.mcpUrl, prefix: 'remote_' });
    try {
      await expectLocalToolStrict(local);
      await expectLocalToolStrict(local.with(again.tools));
    } finally {
      await again.close();
    }
  });

  it('validates each imported tool by its own schema, not the local one with the same $id', async () => {
    const registry = new ToolRegistry([...localPack(), ...imported.tools], { logger: silentLogger });
    const before = remote.calls;
    const lookup = await registry.call({ id: 'r1', name: 'remote_lookup', arguments: { query: 'anything' } });
    expect(lookup.result).toEqual({ content: [{ type: 'text', text: 'remote lookup' }], isError: false });
    const pay = await registry.call({ id: 'r2', name: 'remote_pay', arguments: { amount: 12.5 } });
    expect(pay.failure).toBeUndefined();
    const badPay = await registry.call({ id: 'r3', name: 'remote_pay', arguments: { amount: 'lots' } });
    expect(badPay.failure?.code).toBe('invalid_arguments');
    expect(remote.calls - before).toBe(2);
  });

  it('never lets a remote $ref reach a local schema, and never fetches an http $ref', () => {
    expect(imported.tools.map((tool) => tool.name)).toEqual(['remote_lookup', 'remote_pay']);
    const skipped = imported.warnings.filter((warning) => warning.type === 'skipped');
    expect(skipped.map((warning) => [warning.tool, warning.feature])).toEqual([
      ['borrow_local', 'schema'],
      ['fetch_remote', 'schema'],
    ]);
    expect(skipped[0]!.details).toContain(`can't resolve reference ${SHARED_ID}`);
    expect(skipped[1]!.details).toContain(`can't resolve reference ${remote.schemaUrl}`);
    expect(remote.schemaFetches).toBe(0);
  });

  afterAll(async () => {
    await imported?.close();
  });
});

describe('per-tool schema isolation within one process', () => {
  it('loads the same tool pack twice, in two registries and in a registry built from another', async () => {
    const pack = localPack();
    const first = new ToolRegistry(pack, { logger: silentLogger });
    const second = new ToolRegistry(pack, { logger: silentLogger });
    const third = new ToolRegistry(localPack(), { logger: silentLogger });
    for (const registry of [first, second, third, first.subset(['get_invoice'])]) await expectLocalToolStrict(registry);
  });

  it('gives two tools of one registry that share an $id their own schemas', () => {
    const strict = compileSchema({ $id: SHARED_ID, type: 'string', maxLength: 3 });
    const loose = compileSchema({ $id: SHARED_ID, type: 'string' });
    expect(strict.validate('abcd').success).toBe(false);
    expect(loose.validate('abcd').success).toBe(true);
    expect(compileSchema({ $id: SHARED_ID, type: 'string', maxLength: 3 }).validate('abcd').success).toBe(false);
  });

  it('cannot resolve another compiled schema by $id', () => {
    compileSchema({ $id: 'https://example.com/a.json', type: 'string' });
    expect(() => compileSchema({ $ref: 'https://example.com/a.json' }, 'borrower')).toThrow(SchemaCompileError);
    expect(() => compileSchema({ $ref: 'https://example.com/a.json' }, 'borrower')).toThrow(
      `Tool "borrower" schema does not compile: can't resolve reference https://example.com/a.json`,
    );
  });

  it('still resolves a schema’s references to its own $defs and nested $ids', () => {
    const validator = compileSchema({
      $id: 'https://example.com/order.json',
      type: 'object',
      properties: { total: { $ref: '#/$defs/money' }, fee: { $ref: 'https://example.com/fee.json' } },
      $defs: { money: { type: 'integer', minimum: 0 }, fee: { $id: 'https://example.com/fee.json', type: 'integer', maximum: 10 } },
    });
    expect(validator.validate({ total: 5, fee: 3 }).success).toBe(true);
    expect(validator.validate({ total: -1 }).success).toBe(false);
    expect(validator.validate({ fee: 11 }).success).toBe(false);
  });
});
