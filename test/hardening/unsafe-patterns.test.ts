/**
 * Hardening: a pattern the linear-time engine cannot run (backreferences,
 * lookbehind, lookaheads anywhere but right after a leading `^`, `\b`) is never handed to the backtracking RegExp. A local
 * tool is refused at registration with TW_UNSAFE_PATTERN, naming the tool, the
 * JSON Pointer and the fix; a tool imported from an MCP server loses that one
 * `pattern` (with a warning), or is left out when the pattern is a
 * `patternProperties` key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importMcpTools, type ImportedMcpTools } from '../../src/mcp/import-mcp-tools.js';
import { SchemaCompileError, UnsafePatternError } from '../../src/shared/errors.js';
import { compileSchema, defineTool, schemaValidatorKind, silentLogger, ToolRegistry, useSchemaValidator } from '../../src/tools/index.js';
import type { JsonSchemaObject } from '../../src/tools/index.js';
import { startRawMcpServer, type RawMcpServer } from './fixtures/raw-mcp-server.js';

function toolWith(inputSchema: JsonSchemaObject, outputSchema?: JsonSchemaObject) {
  return defineTool({
    name: 'rename_branch',
    description: 'Renames a branch of the repository.',
    effect: 'write',
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    execute: () => ({ ok: true }),
  });
}

function refusal(build: () => unknown): UnsafePatternError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(UnsafePatternError);
    return error as UnsafePatternError;
  }
  throw new Error('expected an UnsafePatternError');
}

describe('local tools: a pattern the linear engine refuses is a developer error', () => {
  it('names the tool, the JSON Pointer, the reason and the fix', () => {
    const error = refusal(
      () => new ToolRegistry([toolWith({ type: 'object', properties: { name: { type: 'string', pattern: '^(\\w)\\1$' } } })], { logger: silentLogger }),
    );
    expect(error.code).toBe('TW_UNSAFE_PATTERN');
    expect(error.toolName).toBe('rename_branch');
    expect(error.pointer).toBe('/inputSchema/properties/name/pattern');
    expect(error.pattern).toBe('^(\\w)\\1$');
    expect(error.message).toBe(
      'Tool "rename_branch" schema: the pattern "^(\\\\w)\\\\1$" at /inputSchema/properties/name/pattern cannot be checked in linear time: it uses backreferences (at offset 5 of /^(\\w)\\1$/). ' +
        'toolwright validates patterns with a non-backtracking engine so that no argument can freeze the process. ' +
        'Rewrite the pattern without lookbehind, lookaheads anywhere but right after a leading ^, backreferences, \\b or \\p{…} (and with counts of at most 1000), or drop it from the schema and check the value inside execute.',
    );
  });

  it.each([
    [
      { type: 'object', patternProperties: { '^x(?!tmp_)': { type: 'string' } } },
      undefined,
      '/inputSchema/patternProperties/^x(?!tmp_)',
      'lookahead/lookbehind',
    ],
    [
      { type: 'object', properties: { tags: { type: 'array', items: { type: 'string', pattern: '\\bfix\\b' } } } },
      undefined,
      '/inputSchema/properties/tags/items/pattern',
      'word-boundary',
    ],
    [
      { type: 'object', properties: { word: { $ref: '#/$defs/word' } }, $defs: { word: { type: 'string', pattern: '^\\p{Lu}(?=\\p{Ll})\\p{L}+$' } } },
      undefined,
      '/inputSchema/$defs/word/pattern',
      'lookahead/lookbehind',
    ],
    [
      { type: 'object' },
      { type: 'object', properties: { sha: { type: 'string', pattern: '^(?<=x)[0-9a-f]{40}$' } } },
      '/outputSchema/properties/sha/pattern',
      'lookahead/lookbehind',
    ],
    // Reachable only through $ref into a place no keyword names: found by searching the whole schema.
    [
      { type: 'object', properties: { slug: { $ref: '#/x-shapes/slug' } }, 'x-shapes': { slug: { type: 'string', pattern: '(a)\\1' } } },
      undefined,
      '/inputSchema/x-shapes/slug/pattern',
      'backreferences',
    ],
  ] as const)('points at the refused pattern in %j', (inputSchema, outputSchema, pointer, reason) => {
    const error = refusal(
      () => new ToolRegistry([toolWith(inputSchema as JsonSchemaObject, outputSchema as JsonSchemaObject | undefined)], { logger: silentLogger }),
    );
    expect(error.pointer).toBe(pointer);
    expect(error.reason).toContain(reason);
  });

  it('reports a pattern that is not a valid regex at all as an invalid schema, not an unsafe one', () => {
    expect(() => compileSchema({ type: 'string', pattern: 'a{' }, 'broken')).toThrow(SchemaCompileError);
    for (const pattern of ['\\p{Foo}', '\\p{RGI_Emoji}', '[\\p{L}-z]'])
      expect(() => compileSchema({ type: 'string', pattern }, 'broken')).toThrow(SchemaCompileError);
    expect(() => compileSchema({ type: 'string', pattern: 'a{' }, 'broken')).toThrow(
      'Tool "broken" schema does not compile: the pattern "a{" is not a valid regular expression with the "u" flag (Invalid regular expression: /a{/u:',
    );
  });

  it.each(['ajv', 'interpreter'] as const)('registers a tool whose pattern has leading lookaheads and validates it as RegExp does (%s)', (kind) => {
    const previous = schemaValidatorKind();
    useSchemaValidator(kind);
    try {
      const registry = new ToolRegistry(
        [toolWith({ type: 'object', properties: { name: { type: 'string', pattern: '^(?!-)[a-z0-9-]+$' } }, patternProperties: { '^(?!default$)': {} } })],
        { logger: silentLogger },
      );
      const native = new RegExp('^(?!-)[a-z0-9-]+$', 'u');
      for (const name of ['main', 'fix-1', '-main', 'main-', '', 'Main', 'a--b', '-', 'x']) {
        expect(registry.validate('rename_branch', { name }).success, name).toBe(native.test(name));
      }
      // `default` is the one key the patternProperties entry does not cover: its value stays unchecked either way
      expect(registry.validate('rename_branch', { default: 1, name: 'x' }).success).toBe(true);
    } finally {
      useSchemaValidator(previous);
    }
  });

  it('accepts every pattern of the linear subset, including the catastrophic classics', () => {
    for (const pattern of ['^(a+)+$', '^(\\w+\\s?)*$', '^inv_[0-9]{6}$', '(a|b)*a(a|b){20}', '^[\\u{1F600}-\\u{1F64F}]+$']) {
      expect(() => compileSchema({ type: 'string', pattern }, 'ok')).not.toThrow();
    }
  });
});

describe('local tools: Unicode property escapes are character classes the linear engine runs', () => {
  const NAME = '^[\\p{L}\\p{N}_ -]+$';
  const LABEL_KEY = '^\\p{Lu}\\P{Script=Han}*$';
  const TEXTS = ['Ünïcødé_42', 'München 2', '東京', 'Ωμέγα-7', '٣٤', 'ab!', '😀', 'x\u2028', 'A\u{1D400}', '\uD800', 'Zhōng文', ''];

  it.each(TEXTS)('registers the tool and checks %j against pattern and patternProperties as new RegExp(pattern, "u") does', async (text) => {
    const registry = new ToolRegistry(
      [
        toolWith({
          type: 'object',
          properties: { name: { type: 'string', pattern: NAME } },
          patternProperties: { [LABEL_KEY]: { type: 'number' } },
          additionalProperties: { type: 'string' },
        }),
      ],
      { logger: silentLogger },
    );
    const byPattern = await registry.call({ id: '1', name: 'rename_branch', arguments: { name: text } });
    expect(byPattern.failure?.code).toBe(new RegExp(NAME, 'u').test(text) ? undefined : 'invalid_arguments');
    // A key the patternProperties regex matches must hold a number; any other key holds a string.
    const byKey = await registry.call({ id: '2', name: 'rename_branch', arguments: { [text]: 'a string' } });
    expect(byKey.failure?.code).toBe(new RegExp(LABEL_KEY, 'u').test(text) ? 'invalid_arguments' : undefined);
  });
});

describe('imported tools: the documented fallback', () => {
  let remote: RawMcpServer;
  let imported: ImportedMcpTools;
  beforeAll(async () => {
    remote = await startRawMcpServer(() => [
      {
        name: 'tag_release',
        description: 'Tags a release.',
        inputSchema: {
          type: 'object',
          properties: { tag: { type: 'string', pattern: '^(v\\d+)-\\1$', description: 'The tag.' }, branch: { type: 'string', pattern: '^(a+)+$' } },
          required: ['tag'],
        },
      },
      {
        name: 'set_env',
        description: 'Sets variables.',
        inputSchema: { type: 'object', patternProperties: { '^[A-Z_]+(?<!_SECRET)$': { type: 'string' } }, additionalProperties: false },
      },
    ]);
    imported = await importMcpTools({ server: remote.mcpUrl });
  });
  afterAll(async () => {
    await imported.close();
    await remote.close();
  });

  it('drops a refused pattern with a warning, keeps the rest of the schema, and leaves out a tool whose patternProperties key is refused', () => {
    expect(imported.tools.map((tool) => tool.name)).toEqual(['tag_release']);
    expect(imported.warnings).toEqual([
      {
        type: 'rewritten',
        tool: 'tag_release',
        feature: 'pattern',
        details:
          'its inputSchema pattern "^(v\\\\d+)-\\\\1$" at /inputSchema/properties/tag/pattern cannot be checked in linear time (it uses backreferences (at offset 8 of /^(v\\d+)-\\1$/)); it was dropped, so toolwright does not check that value against it before the call, and the model is not shown it.',
      },
      {
        type: 'skipped',
        tool: 'set_env',
        feature: 'pattern',
        details:
          'its inputSchema has the patternProperties key "^[A-Z_]+(?<!_SECRET)$" at /inputSchema/patternProperties/^[A-Z_]+(?<!_SECRET)$, which toolwright cannot check in linear time (it uses lookahead/lookbehind assertions (at offset 8 of /^[A-Z_]+(?<!_SECRET)$/)); the properties it covers could not be validated, so the tool was left out.',
      },
    ]);
    expect(imported.tools[0]!.inputSchema).toEqual({
      type: 'object',
      properties: { tag: { type: 'string', description: 'The tag.' }, branch: { type: 'string', pattern: '^(a+)+$' } },
      required: ['tag'],
    });
  });

  it('still validates everything else locally, in linear time', async () => {
    const registry = new ToolRegistry(imported.tools, { logger: silentLogger });
    const before = remote.calls;
    const attack = await registry.call({ id: '1', name: 'tag_release', arguments: { tag: 'v1-v1', branch: `${'a'.repeat(30)}!` } });
    expect(attack.failure?.code).toBe('invalid_arguments');
    const wrongType = await registry.call({ id: '2', name: 'tag_release', arguments: { tag: 7 } });
    expect(wrongType.failure?.code).toBe('invalid_arguments');
    const forwarded = await registry.call({ id: '3', name: 'tag_release', arguments: { tag: 'v1-v2' } });
    expect(forwarded.result).toEqual({ content: [{ type: 'text', text: 'remote tag_release' }], isError: false });
    expect(remote.calls - before).toBe(1);
  });
});
