/**
 * The information-flow rule's question for one write: which of its
 * arguments could carry untrusted data and have no rule vouching for where
 * they came from. Every leaf value (string, number, boolean) is looked at,
 * however deep. A call with no leaf at all is judged as a whole: nothing
 * vouches for it, since the choice to make it is all it carries (unless the
 * caller says which arguments untrusted data reached, as a plan does).
 * @module
 */
import { isPlainObject } from '../../shared/own.js';

/**
 * The argument paths (dotted, array indices dropped: `to`, `payment.iban`) holding a leaf that no path in `vouched` covers, in document order,
 * each once. With `influenced`, only leaves under those paths count (the rest never saw untrusted data).
 */
export function unvouchedArguments(args: unknown, vouched: readonly string[], influenced?: readonly string[]): string[] {
  const covers = (paths: readonly string[], leaf: string) => paths.some((path) => leaf === path || leaf.startsWith(`${path}.`));
  const out = new Set<string>();
  let leaves = 0;
  // Iterative, like stringLeaves: no nesting depth can overflow the stack or hide a leaf.
  const pending: { path: string; value: unknown }[] = [{ path: '', value: args }];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (Array.isArray(item.value)) {
      for (let index = item.value.length - 1; index >= 0; index--) pending.push({ path: item.path, value: item.value[index] as unknown });
    } else if (isPlainObject(item.value)) {
      const keys = Object.keys(item.value);
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index]!;
        pending.push({ path: item.path === '' ? key : `${item.path}.${key}`, value: item.value[key] });
      }
    } else if (item.value !== null && item.value !== undefined) {
      leaves++;
      if (influenced !== undefined && !covers(influenced, item.path)) continue;
      if (!covers(vouched, item.path)) out.add(item.path === '' ? 'the arguments' : item.path);
    }
  }
  if (leaves === 0 && influenced === undefined) return ['the call itself'];
  return [...out];
}
