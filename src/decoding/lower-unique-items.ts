/**
 * Stage 3 of the lowering, `uniqueItems: true` settled once every node is filled (`lower-emit.ts` collects the arrays):
 * over a finite set of literal items, a set of value classes the array frame keeps; over strings, numbers, objects and
 * arrays, the matcher's memory of the items written (`remembered-items.ts`, `written-strings.ts`).
 * @module
 */
import { CodePointDfa } from '../shared/regex/code-point-dfa.js';
import { planUniqueStrings, type AutomatonConstructions } from './string-completions.js';
import type { Alternative, ArrayAlternative, ContainsCounting, ItemCompletions, StringAlternative, UniqueItems, ValueNode } from './grammar-ir.js';
import type { LoweringContext } from './lower-context.js';
import type { SetAlgebra } from './lower-set-algebra.js';
import {
  closableObject,
  endlessItem,
  isContainer,
  literalsBeside,
  numberLiterals,
  rememberedItems,
  rememberedNumber,
  SAFE_INTEGERS,
  stringsBesideNumbers,
  valueClasses,
} from './remembered-items.js';
import type { ContainsRule } from './schema-complement.js';

/** The lowering's cached, metered automaton constructions (for the union of several string alternatives). */
export function automatonConstructions(context: LoweringContext): AutomatonConstructions {
  const { cache, automatonWork } = context.options;
  return { complement: (dfa) => cache.complement(dfa, automatonWork), intersection: (automata) => cache.intersection(automata, automatonWork) };
}

/** One string alternative of `dfa`'s language (length bounds within it). */
export function stringLanguage(context: LoweringContext, dfa: CodePointDfa): StringAlternative {
  return { kind: 'string', id: context.alternativeCount++, dfa, free: false, minLength: 0, maxLength: Infinity, exclude: null, height: 1 };
}

/** Which memories of the items written an array asks the matcher to keep. */
type Remembering = { uniqueStrings: boolean; uniqueContainers: boolean; uniqueNumbers: boolean };

/** The `uniqueItems` arrays of one lowering, settled once their items' nodes are filled (`NodeEmitter.emit`). */
export class UniqueItemsSettler {
  private readonly arrays: { alternative: ArrayAlternative; pointer: string; contains: ContainsRule[] }[] = [];

  /** `nodes` and `literalValues` are the emitter's: nodes made here are added to them. */
  constructor(
    private readonly context: LoweringContext,
    private readonly algebra: SetAlgebra,
    private readonly nodes: ValueNode[],
    private readonly literalValues: Map<ValueNode, unknown[]>,
  ) {}

  /** Keeps `alternative` to settle once every node is filled (its items' literals are known then). */
  add(alternative: ArrayAlternative, pointer: string, contains: ContainsRule[]): void {
    this.arrays.push({ alternative, pointer, contains });
  }

  settleAll(): void {
    for (const { alternative, pointer, contains } of this.arrays) this.settle(alternative, pointer, contains);
  }

  /**
   * `uniqueItems: true` on an array whose items are a finite set of literals: each value gets a class (values equal as
   * JSON share one) and the array frame tracks the classes written, so a duplicate cannot be written. Over strings, the
   * matcher remembers the strings written instead (`written-strings.ts`): where the items are one string alternative
   * whose completions can run out, with their counts (`StringCompletions`); literal strings past the set limits become
   * such an alternative (a trie of them). Refused where the items' language is otherwise infinite or the classes
   * exceed `uniqueItemsMaxValues`.
   */
  private settle(alternative: ArrayAlternative, pointer: string, contains: ContainsRule[]): void {
    const refuse = (details: string): void => this.context.refuse('uniqueItems', pointer, `uniqueItems: true is not enforced: ${details}`);
    if (alternative.prefix.length > 0) return this.settlePositions(alternative, contains, refuse);
    let node = alternative.items;
    if (node === null) return;
    if (node.alternatives.length > 0 && node.alternatives.every((item) => item.kind === 'number')) {
      const written = this.numbersAsLiterals(node);
      if (written !== undefined) (alternative as { items: ValueNode }).items = node = written;
      else if (!node.alternatives.every(rememberedNumber)) {
        return refuse(
          `the items are numbers with a multipleOf and endless texts or more than ${2 * this.context.limits.uniqueItemsMaxValues + 1} texts (limits.uniqueItemsMaxValues); bound them to at most ${this.context.limits.uniqueItemsMaxValues} integers, drop the multipleOf, or list the allowed values in an "enum"`,
        );
      }
    }
    if (node.literals === null && node.alternatives.length > 0 && node.alternatives.every((item) => item.kind === 'string')) {
      if (contains.length > 0) return refuse('over strings beside contains (only over a finite set of values)');
      return this.settleUniqueStrings(alternative, node.alternatives as StringAlternative[], refuse);
    }
    // strings that run out beside numbers are counted on their own (`stringsBesideNumbers`)
    const remembered = (item: Alternative): boolean => rememberedNumber(item) || this.neverRunsOut(item) || item.kind === 'string';
    if (node.alternatives.some((item) => isContainer(item) || rememberedNumber(item)) && node.alternatives.every(remembered)) {
      if (node.alternatives.some(rememberedNumber)) {
        if (contains.length > 0) return refuse('over numbers beside contains (only over a finite set of values)');
      }
      if (contains.length > 0) return refuse('over objects or arrays beside contains (only over a finite set of values)');
      return this.settleUniqueContainers(alternative, node, refuse);
    }
    if (node.alternatives.length > 0 || node.literals === null) {
      return refuse(
        'the items are neither a finite set of values (enum/const, booleans, null) nor numbers, strings, objects and arrays only (numbers with a multipleOf are not remembered, nor objects that can run out of values (closed, with maxProperties or with keys that can run out) unless some key can be written and every value they may take is a string with endless completions, nor arrays with prefixItems, maxItems, contains or uniqueItems, nor strings that can run out beside objects or arrays); list the allowed values in an "enum", or set "maxItems": 1',
      );
    }
    const values = this.literalValues.get(node)!;
    const { classOf, representatives } = valueClasses(values);
    const past = this.classesPastLimits(representatives.length, alternative.maxItems);
    if (past !== undefined) {
      // a lone surrogate is no code point a string can write: its strings are never counted nor offered
      const strings = representatives.filter((value): value is string => typeof value === 'string');
      if (contains.length === 0 && strings.length === representatives.length) return this.settleLiteralStrings(alternative, strings, refuse);
      return refuse(past);
    }
    // the values written decide every contains count: per schema, the classes that match it, counted in the set (no counters)
    const counted = contains.map((rule) => {
      let matchClasses = 0;
      representatives.forEach((value, index) => (matchClasses |= this.algebra.satisfiesSet(value, rule.set) ? 1 << index : 0));
      return { matchClasses, minContains: rule.min, maxContains: rule.max };
    });
    const unique: UniqueItems = {
      classOf,
      classes: representatives.length,
      subtreeValues: node.literals.subtreeValues(),
      contains: counted.length === 0 ? null : counted,
      positions: null,
    };
    const mutable = alternative as { unique: UniqueItems | null; maxItems: number; contains: ContainsCounting | null };
    mutable.unique = unique;
    mutable.contains = null;
    // n distinct values make at most n items
    mutable.maxItems = Math.min(alternative.maxItems, unique.classes);
  }

  /**
   * An item the memory keeps unique whose values never run out: an endless string or container (an item array with
   * uniqueItems of its own may not be settled yet: it is none), or a closable object.
   */
  private neverRunsOut(item: Alternative): boolean {
    return !this.arrays.some((entry) => entry.alternative === item) && (endlessItem(item) || closableObject(item));
  }

  /**
   * `uniqueItems: true` beside `prefixItems`: each position's node is a finite set of literals, whose classes the frame
   * keeps as over a single items schema, or items the memory remembers whatever their position and that never run out
   * (endless strings and containers, integers or numbers with no range), with null and boolean literals beside them.
   * A position may offer only some classes, so the reachable (items, set written) states are searched once here and
   * the frame offers a class only where some completion still closes (`UniquePositions.closable`).
   */
  private settlePositions(alternative: ArrayAlternative, contains: ContainsRule[], refuse: (details: string) => void): void {
    if (contains.length > 0)
      return refuse('beside prefixItems and contains together (only one of them); drop the contains, or list the allowed arrays in an "enum"');
    const nodes = [...alternative.prefix, alternative.items].map((node) => (node === null ? null : this.literalNumbers(node)));
    const items = nodes.flatMap((node) => node?.alternatives ?? []);
    const endless = (item: Alternative): boolean => this.neverRunsOut(item) || (rememberedNumber(item) && item.rangedNumber === undefined);
    const decimal = nodes.map((node) => node?.alternatives.some((item) => item.kind === 'number' && item.unboundedNumber === true) ?? false);
    const values = nodes.flatMap((node) => (node === null ? [] : this.literalValues.get(node)!));
    const problem = !items.every(endless)
      ? 'beside prefixItems, every position must be a finite set of values (enum/const, booleans, null) or items whose values never run out (strings with no maxLength nor last character, integers or numbers with no range nor multipleOf, objects and arrays with no upper bound); list the allowed values in an "enum", or drop the bound'
      : decimal.includes(true) && nodes.some((node, at) => !decimal[at] && node?.alternatives.some((item) => item.kind === 'number'))
        ? 'beside prefixItems, integers at one position and numbers at another (the memory keeps them apart); make them all "number" or all "integer"'
        : nodes.some((node) => node !== null && node.literals !== null && node.alternatives.length > 0 && node.alternatives.every(isContainer))
          ? 'beside prefixItems, a position of literals (enum/const, booleans, null) beside objects or arrays alone (under maxDepth only the literals may fit, and they can run out); add "type": "string" to the position, or list its values in an "enum"'
          : literalKindsBeside(values, items);
    if (problem !== undefined) return refuse(problem);
    const { classOf, representatives } = valueClasses(values);
    const { uniqueItemsMaxSets, uniqueItemsMaxValues } = this.context.limits;
    if (representatives.length > uniqueItemsMaxValues) {
      return refuse(
        `beside prefixItems, the positions' ${representatives.length} distinct values are more than ${uniqueItemsMaxValues} (limits.uniqueItemsMaxValues); list fewer values`,
      );
    }
    const integers = this.context.options.cache.numberAutomaton(SAFE_INTEGERS)!;
    const kept = nodes.map((node) =>
      node === null || node.alternatives.length === 0
        ? node
        : this.rememberedNode(
            node,
            rememberedItems(node.alternatives, integers, () => this.context.alternativeCount++),
          ),
    );
    let offset = 0;
    const classesOf = kept.map((node) => classOf.slice(offset, (offset += node === null ? 0 : this.literalValues.get(node)!.length)));
    const positions = {
      classOf: classesOf.slice(0, -1),
      subtreeValues: kept.slice(0, -1).map((node) => node!.literals?.subtreeValues() ?? []),
      allowed: classesOf.map((classes) => classes.reduce((bits, valueClass) => bits | (1 << valueClass), 0)),
      endless: kept.map((node) => node !== null && node.alternatives.length > 0),
    };
    // each item past the prefix takes a class of its own where the rest items are no endless ones
    const endlessCount = positions.endless.filter(Boolean).length;
    const maxItems = positions.endless.at(-1)! ? alternative.maxItems : Math.min(alternative.maxItems, endlessCount + representatives.length);
    const closable = closableStates(positions.allowed, positions.endless, alternative.minItems, maxItems, uniqueItemsMaxSets);
    if (closable === undefined) {
      return refuse(
        `beside prefixItems, the positions and the sets of values written make more than ${uniqueItemsMaxSets} states (limits.uniqueItemsMaxSets); lower "minItems", or list fewer values`,
      );
    }
    const mutable = alternative as { prefix: readonly ValueNode[]; items: ValueNode | null; unique: UniqueItems | null; maxItems: number } & Remembering;
    mutable.prefix = kept.slice(0, -1) as ValueNode[];
    mutable.items = kept.at(-1)!;
    mutable.maxItems = maxItems;
    mutable.uniqueStrings = items.some((item) => item.kind === 'string');
    mutable.uniqueContainers = items.some(isContainer);
    mutable.uniqueNumbers = items.some((item) => item.kind === 'number');
    if (values.length === 0) return;
    const rest = kept.at(-1);
    mutable.unique = {
      classOf: classesOf.at(-1)!,
      classes: representatives.length,
      subtreeValues: rest?.literals?.subtreeValues() ?? [],
      contains: null,
      positions: { ...positions, closable },
    };
  }

  /** `node` with its number alternatives as literal texts where each has finitely many (`numbersAsLiterals`), else itself. */
  private literalNumbers(node: ValueNode): ValueNode {
    if (node.alternatives.length === 0 || !node.alternatives.every((item) => item.kind === 'number')) return node;
    return this.numbersAsLiterals(node) ?? node;
  }

  /** A node of its own (the node may serve other arrays and values as it is) with `node`'s literals and the remembered `alternatives`. */
  private rememberedNode(node: ValueNode, alternatives: Alternative[]): ValueNode {
    const kept: ValueNode = { id: this.nodes.length, pointer: node.pointer, alternatives, literals: node.literals, height: Infinity };
    this.nodes.push(kept);
    this.literalValues.set(kept, this.literalValues.get(node)!);
    return kept;
  }

  /** Why `classes` literal values under `maxItems` are past the set limits, if they are. */
  private classesPastLimits(classes: number, maxItems: number): string | undefined {
    const { uniqueItemsMaxSets, uniqueItemsMaxValues } = this.context.limits;
    if (classes <= uniqueItemsMaxValues && reachableSets(classes, maxItems, uniqueItemsMaxSets) <= uniqueItemsMaxSets) return undefined;
    return `the items' ${classes} distinct values make more than ${uniqueItemsMaxSets} sets of items, or more than ${uniqueItemsMaxValues} values (limits.uniqueItemsMaxSets, limits.uniqueItemsMaxValues); lower "maxItems"`;
  }

  /** `uniqueItems: true` over string items: remembered by the matcher (`planUniqueStrings`). */
  private settleUniqueStrings(alternative: ArrayAlternative, items: readonly StringAlternative[], refuse: (details: string) => void): void {
    const plan = planUniqueStrings(items, automatonConstructions(this.context));
    if (plan.kind === 'refused') return refuse(plan.reason);
    if (plan.kind === 'union') return this.settleStringLanguage(alternative, plan.dfa, refuse);
    const mutable = alternative as { uniqueStrings: boolean; itemCompletions: ItemCompletions | null; maxItems: number };
    mutable.uniqueStrings = true;
    if (plan.kind === 'endless') return;
    mutable.itemCompletions = plan.completions;
    // more items than distinct strings: no valid array (the frame drops an alternative whose minItems passes maxItems)
    if (plan.completions.total < alternative.minItems) mutable.maxItems = Math.min(alternative.maxItems, plan.completions.total);
  }

  /**
   * `uniqueItems: true` over endless objects and arrays, integers or numbers (and strings), remembered by the matcher
   * (`rememberedItems`): containers offered where a member fits, integers cut to ±2^53 (exclusive), numbers as decimals.
   */
  private settleUniqueContainers(alternative: ArrayAlternative, node: ValueNode, refuse: (details: string) => void): void {
    const strings = stringsBesideNumbers(node.alternatives, node.literals !== null, automatonConstructions(this.context), (dfa) =>
      stringLanguage(this.context, dfa),
    );
    if (typeof strings === 'string') return refuse(strings);
    const integers = this.context.options.cache.numberAutomaton(SAFE_INTEGERS)!;
    const alternatives = rememberedItems(strings.items, integers, () => this.context.alternativeCount++);
    // literals beside them (null, booleans, an enum) keep their classes in the array's set, as over literals alone; number
    // literals the numbers offer go (the memory sees them written), others could repeat a number's value unseen
    const beside = literalsBeside(node.literals === null ? [] : this.literalValues.get(node)!, alternatives, strings.completions?.total ?? Infinity);
    if (typeof beside === 'string') return refuse(beside);
    const { values, literals, classOf, representatives, most } = beside;
    const items: ValueNode = { id: this.nodes.length, pointer: node.pointer, alternatives, literals, height: Infinity };
    const mutable = alternative as Remembering & {
      items: ValueNode | null;
      unique: UniqueItems | null;
      maxItems: number;
      itemCompletions: ItemCompletions | null;
    };
    if (literals !== null) {
      const past = this.classesPastLimits(representatives.length, alternative.maxItems);
      if (past !== undefined) return refuse(`beside objects or arrays, ${past}`);
      this.literalValues.set(items, values);
      mutable.unique = { classOf, classes: representatives.length, subtreeValues: literals.subtreeValues(), contains: null, positions: null };
    }
    this.nodes.push(items);
    mutable.items = items;
    mutable.uniqueStrings = alternatives.some((item) => item.kind === 'string');
    mutable.uniqueContainers = alternatives.some(isContainer);
    mutable.uniqueNumbers = alternatives.some((item) => item.kind === 'number');
    mutable.maxItems = Math.min(alternative.maxItems, most);
    mutable.itemCompletions = strings.completions;
  }

  /** Literal string items past the set limits: their node becomes one string alternative, a trie of the strings, remembered by the matcher. */
  private settleLiteralStrings(alternative: ArrayAlternative, strings: readonly string[], refuse: (details: string) => void): void {
    this.settleStringLanguage(alternative, CodePointDfa.literals(strings), refuse);
  }

  /** The items' node becomes one string alternative of `dfa`'s language (length bounds within it), remembered by the matcher. */
  private settleStringLanguage(alternative: ArrayAlternative, dfa: CodePointDfa, refuse: (details: string) => void): void {
    const item = stringLanguage(this.context, dfa);
    // a node of its own: the items' node may serve other arrays and values as it is
    const node: ValueNode = { id: this.nodes.length, pointer: alternative.items!.pointer, alternatives: [item], literals: null, height: Infinity };
    this.nodes.push(node);
    (alternative as { items: ValueNode | null }).items = node;
    this.settleUniqueStrings(alternative, [item], refuse);
  }

  /**
   * The items node with its number alternatives written out as literal texts, where each has finitely many (an integer
   * range, or one under an integer `multipleOf`): `uniqueItems` then tracks their values as it does an `enum`'s, each text
   * (`-0` beside `0` included) in the class of its value. A node of its own, since the items' node may also be used where
   * no set is kept; undefined where some alternative has infinitely many texts or more than twice the values budget.
   */
  private numbersAsLiterals(node: ValueNode): ValueNode | undefined {
    const written = numberLiterals(this.literalValues.get(node)!, node.alternatives, 2 * this.context.limits.uniqueItemsMaxValues + 1);
    if (written === undefined) return undefined;
    const derived: ValueNode = { id: this.nodes.length, pointer: node.pointer, alternatives: [], literals: written.literals, height: Infinity };
    this.nodes.push(derived);
    this.literalValues.set(derived, written.values);
    return derived;
  }
}

/** Subsets of `n` values with at most `maxItems` elements (capped once past the budget). */
function reachableSets(n: number, maxItems: number, maxSets: number): number {
  let total = 0;
  let choose = 1;
  for (let k = 0; k <= Math.min(n, maxItems) && total <= maxSets; k++) {
    total += choose;
    choose = (choose * (n - k)) / (k + 1);
  }
  return total;
}

/**
 * Why literal `values` cannot sit beside the remembered `items` of the other positions, if they cannot: the frame's
 * set and the matcher's memory do not see each other's values, so a literal of a kind the memory remembers could
 * repeat a remembered item unseen; null and booleans are never remembered.
 */
function literalKindsBeside(values: readonly unknown[], items: readonly Alternative[]): string | undefined {
  const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value);
  const clash = values.find((value) => items.some((item) => item.kind === kindOf(value)));
  if (clash === undefined) return undefined;
  return `beside prefixItems, a literal ${kindOf(clash)} (enum/const) at one position beside ${kindOf(clash)}s the memory remembers at another (the set of literals and the memory would not see each other); list every allowed value in an "enum", or make the positions' types differ`;
}

/**
 * The reachable states (items, classes written) below `minItems` from which some completion closes the array, as
 * `used * 64 + items`; undefined past `maxSets` states. At position `p` (the last entry for every one past the prefix)
 * an item takes one class of `allowed[p]` not written yet, or, where `endless[p]`, no class; from `minItems` items on
 * every state closes (`closableAfter`).
 */
function closableStates(allowed: readonly number[], endless: readonly boolean[], minItems: number, maxItems: number, maxSets: number): Set<number> | undefined {
  const layers: Set<number>[] = [new Set([0])];
  let states = 1;
  for (let items = 0; items < Math.min(minItems, maxItems); items++) {
    const next = new Set<number>();
    const at = Math.min(items, allowed.length - 1);
    for (const used of layers[items]!) {
      if (endless[at]!) next.add(used);
      for (const bit of bitsOf(allowed[at]! & ~used)) next.add(used | bit);
    }
    states += next.size;
    if (states > maxSets) return undefined;
    layers.push(next);
  }
  const closable = new Set<number>();
  const closes = (used: number, items: number): boolean => items >= minItems || closable.has(used * 64 + items);
  for (let items = layers.length - 1; items >= 0; items--) {
    const at = Math.min(items, allowed.length - 1);
    for (const used of layers[items]!) {
      const onward =
        items < maxItems && ((endless[at]! && closes(used, items + 1)) || [...bitsOf(allowed[at]! & ~used)].some((bit) => closes(used | bit, items + 1)));
      if (items >= minItems || onward) closable.add(used * 64 + items);
    }
  }
  return closable;
}

/** The set bits of `bits`, one at a time. */
function* bitsOf(bits: number): Generator<number> {
  for (let rest = bits; rest !== 0; rest &= rest - 1) yield rest & -rest;
}
