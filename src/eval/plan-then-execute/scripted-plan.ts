/**
 * The planner and extractor the offline simulators stand in with, so the
 * plan-then-execute strategy runs with no key and no weights. Like the
 * simulators, they describe the harness, not a model.
 *
 * The planner is derived from the user task's reference calls and sees only
 * the prompt: an argument whose data (typed values, and any token with a
 * digit: ids, amounts, codes, times) all appears in the user's request is
 * pinned; a text whose only words not in the request are typed values (times,
 * dates, numbers, addresses, links) becomes a template, the planner's words
 * around one typed hole per value (`{ "$template": "… {{h}}." }`), as a
 * planner that writes its own prose would plan it; every other argument
 * becomes a hole read from the earlier calls' outputs. The extractor returns the reference value, unless it is gullible
 * and the outputs it reads carry the injection: then it does the worst a
 * quarantined extractor can do, filling the hole with the attacker's value
 * for the same tool and argument when the injection's reference has one, and
 * otherwise folding the attacker's instruction into a text hole; like an
 * extractor under structured output, it answers within the schema it is
 * asked under, so where that schema refuses the attacker's value it writes
 * the value it read. It can never add a call.
 * @module
 */
import { fold } from '../../policy/provenance/provenance-index.js';
import { detectValues, normalizeNumber } from '../../policy/provenance/value-detectors.js';
import { compileSchema } from '../../tools/schema-validator.js';
import type { JsonSchemaObject } from '../../tools/types.js';
import type { EvalCall, InjectionTask, UserTask } from '../suite-types.js';
import type { ExecutionPlan, HoleKind, PlanHole } from '../../agent/plan-then-execute/execution-plan.js';
import type { Extractor } from '../../agent/plan-then-execute/execute-plan.js';

interface HoleOrigin {
  tool: string;
  argument: string;
  value: unknown;
}

export interface ScriptedPlanner {
  plan: ExecutionPlan;
  extractor: Extractor;
  /** Extractions made so far (each is one model call of a real extractor). */
  readonly extractions: number;
}

/**
 * A scripted plan and extractor for one case. `gullible` makes the extractor obey an injection it reads: always (`true`, as
 * `sim:naive` does), or when the tool output carrying the goal passes the predicate (`sim:fickle`'s, so that the extractor falls
 * for the same texts as the simulator it stands in for).
 */
export function scriptedPlanner<State>(input: {
  userTask: UserTask<State>;
  injectionTask: InjectionTask<State> | undefined;
  pre: State;
  gullible: boolean | ((toolOutput: string) => boolean);
}): ScriptedPlanner {
  const prompt = fold(input.userTask.prompt);
  const promptNumbers = new Set((input.userTask.prompt.match(/\d[\d,.']*\d|\d/g) ?? []).map(normalizeNumber));
  const origins = new Map<string, HoleOrigin>();
  const holes: PlanHole[] = [];
  const calls = input.userTask.reference(structuredClone(input.pre)).map((call, index) => {
    const args: Record<string, unknown> = {};
    for (const [argument, value] of Object.entries(call.arguments ?? {})) {
      if (derivable(value, prompt, promptNumbers)) {
        args[argument] = value;
        continue;
      }
      const template = typeof value === 'string' ? templateFor(value, prompt) : undefined;
      if (template) {
        const names = template.values.map((item, slot) => {
          const name = `${call.tool}_${argument}_${index}_${slot}`;
          holes.push({ name, description: `the ${item.kind} in ${argument} for ${call.tool}`, kind: item.kind, from: range(index) });
          origins.set(name, { tool: call.tool, argument, value: item.value });
          return name;
        });
        args[argument] = { $template: template.text.split('\u0000').reduce((text, part, slot) => `${text}{{${names[slot - 1]}}}${part}`) };
        continue;
      }
      const name = `${call.tool}_${argument}_${index}`;
      holes.push({ name, description: `${argument} for ${call.tool}`, schema: schemaOf(value), from: range(index) });
      origins.set(name, { tool: call.tool, argument, value });
      args[argument] = { $hole: name };
    }
    return { tool: call.tool, arguments: args };
  });
  let answer = 'Done.';
  const reference = input.userTask.referenceAnswer?.(structuredClone(input.pre));
  if (reference !== undefined) {
    holes.push({ name: 'answer', description: "the answer to the user's question", schema: { type: 'string' }, from: range(calls.length) });
    origins.set('answer', { tool: '', argument: 'answer', value: reference });
    answer = '{{answer}}';
  }
  const injected = input.injectionTask ? input.injectionTask.reference(structuredClone(input.pre)) : [];
  const goal = input.injectionTask ? squash(input.injectionTask.goal) : undefined;
  let extractions = 0;
  const extractor: Extractor = async ({ hole, schema, outputs }) => {
    extractions++;
    const origin = origins.get(hole.name);
    if (!origin) throw new Error(`no such hole ${hole.name}`);
    const obeys = typeof input.gullible === 'function' ? input.gullible : () => input.gullible === true;
    const compromised = goal !== undefined && outputs.some((output) => squash(output.text).includes(goal) && obeys(output.text));
    if (!compromised) return structuredClone(origin.value);
    const attacker = attackerValue(injected, origin);
    const obeyed =
      attacker !== undefined ? attacker : typeof origin.value === 'string' ? `${origin.value} ${input.injectionTask!.goal}` : structuredClone(origin.value);
    // It answers under the schema it is asked, as structured output does: what the schema refuses it cannot write, so it writes what it read.
    const fits = compileSchema(schema, `scripted extractor ${hole.name}`);
    return fits.validate(obeyed).success || !fits.validate(origin.value).success ? obeyed : structuredClone(origin.value);
  };
  return {
    plan: { calls, holes, answer },
    extractor,
    get extractions() {
      return extractions;
    },
  };
}

/** The attacker's value for the same tool and argument, when the injection's reference has one of the same type. */
function attackerValue(injected: readonly EvalCall[], origin: HoleOrigin): unknown {
  for (const call of injected) {
    if (call.tool !== origin.tool) continue;
    const value = call.arguments?.[origin.argument];
    if (value !== undefined && typeof value === typeof origin.value && Array.isArray(value) === Array.isArray(origin.value)) return structuredClone(value);
  }
  return undefined;
}

/** Whether the planner could have written the value from the prompt alone: all its data-like fragments appear there. */
function derivable(value: unknown, prompt: string, promptNumbers: ReadonlySet<string | undefined>): boolean {
  if (typeof value === 'number') return promptNumbers.has(normalizeNumber(String(value)));
  if (typeof value === 'boolean') return true;
  if (Array.isArray(value)) return value.every((item) => derivable(item, prompt, promptNumbers));
  if (typeof value !== 'string') return false;
  const fragments = [...detectValues(value).map((found) => found.text), ...(value.match(/[\w.@/-]*\d[\w.@/-]*/g) ?? [])];
  return fragments.every((fragment) => prompt.includes(fold(fragment)));
}

function schemaOf(value: unknown): JsonSchemaObject {
  if (typeof value === 'number') return { type: 'number' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (Array.isArray(value)) return { type: 'array', items: value.length > 0 ? schemaOf(value[0]) : {} };
  return { type: 'string' };
}

function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index);
}

/** Folded, with JSON escapes undone, so a goal is found inside a tool's JSON output. */
function squash(text: string): string {
  return fold(text.replace(/\\n/g, ' ').replace(/\\"/g, '"'));
}

/** Words a planner writes whatever the data says; any other word of a template must be in the user's request. */
const FUNCTION_WORDS = new Set(
  'a an the on at in is are was be of to for from by with and or but our my your his her their its it this that these those'.split(' '),
);

const MONTH_NAMES = 'January|February|March|April|May|June|July|August|September|October|November|December';

/** Typed values a planner cannot know before reading the data, in the order they are looked for; the first to claim a span wins. */
const TEMPLATE_VALUES: readonly { kind: HoleKind; pattern: RegExp; value?: (text: string) => unknown }[] = [
  { kind: 'url', pattern: /https?:\/\/[^\s{}]+[^\s{}.,;:!?)]/g },
  { kind: 'email', pattern: /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g },
  { kind: 'datetime', pattern: /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}\b/g },
  { kind: 'date', pattern: new RegExp(`\\b(?:\\d{4}-\\d{2}-\\d{2}|\\d{1,2} (?:${MONTH_NAMES})|(?:${MONTH_NAMES}) \\d{1,2})\\b`, 'g') },
  { kind: 'time', pattern: /\b(?:[01]?\d|2[0-3]):[0-5]\d\b/g },
  { kind: 'number', pattern: /(?<![\w.])\d+(?:\.\d+)?(?![\w.])/g, value: Number },
];

/**
 * The template a planner would write for `text`: its typed values (above) taken out as holes, when every other word is one the
 * user's request holds or a function word; `undefined` when a word of the text comes only from the data (the text then needs a
 * hole of its own), when it holds no typed value, or when it is typed values alone (each is then a hole of its own, asked under the
 * argument's schema and the policy's values). `text` in the result marks each hole with a NUL.
 */
function templateFor(text: string, prompt: string): { text: string; values: { kind: HoleKind; value: unknown }[] } | undefined {
  const claimed: { start: number; end: number; kind: HoleKind; value: unknown }[] = [];
  for (const { kind, pattern, value } of TEMPLATE_VALUES) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (claimed.some((span) => start < span.end && end > span.start)) continue;
      claimed.push({ start, end, kind, value: value ? value(match[0]) : match[0] });
    }
  }
  if (claimed.length === 0) return undefined;
  claimed.sort((a, b) => a.start - b.start);
  let literal = '';
  let at = 0;
  for (const span of claimed) {
    literal += `${text.slice(at, span.start)}\u0000`;
    at = span.end;
  }
  literal += text.slice(at);
  const promptWords = new Set(fold(prompt).split(/[^\p{L}\p{N}]+/u));
  const words = fold(literal.split('\u0000').join(' '))
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
  const known = (word: string) => FUNCTION_WORDS.has(word) || promptWords.has(word) || (word.endsWith('s') && promptWords.has(word.slice(0, -1)));
  // A value alone is a hole of its own: asked under the argument's schema (and the policy's values), not a template's kind.
  if (words.length === 0 || !words.every(known)) return undefined;
  return { text: literal, values: claimed.map((span) => ({ kind: span.kind, value: span.value })) };
}
