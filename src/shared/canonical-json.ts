/**
 * Canonical JSON: object keys sorted, no whitespace. Two argument objects that
 * mean the same thing give the same text, so a confirmation token can be bound
 * to "these arguments" and the loop breaker can tell repeated calls apart from
 * new ones whatever key order the model used.
 * @module
 */

/** Work left on the explicit stack: a value to write, or text that closes a container. */
type Task = { value: unknown } | { text: string; leaving?: object };

/**
 * Serializes a JSON value with sorted keys, as `JSON.stringify` would write it
 * otherwise: `toJSON` is honoured, `undefined`, functions and symbols are dropped
 * from objects and written as `null` in arrays. It walks with its own stack, so
 * no depth of nesting makes it throw `RangeError`; like `JSON.stringify`, it
 * throws `TypeError` for a cycle or a `BigInt`.
 */
export function canonicalJson(root: unknown): string {
  const first = resolve('', root);
  if (!isWritable(first)) return 'null';
  const out: string[] = [];
  const open = new Set<object>();
  const stack: Task[] = [{ value: first }];
  while (stack.length > 0) {
    const task = stack.pop()!;
    if ('text' in task) {
      out.push(task.text);
      if (task.leaving) open.delete(task.leaving);
      continue;
    }
    const value = task.value;
    if (typeof value !== 'object' || value === null) {
      out.push(JSON.stringify(value));
      continue;
    }
    if (open.has(value)) throw new TypeError('canonicalJson: the value contains a cycle, which JSON cannot represent.');
    open.add(value);
    // Children go on the stack last-first, so that they come off in order.
    if (Array.isArray(value)) {
      stack.push({ text: ']', leaving: value });
      for (let index = value.length - 1; index >= 0; index--) {
        const item = resolve(String(index), value[index]);
        stack.push({ value: isWritable(item) ? item : null });
        if (index > 0) stack.push({ text: ',' });
      }
      out.push('[');
      continue;
    }
    const members: { key: string; value: unknown }[] = [];
    for (const key of Object.keys(value).sort()) {
      const member = resolve(key, (value as Record<string, unknown>)[key]);
      if (isWritable(member)) members.push({ key, value: member });
    }
    stack.push({ text: '}', leaving: value });
    for (let index = members.length - 1; index >= 0; index--) {
      const member = members[index]!;
      stack.push({ value: member.value });
      stack.push({ text: `${index > 0 ? ',' : ''}${JSON.stringify(member.key)}:` });
    }
    out.push('{');
  }
  return out.join('');
}

/** `toJSON` and boxed primitives, as `JSON.stringify` treats them. */
function resolve(key: string, value: unknown): unknown {
  let resolved = value;
  if (typeof resolved === 'object' && resolved !== null && typeof (resolved as { toJSON?: unknown }).toJSON === 'function') {
    resolved = (resolved as { toJSON: (key: string) => unknown }).toJSON(key);
  }
  if (resolved instanceof Number || resolved instanceof String || resolved instanceof Boolean) resolved = resolved.valueOf();
  if (typeof resolved === 'bigint') throw new TypeError('canonicalJson: a BigInt cannot be written as JSON.');
  return resolved;
}

function hasToJson(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

function isWritable(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

/** A node being numbered: its writable children (resolved, in canonical order) and the ids of those numbered so far. */
interface IdFrame {
  node: object;
  /** Sorted keys for an object, undefined for an array. */
  keys: string[] | undefined;
  children: unknown[];
  ids: number[];
}

const NULL_ID = 0;
const FALSE_ID = 1;
const TRUE_ID = 2;
/** Marks an object whose children are being numbered: meeting it again below itself is a cycle. */
const OPEN = -1;

/**
 * Numbers values so that two values get the same id exactly when their {@link canonicalJson} texts are equal, without
 * writing those texts: a container's id is looked up from its children's ids, and each object or array met is numbered
 * once per index, so numbering every item of an array, and of the arrays nested in it, costs time linear in the whole
 * value however deep the nesting (writing each item's canonical text would cost its size at every level that holds it).
 * Meant for one pass over one value (it holds every object it numbered): a value changed in place after it was
 * numbered keeps its old id in this index.
 */
export class CanonicalIds {
  readonly #byObject = new Map<object, number>();
  readonly #strings = new Map<string, number>();
  readonly #numbers = new Map<number, number>();
  readonly #containers = new Map<string, number>();
  #nextId = TRUE_ID + 1;

  /** The value's id; throws `TypeError` for a cycle or a `BigInt`, as {@link canonicalJson} does. */
  idOf(value: unknown): number {
    const root = resolve('', value);
    if (!isWritable(root)) return NULL_ID;
    const leaf = this.#leafId(root);
    if (leaf !== undefined) return leaf;
    const stack: IdFrame[] = [this.#open(root as object)];
    for (;;) {
      const frame = stack[stack.length - 1]!;
      const { children, ids } = frame;
      while (ids.length < children.length) {
        const known = this.#leafId(children[ids.length]);
        if (known === undefined) break;
        ids.push(known);
      }
      if (ids.length < children.length) {
        stack.push(this.#open(children[ids.length] as object));
        continue;
      }
      stack.pop();
      const id = this.#containerId(frame);
      this.#byObject.set(frame.node, id);
      if (stack.length === 0) return id;
      stack[stack.length - 1]!.ids.push(id);
    }
  }

  /** The id of a primitive, or of an object numbered before; undefined for an object not numbered yet. */
  #leafId(value: unknown): number | undefined {
    switch (typeof value) {
      case 'string':
        return this.#intern(this.#strings, value);
      case 'number':
        // JSON.stringify writes NaN and the infinities as null, and -0 as 0 (a Map key treats 0 and -0 alike)
        return Number.isFinite(value) ? this.#intern(this.#numbers, value) : NULL_ID;
      case 'boolean':
        return value ? TRUE_ID : FALSE_ID;
      case 'object': {
        if (value === null) return NULL_ID;
        const id = this.#byObject.get(value);
        if (id === OPEN) throw new TypeError('canonicalJson: the value contains a cycle, which JSON cannot represent.');
        return id;
      }
      default:
        return NULL_ID;
    }
  }

  #open(node: object): IdFrame {
    this.#byObject.set(node, OPEN);
    if (Array.isArray(node)) {
      const children = new Array<unknown>(node.length);
      for (let index = 0; index < node.length; index++) {
        const item: unknown = node[index];
        // the key `toJSON` receives is only written out for a value that has one
        const resolved = hasToJson(item) ? resolve(String(index), item) : resolve('', item);
        children[index] = isWritable(resolved) ? resolved : null;
      }
      return { node, keys: undefined, children, ids: [] };
    }
    const keys: string[] = [];
    const children: unknown[] = [];
    for (const key of Object.keys(node).sort()) {
      const member = resolve(key, (node as Record<string, unknown>)[key]);
      if (!isWritable(member)) continue;
      keys.push(key);
      children.push(member);
    }
    return { node, keys, children, ids: [] };
  }

  #containerId({ keys, ids }: IdFrame): number {
    if (keys === undefined) return this.#intern(this.#containers, `[${ids.join(',')}`);
    // a key name is numbered like a string value: the pairs "name id:value id" then say what the names would
    let key = '{';
    for (let index = 0; index < keys.length; index++) key += `${index > 0 ? ',' : ''}${this.#intern(this.#strings, keys[index]!)}:${ids[index]}`;
    return this.#intern(this.#containers, key);
  }

  #intern<K>(table: Map<K, number>, key: K): number {
    let id = table.get(key);
    if (id === undefined) {
      id = this.#nextId++;
      table.set(key, id);
    }
    return id;
  }
}
