/**
 * Schemas whose validation never ends. Ajv overflows the stack on a schema whose references loop without entering a
 * property or item — while compiling it, or on every value — and on a value nested deeper than its recursion survives.
 * A remote MCP server chooses its tools' schemas, and a model its arguments, so none of this may throw out of
 * `registry.call`, reach an MCP client as an internal error, or keep a server's other tools from importing.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMcpServer } from '../../src/mcp/create-mcp-server.js';
import { importMcpTools } from '../../src/mcp/import-mcp-tools.js';
import { SchemaEvaluationError, SchemaReferenceCycleError } from '../../src/shared/errors.js';
import { defineTool, silentLogger, ToolRegistry, type AnyTool } from '../../src/tools/index.js';
import { startRawMcpServer, type RawMcpServer } from './fixtures/raw-mcp-server.js';

/** From the JSON-Schema-Test-Suite: a `$dynamicRef` that Ajv resolves back to the function holding it, so it overflowed on every value. */
const dynamicSelfReference = {
  $id: 'https://example.test/dynamic-ref-avoids-root/base',
  type: 'object',
  properties: { text: { $ref: 'first#/$defs/stuff' } },
  $defs: {
    first: { $id: 'first', $defs: { stuff: { $ref: 'second#/$defs/stuff' }, length: { maxLength: 1 } } },
    second: { $id: 'second', $defs: { stuff: { $ref: 'third#/$defs/stuff' }, length: { $dynamicAnchor: 'length', maxLength: 2 } } },
    third: { $id: 'third', $defs: { stuff: { $dynamicRef: '#length' }, length: { $dynamicAnchor: 'length', maxLength: 3 } } },
  },
};

const jsonValue = {
  type: 'object',
  properties: { value: { $ref: '#/$defs/json' } },
  $defs: { json: { anyOf: [{ type: 'number' }, { type: 'array', items: { $ref: '#/$defs/json' } }] } },
};

function storeTool(
  inputSchema: Record<string, unknown>,
  executions: { count: number },
  options: { argumentLimits?: { maxDepth: number; maxChars: number } } = {},
) {
  return defineTool({
    name: 'store_value',
    description: 'Stores a value.',
    effect: 'write',
    inputSchema,
    ...options,
    execute: () => {
      executions.count++;
      return 'stored';
    },
  });
}

/** What Ajv compiles for a schema it misresolves into a loop only at validation: every call overflows the stack. */
function makeAjvValidatorsOverflow() {
  vi.spyOn(Ajv2020.prototype, 'compile').mockImplementation(() => {
    const overflowing = () => {
      throw new RangeError('Maximum call stack size exceeded');
    };
    return Object.assign(overflowing, { errors: null }) as never;
  });
}

async function mcpClient(tools: AnyTool[]): Promise<Client> {
  const server = createMcpServer(tools, { logger: silentLogger });
  const client = new Client({ name: 'caller', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return client;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a schema whose references loop', () => {
  it('is refused at definition with the loop named, so no call ever reaches a validator that cannot finish', () => {
    expect(() => storeTool(dynamicSelfReference, { count: 0 })).toThrow(SchemaReferenceCycleError);
    expect(() => storeTool(dynamicSelfReference, { count: 0 })).toThrow(
      'its references in /inputSchema loop back without entering a property or item, so validation would never end: #/$defs/third/$defs/stuff → #/$defs/third/$defs/stuff.',
    );
  });
});

describe('a validator that overflows the stack anyway', () => {
  it('becomes an invalid_schema failure the model can act on, and the tool never runs', async () => {
    const executions = { count: 0 };
    const tool = storeTool({ type: 'object', properties: { value: { type: 'number' } } }, executions);
    makeAjvValidatorsOverflow();
    const registry = new ToolRegistry([tool], { logger: silentLogger });
    const execution = await registry.call({ id: 'call_1', name: 'store_value', argumentsText: '{"value":1}' });
    expect(execution.result.isError).toBe(true);
    expect(execution.failure?.code).toBe('invalid_schema');
    expect(SchemaEvaluationError.isInstance(execution.failure?.error)).toBe(true);
    expect(execution.result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('its input schema cannot be evaluated') });
    expect(executions.count).toBe(0);
  });

  it('reaches an MCP client as a tool error with that text, not a JSON-RPC internal error', async () => {
    const tool = storeTool({ type: 'object', properties: { value: { type: 'string' } } }, { count: 0 });
    makeAjvValidatorsOverflow();
    const client = await mcpClient([tool]);
    try {
      const result = await client.callTool({ name: 'store_value', arguments: { value: 'x' } });
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([
        { type: 'text', text: expect.stringContaining('Tool "store_value" could not check your arguments: its input schema cannot be evaluated') },
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('arguments nested 100,000 levels deep', () => {
  const deepText = `{"value":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;

  it('are refused by the default limit before Ajv sees them', async () => {
    const executions = { count: 0 };
    const registry = new ToolRegistry([storeTool(jsonValue, executions)], { logger: silentLogger });
    for (const request of [{ argumentsText: deepText }, { arguments: JSON.parse(deepText) as Record<string, unknown> }]) {
      const execution = await registry.call({ id: 'deep', name: 'store_value', ...request });
      expect(execution.failure?.code).toBe('arguments_too_large');
      expect(execution.failure?.error).toBeUndefined();
    }
    expect(executions.count).toBe(0);
  });

  it('under a raised limit, are refused as too deep to check when Ajv overflows on them, over MCP too', async () => {
    const executions = { count: 0 };
    const tool = storeTool(jsonValue, executions, { argumentLimits: { maxDepth: 200_000, maxChars: 1_000_000 } });
    const registry = new ToolRegistry([tool], { logger: silentLogger });
    const execution = await registry.call({ id: 'deep', name: 'store_value', argumentsText: deepText });
    expect(execution.failure?.code).toBe('arguments_too_large');
    expect(SchemaEvaluationError.isInstance(execution.failure?.error)).toBe(true);
    expect(execution.result.content[0]).toMatchObject({
      text: expect.stringContaining('nest 100,001 levels deep, too deep to be checked against its schema. Send a flatter object'),
    });
    expect((await registry.call({ id: 'shallow', name: 'store_value', arguments: { value: [[1], 2] } })).failure).toBeUndefined();

    const client = await mcpClient([tool]);
    try {
      const result = await client.callTool({ name: 'store_value', arguments: JSON.parse(deepText) as Record<string, unknown> });
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining('too deep to be checked against its schema') }]);
    } finally {
      await client.close();
    }
    expect(executions.count).toBe(1);
  });
});

describe('a remote MCP server listing tools whose schemas loop', () => {
  let remote: RawMcpServer;

  beforeAll(async () => {
    remote = await startRawMcpServer(() => [
      { name: 'self_property', description: 'Loops through a property.', inputSchema: { type: 'object', properties: { a: { $ref: '#/properties/a' } } } },
      { name: 'self_root', description: 'Loops at the root.', inputSchema: { $ref: '#', type: 'object' } },
      {
        name: 'two_definitions',
        description: 'Loops through two definitions.',
        inputSchema: { type: 'object', properties: { p: { $ref: '#/$defs/x' } }, $defs: { x: { anyOf: [{ $ref: '#/$defs/y' }] }, y: { $ref: '#/$defs/x' } } },
      },
      {
        name: 'recursive_2019',
        description: 'A 2019-09 schema applying itself again.',
        inputSchema: { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', allOf: [{ $recursiveRef: '#' }] },
      },
      { name: 'tree', description: 'A tree, which nests.', inputSchema: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } } },
    ]);
  });

  afterAll(async () => {
    await remote.close();
  });

  it('skips each looping tool with a warning that names the loop, and imports the rest', async () => {
    const imported = await importMcpTools({ server: remote.mcpUrl });
    try {
      expect(imported.tools.map((tool) => tool.name)).toEqual(['tree']);
      const skipped = imported.warnings.filter((warning) => warning.type === 'skipped' && warning.feature === 'schema');
      expect(skipped.map((warning) => warning.tool)).toEqual(['self_property', 'self_root', 'two_definitions', 'recursive_2019']);
      expect(skipped.map((warning) => /validation would never end: ([^.]*)\./.exec(warning.details)?.[1])).toEqual([
        '#/properties/a → #/properties/a',
        '# → #',
        '#/$defs/x → #/$defs/x/anyOf/0 → #/$defs/y → #/$defs/x',
        '# → #/allOf/0 → #',
      ]);
      const registry = new ToolRegistry(imported.tools, { logger: silentLogger });
      expect((await registry.call({ id: 'ok', name: 'tree', arguments: { children: [{ children: [] }] } })).failure).toBeUndefined();
      expect((await registry.call({ id: 'bad', name: 'tree', arguments: { children: [{ children: 1 }] } })).failure?.code).toBe('invalid_arguments');
    } finally {
      await imported.close();
    }
  });
});
