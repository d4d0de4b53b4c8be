import { describe, expect, it } from 'vitest';
import { ANTHROPIC_STRICT_LIMITS } from '../../provider-schema/index.js';
import { defineTool, type AnyTool } from '../../../tools/index.js';
import { lintTools, type LintOptions } from '../lint-tools.js';

const description = 'Book a meeting room in the office the user named, for the time they asked.';
const tool = (name: string, inputSchema: Record<string, unknown>, strict?: boolean) =>
  defineTool({ name, description, effect: 'read', inputSchema, execute: () => 'ok', ...(strict === undefined ? {} : { strict }) });
const compat = (tools: AnyTool[], options: LintOptions = {}) => lintTools(tools, options).filter((finding) => finding.rule === 'tw/provider-compatibility');
const anthropicStrict: LintOptions = { providers: ['anthropic-strict'] };

const room = { type: 'string', pattern: '^[A-Z][0-9]{3}$', description: 'Room code such as B204.' };
const booking = tool('book_room', {
  type: 'object',
  properties: {
    room,
    labels: { type: 'object', description: 'Labels to attach, by name.', additionalProperties: { type: 'string' } },
    seats: { type: 'integer', minimum: 1, maximum: 40, description: 'Seats needed.' },
    slot: {
      type: 'array',
      description: 'Start and end time.',
      prefixItems: [
        { type: 'string', format: 'time' },
        { type: 'string', format: 'time' },
      ],
    },
  },
  required: ['room', 'labels', 'seats', 'slot'],
  additionalProperties: false,
});

/** A closed object of `count` optional string properties (and `unions` of them nullable, a list of types). */
function optionalProperties(count: number, unions = 0): Record<string, unknown> {
  const properties = Object.fromEntries(
    Array.from({ length: count }, (_, index) => [`field_${index}`, { type: index < unions ? ['string', 'null'] : 'string', description: `Field ${index}.` }]),
  );
  return { type: 'object', properties, additionalProperties: false };
}

describe('tw/provider-compatibility with anthropic-strict', () => {
  it('warns where Anthropic strict mode changes what the model can send: a map, a tuple', () => {
    const findings = compat([booking], anthropicStrict);
    expect(findings.map((finding) => [finding.severity, finding.path])).toEqual([
      ['warning', '/inputSchema/properties/labels/additionalProperties'],
      ['warning', '/inputSchema/properties/slot/prefixItems'],
      ['warning', '/inputSchema/properties/slot/items'],
    ]);
    expect(findings[0]).toEqual({
      rule: 'tw/provider-compatibility',
      severity: 'warning',
      tool: 'book_room',
      path: '/inputSchema/properties/labels/additionalProperties',
      message:
        'With Anthropic strict mode (strict: true), an `additionalProperties` schema makes an open object, which strict mode cannot express; set to false, so only the declared properties (none) can be sent.',
      fix: 'Replace the map with an array of { "key": …, "value": … } objects, or declare the known keys as properties.',
    });
  });

  it("lists, when asked, the keywords Anthropic's strict mode drops and OpenAI's keeps (pattern, numeric bounds)", () => {
    const losses = (options: LintOptions) =>
      compat([booking], { ...options, reportStrictModeLosses: true })
        .filter((finding) => finding.message.includes('these keywords are dropped'))
        .map((finding) => finding.message);
    expect(losses(anthropicStrict)).toEqual([
      'With Anthropic strict mode (strict: true), these keywords are dropped, so decoding does not enforce them (the registry still does): pattern at /properties/room/pattern, minimum at /properties/seats/minimum, maximum at /properties/seats/maximum.',
    ]);
    expect(losses({ providers: ['openai-strict'] })).toEqual([]);
    expect(compat([booking], anthropicStrict).some((finding) => finding.message.includes('dropped'))).toBe(false);
  });

  it('is checked only when named: the default providers leave it out', () => {
    expect(compat([booking]).filter((finding) => finding.message.includes('Anthropic strict mode'))).toEqual([]);
    const many = Array.from({ length: 21 }, (_, index) => tool(`book_room_${index}`, { type: 'object', properties: { room }, required: ['room'] }));
    expect(lintTools(many).filter((finding) => finding.rule === 'tw/provider-compatibility' && finding.tool === null)).toEqual([]);
  });

  it('reports what plain Anthropic refuses once: under anthropic when checked, else here', () => {
    const union = tool('book_room', { anyOf: [{ type: 'object', properties: { room }, required: ['room'], additionalProperties: false }] });
    const refusal = (options: LintOptions) => compat([union], options).filter((finding) => finding.message.startsWith('Anthropic cannot take this tool'));
    expect(refusal(anthropicStrict).map((finding) => [finding.severity, finding.path])).toEqual([
      ['error', '/inputSchema'],
      ['error', '/inputSchema/anyOf'],
    ]);
    expect(refusal({ providers: ['anthropic', 'anthropic-strict'] })).toEqual(refusal({ providers: ['anthropic'] }));
    expect(refusal({ providers: ['anthropic'] })).toHaveLength(2);
  });

  it('reports a tool past a request-wide limit by itself, on the tool and not again for the set', () => {
    const optional = ANTHROPIC_STRICT_LIMITS.maxOptionalParameters + 1;
    const wide = tool('book_room', optionalProperties(optional));
    expect(compat([wide], anthropicStrict).map((finding) => [finding.tool, finding.path, finding.message])).toEqual([
      [
        'book_room',
        '/inputSchema',
        `With Anthropic strict mode (strict: true), this tool alone has ${optional} optional properties; Anthropic allows at most ${ANTHROPIC_STRICT_LIMITS.maxOptionalParameters} across all strict tools of a request and refuses the request.`,
      ],
    ]);
    const unions = ANTHROPIC_STRICT_LIMITS.maxUnionParameters + 1;
    const nullable = tool('book_room', { ...optionalProperties(unions, unions), required: Array.from({ length: unions }, (_, index) => `field_${index}`) });
    expect(compat([nullable], anthropicStrict).map((finding) => finding.message)).toEqual([
      `With Anthropic strict mode (strict: true), this tool alone has ${unions} union-typed schemas (\`anyOf\` or a list of types); Anthropic allows at most ${ANTHROPIC_STRICT_LIMITS.maxUnionParameters} across all strict tools of a request and refuses the request.`,
    ]);
  });

  it('reports a tool set past a limit under strictTools, counting only the tools it makes strict', () => {
    const max = ANTHROPIC_STRICT_LIMITS.maxStrictTools;
    const closed = { type: 'object', properties: { room }, required: ['room'], additionalProperties: false };
    const many = Array.from({ length: max + 1 }, (_, index) => tool(`book_room_${index}`, closed));
    const setFindings = (tools: AnyTool[]) => compat(tools, anthropicStrict).filter((finding) => finding.tool === null);
    expect(setFindings(many)).toEqual([
      {
        rule: 'tw/provider-compatibility',
        severity: 'warning',
        tool: null,
        path: '',
        message: `With Anthropic strict mode on every tool (strictTools: true, all but the tools marked strict: false), ${max + 1} tools are strict; Anthropic allows at most ${max} per request and refuses the request.`,
        fix: 'Do not make every tool strict: leave strictTools off and mark only the tools that need it strict (defineTool({ strict: true })), or offer fewer tools per request (routing, toolSearch).',
      },
    ]);
    // One of them marked strict: false stays plain under strictTools: 20 strict tools are allowed.
    expect(setFindings([...many.slice(1), tool('book_room_0', closed, false)])).toEqual([]);

    // Five tools of five optional properties each: 25 in all, past 24, though none passes it alone.
    const five = Array.from({ length: 5 }, (_, index) => tool(`note_${index}`, optionalProperties(5)));
    expect(setFindings(five).map((finding) => finding.message)).toEqual([
      `With Anthropic strict mode on every tool (strictTools: true, all but the tools marked strict: false), the strict tools have 25 optional properties in all; Anthropic allows at most ${ANTHROPIC_STRICT_LIMITS.maxOptionalParameters} per request and refuses the request.`,
    ]);
    expect(setFindings(five.slice(1))).toEqual([]);
  });
});
