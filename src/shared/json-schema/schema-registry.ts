/**
 * `$ref` / `$id` resolution within the documents at hand, never fetching: finds
 * every schema resource (`$id`), anchor (`$anchor`, `$dynamicAnchor`) and JSON
 * pointer a `$ref` can name, for one root schema plus the remote schemas the
 * caller supplies.
 * @module
 */
import { decodeReferenceToken, valueAtPointer } from './json-pointer.js';
import { walkSubschemas } from './walk-schema.js';

/**
 * Base URI of a root schema without `$id`; never fetched. A folder, so that no plain relative reference (`schema.json`)
 * or nested `$id` resolves to the root's own URI: Ajv, whose base there is empty, keeps those apart from the root.
 */
export const DEFAULT_BASE = 'https://toolwright.invalid/document/';

/** Where a schema object sits: its base URI and a JSON pointer for messages. */
export interface SchemaPlace {
  readonly base: string;
  readonly pointer: string;
}

export class SchemaRegistry {
  private readonly resources = new Map<string, unknown>();
  private readonly anchors = new Map<string, unknown>();
  private readonly places = new Map<object, SchemaPlace>();

  constructor(root: unknown, remotes: Readonly<Record<string, unknown>> = {}) {
    const seen = new Set<object>();
    for (const [uri, schema] of Object.entries(remotes)) this.scan(schema, stripFragment(uri), uri.includes('#') ? uri : `${stripFragment(uri)}#`, seen);
    this.scan(root, DEFAULT_BASE, '#', seen);
  }

  /** Base URI and pointer of a schema object met during the scan (undefined for booleans and unscanned objects). */
  placeOf(schema: unknown): SchemaPlace | undefined {
    return typeof schema === 'object' && schema !== null ? this.places.get(schema) : undefined;
  }

  /** The schema a `$ref` names, resolved against `base` (by default the root's), or undefined. */
  resolve(reference: string, base: string = DEFAULT_BASE): { schema: unknown; place: SchemaPlace } | undefined {
    // as Ajv's normalizeId: a trailing "#" or "#/" names the resource itself
    const written = reference.replace(/#\/?$/, '');
    let resourceUri: string;
    let fragment: string;
    if (written.startsWith('#') || written === '') {
      // a fragment of the current resource, read as written: the URL parser would drop its tabs and line breaks, Ajv does not
      resourceUri = stripFragment(base);
      fragment = written.slice(1);
    } else {
      // the URL parser trims spaces and control characters around a reference and drops tabs and line breaks in it; Ajv keeps them
      if (written.charCodeAt(0) <= 0x20 || written.charCodeAt(written.length - 1) <= 0x20 || /[\t\n\r]/.test(written)) return undefined;
      let absolute: string;
      try {
        absolute = new URL(written, base).href;
      } catch {
        return undefined;
      }
      const hash = absolute.indexOf('#');
      resourceUri = hash >= 0 ? absolute.slice(0, hash) : absolute;
      fragment = hash >= 0 ? absolute.slice(hash + 1) : '';
    }
    if (fragment !== '' && !fragment.startsWith('/')) {
      const anchored = this.anchors.get(`${resourceUri}#${fragment}`);
      if (anchored === undefined) return undefined;
      return { schema: anchored, place: this.placeOf(anchored) ?? { base: resourceUri, pointer: reference } };
    }
    const resource = this.resources.get(resourceUri);
    if (resource === undefined) return undefined;
    const segments = referenceTokens(fragment);
    if (segments === undefined) return undefined;
    // The base of the target is that of the nearest scanned schema on the way down (an $id inside the pointer's path moves it).
    let target: unknown = resource;
    let targetBase = this.placeOf(resource)?.base ?? resourceUri;
    for (let index = 0; index < segments.length; index++) {
      target = valueAtPointer(target, segments.slice(index, index + 1));
      if (target === undefined) return undefined;
      targetBase = this.placeOf(target)?.base ?? targetBase;
    }
    return { schema: target, place: this.placeOf(target) ?? { base: targetBase, pointer: `${resourceUri}#${fragment}` } };
  }

  private scan(schema: unknown, base: string, pointer: string, seen: Set<object>): void {
    // Ajv's identifier scan (json-schema-traverse) never enters `prefixItems`: an `$id` or anchor below it names nothing
    const unnamed = new Set<object>();
    walkSubschemas(
      schema,
      ({ schema: node, pointer: at, keyword, parent }) => {
        const parentBase = parent === undefined ? base : this.places.get(parent.schema)!.base;
        const named = parent === undefined || (keyword !== 'prefixItems' && !unnamed.has(parent.schema));
        if (!named) unnamed.add(node);
        let here = parentBase;
        let keyed = named;
        if (typeof node.$id === 'string') {
          const id = node.$id;
          // Ajv keys an $id with no $id above it (in a root without one) by its raw text, and looks every $ref up by its
          // normalized URI: an $id not in normal form there (`HTTP://Example.COM/x`, `a b`, `./x`) names nothing
          if (parent !== undefined && parentBase === DEFAULT_BASE && !id.startsWith('#') && !isNormalUri(id)) keyed = false;
          try {
            const resolved = new URL(id, parentBase).href;
            if (id.startsWith('#')) {
              if (keyed) this.anchors.set(resolved, node);
            } else {
              here = stripFragment(resolved);
            }
          } catch {
            // an unparsable $id leaves the base unchanged; a $ref to it will not resolve and is reported then
          }
        }
        this.places.set(node, { base: here, pointer: at });
        if (!keyed) return;
        // the first schema a URI names keeps it: a nested $id naming the root's own URI is refused by the registry anyway
        if (!this.resources.has(here)) this.resources.set(here, node);
        if (typeof node.$anchor === 'string') this.anchors.set(`${here}#${node.$anchor}`, node);
        if (typeof node.$dynamicAnchor === 'string' && !this.anchors.has(`${here}#${node.$dynamicAnchor}`))
          this.anchors.set(`${here}#${node.$dynamicAnchor}`, node);
      },
      { rootPointer: pointer, seen, unknownKeywords: true },
    );
  }
}

/** The names a `$ref`'s pointer fragment walks: split at every `/` first, then each decoded as Ajv does; undefined for a malformed escape. */
function referenceTokens(fragment: string): string[] | undefined {
  if (fragment === '') return [];
  const tokens = fragment.slice(1).split('/').map(decodeReferenceToken);
  return tokens.every((token) => token !== undefined) ? (tokens as string[]) : undefined;
}

/** Where a relative `$id` is resolved to check its form; never fetched. */
const FORM_BASE = 'https://toolwright.invalid/';
const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443', 'ftp:': '21' };

/**
 * Whether URI normalization (the WHATWG URL parser here, fast-uri in Ajv) leaves `id` as it is, its trailing `#` aside:
 * lower-case scheme and host, no `.` or `..` segment, nothing to percent-encode, no percent escape of an unreserved
 * character or in lower-case hex. An explicit default port and an empty path, which only the WHATWG parser rewrites,
 * count as normal.
 */
function isNormalUri(id: string): boolean {
  const text = id.replace(/#\/?$/, '');
  if (/%(?:[46][1-9a-fA-F]|[57][0-9aA]|3[0-9]|2[dDeE]|5[fF]|7[eE])|%[0-9A-F]?[a-f]/.test(text)) return false;
  let href: string;
  let url: URL;
  try {
    url = new URL(text, FORM_BASE);
    href = url.href;
  } catch {
    return false;
  }
  if (text.startsWith('//')) return href === `https:${text}` || href === `https:${text}/`;
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(text)) return href === FORM_BASE + text.replace(/^\//, '');
  const defaultPort = DEFAULT_PORTS[url.protocol];
  const withoutPort = defaultPort === undefined ? text : text.replace(new RegExp(`^([^:/?#]+://[^/?#]*):${defaultPort}(?=[/?#]|$)`), '$1');
  return href === withoutPort || (url.pathname === '/' && href === `${withoutPort}/`);
}

function stripFragment(uri: string): string {
  const hash = uri.indexOf('#');
  return hash >= 0 ? uri.slice(0, hash) : uri;
}
