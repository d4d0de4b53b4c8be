/**
 * A plan, as a privileged planner fixes it before any tool runs (CaMeL,
 * Debenedetti et al., arXiv:2503.18813; the dual-LLM pattern): the calls to
 * make, in order, each argument either pinned by the planner or a typed hole
 * that a quarantined extractor fills from the outputs of named earlier calls;
 * and the final answer, a template over holes. The planner never sees a tool
 * output, so nothing it pins can carry injected text; the extractor sees
 * outputs but can only return a value under the hole's JSON Schema, so it can
 * neither add a call nor change a pinned argument.
 *
 * Holes sit at the top level of a call's arguments (`{ "to": { "$hole":
 * "recipient" } }`), or inside a string the planner writes itself
 * (`{ "body": { "$template": "The standup starts at {{standup_time}}." } }`),
 * so the arguments untrusted data can reach are exactly those, which the
 * policy's flow rule is told. A hole in a template is a scalar under its
 * `kind` (a time, a date, a number…): the planner's prose stays the planner's,
 * and the extractor can only supply a value of that shape.
 * @module
 */
import { InvalidArgumentError } from '../../shared/errors.js';
import { isPlainObject } from '../../shared/own.js';
import type { AnyTool } from '../../tools/define-tool.js';
import type { JsonSchemaObject } from '../../tools/types.js';

/** A typed hole: a value the extractor fills from earlier outputs. */
export interface PlanHole {
  /** The hole's name, referenced as `{ "$hole": name }` in arguments and `{{name}}` in the answer. */
  name: string;
  /** What to extract, for the extractor (e.g. "Bob's e-mail address"). */
  description: string;
  /**
   * A JSON Schema the value must also satisfy. Optional: a hole that fills an argument is always held to that argument's
   * schema in the tool (the extractor answers under it, and the call is validated as any other), so the planner cannot
   * loosen a type; a hole used only in the answer is a string unless this says otherwise.
   */
  schema?: JsonSchemaObject;
  /** The indices of the earlier calls whose outputs the extractor reads. */
  from: number[];
  /**
   * The value's shape, held to {@link HOLE_KIND_SCHEMAS}: what a model planner can say about a hole (its plan schema has no room
   * for a free JSON Schema). A hole in a template is a string of this kind (`text` when absent; `number` and `integer` are numbers).
   */
  kind?: HoleKind;
}

/** The shapes a hole can be declared with. */
export const HOLE_KINDS = ['text', 'word', 'number', 'integer', 'date', 'time', 'datetime', 'email', 'url'] as const;
export type HoleKind = (typeof HOLE_KINDS)[number];

const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December';

/** The schema of each hole kind. Patterns are anchored and bounded, so an extractor's answer is a value of that shape and nothing more. */
export const HOLE_KIND_SCHEMAS: Readonly<Record<HoleKind, JsonSchemaObject>> = Object.freeze({
  text: { type: 'string', maxLength: 4000 },
  word: { type: 'string', pattern: '^[^\\s{}]{1,64}$' },
  number: { type: 'number' },
  integer: { type: 'integer' },
  date: { type: 'string', pattern: `^(?:\\d{4}-\\d{2}-\\d{2}|\\d{1,2} (?:${MONTHS})(?: \\d{4})?|(?:${MONTHS}) \\d{1,2}(?:, \\d{4})?)$` },
  time: { type: 'string', pattern: '^(?:[01]?\\d|2[0-3])[:.][0-5]\\d(?: ?[AaPp][Mm])?$' },
  datetime: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(?::\\d{2})?$' },
  email: { type: 'string', pattern: '^[^\\s@{}]{1,64}@[^\\s@{}]{1,253}$' },
  url: { type: 'string', pattern: '^https?://[^\\s{}]+$', maxLength: 2000 },
} as Record<HoleKind, JsonSchemaObject>);

/** One planned call: a tool and its arguments, each pinned, `{ "$hole": name }` or a string `{ "$template": "…{{name}}…" }`. */
export interface PlannedCall {
  tool: string;
  arguments: Record<string, unknown>;
}

export interface ExecutionPlan {
  calls: PlannedCall[];
  holes: PlanHole[];
  /** The final answer; `{{name}}` is replaced by the hole's value (filled after the last call when no call used it). */
  answer: string;
}

/** `{{name}}` in a template or the answer. */
const TEMPLATE_SLOT = /\{\{([A-Za-z0-9_]{1,64})\}\}/g;

const TEMPLATE_REFERENCE: JsonSchemaObject = Object.freeze({
  type: 'object',
  properties: { $template: { type: 'string', maxLength: 4000 } },
  required: ['$template'],
  additionalProperties: false,
}) as JsonSchemaObject;

const HOLE_REFERENCE: JsonSchemaObject = Object.freeze({
  type: 'object',
  properties: { $hole: { type: 'string', pattern: '^[A-Za-z0-9_]{1,64}$' } },
  required: ['$hole'],
  additionalProperties: false,
}) as JsonSchemaObject;

/**
 * The schema a model planner answers under, for these tools (structured output on hosted models, the token mask on local
 * ones): each call is one of the tools with its own argument schema, where every top-level argument may instead be a
 * `{ "$hole": name }`. Built per tool list rather than with a free-form `arguments` object, because strict structured
 * output (OpenAI) cannot express an object with undeclared keys and would force every call's arguments to `{}`.
 */
export function planSchemaFor(tools: readonly AnyTool[]): JsonSchemaObject {
  const definitions: Record<string, unknown> = {};
  const calls = tools.map((tool, index) => {
    const input = hoistDefinitions(tool.inputSchema, `t${index}_`, definitions) as Record<string, unknown> & { properties?: Record<string, unknown> };
    const properties = Object.fromEntries(
      Object.entries(input.properties ?? {}).map(([name, schema]) => [
        name,
        { anyOf: [schema, HOLE_REFERENCE, ...(admitsString(schema) ? [TEMPLATE_REFERENCE] : [])] },
      ]),
    );
    const { properties: _properties, $schema: _schema, $id: _id, ...rest } = input;
    return {
      type: 'object',
      properties: { tool: { const: tool.name }, arguments: { ...rest, type: 'object', properties } },
      required: ['tool', 'arguments'],
      additionalProperties: false,
    };
  });
  return {
    type: 'object',
    properties: {
      calls: { type: 'array', items: calls.length === 1 ? calls[0] : { anyOf: calls } },
      holes: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string', pattern: '^[A-Za-z0-9_]{1,64}$' },
            description: { type: 'string' },
            from: { type: 'array', items: { type: 'integer', minimum: 0 } },
            kind: { enum: [...HOLE_KINDS] },
          },
          required: ['name', 'description', 'from'],
          additionalProperties: false,
        },
      },
      answer: { type: 'string' },
    },
    required: ['calls', 'holes', 'answer'],
    additionalProperties: false,
    ...(Object.keys(definitions).length > 0 ? { $defs: definitions } : {}),
  } as JsonSchemaObject;
}

/**
 * Moves a tool schema's `$defs`/`definitions` to the plan's root under a per-tool prefix and points its local `$ref`s there,
 * since the tool's schema is nested inside the plan's. Other JSON-Pointer refs into the tool's own schema are left as they are.
 */
function hoistDefinitions(schema: JsonSchemaObject, prefix: string, into: Record<string, unknown>): Record<string, unknown> {
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') {
        const match = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(child);
        out[key] = match ? `#/$defs/${prefix}${match[1]}` : child;
      } else out[key] = rewrite(child);
    }
    return out;
  };
  const root = rewrite(schema) as Record<string, unknown>;
  for (const key of ['$defs', 'definitions'] as const) {
    const defs = root[key];
    if (!isPlainObject(defs)) continue;
    for (const [name, definition] of Object.entries(defs)) into[`${prefix}${name}`] = definition;
    delete root[key];
  }
  return root;
}

/** Whether a tool's property schema may hold a string (a template renders to one); a `$ref` or no `type` may. */
function admitsString(schema: unknown): boolean {
  if (!isPlainObject(schema)) return schema === true;
  const type = schema.type;
  return type === undefined || type === 'string' || (Array.isArray(type) && type.includes('string'));
}

/** The template a value stands for (its text), or `undefined` when it is not one. */
export function templateOf(value: unknown): string | undefined {
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === '$template' && typeof value.$template === 'string' ? value.$template : undefined;
}

/** The hole names a template (or the answer) uses, in order, each once. */
export function templateSlots(text: string): string[] {
  return [...new Set([...text.matchAll(TEMPLATE_SLOT)].map((match) => match[1]!))];
}

/** A template with each `{{name}}` replaced by `render(name)`. */
export function renderTemplate(text: string, render: (name: string) => string): string {
  return text.replace(TEMPLATE_SLOT, (_, name: string) => render(name));
}

/** The hole a value stands for, or `undefined` when it is a pinned value. */
export function holeName(value: unknown): string | undefined {
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === '$hole' && typeof value.$hole === 'string' ? value.$hole : undefined;
}

/** The most calls a plan may make unless the caller says otherwise: a planner that runs away is stopped before anything runs. */
export const DEFAULT_MAX_PLANNED_CALLS = 20;

/**
 * Checks a plan against the tools offered: every tool exists, every hole used is declared once, reads only calls before its first use,
 * holes appear only at the top level of arguments, and there are at most `maxCalls` calls. Throws `InvalidArgumentError` naming the
 * first problem.
 */
export function checkPlan(plan: ExecutionPlan, toolNames: readonly string[], maxCalls = DEFAULT_MAX_PLANNED_CALLS): ExecutionPlan {
  const fail = (problem: string) => {
    throw new InvalidArgumentError(`The plan is not usable: ${problem}. Plan again with only the listed tools and declared holes.`);
  };
  if (!isPlainObject(plan) || !Array.isArray(plan.calls) || !Array.isArray(plan.holes) || typeof plan.answer !== 'string')
    fail('it lacks calls, holes or answer');
  if (plan.calls.length > maxCalls) fail(`it makes ${plan.calls.length} calls, more than the ${maxCalls} allowed`);
  const holes = new Map<string, PlanHole>();
  for (const hole of plan.holes) {
    if (!isPlainObject(hole) || typeof hole.name !== 'string' || (hole.schema !== undefined && !isPlainObject(hole.schema)) || !Array.isArray(hole.from))
      fail('a hole is malformed');
    if (hole.kind !== undefined && !(HOLE_KINDS as readonly string[]).includes(hole.kind))
      fail(`the hole "${hole.name}" has the unknown kind ${JSON.stringify(hole.kind)} (use one of ${HOLE_KINDS.join(', ')})`);
    if (holes.has(hole.name)) fail(`the hole "${hole.name}" is declared twice`);
    holes.set(hole.name, hole);
  }
  for (const [index, call] of plan.calls.entries()) {
    if (!isPlainObject(call) || typeof call.tool !== 'string' || !isPlainObject(call.arguments)) fail(`call ${index} is malformed`);
    if (!toolNames.includes(call.tool)) fail(`call ${index} names the unknown tool "${call.tool}"`);
    for (const [argument, value] of Object.entries(call.arguments)) {
      const template = templateOf(value);
      const names = template !== undefined ? templateSlots(template) : [holeName(value)].filter((name): name is string => name !== undefined);
      if (template === undefined && names.length === 0) {
        const text = JSON.stringify(value) ?? '';
        if (text.includes('"$hole"') || text.includes('"$template"'))
          fail(`call ${index} puts a hole inside ${argument}; a hole stands for a whole argument, or sits in a top-level { "$template": "…{{name}}…" }`);
        continue;
      }
      for (const name of names) {
        const hole = holes.get(name);
        if (!hole) fail(`call ${index} uses the undeclared hole "${name}"`);
        if (hole!.from.some((source) => !Number.isInteger(source) || source < 0 || source >= index))
          fail(`the hole "${name}" reads a call that has not run before call ${index}`);
      }
    }
  }
  return plan;
}
