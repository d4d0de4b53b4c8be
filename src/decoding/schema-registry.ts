/**
 * Finds every schema resource (`$id`), anchor (`$anchor`) and JSON pointer a `$ref`
 * can name, for one root schema plus the remote schemas the caller supplies.
 * @module
 */
import { isPlainObject } from '../shared/own.js';

/** Base URI of a root schema without `$id`; never fetched. */
export const DEFAULT_BASE = 'https://toolwright.invalid/schema.json';

const SINGLE_SCHEMA_KEYWORDS = [
  'additionalProperties',
  'items',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
  'contentSchema',
];
const SCHEMA_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];

/** Where a schema object sits: its base URI and a JSON pointer for messages. */
export interface SchemaPlace {
  readonly base: string;
  readonly pointer: string;
}

export class SchemaRegistry {
  private readonly resources = new Map<string, unknown>();
  private readonly anchors = new Map<string, unknown>();
  private readonly places = new Map<object, SchemaPlace>();

  constructor(root: unknown, remotes: Readonly<Record<string, unknown>>) {
    for (const [uri, schema] of Object.entries(remotes)) this.scan(schema, stripFragment(uri), uri.includes('#') ? uri : `${stripFragment(uri)}#`);
    this.scan(root, DEFAULT_BASE, '#');
  }

  /** Base URI and pointer of a schema object met during the scan (undefined for booleans and unscanned objects). */
  placeOf(schema: unknown): SchemaPlace | undefined {
    return typeof schema === 'object' && schema !== null ? this.places.get(schema) : undefined;
  }

  /** The schema a `$ref` names, resolved against `base`, or undefined. */
  resolve(reference: string, base: string): { schema: unknown; place: SchemaPlace } | undefined {
    let absolute: string;
    try {
      absolute = new URL(reference, base).href;
    } catch {
      return undefined;
    }
    const hash = absolute.indexOf('#');
    const resourceUri = hash >= 0 ? absolute.slice(0, hash) : absolute;
    const fragment = hash >= 0 ? absolute.slice(hash + 1) : '';
    const resource = this.resources.get(resourceUri);
    if (fragment !== '' && !fragment.startsWith('/')) {
      const anchored = this.anchors.get(`${resourceUri}#${fragment}`);
      if (anchored === undefined) return undefined;
      return { schema: anchored, place: this.placeOf(anchored) ?? { base: resourceUri, pointer: reference } };
    }
    if (resource === undefined) return undefined;
    let target: unknown = resource;
    let base2 = this.placeOf(resource)?.base ?? resourceUri;
    if (fragment !== '') {
      for (const raw of fragment.slice(1).split('/')) {
        const token = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
        if (Array.isArray(target)) target = target[Number(token)];
        else if (isPlainObject(target) && Object.prototype.hasOwnProperty.call(target, token)) target = target[token];
        else return undefined;
        if (target === undefined) return undefined;
        base2 = this.placeOf(target)?.base ?? base2;
      }
    }
    return { schema: target, place: this.placeOf(target) ?? { base: base2, pointer: `${resourceUri}#${fragment}` } };
  }

  private scan(schema: unknown, base: string, pointer: string): void {
    if (!isPlainObject(schema)) return;
    if (this.places.has(schema)) return;
    let here = base;
    if (typeof schema.$id === 'string') {
      const id = schema.$id;
      try {
        const resolved = new URL(id, base).href;
        if (id.startsWith('#')) {
          this.anchors.set(resolved, schema);
        } else {
          here = stripFragment(resolved);
          this.resources.set(here, schema);
        }
      } catch {
        // an unparsable $id leaves the base unchanged; a $ref to it will not resolve and is reported then
      }
    }
    if (!this.resources.has(here)) this.resources.set(here, schema);
    if (typeof schema.$anchor === 'string') this.anchors.set(`${here}#${schema.$anchor}`, schema);
    if (typeof schema.$dynamicAnchor === 'string' && !this.anchors.has(`${here}#${schema.$dynamicAnchor}`)) this.anchors.set(`${here}#${schema.$dynamicAnchor}`, schema);
    this.places.set(schema, { base: here, pointer });
    const child = (key: string): string => `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    for (const keyword of SINGLE_SCHEMA_KEYWORDS) {
      if (Object.prototype.hasOwnProperty.call(schema, keyword) && !Array.isArray(schema[keyword])) this.scan(schema[keyword], here, child(keyword));
    }
    for (const keyword of SCHEMA_ARRAY_KEYWORDS) {
      const value = Object.prototype.hasOwnProperty.call(schema, keyword) ? schema[keyword] : undefined;
      if (Array.isArray(value)) value.forEach((item, index) => this.scan(item, here, `${child(keyword)}/${index}`));
    }
    for (const keyword of SCHEMA_MAP_KEYWORDS) {
      const value = Object.prototype.hasOwnProperty.call(schema, keyword) ? schema[keyword] : undefined;
      if (isPlainObject(value)) for (const [key, item] of Object.entries(value)) this.scan(item, here, `${child(keyword)}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    }
  }
}

function stripFragment(uri: string): string {
  const hash = uri.indexOf('#');
  return hash >= 0 ? uri.slice(0, hash) : uri;
}
