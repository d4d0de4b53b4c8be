/**
 * The fewest nested frames each value node of a lowered grammar needs to finish a value (Infinity where it has no
 * finite value), found once the nodes are emitted: the matcher uses the heights to keep only the ways on that fit
 * under `maxDepth`.
 * @module
 */
import { containsMinHeight, uniqueCanClose, uniqueSatisfied } from './array-contains.js';
import type { ArrayAlternative, ObjectAlternative, ValueNode } from './grammar-ir.js';
import { endlessKey } from './remembered-items.js';
import { objectMinHeight } from './object-progress.js';

/** Fewest frames each node needs (Infinity: no finite value), by fixpoint from Infinity downwards. */
export function computeHeights(nodes: readonly ValueNode[]): void {
  for (const node of nodes) {
    for (const alternative of node.alternatives) if (alternative.kind === 'object' || alternative.kind === 'array') alternative.height = Infinity;
    node.height = node.literals === null ? Infinity : 1;
  }
  let changed = true;
  while (changed) {
    changed = false;
    for (const node of nodes) {
      let best = node.literals === null ? Infinity : 1;
      for (const alternative of node.alternatives) {
        let height = alternative.height;
        if (alternative.kind === 'object') {
          height = objectMinHeight(alternative);
        } else if (alternative.kind === 'array' && alternative.unique?.contains != null) {
          // literal items (height 1 each): 1 when the empty array will do
          height = !uniqueCanClose(alternative, 0, 0) ? Infinity : uniqueSatisfied(alternative, 0, 0) ? 1 : 2;
        } else if (alternative.kind === 'array' && alternative.contains !== null) {
          height = containsMinHeight(alternative);
        } else if (alternative.kind === 'array') {
          // beside prefixItems the set written may leave no way to close
          const closes = alternative.unique?.positions?.closable.has(0) ?? true;
          height = alternative.minItems > alternative.maxItems || !closes ? Infinity : 1;
          for (let index = 0; index < alternative.minItems; index++) {
            const item = alternative.prefix[index] ?? alternative.items;
            height = Math.max(height, item === null ? Infinity : 1 + item.height);
          }
        }
        if ((alternative.kind === 'object' || alternative.kind === 'array') && alternative.roomForMember === true)
          height = Math.max(height, 1 + memberHeight(alternative));
        if (height < alternative.height) {
          (alternative as ObjectAlternative | ArrayAlternative).height = height;
          changed = true;
        }
        best = Math.min(best, alternative.height);
      }
      if (best < node.height) {
        node.height = best;
        changed = true;
      }
    }
  }
}

/**
 * Fewest frames one member of a remembered `uniqueItems` item needs (a value of its endless key classes, or an item; of
 * any key of an object that can run out, `closedItem`, whose every value is an endless string).
 */
function memberHeight(alternative: ObjectAlternative | ArrayAlternative): number {
  if (alternative.kind === 'array') return alternative.items?.height ?? Infinity;
  let height = Infinity;
  const closed = alternative.closedItem === true;
  for (const keyClass of alternative.keyClasses)
    if (closed ? keyClass.keys.length > 0 : keyClass.keys.some(endlessKey)) height = Math.min(height, keyClass.value.height);
  if (closed) for (const property of alternative.properties) height = Math.min(height, property.value.height);
  return height;
}
