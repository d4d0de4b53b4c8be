/**
 * `$ref` forms for the reference-resolution differential test (`reference-forms.test.ts`): small schemas, written for
 * this repository, each naming its target one way the registry's Ajv resolves (or refuses) a reference: JSON pointers
 * with `~0`/`~1` and percent-encoding, pointers into places other than `$defs`, relative references against nested
 * `$id`s, anchors, `urn:` and scheme-less ids, references to the root by its `$id`, draft-07 `$ref` siblings, chains,
 * boolean targets and subschemas under keywords no vocabulary defines. Each target constrains the value, so a
 * reference resolved to the wrong place shows on the boundary instances.
 */
export interface ReferenceForm {
  readonly name: string;
  readonly schema: Record<string, unknown>;
  /**
   * The keyword the mask names when it refuses a form the registry compiles, for the one form whose registry semantics
   * are an accident of Ajv's code rather than JSON Schema (a `$ref` to a value that is not a schema). Every other form
   * the registry compiles, the mask compiles.
   */
  readonly maskRefuses?: string;
}

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const DRAFT_06 = 'http://json-schema.org/draft-06/schema#';
const DRAFT_04 = 'http://json-schema.org/draft-04/schema#';
const DRAFT_2019 = 'https://json-schema.org/draft/2019-09/schema';

/** An object whose property `v` is the referenced schema, so the target's constraint is checked inside a value. */
const holding = (reference: string, rest: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'object',
  properties: { v: { $ref: reference } },
  required: ['v'],
  ...rest,
});

const small = { type: 'integer', minimum: 1, maximum: 3 };
const word = { type: 'string', maxLength: 2 };

export const REFERENCE_FORMS: readonly ReferenceForm[] = [
  // ---- JSON pointers: escapes and percent-encoding
  { name: 'pointer with ~1 (a slash in the name)', schema: holding('#/$defs/a~1b', { $defs: { 'a/b': small } }) },
  { name: 'pointer with ~0 (a tilde in the name)', schema: holding('#/$defs/a~0b', { $defs: { 'a~b': small } }) },
  { name: 'pointer with ~01 (tilde then 1)', schema: holding('#/$defs/a~01', { $defs: { 'a~1': small, 'a/': word } }) },
  { name: 'pointer with %25 (a percent sign in the name)', schema: holding('#/$defs/a%25b', { $defs: { 'a%b': small } }) },
  { name: 'pointer with %7B %7D (braces in the name)', schema: holding('#/$defs/%7Bid%7D', { $defs: { '{id}': small } }) },
  { name: 'pointer with %20 (a space in the name)', schema: holding('#/$defs/a%20b', { $defs: { 'a b': small } }) },
  { name: 'pointer with a raw space', schema: holding('#/$defs/a b', { $defs: { 'a b': small } }) },
  { name: 'pointer with %22 (a quote in the name)', schema: holding('#/$defs/a%22b', { $defs: { 'a"b': small } }) },
  { name: 'pointer with a raw non-ASCII name', schema: holding('#/$defs/é', { $defs: { é: small } }) },
  { name: 'pointer with a percent-encoded non-ASCII name', schema: holding('#/$defs/%C3%A9', { $defs: { é: small } }) },
  { name: 'pointer with %2F (an encoded slash)', schema: holding('#/$defs/a%2Fb', { $defs: { 'a/b': small, a: { $defs: { b: word } } } }) },
  { name: 'pointer with %7E1 (an encoded ~1)', schema: holding('#/$defs/a%7E1b', { $defs: { 'a/b': small } }) },
  { name: 'pointer with ^ and $ encoded', schema: holding('#/$defs/%5Ea%24', { $defs: { '^a$': small } }) },
  { name: 'pointer to an empty name', schema: holding('#/$defs/', { $defs: { '': small } }) },
  // ---- pointers into places other than $defs
  { name: 'pointer to another property', schema: { type: 'object', properties: { a: small, b: { $ref: '#/properties/a' } }, required: ['b'] } },
  {
    name: 'pointer to a property items',
    schema: { type: 'object', properties: { a: { type: 'array', items: word }, b: { $ref: '#/properties/a/items' } }, required: ['b'] },
  },
  { name: 'pointer to prefixItems/0', schema: { type: 'array', prefixItems: [small, { $ref: '#/prefixItems/0' }], minItems: 2 } },
  { name: 'pointer to allOf/1', schema: { allOf: [{ type: 'object' }, { properties: { n: small } }], properties: { m: { $ref: '#/allOf/1/properties/n' } } } },
  { name: 'pointer to anyOf/0', schema: holding('#/$defs/u/anyOf/0', { $defs: { u: { anyOf: [small, { type: 'null' }] } } }) },
  { name: 'pointer to a oneOf branch', schema: holding('#/$defs/u/oneOf/1', { $defs: { u: { oneOf: [{ type: 'null' }, word] } } }) },
  { name: 'pointer into not', schema: holding('#/$defs/n/not', { $defs: { n: { not: small } } }) },
  { name: 'pointer into if/then', schema: holding('#/$defs/c/then', { $defs: { c: { if: { type: 'string' }, then: word } } }) },
  { name: 'pointer into additionalProperties', schema: { type: 'object', additionalProperties: small, properties: { z: { $ref: '#/additionalProperties' } } } },
  {
    name: 'pointer into patternProperties (encoded key)',
    schema: { type: 'object', patternProperties: { '^x': word }, properties: { z: { $ref: '#/patternProperties/%5Ex' } }, required: ['z'] },
  },
  { name: 'pointer into dependentSchemas', schema: holding('#/dependentSchemas/q/properties/q', { dependentSchemas: { q: { properties: { q: small } } } }) },
  { name: 'pointer into nested $defs', schema: holding('#/$defs/outer/$defs/inner', { $defs: { outer: { $defs: { inner: small } } } }) },
  { name: 'pointer into contains', schema: { type: 'array', contains: small, items: { $ref: '#/contains' } } },
  { name: 'pointer into items of a definition', schema: holding('#/$defs/list/items', { $defs: { list: { type: 'array', items: word } } }) },
  { name: 'pointer into definitions (2020-12 document)', schema: holding('#/definitions/a', { definitions: { a: small } }) },
  { name: 'pointer into an unknown keyword', schema: holding('#/x-shared/int', { 'x-shared': { int: small } }) },
  { name: 'pointer into an array under an unknown keyword', schema: holding('#/x-list/1', { 'x-list': [word, small] }) },
  { name: 'pointer into an unknown keyword that holds $defs', schema: holding('#/x-lib/$defs/a', { 'x-lib': { $defs: { a: small } } }) },
  {
    name: 'pointer into an unknown keyword whose $defs hold an old form (never compiled)',
    schema: holding('#/x-lib/a', { 'x-lib': { a: small, $defs: { old: { items: [small] } } } }),
  },
  { name: 'pointer into an unknown keyword that holds a $ref', schema: holding('#/x-lib/a', { 'x-lib': { a: { $ref: '#/$defs/b' } }, $defs: { b: small } }) },
  // ---- the root, chains, booleans
  { name: 'reference to the root (#)', schema: { type: 'object', properties: { n: small, child: { $ref: '#' } }, additionalProperties: false } },
  { name: 'empty reference (the root)', schema: { type: 'object', properties: { n: small, child: { $ref: '' } }, additionalProperties: false } },
  {
    name: 'reference to the root by its $id',
    schema: {
      $id: 'https://example.com/tree',
      type: 'object',
      properties: { n: small, child: { $ref: 'https://example.com/tree' } },
      additionalProperties: false,
    },
  },
  {
    name: 'reference to the root by its $id with #',
    schema: {
      $id: 'https://example.com/tree',
      type: 'object',
      properties: { n: small, child: { $ref: 'https://example.com/tree#' } },
      additionalProperties: false,
    },
  },
  { name: 'chain of three references', schema: holding('#/$defs/a', { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/c' }, c: small } }) },
  {
    name: 'chain through a pointer into a property',
    schema: holding('#/$defs/a', { $defs: { a: { $ref: '#/$defs/o/properties/p' }, o: { properties: { p: small } } } }),
  },
  { name: 'reference to a true schema', schema: holding('#/$defs/t', { $defs: { t: true }, properties: { v: { $ref: '#/$defs/t' }, w: small } }) },
  { name: 'reference to a false schema', schema: { type: 'object', properties: { v: { $ref: '#/$defs/f' }, w: small }, $defs: { f: false } } },
  {
    name: 'reference with siblings (2020-12 applies both)',
    schema: holding('#/$defs/i', { $defs: { i: { type: 'integer' } }, properties: { v: { $ref: '#/$defs/i', minimum: 2, maximum: 4 } } }),
  },
  // ---- $id, anchors, relative references
  {
    name: 'relative reference into an embedded resource',
    schema: holding('other.json#/$defs/x', { $id: 'https://example.com/root.json', $defs: { o: { $id: 'other.json', $defs: { x: small } } } }),
  },
  {
    name: 'embedded resource by its relative $id',
    schema: holding('other.json', { $id: 'https://example.com/root.json', $defs: { o: { $id: 'other.json', ...small } } }),
  },
  {
    name: 'anchor inside an embedded resource',
    schema: holding('other.json#num', {
      $id: 'https://example.com/root.json',
      $defs: { o: { $id: 'other.json', $defs: { x: { $anchor: 'num', ...small } } } },
    }),
  },
  { name: 'anchor at the root document', schema: holding('#num', { $defs: { x: { $anchor: 'num', ...small } } }) },
  { name: '$dynamicAnchor named by $ref', schema: holding('#num', { $defs: { x: { $dynamicAnchor: 'num', ...small } } }) },
  {
    name: 'reference from inside an embedded resource to its own pointer',
    schema: holding('https://example.com/inner.json', {
      $defs: {
        inner: { $id: 'https://example.com/inner.json', type: 'object', properties: { k: { $ref: '#/$defs/w' } }, $defs: { w: word }, required: ['k'] },
      },
    }),
  },
  {
    name: 'sibling resource by relative path',
    schema: holding('https://example.com/a/one.json', {
      $defs: { one: { $id: 'https://example.com/a/one.json', $ref: '../b/two.json' }, two: { $id: 'https://example.com/b/two.json', ...small } },
    }),
  },
  { name: 'root $id with an empty fragment', schema: holding('#/$defs/a', { $id: 'https://example.com/s.json#', $defs: { a: small } }) },
  {
    name: 'root $id with an empty fragment, referenced absolutely',
    schema: holding('https://example.com/s.json#/$defs/a', { $id: 'https://example.com/s.json#', $defs: { a: small } }),
  },
  { name: 'urn root $id, pointer reference', schema: holding('#/$defs/a', { $id: 'urn:example:root', $defs: { a: small } }) },
  { name: 'urn root $id, absolute pointer reference', schema: holding('urn:example:root#/$defs/a', { $id: 'urn:example:root', $defs: { a: small } }) },
  { name: 'urn embedded resource', schema: holding('urn:example:int', { $defs: { a: { $id: 'urn:example:int', ...small } } }) },
  {
    name: 'urn embedded resource with an anchor',
    schema: holding('urn:example:lib#num', { $defs: { a: { $id: 'urn:example:lib', $defs: { n: { $anchor: 'num', ...small } } } } }),
  },
  {
    name: 'urn embedded resource, pointer into it',
    schema: holding('urn:example:lib#/$defs/n', { $defs: { a: { $id: 'urn:example:lib', $defs: { n: small } } } }),
  },
  { name: 'root $id without a scheme', schema: holding('schema.json#/$defs/a', { $id: 'schema.json', $defs: { a: small } }) },
  { name: 'embedded $id without a scheme', schema: holding('int.json', { $defs: { a: { $id: 'int.json', ...small } } }) },
  { name: 'root $id as an absolute path', schema: holding('/schemas/root#/$defs/a', { $id: '/schemas/root', $defs: { a: small } }) },
  { name: 'embedded $id as an absolute path', schema: holding('/schemas/int', { $id: '/schemas/root', $defs: { a: { $id: '/schemas/int', ...small } } }) },
  { name: 'reference with a query', schema: holding('https://example.com/s?v=2#/$defs/a', { $id: 'https://example.com/s?v=2', $defs: { a: small } }) },
  // ---- identifiers where only a walk of the whole JSON finds them (Ajv registers $id and anchors under any keyword)
  {
    name: '$id under an unknown keyword',
    schema: holding('https://example.com/lib/int', { 'x-lib': { int: { $id: 'https://example.com/lib/int', ...small } } }),
  },
  { name: '$anchor under an unknown keyword', schema: holding('#num', { 'x-lib': { int: { $anchor: 'num', ...small } } }) },
  { name: '$anchor on an unknown keyword itself', schema: holding('#num', { 'x-int': { $anchor: 'num', ...small } }) },
  { name: '$anchor inside definitions (2020-12 document)', schema: holding('#num', { definitions: { a: { $anchor: 'num', ...small } } }) },
  {
    name: 'relative reference inside an unknown keyword resource',
    schema: holding('https://example.com/lib/outer', {
      'x-lib': { o: { $id: 'https://example.com/lib/outer', $ref: 'inner', $defs: { i: { $id: 'inner', ...small } } } },
    }),
  },
  {
    name: 'pointer through an $id under an unknown keyword',
    schema: holding('#/x-lib/o/$defs/i', { 'x-lib': { o: { $id: 'https://example.com/o', $defs: { i: { $ref: '#/$defs/j' }, j: small } } } }),
  },
  {
    name: 'pointer to a schema whose $ref is relative to a nested $id',
    schema: holding('#/$defs/o/$defs/i', { $defs: { o: { $id: 'https://example.com/o', $defs: { i: { $ref: '#/$defs/j' }, j: small } } } }),
  },
  { name: '$anchor inside prefixItems', schema: { type: 'array', prefixItems: [{ $anchor: 'num', ...small }], items: { $ref: '#num' } } },
  {
    name: '$id inside prefixItems',
    schema: { type: 'array', prefixItems: [{ $id: 'https://example.com/first', ...small }], items: { $ref: 'https://example.com/first' } },
  },
  { name: '$anchor inside dependentSchemas', schema: holding('#num', { dependentSchemas: { q: { $anchor: 'num', ...small } } }) },
  { name: '$anchor under an array of an unknown keyword', schema: holding('#num', { 'x-list': [{ $anchor: 'num', ...small }] }) },
  // ---- an $id with no $id above it, which Ajv keys by its raw text (every $ref by its normalized URI)
  ...[
    'HTTP://Example.COM/x',
    'http://example.com:80/x',
    'http://example.com/a/../b',
    'http://example.com/a b',
    'http://example.com/é',
    'http://example.com/a\\b',
    'http://example.com/%7Efoo',
    'http://example.com/a%2fb',
    'http://example.com/a%2Fb',
    'http://example.com',
    'http://example.com/x/',
    'http://example.com/x#',
    'https://example.com/x?a=1&b=2',
    './int.json',
    'dir/../int.json',
    'int.json',
    '/schemas/int',
    '//example.com/int',
    'urn:example:int',
    'tag:example.com,2024:int',
    'file:///C:/schemas/int.json',
    'mailto:a@example.com',
  ].map((id): ReferenceForm => ({
    name: `$id ${JSON.stringify(id)} in a root without $id, named as written`,
    schema: holding(id, { $defs: { a: { $id: id, ...small } } }),
  })),
  {
    name: 'an $id not in normal form below a root $id (resolved, so normalized)',
    schema: holding('https://example.com/x', { $id: 'https://example.com/root', $defs: { a: { $id: 'HTTPS://Example.COM/x', ...small } } }),
  },
  // ---- older drafts (rewritten into 2020-12 first, for the registry and the mask alike)
  { name: 'draft-07 definitions', schema: holding('#/definitions/a', { $schema: DRAFT_07, definitions: { a: small } }) },
  {
    name: 'draft-07 $ref with siblings (ignored)',
    schema: { $schema: DRAFT_07, definitions: { a: small }, type: 'object', properties: { v: { $ref: '#/definitions/a', maximum: 1 } }, required: ['v'] },
  },
  { name: 'draft-07 plain-name $id fragment', schema: holding('#num', { $schema: DRAFT_07, definitions: { a: { $id: '#num', ...small } } }) },
  {
    name: 'draft-07 nested $id, relative reference',
    schema: holding('item.json', { $schema: DRAFT_07, $id: 'https://example.com/root.json', definitions: { a: { $id: 'item.json', ...small } } }),
  },
  { name: 'draft-07 pointer into an items array', schema: { $schema: DRAFT_07, type: 'array', items: [small, { $ref: '#/items/0' }], minItems: 2 } },
  {
    name: 'draft-07 pointer into additionalItems',
    schema: { $schema: DRAFT_07, type: 'array', items: [{ $ref: '#/additionalItems' }], additionalItems: small, minItems: 2 },
  },
  { name: 'draft-07 pointer into dependencies', schema: holding('#/dependencies/q', { $schema: DRAFT_07, dependencies: { q: small } }) },
  { name: 'draft-06 definitions', schema: holding('#/definitions/a', { $schema: DRAFT_06, definitions: { a: small } }) },
  {
    name: 'draft-04 id and definitions',
    schema: holding('#/definitions/a', { $schema: DRAFT_04, id: 'https://example.com/d4.json', definitions: { a: small } }),
  },
  { name: 'draft-04 plain-name id fragment', schema: holding('#num', { $schema: DRAFT_04, definitions: { a: { id: '#num', ...small } } }) },
  { name: '2019-09 $defs and $anchor', schema: holding('#num', { $schema: DRAFT_2019, $defs: { a: { $anchor: 'num', ...small } } }) },
  { name: '2019-09 pointer into an items array', schema: { $schema: DRAFT_2019, type: 'array', items: [small, { $ref: '#/items/0' }], minItems: 2 } },
  // ---- references as written: what the URL parser would trim or drop, a trailing "#", the root's URI
  { name: 'reference with a trailing #', schema: holding('#/$defs/a#', { $defs: { a: small } }) },
  {
    name: 'reference #/ (the root, as Ajv reads it)',
    schema: { type: 'object', properties: { n: small, child: { $ref: '#/' } }, additionalProperties: false },
  },
  { name: 'pointer to a name with a tab', schema: holding('#/$defs/\ta', { $defs: { '\ta': small, a: word } }) },
  { name: 'reference with a leading space', schema: holding(' #/$defs/a', { $defs: { a: small } }) },
  { name: 'reference with a trailing space', schema: holding('#/$defs/a ', { $defs: { a: small, 'a ': word } }) },
  { name: 'relative reference with a line break', schema: holding('int\n.json', { $defs: { a: { $id: 'int.json', ...small } } }) },
  { name: 'relative reference to the name a root without $id could have', schema: holding('schema.json#/$defs/a', { $defs: { a: small } }) },
  {
    name: 'nested $id naming what a root without $id could be named',
    schema: holding('#/$defs/b', { $defs: { b: small, a: { $id: 'schema.json', $defs: { b: word } } } }),
  },
  { name: 'nested empty $id', schema: holding('#/$defs/b', { $defs: { b: small, a: { $id: '', $defs: { b: word } } } }) },
  // ---- references the registry refuses too
  { name: 'missing definition', schema: holding('#/$defs/missing', { $defs: { a: small } }) },
  { name: 'unknown remote document', schema: holding('https://example.com/elsewhere.json') },
  { name: 'unknown anchor', schema: holding('#nope', { $defs: { a: { $anchor: 'num', ...small } } }) },
  { name: 'pointer past the end of an array', schema: { type: 'array', prefixItems: [small, { $ref: '#/prefixItems/5' }] } },
  { name: 'pointer into an unknown keyword holding an items array', schema: holding('#/x-old', { 'x-old': { type: 'array', items: [small] } }) },
  {
    name: 'pointer into an unknown keyword holding a boolean exclusiveMinimum',
    schema: holding('#/x-old/n', { 'x-old': { n: { ...small, exclusiveMinimum: true } } }),
  },
  {
    name: 'draft-04 pointer into an unknown section with draft-04 forms',
    schema: holding('#/x-old/n', { $schema: DRAFT_04, 'x-old': { n: { type: 'array', items: [small] } } }),
  },
  {
    name: 'draft-07 pointer into an unknown section: its $ref siblings are ignored there too',
    schema: holding('#/x-defs/a', { $schema: DRAFT_07, 'x-defs': { a: { $ref: '#/definitions/i', maximum: 1 } }, definitions: { i: small } }),
  },
  {
    name: 'draft-04 pointer into an unknown section with a boolean exclusiveMinimum',
    schema: holding('#/x-old/n', { $schema: DRAFT_04, 'x-old': { n: { ...small, minimum: 1, exclusiveMinimum: true } } }),
  },
  {
    name: 'draft-04 pointer into an items array inside an unknown section',
    schema: holding('#/x-old/n/items/0', { $schema: DRAFT_04, 'x-old': { n: { type: 'array', items: [small] } } }),
  },
  {
    name: 'an anchor that is not a plain name, under an unknown keyword',
    schema: holding('#/x-lib/a', { 'x-lib': { a: { $anchor: 'not plain', ...small } } }),
  },
  { name: 'malformed escape ~2', schema: holding('#/$defs/a~2', { $defs: { 'a~2': small } }) },
  { name: 'malformed percent escape', schema: holding('#/$defs/a%zz', { $defs: { 'a%zz': small } }) },
  { name: 'pointer to a value that is not a schema', schema: holding('#/required/0', { required: ['v'] }), maskRefuses: '$ref' },
];
