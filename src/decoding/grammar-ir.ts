/**
 * The compiled form of a schema that the byte automaton runs: value nodes, each a
 * union of typed alternatives, with every constraint already lowered to automata
 * (code-point DFAs for strings, number automata, byte tries for literals and keys).
 * @module
 */
import type { DecimalMultipleCheck } from './decimal-multiples.js';
import type { NumberAutomaton, NumberConstraint } from './number-language.js';
import type { CodePointDfa } from '../shared/regex/code-point-dfa.js';

/** A byte trie of literal texts; node 0 is the root. */
export class ByteTrie {
  /** Per node: byte → child. */
  readonly children: Map<number, number>[] = [new Map()];
  /** Per node: the value index that ends here, or -1. */
  readonly terminal: number[] = [-1];

  add(bytes: Uint8Array, value: number): void {
    let node = 0;
    for (const byte of bytes) {
      let child = this.children[node]!.get(byte);
      if (child === undefined) {
        child = this.children.length;
        this.children.push(new Map());
        this.terminal.push(-1);
        this.children[node]!.set(byte, child);
      }
      node = child;
    }
    this.terminal[node] = value;
  }

  /** Values (terminal indexes) at or below each node, sorted; computed once. */
  subtreeValues(): number[][] {
    const result: number[][] = this.children.map(() => []);
    const visit = (node: number): number[] => {
      const values = this.terminal[node]! >= 0 ? [this.terminal[node]!] : [];
      for (const child of this.children[node]!.values()) values.push(...visit(child));
      values.sort((left, right) => left - right);
      result[node] = values;
      return values;
    };
    visit(0);
    return result;
  }
}

/** A code-point trie of names a string may not equal (additional-property keys must differ from declared ones). */
export class CodePointTrie {
  readonly children: Map<number, number>[] = [new Map()];
  readonly terminal: boolean[] = [false];

  add(text: string): void {
    let node = 0;
    for (const char of text) {
      const codePoint = char.codePointAt(0)!;
      let child = this.children[node]!.get(codePoint);
      if (child === undefined) {
        child = this.children.length;
        this.children.push(new Map());
        this.terminal.push(false);
        this.children[node]!.set(codePoint, child);
      }
      node = child;
    }
    this.terminal[node] = true;
  }

  /** Next node, or -1 once the string left every excluded name. */
  step(node: number, codePoint: number): number {
    return node < 0 ? -1 : (this.children[node]!.get(codePoint) ?? -1);
  }

  /** True when some excluded name continues with a code point in `lo..hi`. */
  hasChildIn(node: number, lo: number, hi: number): boolean {
    if (node < 0) return false;
    for (const codePoint of this.children[node]!.keys()) if (codePoint >= lo && codePoint <= hi) return true;
    return false;
  }
}

export interface StringAlternative {
  readonly kind: 'string';
  readonly id: number;
  /** The content language over code points (the any-string DFA when unconstrained). */
  readonly dfa: CodePointDfa;
  /** True when `dfa` accepts every string: length is then the only constraint. */
  readonly free: boolean;
  readonly minLength: number;
  /** `Infinity` when unbounded. */
  readonly maxLength: number;
  /** Names the string may not equal, or null. */
  readonly exclude: CodePointTrie | null;
  readonly height: number;
}

export interface NumberAlternative {
  readonly kind: 'number';
  readonly id: number;
  readonly automaton: NumberAutomaton;
  /** `type: "integer"` with no range nor `multipleOf`: a `uniqueItems` array can remember its values (`uniqueNumbers`). */
  readonly unboundedInteger?: boolean;
  /** `type: "number"` with no range nor `multipleOf`: remembered by a `uniqueNumbers` array as well, offered as `REMEMBERED_DECIMALS`. */
  readonly unboundedNumber?: boolean;
  /** An item of a `uniqueNumbers` array written as `REMEMBERED_DECIMALS` (`held-numbers.ts`), not as `SAFE_INTEGERS`. */
  readonly rememberedDecimal?: boolean;
  /** A range and no `multipleOf` (`automaton` its texts): a `uniqueItems` array can remember its values as well (`held-ranges.ts`). */
  readonly rangedNumber?: NumberConstraint;
  /** An item of a `uniqueNumbers` array under this range, written as `rememberedRangeAutomaton` (`held-ranges.ts`). */
  readonly rememberedRange?: NumberConstraint;
  readonly height: number;
  /** A decimal `multipleOf` Ajv's test decides per number written: the matcher checks it (`written-numbers.ts`). */
  readonly check?: DecimalMultipleCheck | undefined;
}

export interface ArrayAlternative {
  readonly kind: 'array';
  readonly id: number;
  readonly prefix: readonly ValueNode[];
  /** Schema of items past the prefix; null when none may follow. */
  readonly items: ValueNode | null;
  readonly minItems: number;
  /** `Infinity` when unbounded. */
  readonly maxItems: number;
  /** `uniqueItems: true` over a finite set of literal items, or null. */
  readonly unique: UniqueItems | null;
  /**
   * `uniqueItems: true` over string items: enforced at run time by the matcher's memory of the strings written
   * (`written-strings.ts`), not by the frame.
   */
  readonly uniqueStrings: boolean;
  /**
   * With `uniqueStrings`, where the items' one string alternative has prefixes with finitely many completions (a
   * `maxLength`, an `enum`, a pattern or format with a last character): their counts, so that the matcher refuses a
   * prefix whose every completion is an item written before. Null where every prefix has endless completions.
   */
  readonly itemCompletions: ItemCompletions | null;
  /**
   * `uniqueItems: true` over items that are objects or arrays constraining nothing but their members' count from below
   * (`{"type": "object"}`, `{"type": "array"}`), beside endless strings if any: the matcher remembers the values of the
   * items written (`written-strings.ts`) and an item may not close equal to one of them.
   */
  readonly uniqueContainers: boolean;
  /**
   * `uniqueItems: true` over integer items (`unboundedInteger`, cut to ±2^53 exclusive, where each text is its own double)
   * or number items (`unboundedNumber`, offered as plain decimals of at most 15 digits: `held-numbers.ts`), beside endless
   * strings, objects and arrays if any: the matcher remembers the values of the numbers written (`written-strings.ts`),
   * and a number may not end (at the byte after it) equal to one of them, nor reach a prefix whose every completion is held.
   */
  readonly uniqueNumbers: boolean;
  /**
   * Set on the items of a `uniqueContainers` array: the value is offered only where one member fits under `maxDepth`
   * (`node-heights.ts`), so an item written there never has to close empty, as an empty one written before.
   */
  readonly roomForMember?: boolean;
  /** `contains` with `minContains`/`maxContains`, or null. */
  readonly contains: ContainsCounting | null;
  height: number;
}

/** How many strings of the items' language complete a prefix (`StringCompletions`, `string-completions.ts`); Infinity for endlessly many. */
export interface ItemCompletions {
  /** The strings of the whole language. */
  readonly total: number;
  /** The completions of a prefix standing at content-DFA `state` with the string frame's `count`. */
  at(state: number, count: number): number;
  /**
   * Per number of code points (the last entry for every number past it): the fewest completions, among those above 0,
   * of a prefix of at most that many; nonincreasing. A prefix the automaton keeps can be completed, so none has fewer.
   */
  readonly fewestUpTo: Float64Array;
}

/**
 * How an array counts the items that match its `contains` schemas, one counter each: each position's item schema is
 * split into cells `item ∧ ±contains₁ ∧ ±contains₂ …` (disjoint), so the frame knows, when an item closes, which
 * counters it adds to. The counts live in one number, a mixed-radix code (counter i at digit `strides[i]`).
 */
export interface ContainsCounting {
  /** Per `contains` schema: its bounds, and the largest count kept (`max`, or `min` without one: larger counts are alike). */
  readonly counters: readonly ContainsCounter[];
  /** Per prefix position: its cells. */
  readonly prefixCells: readonly (readonly ContainsCell[])[];
  /** Cells of the items past the prefix, or null when none may follow. */
  readonly itemsCells: readonly ContainsCell[] | null;
}

export interface ContainsCounter {
  readonly min: number;
  /** `Infinity` when unbounded. */
  readonly max: number;
  /** The largest count told apart. */
  readonly cap: number;
  /** Weight of this counter's digit in the count code. */
  readonly stride: number;
}

/** The values of one position that match exactly the `contains` schemas in `matches` (bit i: schema i). */
export interface ContainsCell {
  readonly node: ValueNode;
  readonly matches: number;
}

/** The value classes of a `uniqueItems` array's literal items (the `items` node's enum/const texts). */
export interface UniqueItems {
  /** Per literal index of the items node: its class (literals equal as JSON share one), below 31. */
  readonly classOf: Int32Array;
  readonly classes: number;
  /** Per node of the items node's literal trie: the literal indexes below it. */
  readonly subtreeValues: readonly (readonly number[])[];
  /** `contains` beside it, one entry per schema: the classes that match, whose count in the set written must lie in the bounds; or null. */
  readonly contains: readonly { readonly matchClasses: number; readonly minContains: number; readonly maxContains: number }[] | null;
  /** Beside `prefixItems`: each position's classes and the states the array can still close from (the fields above are the rest items'); else null. */
  readonly positions: UniquePositions | null;
}

/**
 * The value classes of a `uniqueItems` array with `prefixItems`, per position: a class is one value whatever the
 * position that writes it (`classOf` maps each position's literals into the array's classes), and a position may offer
 * only some classes, or none, so the frame offers a class only where some completion still closes (`closable`).
 */
export interface UniquePositions {
  /** Per prefix position: its node's literal index → class. */
  readonly classOf: readonly Int32Array[];
  /** Per prefix position: per node of its literal trie, the literal indexes below it. */
  readonly subtreeValues: readonly (readonly (readonly number[])[])[];
  /** Per position, the last entry for every position past the prefix: the classes (bits) its literals take. */
  readonly allowed: readonly number[];
  /** Per position likewise: its node offers items the matcher remembers and that never run out (`endlessItem`, numbers), which take no class. */
  readonly endless: readonly boolean[];
  /** `used * 64 + items` of every reachable state below `minItems` (past it any state closes) from which some completion closes the array. */
  readonly closable: ReadonlySet<number>;
}

export interface PropertyRule {
  readonly name: string;
  readonly value: ValueNode;
  readonly required: boolean;
}

export interface ObjectAlternative {
  readonly kind: 'object';
  readonly id: number;
  /** Properties in layout order. */
  readonly properties: readonly PropertyRule[];
  /**
   * Keys other than the declared names, partitioned by the value schema they get
   * (additionalProperties, or the patternProperties they match); the key languages are disjoint.
   */
  readonly keyClasses: readonly KeyClass[];
  /** `"name"` texts (quotes included) of the declared properties, terminal = property index. */
  readonly keys: ByteTrie;
  /** Per key-trie node: property indexes below it. */
  readonly keyValues: number[][];
  /** For each property index i: the last index a key may jump to (the next required one, or the end). */
  readonly reach: Int32Array;
  /** A required property can never be present (its schema is false). */
  readonly blocked: boolean;
  /** Counting and property-set rules (see `object-progress.ts`). */
  readonly progress: ObjectProgressRules;
  /**
   * Undeclared keys are distinct (so `minProperties` counts distinct keys): each key class's language has endless
   * completions (`endlessKeys`), and the matcher's memory of the keys written (`written-strings.ts`) forbids a repeat.
   */
  readonly distinctKeys: boolean;
  /**
   * With `distinctKeys`, where the one key language can run out (a `maxLength`, an `enum`, a pattern or format with a
   * last character; no declared property beside): its counts, so that the matcher refuses a key prefix whose every
   * completion is a key written before (the property count is capped at the language's strings). Null elsewhere.
   */
  readonly keyCompletions: ItemCompletions | null;
  /** As `ArrayAlternative.roomForMember`. */
  readonly roomForMember?: boolean;
  /**
   * Set on an object item of a `uniqueContainers` array that can run out of values (`closedItem`): where only its `}`
   * can follow, the matcher's memory refuses the byte that got there when the object closed now is held.
   */
  readonly closedItem?: boolean;
  height: number;
}

/** Keys outside the declared names that share one value schema. */
export interface KeyClass {
  /** The key's string alternatives (several when propertyNames or a format has several). */
  readonly keys: readonly StringAlternative[];
  readonly value: ValueNode;
  /** The object may close right after a key of this class (see `ObjectProgressRules.endsWithWitness`). */
  readonly witness: boolean;
}

/** What an object frame tracks beyond "the last property written", and the rules over it. */
export interface ObjectProgressRules {
  /** Declared properties may come in any order, each at most once (`propertyOrder: 'any'`). */
  readonly anyOrder: boolean;
  /** The frame keeps the set of declared properties written (a bitset): any order or dependentRequired. */
  readonly tracked: boolean;
  /**
   * Per property index: its bit in the written set, or -1 when it has none. Every property has its own bit (the
   * index) unless the object has more declared properties than bits: then, in schema order, only those a
   * `dependentRequired` names have one, and the others are kept in order as an untracked object keeps them.
   */
  readonly bitOf: Int32Array;
  /** Per bit: the property index it stands for. */
  readonly propertyOfBit: Int32Array;
  /** Per index i: the bits of the tracked properties at index below i (schema order). */
  readonly bitsBefore: Int32Array;
  /** Per index i: required properties without a bit at index ≥ i (all zero when every property has a bit). */
  readonly untrackedRequiredFrom: Int32Array;
  /** Bits of the required properties. */
  readonly requiredMask: number;
  /** Per bit: that bit and the bits of every property it makes required, transitively. */
  readonly closure: Int32Array;
  readonly minProperties: number;
  /** `Infinity` when unbounded. */
  readonly maxProperties: number;
  /** Property counts at or above this are not told apart (max when bounded, else min). */
  readonly countCap: number;
  /** Per index i: required properties at index ≥ i (schema order). */
  readonly requiredFrom: Int32Array;
  /**
   * The object closes only right after a key of a witness class (the complement of another object's key rules,
   * `KeyWitness` in `schema-complement.ts`): the last key of the text is the one JSON.parse keeps.
   */
  readonly endsWithWitness: boolean;
  /**
   * With `endsWithWitness`, the witness is a key whose name fails a `propertyNames` (its complement): a repeat cannot
   * undo it, so the object closes once such a key was written anywhere (a bit of the written set) instead of last.
   */
  readonly witnessAnywhere: boolean;
}

export type Alternative = StringAlternative | NumberAlternative | ArrayAlternative | ObjectAlternative;

export interface ValueNode {
  readonly id: number;
  /** Where the node comes from, for messages. */
  readonly pointer: string;
  alternatives: Alternative[];
  /** Compact texts of the literal values (enum/const, null, booleans), or null. */
  literals: ByteTrie | null;
  /** Fewest stack frames any value of the node needs; Infinity when it has no finite value. */
  height: number;
}
