import { describe, expect, it } from 'vitest';
import { defineTool, type AnyTool } from '../../../tools/index.js';
import { lintTools, type LintOptions } from '../lint-tools.js';

const description = 'Book a meeting room in the office the user named, for the time they asked.';
const tool = (name: string, inputSchema: Record<string, unknown>) => defineTool({ name, description, effect: 'read', inputSchema, execute: () => 'ok' });
const compat = (tools: AnyTool[], options: LintOptions = {}) => lintTools(tools, options).filter((finding) => finding.rule === 'tw/provider-compatibility');

const room = { type: 'string', pattern: '^[A-Z][0-9]{3}$', description: 'Room code such as B204.' };

describe('tw/provider-compatibility', () => {
  it('reports a root union as an error for each provider that rejects it', () => {
    const union = tool('book_room', {
      anyOf: [
        { type: 'object', properties: { room }, required: ['room'], additionalProperties: false },
        {
          type: 'object',
          properties: { floor: { type: 'integer', minimum: 0, description: 'Any free room on this floor.' } },
          required: ['floor'],
          additionalProperties: false,
        },
      ],
    });
    const findings = compat([union]);
    expect(findings.map((finding) => [finding.severity, finding.path, finding.message])).toEqual([
      [
        'error',
        '/inputSchema',
        'OpenAI cannot take this tool: the root has no `type`; OpenAI requires `type: "object"` at the root of a tool\'s input schema.',
      ],
      [
        'error',
        '/inputSchema/anyOf',
        "OpenAI cannot take this tool: OpenAI rejects `anyOf` at the top level of a tool's input schema; make the root one object and move the alternatives into a property.",
      ],
      [
        'error',
        '/inputSchema',
        'Anthropic cannot take this tool: the root has no `type`; Anthropic requires `type: "object"` at the root of a tool\'s input schema.',
      ],
      [
        'error',
        '/inputSchema/anyOf',
        "Anthropic cannot take this tool: Anthropic rejects `anyOf` at the top level of a tool's input schema; make the root one object and move the alternatives into a property.",
      ],
      ['error', '/inputSchema', 'MCP cannot take this tool: the root has no `type`; MCP requires `type: "object"` at the root of a tool\'s input schema.'],
    ]);
    expect(findings[1]!.fix).toBe(
      'Make the root one object and move the alternatives into a property (for example a "kind" enum plus the properties of each kind).',
    );
    expect(compat([union], { providers: ['mcp'] }).map((finding) => finding.message)).toEqual([
      'MCP cannot take this tool: the root has no `type`; MCP requires `type: "object"` at the root of a tool\'s input schema.',
    ]);
  });

  it('warns where OpenAI strict mode changes what the model can send: maps, tuples, untyped values', () => {
    const findings = compat([
      tool('book_room', {
        type: 'object',
        properties: {
          room,
          labels: { type: 'object', description: 'Labels to attach, by name.', additionalProperties: { type: 'string' } },
          slot: {
            type: 'array',
            description: 'Start and end time.',
            prefixItems: [
              { type: 'string', format: 'time' },
              { type: 'string', format: 'time' },
            ],
          },
          note: { description: 'Anything else the user said about the booking.' },
        },
        required: ['room', 'labels', 'slot', 'note'],
        additionalProperties: false,
      }),
    ]);
    expect(findings.map((finding) => [finding.severity, finding.path])).toEqual([
      ['warning', '/inputSchema/properties/labels/additionalProperties'],
      ['warning', '/inputSchema/properties/slot/prefixItems'],
      ['warning', '/inputSchema/properties/slot/items'],
      ['warning', '/inputSchema/properties/note'],
    ]);
    expect(findings[0]).toEqual({
      rule: 'tw/provider-compatibility',
      severity: 'warning',
      tool: 'book_room',
      path: '/inputSchema/properties/labels/additionalProperties',
      message:
        'With OpenAI strict mode (strict: true), an `additionalProperties` schema makes an open object, which strict mode cannot express; set to false, so only the declared properties (none) can be sent.',
      fix: 'Replace the map with an array of { "key": …, "value": … } objects, or declare the known keys as properties.',
    });
  });

  it('reports a name that providers refuse, for tools not made with defineTool', () => {
    const handmade = { ...tool('book_room', { type: 'object', properties: {}, additionalProperties: false }), name: 'book room!' } as AnyTool;
    expect(compat([handmade]).map((finding) => [finding.severity, finding.path, finding.message])).toEqual([
      [
        'error',
        '/name',
        'The tool name "book room!" is refused by some providers: the name contains " ", "!"; OpenAI and Anthropic accept only letters, digits, "_" and "-" (try "book_room").',
      ],
    ]);
  });

  it('lists the keywords strict mode drops only when asked', () => {
    const lengths = tool('book_room', {
      type: 'object',
      properties: {
        room,
        title: { type: 'string', minLength: 3, maxLength: 80, description: 'Title shown on the room screen.' },
        attendees: { type: 'integer', minimum: 1, default: 2, description: 'How many people will attend.' },
      },
      required: ['room', 'title'],
      additionalProperties: false,
    });
    expect(compat([lengths])).toEqual([]);
    expect(compat([lengths], { reportStrictModeLosses: true }).map((finding) => [finding.severity, finding.path, finding.message])).toEqual([
      [
        'warning',
        '/inputSchema',
        'With OpenAI strict mode (strict: true), these keywords are dropped, so decoding does not enforce them (the registry still does): minLength at /properties/title/minLength, maxLength at /properties/title/maxLength, default at /properties/attendees/default.',
      ],
    ]);
  });

  it('stays silent on a schema every provider takes as it is', () => {
    expect(compat([tool('book_room', { type: 'object', properties: { room }, required: ['room'], additionalProperties: false })])).toEqual([]);
  });
});
