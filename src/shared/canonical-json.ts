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

function isWritable(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}
