/**
 * Seeded generator of malformed and randomized JSON-RPC messages, each with
 * the answer a correct MCP server gives. Used by the fuzz test over stdio and
 * over HTTP; the same seed gives the same messages.
 */
import { mulberry32 } from '../../src/shared/seeded-random.js';

export type Expectation =
  /** A JSON-RPC error with this code; `id` is the id the response must carry. */
  | { kind: 'error'; code: number; id: string | number | null }
  /** A `tools/call` result (`content[]` and boolean `isError`). */
  | { kind: 'tool-result'; id: string }
  /** Any successful result. */
  | { kind: 'result'; id: string }
  /** No answer at all (notifications, responses to nothing). */
  | { kind: 'none' };

export interface FuzzMessage {
  /** One line of text, without newline characters. */
  text: string;
  expect: Expectation;
  /** The generator that made it, for failure messages. */
  category: string;
}

/** mulberry32: a small, fast, seeded PRNG. */
const prng = mulberry32;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-/.:{}[]",\\ \t\u00e9\u4e2d\u{1F600}\u0000\u0007\ud800';
/** Tools of the conformance pack that answer at once whatever the client supports. */
const FAST_TOOLS = [
  'test_simple_text',
  'test_image_content',
  'test_embedded_resource',
  'test_error_handling',
  'test_sampling',
  'test_elicitation',
  'json_schema_2020_12_tool',
];

export function generateFuzzMessages(seed: number, count: number): FuzzMessage[] {
  const random = prng(seed);
  const int = (max: number) => Math.floor(random() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const randomString = (max = 12) => Array.from({ length: int(max) }, () => pick([...ALPHABET])).join('');
  const randomValue = (depth = 0): unknown => {
    switch (int(depth > 2 ? 5 : 7)) {
      case 0:
        return null;
      case 1:
        return random() < 0.5;
      case 2:
        return pick([0, -1, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER, 42]);
      case 3:
      case 4:
        return randomString();
      case 5:
        return Array.from({ length: int(4) }, () => randomValue(depth + 1));
      default:
        return Object.fromEntries(Array.from({ length: int(4) }, () => [randomString(6), randomValue(depth + 1)]));
    }
  };
  const line = (value: unknown) => JSON.stringify(value);
  let serial = 0;
  const nextId = () => `fuzz-${seed}-${serial++}`;

  const generators: (() => FuzzMessage)[] = [
    // Text that is not JSON: truncated messages, garbage, JavaScript literals.
    () => {
      const valid = line({ jsonrpc: '2.0', id: nextId(), method: 'tools/call', params: { name: pick(FAST_TOOLS), arguments: randomValue() } });
      const candidates = [
        valid.slice(0, 1 + int(valid.length - 2)),
        `{${randomString(20)}`,
        `{"jsonrpc":"2.0","id":1,}`,
        'NaN',
        'undefined',
        `{'jsonrpc':'2.0'}`,
        `[${randomString(8)}`,
        valid + '}',
        '\u00ff\u00fe{',
      ];
      let text = pick(candidates).replace(/[\r\n]/g, ' ');
      if (text.trim() === '' || isJson(text)) text = '{"broken":';
      return { category: 'not-json', text, expect: { kind: 'error', code: -32700, id: null } };
    },
    // JSON that is not a JSON-RPC message.
    () => {
      const id = nextId();
      const cases: [unknown, string | number | null][] = [
        [randomValue(), null],
        [{ id, method: 'ping' }, id],
        [{ jsonrpc: '1.0', id, method: 'ping' }, id],
        [{ jsonrpc: '2.0', id, method: int(1000) }, id],
        [{ jsonrpc: '2.0', id: { nested: true }, method: 'ping' }, null],
        [{ jsonrpc: '2.0', id: 1.25, method: 'ping' }, null],
        [{ jsonrpc: '2.0', id: null, method: 'ping' }, null],
        [{ jsonrpc: '2.0', id, method: 'ping', params: pick(['x', 3, [1, 2], true]) }, id],
        // _meta belongs to MCP's base request shape, checked with the message itself.
        [{ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'test_simple_text', _meta: { progressToken: { bad: true } } } }, id],
        [{ jsonrpc: '2.0', id }, id],
        [{ jsonrpc: '2.0', id, result: pick([1, 'x', null, [1]]) }, id],
        [[randomValue(), randomValue()], null],
      ];
      const [value, pickedId] = pick(cases);
      let expectedId = pickedId;
      // A random value can happen to be an object that is not a message either; keep those, but never a valid message.
      if (typeof value !== 'object' || value === null || Array.isArray(value)) expectedId = null;
      return { category: 'not-jsonrpc', text: line(value), expect: { kind: 'error', code: -32600, id: expectedId } };
    },
    // Methods nobody implements.
    () => {
      const id = nextId();
      const method = pick([
        'tools/lists',
        'Tools/List',
        '',
        'rpc.discover',
        `fuzz/${randomString(8)}`,
        'sampling/createMessage',
        'roots/list',
        'elicitation/create',
        'tasks/get',
      ]);
      return {
        category: 'unknown-method',
        text: line({ jsonrpc: '2.0', id, method, params: { x: randomValue() } }),
        expect: { kind: 'error', code: -32601, id },
      };
    },
    // Known methods with params they cannot take.
    () => {
      const id = nextId();
      const params = pick<unknown>([
        { method: 'tools/call', params: { name: int(100), arguments: {} } },
        { method: 'tools/call', params: { name: 'test_simple_text', arguments: pick(['x', 5, [1], true]) } },
        { method: 'tools/call', params: { name: `no_such_${randomString(5)}`, arguments: {} } },
        { method: 'tools/list', params: { cursor: randomString(10) + '!' } },
        { method: 'resources/read', params: { uri: int(5) } },
        { method: 'prompts/get', params: { arguments: {} } },
        { method: 'prompts/get', params: { name: `no_such_${randomString(5)}` } },
        { method: 'prompts/get', params: { name: 'test_prompt_with_arguments', arguments: { arg1: 'only one' } } },
        { method: 'logging/setLevel', params: { level: pick(['loud', 'INFO', 3, '']) } },
        { method: 'completion/complete', params: { ref: { type: 'ref/nothing' }, argument: { name: 'a', value: 'b' } } },
        { method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: 'b' } } },
        { method: 'resources/subscribe', params: {} },
      ]) as { method: string; params: unknown };
      return { category: 'invalid-params', text: line({ jsonrpc: '2.0', id, ...params }), expect: { kind: 'error', code: -32602, id } };
    },
    // Resources that do not exist.
    () => {
      const id = nextId();
      return {
        category: 'unknown-resource',
        text: line({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri: `nope://${randomString(10)}` } }),
        expect: { kind: 'error', code: -32002, id },
      };
    },
    // Real tools with random arguments: always a result, usually isError.
    () => {
      const id = nextId();
      const args =
        random() < 0.2
          ? undefined
          : Object.fromEntries(Array.from({ length: int(3) }, () => [pick(['prompt', 'message', 'name', randomString(5)]), randomValue()]));
      const params = args === undefined ? { name: pick(FAST_TOOLS) } : { name: pick(FAST_TOOLS), arguments: args };
      return { category: 'tool-call', text: line({ jsonrpc: '2.0', id, method: 'tools/call', params }), expect: { kind: 'tool-result', id } };
    },
    // Valid requests with random extra members.
    () => {
      const id = nextId();
      const method = pick(['ping', 'tools/list', 'resources/list', 'prompts/list', 'resources/templates/list']);
      return {
        category: 'valid',
        text: line({ jsonrpc: '2.0', id, method, params: { _meta: { note: randomString() }, [randomString(4) || 'x']: randomValue() } }),
        expect: { kind: 'result', id },
      };
    },
    // Notifications and stray responses: never answered.
    () => {
      const cases = [
        { jsonrpc: '2.0', method: `notifications/${randomString(6)}`, params: { x: randomValue() } },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: nextId(), reason: randomString() } },
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: randomString(), progress: int(10) } },
        { jsonrpc: '2.0', id: nextId(), result: { anything: randomValue() } },
        { jsonrpc: '2.0', id: nextId(), error: { code: -32000, message: randomString() } },
      ];
      return { category: 'no-answer', text: line(pick(cases)), expect: { kind: 'none' } };
    },
  ];

  return Array.from({ length: count }, () => pick(generators)());
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Checks one server answer (all messages attributed to the fuzz message) against its expectation; returns the problem, or undefined. */
export function checkAnswer(message: FuzzMessage, answers: readonly Record<string, unknown>[]): string | undefined {
  const expected = message.expect;
  const describe = () => `${message.category} ${message.text.slice(0, 200)} → ${JSON.stringify(answers).slice(0, 400)}`;
  if (expected.kind === 'none') return answers.length === 0 ? undefined : `expected no answer: ${describe()}`;
  if (answers.length !== 1) return `expected exactly one answer: ${describe()}`;
  const answer = answers[0]!;
  if (answer.jsonrpc !== '2.0') return `answer is not JSON-RPC 2.0: ${describe()}`;
  if (expected.kind === 'error') {
    const error = answer.error as { code?: unknown; message?: unknown } | undefined;
    if (!error || error.code !== expected.code) return `expected error ${expected.code}: ${describe()}`;
    if (answer.id !== expected.id) return `expected id ${JSON.stringify(expected.id)}: ${describe()}`;
    if (typeof error.message !== 'string' || /\n\s+at /.test(error.message)) return `error message missing or has a stack trace: ${describe()}`;
    if (/^MCP error|"code":\s*"invalid_|\n/.test(error.message)) return `error message has an SDK prefix or a Zod dump: ${describe()}`;
    return undefined;
  }
  if (answer.id !== expected.id) return `expected id ${expected.id}: ${describe()}`;
  const result = answer.result as { content?: unknown; isError?: unknown } | undefined;
  if (!result || typeof result !== 'object') return `expected a result: ${describe()}`;
  if (expected.kind === 'tool-result' && (!Array.isArray(result.content) || typeof result.isError !== 'boolean'))
    return `expected a tool result: ${describe()}`;
  return undefined;
}
