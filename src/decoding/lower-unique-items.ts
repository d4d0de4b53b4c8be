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
    if (alternative.prefix.length > 0) return refuse('beside prefixItems (only a single items schema)');
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
    // an item array with uniqueItems of its own may not be settled yet: it is no endless container
    const settled = (item: Alternative): boolean => !this.arrays.some((entry) => entry.alternative === item);
    // strings that run out beside numbers are counted on their own (`stringsBesideNumbers`)
    const remembered = (item: Alternative): boolean =>
      rememberedNumber(item) || (settled(item) && (endlessItem(item) || closableObject(item))) || item.kind === 'string';
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
    };
    const mutable = alternative as { unique: UniqueItems | null; maxItems: number; contains: ContainsCounting | null };
    mutable.unique = unique;
    mutable.contains = null;
    // n distinct values make at most n items
    mutable.maxItems = Math.min(alternative.maxItems, unique.classes);
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
    type Remembering = { items: ValueNode | null; unique: UniqueItems | null; uniqueStrings: boolean; uniqueContainers: boolean; uniqueNumbers: boolean };
    const mutable = alternative as Remembering & { maxItems: number; itemCompletions: ItemCompletions | null };
    if (literals !== null) {
      const past = this.classesPastLimits(representatives.length, alternative.maxItems);
      if (past !== undefined) return refuse(`beside objects or arrays, ${past}`);
      this.literalValues.set(items, values);
      mutable.unique = { classOf, classes: representatives.length, subtreeValues: literals.subtreeValues(), contains: null };
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
