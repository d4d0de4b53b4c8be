/**
 * `upgradeSchemaDialect(schema, { dialect })`: a draft-04, -06, -07 or 2019-09 JSON Schema
 * rewritten into a JSON Schema 2020-12 one that accepts the same values, so that the
 * registry's Ajv (2020-12) and the token mask read one schema the same way.
 *
 * Why not `json-schema-migrate` (Ajv's author, `migrate.draft2020`): checked at 2.0.0, it
 * drops a numeric `exclusiveMinimum`/`exclusiveMaximum` (draft-06/07 form) with a console
 * warning, so the upgraded schema accepts more; it leaves `$ref` siblings (ignored up to
 * draft-07, applied in 2020-12), `$recursiveRef`/`$recursiveAnchor` and `$id` fragments
 * (`"#foo"`, refused by 2020-12) as they were; it mutates its input; and a `"__proto__"` key
 * (JSON.parse makes it an own key) becomes the prototype of the rewritten object, so the
 * schema inherits keywords the server chose. Every rewrite is therefore done here.
 * @module
 */
import { SchemaCompileError } from '../errors.js';
import { isPlainObject } from '../own.js';
import { decodeReferenceToken, escapePointer } from './json-pointer.js';
import { keywordKind, subschemaShape } from './keywords.js';
import { walkSubschemas } from './walk-schema.js';

/** The JSON Schema dialects toolwright reads; every one but `2020-12` is rewritten into 2020-12. */
export type SchemaDialect = 'draft-04' | 'draft-06' | 'draft-07' | '2019-09' | '2020-12';

export const SCHEMA_DIALECTS: readonly SchemaDialect[] = ['draft-04', 'draft-06', 'draft-07', '2019-09', '2020-12'];

/** The `$schema` an upgraded schema carries, so that upgrading it again changes nothing. */
export const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** Deepest nesting of subschemas the upgrade follows; a deeper schema is refused (a real one nests a few dozen levels). */
export const MAX_UPGRADE_DEPTH = 256;

const DIALECT_OF_URI: readonly [RegExp, SchemaDialect][] = [
  [/^https?:\/\/json-schema\.org\/draft-04\/schema#?$/, 'draft-04'],
  [/^https?:\/\/json-schema\.org\/draft-06\/schema#?$/, 'draft-06'],
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, 'draft-07'],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, '2019-09'],
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, '2020-12'],
];
const DRAFT_03 = /^https?:\/\/json-schema\.org\/draft-03\/schema#?$/;

/** The dialect a `$schema` URI names, or `undefined` for any other URI (a custom meta-schema is left to the validator). */
export function dialectOfUri(uri: unknown): SchemaDialect | undefined {
  if (typeof uri !== 'string') return undefined;
  return DIALECT_OF_URI.find(([pattern]) => pattern.test(uri))?.[1];
}

/** The dialect a schema's root `$schema` names, or `undefined` when it names none that toolwright knows. */
export function schemaDialectOf(schema: unknown): SchemaDialect | undefined {
  return isPlainObject(schema) && Object.hasOwn(schema, '$schema') ? dialectOfUri(schema.$schema) : undefined;
}

export interface UpgradeSchemaDialectOptions {
  /**
   * How to read a schema whose root `$schema` names no known dialect (untagged). Default
   * `2020-12`: the schema is returned as it is. A root `$schema` naming a dialect always wins.
   */
  dialect?: SchemaDialect;
  /** Tool name for error messages. */
  toolName?: string;
  /** JSON Pointer of the schema inside its document, for error messages (`/inputSchema`). Default `''`. */
  pointer?: string;
}

export interface UpgradedSchema {
  /** The 2020-12 schema: the input itself when it was read as 2020-12, a new object otherwise (the input is never changed). */
  readonly schema: unknown;
  /** The dialect the input was read as. */
  readonly dialect: SchemaDialect;
  /** Pointers of keywords removed because the input's dialect ignores them (beside `$ref` up to draft-07). */
  readonly ignored: readonly string[];
}

interface Scope {
  readonly dialect: SchemaDialect;
  readonly depth: number;
  /** Whether the nearest schema resource is the document root (no `$id` in between). */
  readonly inRootResource: boolean;
  /** Whether the nearest schema resource's root sets `"$recursiveAnchor": true` (2019-09). */
  readonly resourceRecursive: boolean;
}

/** Keywords kept beside a draft ≤ 7 `$ref`: they identify or describe, and never reject a value. */
const KEPT_BESIDE_REF = new Set([
  '$ref',
  '$schema',
  '$id',
  'id',
  '$comment',
  'definitions',
  '$defs',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/**
 * The schema as JSON Schema 2020-12. A root `$schema` naming draft-04, -06, -07 or 2019-09
 * (or, untagged, `options.dialect`) is rewritten, the tag becoming {@link JSON_SCHEMA_2020_12}:
 * - draft-04 `id` → `$id`, its plain-name fragment → `$anchor`; draft-06/07 `$id` fragments likewise;
 * - draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` → the numeric form (without `minimum`/`maximum`);
 * - array `items` + `additionalItems` → `prefixItems` + `items`;
 * - `dependencies` → `dependentRequired` (arrays) and `dependentSchemas` (schemas);
 * - up to draft-07, keywords beside `$ref` that can reject a value are removed (that draft ignores them);
 * - 2019-09 `$recursiveRef: "#"` → `$ref: "#"` where the two agree, `$recursiveAnchor` removed.
 * A nested `$schema` naming a dialect switches the rewrite for its subtree.
 * @throws SchemaCompileError for a root that is not a schema, draft-03, a `"__proto__"` keyword, nesting deeper than
 * {@link MAX_UPGRADE_DEPTH}, a malformed `id`, a `$recursiveRef` that only resolves at run time, or (read as 2020-12)
 * a draft-04 `id` at the root, naming the fix.
 */
export function upgradeSchemaDialect(schema: unknown, options: UpgradeSchemaDialectOptions = {}): UpgradedSchema {
  const toolName = options.toolName;
  const rootPointer = options.pointer ?? '';
  const fail = (pointer: string, message: string): never => {
    // a hostile schema's pointer can be as long as its nesting; its start is enough to find the place
    const place = pointer === '' ? 'the root' : pointer.length > 120 ? `${pointer.slice(0, 120)}…` : pointer;
    throw new SchemaCompileError(toolName, `${message} (at ${place})`);
  };
  if (typeof schema === 'boolean') return { schema, dialect: options.dialect ?? '2020-12', ignored: [] };
  if (!isPlainObject(schema)) {
    return fail(rootPointer, `a JSON Schema is an object or a boolean, not ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema}`);
  }
  if (Object.hasOwn(schema, '$schema') && typeof schema.$schema === 'string' && DRAFT_03.test(schema.$schema)) {
    fail(
      rootPointer,
      'JSON Schema draft-03 is not supported; rewrite the schema in draft-07 or 2020-12 (draft-03 "required": true, "extends" and "disallow" have no direct equivalent)',
    );
  }
  const dialect = schemaDialectOf(schema) ?? options.dialect ?? '2020-12';
  if (dialect === '2020-12') {
    checkAs2020(schema, rootPointer, fail);
    return { schema, dialect, ignored: [] };
  }
  const ignored: string[] = [];
  const upgrader = new DialectUpgrade(ignored, fail, schema, dialect);
  const upgraded = upgrader.schema(schema, rootPointer, { dialect, depth: 0, inRootResource: true, resourceRecursive: schema.$recursiveAnchor === true });
  return { schema: { ...(upgraded as Record<string, unknown>), $schema: JSON_SCHEMA_2020_12 }, dialect, ignored };
}

/**
 * A schema read as 2020-12 is passed on as it is, after the checks the rewrite would make: no
 * `"__proto__"` keyword, and no draft-04 `id` at the root, which Ajv refuses with a message that
 * does not say the schema may be draft-04. A nested `id` is left to Ajv and the mask, which
 * refuse it only where they compile it (not in an unused definition).
 */
function checkAs2020(schema: Record<string, unknown>, rootPointer: string, fail: (pointer: string, message: string) => never): void {
  const depthOf = new Map<object, number>();
  walkSubschemas(
    schema,
    ({ schema: subschema, pointer, parent }) => {
      const depth = parent === undefined ? 0 : depthOf.get(parent.schema)! + 1;
      if (depth > MAX_UPGRADE_DEPTH) fail(pointer, `the schema nests deeper than ${MAX_UPGRADE_DEPTH} levels; flatten it with $defs and $ref`);
      depthOf.set(subschema, depth);
      if (Object.hasOwn(subschema, '__proto__')) fail(pointer, PROTO_KEYWORD);
      if (parent === undefined && Object.hasOwn(subschema, 'id') && typeof subschema.id === 'string') {
        fail(
          pointer,
          `"id" is the draft-04 form of "$id", and the schema is read as JSON Schema 2020-12. Add "$schema": "http://json-schema.org/draft-04/schema#" at its root to have it read as draft-04, or rename "id" to "$id"`,
        );
      }
    },
    { rootPointer },
  );
}

const PROTO_KEYWORD = '"__proto__" is not a JSON Schema keyword, and copying it would set the prototype of the rewritten schema; remove it';

/**
 * A name a schema maps (a property, a definition) set as an own property: `"__proto__"` is a valid property name, and
 * plain assignment would set the prototype instead.
 */
function setOwn(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, writable: true, enumerable: true, configurable: true });
}

class DialectUpgrade {
  constructor(
    private readonly ignored: string[],
    private readonly fail: (pointer: string, message: string) => never,
    private readonly root: Record<string, unknown>,
    private readonly rootDialect: SchemaDialect,
  ) {
    this.referencePaths = pointerPaths(root);
  }

  /** The objects on the way from the root to what each `#/…` `$ref` of the input names (see {@link pointerPaths}). */
  private readonly referencePaths: Set<object>;

  /** One subschema position: booleans and malformed values are returned as they are, for the validator to judge. */
  schema(value: unknown, pointer: string, scope: Scope): unknown {
    if (!isPlainObject(value)) return value;
    if (scope.depth > MAX_UPGRADE_DEPTH) this.fail(pointer, `the schema nests deeper than ${MAX_UPGRADE_DEPTH} levels; flatten it with $defs and $ref`);
    if (Object.hasOwn(value, '__proto__')) this.fail(pointer, PROTO_KEYWORD);

    let here = scope;
    if (Object.hasOwn(value, '$schema') && scope.depth > 0) {
      const nested = dialectOfUri(value.$schema);
      if (nested !== undefined) here = { ...here, dialect: nested };
    }
    const idKeyword = here.dialect === 'draft-04' ? 'id' : '$id';
    if (scope.depth > 0 && Object.hasOwn(value, idKeyword) && typeof value[idKeyword] === 'string' && !(value[idKeyword] as string).startsWith('#')) {
      here = { ...here, inRootResource: false, resourceRecursive: value.$recursiveAnchor === true };
    }
    if (here.dialect === '2020-12') {
      // a nested 2020-12 resource inside an older document: nothing of it is rewritten
      return value;
    }
    const child: Scope = { ...here, depth: scope.depth + 1 };
    const dialect = here.dialect;
    const upToDraft7 = dialect !== '2019-09';
    const hasRef = upToDraft7 && Object.hasOwn(value, '$ref');
    const out: Record<string, unknown> = {};
    // merged after the loop, so that a later `allOf`, `dependentRequired` or `dependentSchemas` key does not overwrite them
    const extraAllOf: unknown[] = [];
    let dependencies: { entry: Record<string, unknown>; at: string } | undefined;

    for (const key of Object.keys(value)) {
      const entry = value[key];
      const at = `${pointer}/${escapePointer(key)}`;
      if (hasRef && !KEPT_BESIDE_REF.has(key)) {
        this.ignored.push(at);
        continue;
      }
      switch (key) {
        case '$schema':
          // the tag of a nested resource: its dialect was applied above, and 2020-12 reads the rewritten form
          if (scope.depth === 0 || dialectOfUri(entry) === undefined) out.$schema = entry;
          continue;
        case 'id':
          if (dialect === 'draft-04') {
            if (typeof entry !== 'string') this.fail(at, 'the draft-04 "id" must be a string (a URI); remove it or make it one');
            this.identify(out, entry as string);
          } else if (typeof entry === 'string') {
            // from draft-06 on, "id" is an unknown keyword (an annotation), which Ajv 2020 would refuse as draft-04's
            this.ignored.push(at);
          } else out.id = entry;
          continue;
        case '$id':
          if (dialect !== 'draft-04' && typeof entry === 'string') this.identify(out, entry);
          else out.$id = entry;
          continue;
        case 'minimum':
        case 'maximum':
          // a draft-04 exclusive flag turns the bound into the numeric exclusive keyword below
          if (!(dialect === 'draft-04' && value[key === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum'] === true)) out[key] = entry;
          continue;
        case 'exclusiveMinimum':
        case 'exclusiveMaximum':
          if (dialect === 'draft-04' && typeof entry === 'boolean') {
            const bound = value[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'];
            // draft-04: `true` makes the bound exclusive, `false` or no bound means nothing
            if (entry && typeof bound === 'number') out[key] = bound;
            else if (entry && bound !== undefined) out[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'] = bound;
          } else out[key] = entry;
          continue;
        case 'items':
          if (Array.isArray(entry)) {
            out.prefixItems = entry.map((item, index) => this.schema(item, `${at}/${index}`, child));
            if (Object.hasOwn(value, 'additionalItems')) out.items = this.schema(value.additionalItems, `${pointer}/additionalItems`, child);
          } else out.items = this.schema(entry, at, child);
          continue;
        case 'additionalItems':
          // applies only beside an array `items` (handled there); elsewhere it constrains nothing
          continue;
        case 'dependencies':
          if (upToDraft7 && isPlainObject(entry)) {
            dependencies = { entry, at };
            continue;
          }
          break;
        case '$ref':
          // a pointer into the document names the places the rewrite moves (`items/0` is now `prefixItems/0`): it follows them
          out.$ref = typeof entry === 'string' && here.inRootResource ? this.movedPointer(entry) : entry;
          continue;
        case '$recursiveAnchor':
          if (dialect === '2019-09') continue;
          break;
        case '$recursiveRef':
          if (dialect === '2019-09') {
            const reference = this.recursiveRef(entry, at, here);
            if (Object.hasOwn(value, '$ref')) extraAllOf.push(reference);
            else Object.assign(out, reference);
            continue;
          }
          break;
        default:
          // a `$ref` reaches into this keyword no vocabulary defines: what it names is a schema of the input's dialect
          if (keywordKind(key) === 'unknown' && isPlainObject(entry) && this.referencePaths.has(entry)) {
            out[key] = this.schema(entry, at, child);
            continue;
          }
          break;
      }
      out[key] = this.children(key, entry, at, child);
    }
    if (dependencies !== undefined) this.splitDependencies(out, dependencies.entry, dependencies.at, child);
    if (extraAllOf.length > 0) out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), ...extraAllOf];
    return out;
  }

  /** The subschemas a keyword holds, each upgraded; a value that holds none is kept as it is. */
  private children(key: string, entry: unknown, at: string, child: Scope): unknown {
    switch (subschemaShape(key, entry)) {
      case 'single':
        return this.schema(entry, at, child);
      case 'array':
        return (entry as unknown[]).map((item, index) => this.schema(item, `${at}/${index}`, child));
      case 'map': {
        if (!isPlainObject(entry)) return entry;
        const mapped: Record<string, unknown> = {};
        for (const name of Object.keys(entry)) setOwn(mapped, name, this.schema(entry[name], `${at}/${escapePointer(name)}`, child));
        return mapped;
      }
      default:
        return entry;
    }
  }

  /** An `id`/`$id` that may end in a fragment: 2020-12 wants the URI in `$id` and a plain name in `$anchor`. */
  private identify(out: Record<string, unknown>, id: string): void {
    const hash = id.indexOf('#');
    if (hash < 0) {
      out.$id = id;
      return;
    }
    const base = id.slice(0, hash);
    const fragment = id.slice(hash + 1);
    if (base !== '') out.$id = base;
    // a JSON-pointer fragment names the place the schema already is; only a plain name is an anchor
    if (fragment !== '' && !fragment.startsWith('/')) out.$anchor = fragment;
  }

  private splitDependencies(out: Record<string, unknown>, dependencies: Record<string, unknown>, at: string, child: Scope): void {
    for (const name of Object.keys(dependencies)) {
      const dependency = dependencies[name];
      if (Array.isArray(dependency)) {
        // a copy: a draft-07 schema's own `dependentRequired` (an annotation there) is still the input's object
        const required = (out.dependentRequired = isPlainObject(out.dependentRequired) ? { ...out.dependentRequired } : {});
        const earlier = Object.hasOwn(required, name) && Array.isArray(required[name]) ? (required[name] as unknown[]) : [];
        setOwn(required, name, [...new Set([...earlier, ...dependency])]);
      } else {
        const schemas = (out.dependentSchemas = isPlainObject(out.dependentSchemas) ? { ...out.dependentSchemas } : {});
        const upgraded = this.schema(dependency, `${at}/${escapePointer(name)}`, child);
        setOwn(schemas, name, Object.hasOwn(schemas, name) ? { allOf: [schemas[name], upgraded] } : upgraded);
      }
    }
  }

  /**
   * A `$ref` of the root resource (`#/items/0`) as it reads in the rewritten document: each step through an array
   * `items` becomes `prefixItems`, through `additionalItems` beside it `items`, and (up to draft-07) through a schema
   * of `dependencies` `dependentSchemas`, where the input's dialect rewrites them. Any other reference, one that names
   * no place of the input, or one with a malformed escape is returned as it is.
   */
  private movedPointer(reference: string): string {
    if (!reference.startsWith('#/')) return reference;
    const tokens = reference.slice(2).split('/');
    let node: unknown = this.root;
    let dialect = this.rootDialect;
    for (let index = 0; index < tokens.length; index++) {
      if (!isPlainObject(node) && !Array.isArray(node)) return reference;
      const name = decodeReferenceToken(tokens[index]!);
      if (name === undefined) return reference;
      if (isPlainObject(node)) {
        if (index > 0 && Object.hasOwn(node, '$schema')) dialect = dialectOfUri(node.$schema) ?? dialect;
        if (dialect !== '2020-12' && Array.isArray(node.items)) {
          if (tokens[index] === 'items') tokens[index] = 'prefixItems';
          else if (tokens[index] === 'additionalItems') tokens[index] = 'items';
        }
        const next = decodeReferenceToken(tokens[index + 1] ?? '');
        const dependency =
          isPlainObject(node.dependencies) && next !== undefined && Object.hasOwn(node.dependencies, next) ? node.dependencies[next] : undefined;
        if (tokens[index] === 'dependencies' && dialect !== '2020-12' && dialect !== '2019-09' && dependency !== undefined && !Array.isArray(dependency))
          tokens[index] = 'dependentSchemas';
      }
      node = isPlainObject(node) ? (Object.hasOwn(node, name) ? node[name] : undefined) : (node as unknown[])[Number(name)];
      if (node === undefined) return reference;
    }
    return `#/${tokens.join('/')}`;
  }

  /**
   * 2019-09 `$recursiveRef: "#"` names the current resource, unless that resource sets `$recursiveAnchor: true`: then
   * the outermost resource of the dynamic scope that sets it. Evaluation always starts at the document root, so in the
   * root resource (or a resource without the anchor) the target is fixed, and `$ref: "#"` is the same schema.
   */
  private recursiveRef(entry: unknown, at: string, scope: Scope): { $ref: '#' } {
    if (entry !== '#') this.fail(at, `"$recursiveRef" must be "#" (draft 2019-09), not ${JSON.stringify(entry)}`);
    if (!scope.inRootResource && scope.resourceRecursive) {
      this.fail(
        at,
        'this "$recursiveRef" sits in an embedded resource ("$id") with "$recursiveAnchor": true, so its target depends on how it was reached, which toolwright does not rewrite; ' +
          'rewrite the schema in JSON Schema 2020-12 with "$dynamicRef"/"$dynamicAnchor", or remove "$recursiveAnchor" from that resource',
      );
    }
    return { $ref: '#' };
  }
}

/**
 * The objects on the way from `root` to what each of its `#/…` `$ref`s names, the target included: Ajv compiles a
 * target under a keyword no vocabulary defines (`"x-defs": {"a": {…}}`) as a schema, so the rewrite upgrades the
 * objects under such a keyword that lead to one, and leaves every other unknown keyword's value as it is.
 */
function pointerPaths(root: Record<string, unknown>): Set<object> {
  const paths = new Set<object>();
  walkSubschemas(
    root,
    ({ schema }) => {
      if (typeof schema.$ref !== 'string' || !schema.$ref.startsWith('#/')) return;
      let node: unknown = root;
      for (const token of schema.$ref.slice(2).split('/')) {
        const name = decodeReferenceToken(token);
        if (name === undefined) return;
        node = isPlainObject(node) ? (Object.hasOwn(node, name) ? node[name] : undefined) : Array.isArray(node) ? node[Number(name)] : undefined;
        if (typeof node !== 'object' || node === null) return;
        if (isPlainObject(node)) paths.add(node);
      }
    },
    { unknownKeywords: true },
  );
  return paths;
}
