/**
 * Instances on both sides of every constraint of a JSON Schema, generated from the schema
 * itself: bounds ± 1 and ± 1 ulp, lengths at their bounds ± 1, enum values and near misses,
 * required names present and absent, additional and pattern-named keys, pattern matches and
 * non-matches found on the pattern's DFA, format examples and near misses, multiples and
 * near multiples, property and item counts at their bounds, `contains` counts, duplicates,
 * `if`/`then`/`else` both ways, one and two `oneOf` branches, dependencies with and without
 * their dependents, property names in and out of `propertyNames`.
 *
 * The generator guesses, the validator judges: nothing here claims an instance is valid. The
 * caller labels each instance with the registry's Ajv (a schema's boundaries are where an
 * engine that approximates would be caught). Deterministic for a seed. Shared by
 * `bench/coverage` and `test/decoding/differential-soundness.test.ts`; not part of the package.
 */
import { CodePointDfa } from '../../src/shared/regex/code-point-dfa.js';
import { parseRegex } from '../../src/shared/regex/parse-regex.js';
import { createRandom } from './generation.js';

export interface BoundaryInstanceOptions {
  /** Seed of the sampling that keeps at most `maxInstances`. Default 1. */
  readonly seed?: number;
  /** Most instances returned (the first ones, which are the schema's own examples, are always kept). Default 200. */
  readonly maxInstances?: number;
  /** Schemas `$ref` may name by absolute URI (as `compileJsonSchema`'s `schemas` option). */
  readonly schemas?: Readonly<Record<string, unknown>>;
}

type Schema = Record<string, unknown>;

/** Nesting below which subschemas only contribute their example, so a deep schema stays linear. */
const VARIANT_DEPTH = 6;
/** Nesting below which examples stop (recursive schemas). */
const EXAMPLE_DEPTH = 14;
/** Longest string or array a length boundary is built for. */
const MAX_BUILT_LENGTH = 600;

/** Per format: strings on both sides of what ajv-formats accepts. */
const FORMAT_EXAMPLES: Record<string, readonly string[]> = {
  date: ['2024-02-29', '2023-02-29', '2024-13-01', '2024-1-01'],
  time: ['12:34:56Z', '23:59:60Z', '24:00:00Z', '12:34:56', '12:34:56.789+05:30'],
  'iso-time': ['12:34:56', '12:34:56Z', '12:60:00'],
  'date-time': ['2024-01-01T00:00:00Z', '2024-01-01T23:59:60Z', '2024-01-01 00:00:00+01:00', '2024-01-01T00:00:00', '2024-02-30T00:00:00Z'],
  'iso-date-time': ['2024-01-01T00:00:00', '2024-01-01T00:00:00Z', '2024-01-01X00:00:00'],
  duration: ['P1D', 'PT1H30M', 'P1W', 'P', 'PT', 'P1DT'],
  email: ['a@example.com', 'first.last@sub.example.org', 'a@b', '@example.com', 'a b@example.com'],
  hostname: ['example.com', 'xn--bcher-kva.example', 'a.', '-bad.com', `${'a'.repeat(64)}.com`],
  ipv4: ['192.168.0.1', '0.0.0.0', '256.1.1.1', '1.2.3'],
  ipv6: ['::1', '2001:db8::8a2e:370:7334', '1::2::3', '12345::'],
  uri: ['https://example.com/a?b=c#d', 'urn:isbn:0451450523', '/relative/path', 'not a uri'],
  'uri-reference': ['/a/b?c', 'https://example.com', '#frag', '\\\\bad'],
  'uri-template': ['/users/{id}', 'https://example.com/{+path}', '/users/{id'],
  // ajv-formats' lookaheads exclude private IPv4 hosts at exact octet texts: 10.*, 127.*, 169.254.*, 192.168.*, 172.16-31.*
  url: [
    'https://example.com/',
    'example',
    'http://1.2.3.4:8080/a',
    'http://10.0.0.1/',
    'http://127.0.0.1',
    'http://169.254.0.1',
    'http://192.168.1.1',
    'http://172.16.0.1',
    'http://172.32.0.1',
    'http://u:p@192.168.1.1@8.8.8.8',
    'http://10.0.0.1.example.com',
    'http://224.0.0.1',
    'ftp://例子.测试:21',
    'http\u017f://example.com',
  ],
  'json-pointer': ['', '/a/b~0c', 'a/b', '/a~2'],
  'json-pointer-uri-fragment': ['#', '#/a%20b', '/a'],
  'relative-json-pointer': ['0', '1/a/b', '0#', '/a', '-1'],
  uuid: [
    '123e4567-e89b-12d3-a456-426614174000',
    'urn:uuid:123e4567-e89b-12d3-a456-426614174000',
    '123e4567-e89b-12d3-a456-42661417400',
    'g23e4567-e89b-12d3-a456-426614174000',
  ],
  byte: ['aGVsbG8=', '', 'aGVsbG8', 'a$=='],
  regex: ['^a+$', '(', '[a-'],
  password: ['secret'],
  binary: ['\u0001'],
};
const NUMBER_FORMAT_EXAMPLES: Record<string, readonly number[]> = {
  int32: [2147483647, 2147483648, -2147483648, -2147483649, 1.5],
  int64: [9007199254740991, 2 ** 63, -(2 ** 63), 1.5],
  float: [3.4028234663852886e38, 3.5e38, 1.5],
  double: [Number.MAX_VALUE, -Number.MAX_VALUE, 1.5],
};

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const key = (value: unknown): string => JSON.stringify(value) ?? 'undefined';

function nextUp(value: number): number {
  if (Number.isNaN(value) || value === Infinity) return value;
  if (value === 0) return Number.MIN_VALUE;
  const buffer = new DataView(new ArrayBuffer(8));
  buffer.setFloat64(0, value);
  const bits = buffer.getBigUint64(0);
  buffer.setBigUint64(0, value > 0 ? bits + 1n : bits - 1n);
  return buffer.getFloat64(0);
}
const nextDown = (value: number): number => -nextUp(-value);

/** A readable code point in `lo..hi`: a letter or digit where the range has one, never a surrogate. */
function niceCodePoint(lo: number, hi: number): number | undefined {
  for (const preferred of [0x61, 0x30, 0x41, 0x5f, 0x2d, 0x20]) if (preferred >= lo && preferred <= hi) return preferred;
  for (const candidate of [Math.max(lo, 0x21), lo]) if (candidate <= hi && (candidate < 0xd800 || candidate > 0xdfff)) return candidate;
  return hi < 0xd800 || hi > 0xdfff ? hi : hi >= 0xdfff && lo <= 0xe000 - 1 && hi >= 0xe000 ? 0xe000 : undefined;
}

/** Strings a pattern's DFA accepts, of chosen lengths, and strings near them it rejects. */
class PatternExamples {
  readonly dfa: CodePointDfa;
  private readonly reach: Uint8Array[] = [];

  constructor(dfa: CodePointDfa) {
    this.dfa = dfa;
  }

  static of(pattern: string): PatternExamples | undefined {
    try {
      const dfa = CodePointDfa.fromRegex(parseRegex(pattern));
      return dfa.start < 0 ? undefined : new PatternExamples(dfa);
    } catch {
      return undefined;
    }
  }

  /** States from which acceptance is exactly `steps` code points away (built incrementally, bounded). */
  private reachable(steps: number): Uint8Array | undefined {
    const states = this.dfa.stateCount;
    if (steps > MAX_BUILT_LENGTH || states * steps > 2_000_000) return undefined;
    while (this.reach.length <= steps) {
      const previous = this.reach[this.reach.length - 1];
      const next = new Uint8Array(states);
      for (let state = 0; state < states; state++) {
        if (previous === undefined) next[state] = this.dfa.accepting[state]!;
        else {
          const ranges = this.dfa.transitions[state]!;
          for (let index = 0; index < ranges.length; index += 3) if (previous[ranges[index + 2]!] === 1) next[state] = 1;
        }
      }
      this.reach.push(next);
    }
    return this.reach[steps];
  }

  /** A matching string of exactly `length` code points, or undefined. */
  ofLength(length: number): string | undefined {
    if (this.reachable(length)?.[this.dfa.start] !== 1) return undefined;
    let state = this.dfa.start;
    let text = '';
    for (let left = length; left > 0; left--) {
      const target = this.reachable(left - 1)!;
      const ranges = this.dfa.transitions[state]!;
      let chosen: [number, number] | undefined;
      for (let index = 0; index < ranges.length && chosen === undefined; index += 3) {
        if (target[ranges[index + 2]!] !== 1) continue;
        const codePoint = niceCodePoint(ranges[index]!, ranges[index + 1]!);
        if (codePoint !== undefined) chosen = [codePoint, ranges[index + 2]!];
      }
      if (chosen === undefined) return undefined;
      text += String.fromCodePoint(chosen[0]);
      state = chosen[1];
    }
    return text;
  }

  /** The shortest matching string of at least `min` and at most `max` code points. */
  within(min: number, max: number): string | undefined {
    for (let length = min; length <= Math.min(max, min + 64, MAX_BUILT_LENGTH); length++) {
      const text = this.ofLength(length);
      if (text !== undefined) return text;
    }
    return undefined;
  }

  /** Strings one edit away from `text` (a character changed, dropped or added) that the DFA rejects. */
  nearMisses(text: string, limit: number): string[] {
    const chars = [...text];
    const candidates = ['', '!', `${text}!`, `!${text}`, chars.slice(1).join(''), chars.slice(0, -1).join(''), ` ${text}`, `${text}\n`];
    for (let index = 0; index < chars.length && index < 8; index++)
      for (const replacement of ['!', '0', 'a', 'Z', 'é']) candidates.push([...chars.slice(0, index), replacement, ...chars.slice(index + 1)].join(''));
    const misses: string[] = [];
    for (const candidate of candidates) if (!this.dfa.matches(candidate) && !misses.includes(candidate) && misses.length < limit) misses.push(candidate);
    return misses;
  }
}

class BoundaryGenerator {
  private readonly root: unknown;
  private readonly schemas: Readonly<Record<string, unknown>>;
  private readonly patterns = new Map<string, PatternExamples | undefined>();
  private readonly byId = new Map<string, unknown>();
  /** Per schema object: its example and candidates, computed once, so a wide or recursive schema stays linear. */
  private readonly examples = new Map<object, unknown>();
  private readonly candidates = new Map<object, unknown[]>();
  /** Schema objects whose example is being built (a recursive schema's inner levels get null). */
  private readonly building = new Set<object>();

  constructor(root: unknown, schemas: Readonly<Record<string, unknown>>) {
    this.root = root;
    this.schemas = schemas;
    const index = (node: unknown, depth: number): void => {
      if (depth > 64) return;
      if (Array.isArray(node)) for (const item of node) index(item, depth + 1);
      else if (isObject(node)) {
        if (typeof node.$id === 'string') this.byId.set(node.$id.replace(/#$/, ''), node);
        if (typeof node.$anchor === 'string') this.byId.set(`#${node.$anchor}`, node);
        for (const child of Object.values(node)) index(child, depth + 1);
      }
    };
    index(root, 0);
    for (const [uri, schema] of Object.entries(schemas)) this.byId.set(uri.replace(/#$/, ''), schema);
  }

  pattern(source: string): PatternExamples | undefined {
    if (!this.patterns.has(source)) this.patterns.set(source, PatternExamples.of(source));
    return this.patterns.get(source);
  }

  /** The schema a `$ref` names (JSON pointer, anchor, `$id` or a supplied URI), or undefined. */
  private resolve(reference: string): unknown {
    const [base, fragment] = reference.includes('#')
      ? [reference.slice(0, reference.indexOf('#')), reference.slice(reference.indexOf('#') + 1)]
      : [reference, ''];
    let document: unknown = base === '' ? this.root : (this.byId.get(base) ?? this.schemas[base]);
    if (document === undefined) return undefined;
    if (fragment === '') return document;
    if (!fragment.startsWith('/')) return this.byId.get(`#${fragment}`);
    for (const raw of fragment.slice(1).split('/')) {
      let segment: string;
      try {
        segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      } catch {
        return undefined;
      }
      if (Array.isArray(document)) document = document[Number(segment)];
      else if (isObject(document)) document = document[segment];
      else return undefined;
    }
    return document;
  }

  /** The schema with its `$ref` folded in as an `allOf` member (2020-12: `$ref` applies beside its siblings). */
  private expand(schema: Schema, depth: number): Schema {
    if (typeof schema.$ref !== 'string' || depth > EXAMPLE_DEPTH) return schema;
    const target = this.resolve(schema.$ref);
    const { $ref: _ref, ...rest } = schema;
    if (target === undefined) return rest;
    const restAllOf = Array.isArray(rest.allOf) ? rest.allOf : [];
    return { ...rest, allOf: [target, ...restAllOf] };
  }

  private types(schema: Schema): string[] {
    if (typeof schema.type === 'string') return [schema.type];
    if (Array.isArray(schema.type)) return schema.type.filter((type): type is string => typeof type === 'string');
    const inferred: string[] = [];
    if (
      ['properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties', 'propertyNames'].some((name) => name in schema)
    )
      inferred.push('object');
    if (['items', 'prefixItems', 'minItems', 'maxItems', 'contains', 'uniqueItems'].some((name) => name in schema)) inferred.push('array');
    if (['minLength', 'maxLength', 'pattern'].some((name) => name in schema) || (typeof schema.format === 'string' && schema.format in FORMAT_EXAMPLES))
      inferred.push('string');
    if (['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].some((name) => name in schema)) inferred.push('number');
    return inferred;
  }

  /** A value the schema probably accepts. */
  example(schema: unknown, depth: number): unknown {
    if (schema === true || schema === undefined) return 'a';
    if (!isObject(schema) || depth > EXAMPLE_DEPTH || this.building.has(schema)) return null;
    if (this.examples.has(schema)) return this.examples.get(schema);
    this.building.add(schema);
    try {
      const value = this.computeExample(schema, depth);
      this.examples.set(schema, value);
      return value;
    } finally {
      this.building.delete(schema);
    }
  }

  private computeExample(schema: Schema, depth: number): unknown {
    const expanded = this.expand(schema, depth);
    if ('const' in expanded) return expanded.const;
    if (Array.isArray(expanded.enum) && expanded.enum.length > 0) return expanded.enum[0];
    let value: unknown = undefined;
    const types = this.types(expanded);
    if (types.length > 0) value = this.typedExample(expanded, types[0]!, depth);
    if (Array.isArray(expanded.allOf)) for (const member of expanded.allOf) value = merge(value, this.example(member, depth + 1));
    for (const union of ['anyOf', 'oneOf'] as const) {
      const branches = expanded[union];
      if (Array.isArray(branches) && branches.length > 0) value = merge(value, this.example(branches[0], depth + 1));
    }
    if (isObject(expanded.if) && isObject(expanded.then))
      value = merge(value, merge(this.example(expanded.if, depth + 1), this.example(expanded.then, depth + 1)));
    return value === undefined ? 'a' : value;
  }

  private typedExample(schema: Schema, type: string, depth: number): unknown {
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return true;
      case 'integer':
      case 'number':
        return this.numberExample(schema, type === 'integer');
      case 'string':
        return this.stringOfLength(schema, Math.max(typeof schema.minLength === 'number' ? schema.minLength : 0, 1), true) ?? '';
      case 'array': {
        const length = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 0, Array.isArray(schema.prefixItems) ? schema.prefixItems.length : 0);
        return this.arrayOfLength(schema, Math.min(length, 16), depth);
      }
      case 'object':
        return this.objectExample(schema, depth);
      default:
        return null;
    }
  }

  private numberExample(schema: Schema, integer: boolean): number {
    const step = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : integer ? 1 : undefined;
    const low = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
    const high = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined;
    let value = low ?? (high !== undefined ? Math.min(high, 0) : 0);
    if (step !== undefined) value = Math.ceil(value / step) * step;
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) value += step ?? 1;
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) value -= step ?? 1;
    return value;
  }

  /** A string of `length` code points meant to satisfy the schema's pattern (and format), or a plain one. */
  private stringOfLength(schema: Schema, length: number, flexibleLength = false): string | undefined {
    if (typeof schema.format === 'string' && schema.format in FORMAT_EXAMPLES && !flexibleLength) return undefined;
    if (typeof schema.format === 'string' && FORMAT_EXAMPLES[schema.format] !== undefined && flexibleLength) return FORMAT_EXAMPLES[schema.format]![0];
    if (typeof schema.pattern === 'string') {
      const examples = this.pattern(schema.pattern);
      if (examples !== undefined) {
        const max = typeof schema.maxLength === 'number' ? schema.maxLength : length + 64;
        const text = flexibleLength ? examples.within(length, Math.max(length, max)) : examples.ofLength(length);
        if (text !== undefined) return text;
        if (!flexibleLength) return undefined;
      }
    }
    return 'abcdefghij'.repeat(Math.ceil(length / 10)).slice(0, length);
  }

  private arrayOfLength(schema: Schema, length: number, depth: number): unknown[] {
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
    const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
    const items: unknown[] = [];
    for (let index = 0; index < length; index++) items.push(this.example(index < prefix.length ? prefix[index] : rest, depth + 1));
    return items;
  }

  private objectExample(schema: Schema, depth: number): Record<string, unknown> {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [];
    const value: Record<string, unknown> = {};
    for (const name of required) value[name] = this.example(this.propertySchema(schema, name), depth + 1);
    const minimum = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
    for (const name of Object.keys(properties)) {
      if (Object.keys(value).length >= minimum) break;
      if (!(name in value)) value[name] = this.example(properties[name], depth + 1);
    }
    return value;
  }

  /** The schema a property's value meets: its `properties` entry, a matching pattern's, or `additionalProperties`. */
  private propertySchema(schema: Schema, name: string): unknown {
    if (isObject(schema.properties) && Object.hasOwn(schema.properties, name)) return schema.properties[name];
    if (isObject(schema.patternProperties))
      for (const [source, child] of Object.entries(schema.patternProperties)) if (this.pattern(source)?.dfa.matches(name)) return child;
    return schema.additionalProperties ?? true;
  }

  /** Candidates for one subschema: its example first, then values near each of its constraints. */
  values(schema: unknown, depth: number): unknown[] {
    if (!isObject(schema) || depth > VARIANT_DEPTH) return this.computeValues(schema, depth);
    let known = this.candidates.get(schema);
    if (known === undefined) {
      // a recursive reference met again while its candidates are built contributes its example only
      this.candidates.set(schema, [this.example(schema, depth)]);
      known = this.computeValues(schema, depth);
      this.candidates.set(schema, known);
    }
    return known;
  }

  private computeValues(schema: unknown, depth: number): unknown[] {
    const out = new Candidates();
    out.add(this.example(schema, depth));
    if (schema === true || schema === undefined) {
      out.addAll([null, 0, 'a', {}]);
      return out.list;
    }
    if (schema === false) {
      out.addAll([null, 0]);
      return out.list;
    }
    if (!isObject(schema) || depth > VARIANT_DEPTH) return out.list;
    const expanded = this.expand(schema, depth);
    if ('const' in expanded) out.addAll([expanded.const, ...nearMisses(expanded.const)]);
    if (Array.isArray(expanded.enum)) for (const member of expanded.enum.slice(0, 8)) out.addAll([member, ...nearMisses(member)]);
    const types = this.types(expanded);
    for (const type of types) out.addAll(this.typedValues(expanded, type, depth));
    // one value of a type the schema does not name, so a type check is crossed too
    const other = [
      ['string', 'x'],
      ['number', 7],
      ['object', {}],
      ['null', null],
    ].find(([type]) => !types.includes(type as string) && !(type === 'number' && types.includes('integer')));
    if (types.length > 0 && other !== undefined) out.add(other[1]);
    if (Array.isArray(expanded.allOf)) {
      out.add(expanded.allOf.reduce<unknown>((value, member) => merge(value, this.example(member, depth + 1)), undefined));
      for (const member of expanded.allOf) for (const value of this.values(member, depth + 1).slice(0, 6)) out.addAll([value, merge(out.list[0], value)]);
    }
    for (const union of ['anyOf', 'oneOf'] as const) {
      const branches = expanded[union];
      if (!Array.isArray(branches)) continue;
      const examples = branches.map((branch) => this.example(branch, depth + 1));
      for (const branch of branches.slice(0, 8)) {
        const branchValues = this.values(branch, depth + 1);
        out.addAll(branchValues.slice(0, 4));
        // a branch that only adds constraints (no type of its own) applies to the schema's own example
        for (const value of branchValues.slice(0, 6)) out.add(merge(out.list[0], value));
      }
      // values meant to meet two branches at once: the boundary of "exactly one"
      for (let index = 0; index + 1 < examples.length && index < 4; index++) out.add(merge(examples[index], examples[index + 1]));
    }
    if ('not' in expanded) out.addAll(this.values(expanded.not, depth + 1).slice(0, 6));
    if ('if' in expanded) {
      const condition = this.example(expanded.if, depth + 1);
      out.add(merge(condition, this.example(expanded.then, depth + 1)));
      out.add(merge(this.example(expanded.else, depth + 1), condition));
      out.add(this.example(expanded.else, depth + 1));
      out.addAll(this.values(expanded.if, depth + 1).slice(0, 6));
      // the schema's own values (some meet the condition, some miss it) with each branch's boundaries laid over them
      const bases = out.list.slice(0, 16);
      const branches = [...this.values(expanded.then, depth + 1).slice(0, 8), ...this.values(expanded.else, depth + 1).slice(0, 8)];
      for (const base of bases) for (const branch of branches) out.add(merge(base, branch));
    }
    return out.list;
  }

  private typedValues(schema: Schema, type: string, depth: number): unknown[] {
    switch (type) {
      case 'null':
        return [null, false];
      case 'boolean':
        return [true, false, 0];
      case 'integer':
      case 'number':
        return this.numberValues(schema, type === 'integer');
      case 'string':
        return this.stringValues(schema);
      case 'array':
        return this.arrayValues(schema, depth);
      case 'object':
        return this.objectValues(schema, depth);
      default:
        return [];
    }
  }

  private numberValues(schema: Schema, integer: boolean): unknown[] {
    const out: number[] = [];
    for (const name of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
      const bound = schema[name];
      if (typeof bound !== 'number') continue;
      out.push(bound, bound - 1, bound + 1, nextUp(bound), nextDown(bound), bound - 0.5, bound + 0.5);
    }
    const step = schema.multipleOf;
    if (typeof step === 'number' && step > 0) {
      const base = this.numberExample(schema, integer);
      out.push(step, step * 2, step * 3, step * 1.5, step / 2, base, base + step, base - step, base + step / 2, nextUp(base), -step, step * 1e6);
    }
    if (typeof schema.format === 'string') out.push(...(NUMBER_FORMAT_EXAMPLES[schema.format] ?? []));
    out.push(0, 1, -1, 0.5);
    if (integer) out.push(1.5, 1e21);
    return out.filter(Number.isFinite);
  }

  private stringValues(schema: Schema): unknown[] {
    const out: string[] = ['', 'a', 'é"\\\n'];
    const min = typeof schema.minLength === 'number' ? schema.minLength : undefined;
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
    for (const length of [min, max].flatMap((bound) => (bound === undefined ? [] : [bound - 1, bound, bound + 1]))) {
      if (length < 0 || length > MAX_BUILT_LENGTH) continue;
      const text = this.stringOfLength(schema, length);
      if (text !== undefined) out.push(text);
      // a length boundary written with multi-byte characters: code points, not UTF-16 units or bytes
      out.push('😀'.repeat(length));
    }
    if (typeof schema.pattern === 'string') {
      const examples = this.pattern(schema.pattern);
      if (examples !== undefined) {
        const match = examples.within(min ?? 0, max ?? MAX_BUILT_LENGTH);
        if (match !== undefined) out.push(match, ...examples.nearMisses(match, 6));
        const longer = examples.within((min ?? 0) + 3, max ?? MAX_BUILT_LENGTH);
        if (longer !== undefined) out.push(longer);
      }
    }
    if (typeof schema.format === 'string') out.push(...(FORMAT_EXAMPLES[schema.format] ?? ['x']));
    return out;
  }

  private arrayValues(schema: Schema, depth: number): unknown[] {
    const out = new Candidates();
    const base = this.typedExample(schema, 'array', depth) as unknown[];
    out.add(base);
    out.add([]);
    for (const name of ['minItems', 'maxItems']) {
      const bound = schema[name];
      if (typeof bound !== 'number') continue;
      for (const length of [bound - 1, bound, bound + 1]) if (length >= 0 && length <= 64) out.add(this.arrayOfLength(schema, length, depth));
    }
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
    const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
    prefix.slice(0, 6).forEach((item, index) => {
      for (const value of this.values(item, depth + 1).slice(0, 5)) {
        const copy = this.arrayOfLength(schema, Math.max(base.length, index + 1), depth);
        copy[index] = value;
        out.add(copy);
      }
    });
    out.add([...this.arrayOfLength(schema, prefix.length, depth), this.example(rest, depth + 1)]);
    for (const value of this.values(rest, depth + 1).slice(0, 16)) out.add([...this.arrayOfLength(schema, prefix.length, depth), value]);
    if ('contains' in schema) {
      const match = this.example(schema.contains, depth + 1);
      const miss = this.values(schema.contains, depth + 1).find((value) => key(value) !== key(match)) ?? null;
      const minContains = typeof schema.minContains === 'number' ? schema.minContains : 1;
      const maxContains = typeof schema.maxContains === 'number' ? schema.maxContains : minContains + 1;
      for (const count of new Set([0, 1, minContains - 1, minContains, maxContains, maxContains + 1]))
        if (count >= 0 && count <= 32) {
          const matches = Array.from({ length: count }, () => match);
          out.add([...matches, miss]);
          out.add(matches);
          // after a miss, and after the prefix's own items (which may match too), so counts are met off position 0
          out.add([miss, ...matches]);
          if (prefix.length > 0) out.add([...this.arrayOfLength(schema, prefix.length, depth), ...matches]);
        }
      for (const value of this.values(schema.contains, depth + 1).slice(0, 6)) out.add([value]);
    }
    const pad = this.example(rest, depth + 1);
    const rules = this.containsRules(schema, pad, depth);
    if (rules.length >= 2) {
      // each contains counted on its own: every combination of counts at the bounds of each, matches grouped and interleaved
      const head = this.arrayOfLength(schema, prefix.length, depth);
      let groups: unknown[][][] = [[]];
      for (const rule of rules.slice(0, 3))
        groups = groups.flatMap((kept) =>
          rule.counts.map((count) => [...kept, Array.from({ length: count }, (_, index) => rule.matches[index % rule.matches.length])]),
        );
      for (const group of groups) {
        out.add(group.flat());
        out.add([pad, ...group.flat()]);
        out.add(interleave(group));
        if (prefix.length > 0) out.add([...head, ...interleave(group)]);
      }
    }
    if (schema.uniqueItems === true || schema.uniqueItems === false) {
      const item = base[0] ?? this.example(rest, depth + 1);
      out.add([item, item]);
      const other = this.values(rest, depth + 1).find((value) => key(value) !== key(item));
      if (other !== undefined) out.add([item, other]);
      if (isObject(item)) out.add([item, Object.fromEntries(Object.entries(item).reverse())]);
    }
    return out.list;
  }

  /**
   * The `contains` of an array schema and of its `allOf` members: a value that matches each (an object one laid over the
   * items' example `pad`, so it may pass `items` too), and its counts at the bounds.
   */
  private containsRules(schema: Schema, pad: unknown, depth: number): { matches: unknown[]; counts: number[] }[] {
    const rules: { matches: unknown[]; counts: number[] }[] = [];
    // items from an enum: its members of the type `contains` names, distinct, so uniqueItems arrays reach each count too
    const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
    const members = isObject(rest) && Array.isArray(rest.enum) ? rest.enum : [];
    const collect = (member: unknown, level: number): void => {
      if (!isObject(member) || level > 4) return;
      if ('contains' in member) {
        const minContains = typeof member.minContains === 'number' ? member.minContains : 1;
        const maxContains = typeof member.maxContains === 'number' ? member.maxContains : minContains + 1;
        const counts = [...new Set([minContains - 1, minContains, maxContains, maxContains + 1])].filter((count) => count >= 0 && count <= 8);
        const match = this.example(member.contains, depth + 1);
        const type = isObject(member.contains) ? member.contains.type : undefined;
        const typed = typeof type === 'string' ? members.filter((value) => jsonType(value, type)) : [];
        rules.push({ matches: typed.length > 0 ? typed : [isObject(match) && isObject(pad) ? { ...pad, ...match } : match], counts });
      }
      if (Array.isArray(member.allOf)) for (const part of member.allOf) collect(part, level + 1);
    };
    collect(schema, 0);
    return rules;
  }

  private objectValues(schema: Schema, depth: number): unknown[] {
    const out = new Candidates();
    const base = this.objectExample(schema, depth);
    const properties = isObject(schema.properties) ? schema.properties : {};
    const full: Record<string, unknown> = { ...base };
    for (const name of Object.keys(properties)) if (!(name in full)) full[name] = this.example(properties[name], depth + 1);
    out.add(base);
    out.add(full);
    for (const name of Object.keys(base)) out.add(without(base, name));
    for (const name of Object.keys(properties).slice(0, 24))
      for (const value of this.values(properties[name], depth + 1).slice(0, 16)) out.add({ ...base, [name]: value });
    // keys no declared property names: additionalProperties, patternProperties, propertyNames decide
    const additional = schema.additionalProperties;
    out.add({ ...base, extra_key: 1 });
    if (isObject(additional)) for (const value of this.values(additional, depth + 1).slice(0, 6)) out.add({ ...base, extra_key: value });
    if (isObject(schema.patternProperties))
      for (const [source, child] of Object.entries(schema.patternProperties).slice(0, 8)) {
        const examples = this.pattern(source);
        const names = examples === undefined ? [] : [examples.within(1, 32), ...examples.nearMisses(examples.within(1, 32) ?? 'a', 2)];
        for (const name of names.filter((candidate): candidate is string => candidate !== undefined))
          for (const value of this.values(child, depth + 1).slice(0, 4)) out.add({ ...base, [name]: value });
      }
    if ('propertyNames' in schema) {
      const value = this.example(additional, depth + 1);
      for (const name of this.values(schema.propertyNames, depth + 1)) if (typeof name === 'string') out.add({ ...base, [name]: value });
      for (const name of Object.keys(properties).slice(0, 8)) out.add({ ...base, [name]: this.example(properties[name], depth + 1) });
    }
    for (const name of ['minProperties', 'maxProperties']) {
      const bound = schema[name];
      if (typeof bound !== 'number') continue;
      for (const count of [bound - 1, bound, bound + 1]) if (count >= 0 && count <= 64) out.add(this.objectWithCount(schema, full, count, depth));
    }
    const dependencies = [schema.dependentRequired, schema.dependentSchemas, schema.dependencies].filter(isObject);
    for (const table of dependencies)
      for (const [trigger, dependent] of Object.entries(table).slice(0, 12)) {
        const triggerValue = this.example(this.propertySchema(schema, trigger), depth + 1);
        const withTrigger = { ...base, [trigger]: triggerValue };
        out.add(withTrigger);
        out.add(without(full, trigger));
        if (Array.isArray(dependent)) {
          const complete: Record<string, unknown> = { ...withTrigger };
          for (const name of dependent) if (typeof name === 'string') complete[name] = this.example(this.propertySchema(schema, name), depth + 1);
          out.add(complete);
          for (const name of dependent) if (typeof name === 'string') out.add(without(complete, name));
        } else {
          out.add(merge(withTrigger, this.example(dependent, depth + 1)));
          for (const value of this.values(dependent, depth + 1).slice(0, 4)) out.add(merge(withTrigger, value));
        }
      }
    return out.list;
  }

  /** `full` cut or padded to `count` properties (extra names from the schema's patterns, else `k0`, `k1`…). */
  private objectWithCount(schema: Schema, full: Record<string, unknown>, count: number, depth: number): Record<string, unknown> {
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const names = Object.keys(full).sort((left, right) => Number(required.has(right)) - Number(required.has(left)));
    const value: Record<string, unknown> = {};
    for (const name of names.slice(0, count)) value[name] = full[name];
    const patternName = isObject(schema.patternProperties)
      ? Object.keys(schema.patternProperties)
          .map((source) => this.pattern(source))
          .find((examples) => examples !== undefined)
      : undefined;
    for (let index = 0; Object.keys(value).length < count && index < count * 4; index++) {
      const name = patternName?.ofLength(index + 1) ?? `k${index}`;
      if (!(name in value)) value[name] = this.example(this.propertySchema(schema, name), depth + 1);
    }
    return value;
  }
}

class Candidates {
  readonly list: unknown[] = [];
  private readonly seen = new Set<string>();

  add(value: unknown): void {
    if (value === undefined) return;
    const text = key(value);
    if (this.seen.has(text)) return;
    this.seen.add(text);
    this.list.push(value);
  }

  addAll(values: readonly unknown[]): void {
    for (const value of values) this.add(value);
  }
}

function merge(left: unknown, right: unknown): unknown {
  if (left === undefined) return right;
  if (right === undefined) return left;
  if (isObject(left) && isObject(right)) return { ...left, ...right };
  return left;
}

function without(value: Record<string, unknown>, name: string): Record<string, unknown> {
  const copy = { ...value };
  delete copy[name];
  return copy;
}

/** Whether `value` has JSON Schema type `type`. */
function jsonType(value: unknown, type: string): boolean {
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'null') return value === null;
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return isObject(value);
  return typeof value === type;
}

/** The groups' items taken one from each group in turn. */
function interleave(groups: readonly (readonly unknown[])[]): unknown[] {
  const out: unknown[] = [];
  for (let index = 0; groups.some((group) => index < group.length); index++) for (const group of groups) if (index < group.length) out.push(group[index]);
  return out;
}

/** Values next to a literal: another number, a longer string, a flipped boolean, a changed member. */
function nearMisses(value: unknown): unknown[] {
  if (typeof value === 'number') return [value + 1, nextUp(value), String(value)];
  if (typeof value === 'string') return [`${value}x`, value.slice(0, -1), value.toUpperCase() === value ? value.toLowerCase() : value.toUpperCase()];
  if (typeof value === 'boolean') return [!value];
  if (value === null) return [0, 'null'];
  if (Array.isArray(value)) return [[...value, null], value.slice(1)];
  if (isObject(value)) {
    const keys = Object.keys(value);
    return [{ ...value, extra_key: 1 }, keys.length > 0 ? without(value, keys[0]!) : { a: 1 }];
  }
  return [];
}

/**
 * Instances of `schema` on both sides of its constraints, deduplicated, at most
 * `maxInstances` (default 200; the schema's example and first candidates are always kept,
 * the rest sampled with `seed`). Never throws for a strange schema: what it cannot read, it skips.
 */
export function boundaryInstances(schema: unknown, options: BoundaryInstanceOptions = {}): unknown[] {
  const generator = new BoundaryGenerator(schema, options.schemas ?? {});
  let values: unknown[];
  try {
    values = generator.values(schema, 0);
  } catch {
    values = [];
  }
  const limit = options.maxInstances ?? 200;
  if (values.length <= limit) return values;
  const keep = Math.min(limit, 16);
  const head = values.slice(0, keep);
  const tail = values.slice(keep);
  const random = createRandom(options.seed ?? 1);
  for (let index = tail.length - 1; index > 0; index--) {
    const swap = Math.floor(random() * (index + 1));
    [tail[index], tail[swap]] = [tail[swap], tail[index]];
  }
  return [...head, ...tail.slice(0, limit - keep)];
}
