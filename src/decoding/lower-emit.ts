/**
 * Stage 3 of the lowering (`lower-json-schema.ts`), node emission: each location set the grammar reaches becomes one
 * value node (`grammar-ir.ts`) whose alternatives are the typed alternatives the set algebra denotes, lowered to
 * literals, number automata, string DFAs, arrays (with `contains` counters and `uniqueItems` sets) and objects (key
 * classes and progress rules); then every node gets its height, the fewest frames a value of it needs.
 * @module
 */
import { AutomatonWorkLimitError, MAX_DFA_STATES, type CodePointDfa } from '../shared/regex/code-point-dfa.js';
import { RegexUnsupportedError } from '../shared/regex/parse-regex.js';
import { UnsupportedSchemaError } from './decoding-errors.js';
import { planDistinctKeys, unionLanguage, type DistinctKeysPlan } from './string-completions.js';
import { stringFeasible } from './string-feasibility.js';
import {
  ByteTrie,
  CodePointTrie,
  type ArrayAlternative,
  type ContainsCell,
  type ContainsCounter,
  type ContainsCounting,
  type KeyClass,
  type ObjectAlternative,
  type ObjectProgressRules,
  type PropertyRule,
  type StringAlternative,
  type ValueNode,
} from './grammar-ir.js';
import type { KeySignatureLanguage, KeySignatureOverflow } from './key-signature-languages.js';
import type { LoweringContext } from './lower-context.js';
import type { SchemaLocations } from './lower-references.js';
import type { SetAlgebra } from './lower-set-algebra.js';
import {
  countCap,
  FALSE_LOCATION,
  formatChoices,
  layoutNames,
  literalText,
  signatureValueSet,
  TRUE_SET,
  unionSets,
  valueSetFor,
  witnessValueSet,
  type LocationSet,
  type PatternGroup,
  type Typed,
} from './lower-typed.js';
import { containsRules } from './lower-contains.js';
import { lowerMultipleOf } from './lower-multiple-of.js';
import { computeHeights } from './node-heights.js';
import { automatonConstructions, stringLanguage, UniqueItemsSettler } from './lower-unique-items.js';
import { progressTables } from './object-progress.js';
import { anyKeyWitnesses, type ContainsRule, type KeyWitness } from './schema-complement.js';

/** The value nodes of one lowering, one per location set reached, filled from the set algebra's denotations. */
export class NodeEmitter {
  private readonly nodes: ValueNode[] = [];
  private readonly nodeOf = new Map<string, ValueNode>();
  private readonly pending: { node: ValueNode; set: LocationSet }[] = [];
  /** Per node: its literal values by literal index (for `uniqueItems`). */
  private readonly literalValues = new Map<ValueNode, unknown[]>();
  /**
   * The name tries built so far, by their names in order: the objects of a large or recursive schema repeat the same
   * names (a meta-schema's ~40 keywords in every object alternative), and a trie is only read once built.
   */
  private readonly excludedTries = new Map<string, CodePointTrie>();
  private readonly keyTries = new Map<string, { keys: ByteTrie; keyValues: number[][] }>();
  private readonly unique: UniqueItemsSettler;

  constructor(
    private readonly context: LoweringContext,
    private readonly references: SchemaLocations,
    private readonly algebra: SetAlgebra,
  ) {
    this.unique = new UniqueItemsSettler(context, algebra, this.nodes, this.literalValues);
  }

  /** The node of `rootSet` and of every set it reaches, filled; uniqueness settled and heights computed, alternatives without a finite value dropped. */
  emit(rootSet: LocationSet): { root: ValueNode; nodes: readonly ValueNode[] } {
    const root = this.nodeFor(rootSet);
    while (this.pending.length > 0) {
      const { node, set } = this.pending.pop()!;
      this.fill(node, set);
    }
    this.unique.settleAll();
    computeHeights(this.nodes);
    for (const node of this.nodes) node.alternatives = node.alternatives.filter((alternative) => alternative.height !== Infinity);
    return { root, nodes: this.nodes };
  }

  private nodeFor(set: LocationSet): ValueNode {
    const key = set.join(',');
    let node = this.nodeOf.get(key);
    if (node === undefined) {
      const pointer = set.length === 0 ? '#' : this.context.locations[set[0]!]!.place.pointer;
      node = { id: this.nodes.length, pointer, alternatives: [], literals: null, height: Infinity };
      this.nodes.push(node);
      this.nodeOf.set(key, node);
      this.pending.push({ node, set });
    }
    return node;
  }

  private fill(node: ValueNode, set: LocationSet): void {
    const literals = new ByteTrie();
    let literalCount = 0;
    const values: unknown[] = [];
    this.literalValues.set(node, values);
    const addLiteral = (value: unknown): void => {
      values.push(value);
      literals.add(new TextEncoder().encode(literalText(value)), literalCount++);
    };
    for (const typed of this.algebra.denoteSet(set)) {
      if (typed.literals !== undefined) {
        for (const value of typed.literals) if (this.algebra.satisfiesTyped(value, typed)) addLiteral(value);
        continue;
      }
      switch (typed.type) {
        case 'null':
          addLiteral(null);
          break;
        case 'boolean':
          addLiteral(true);
          addLiteral(false);
          break;
        case 'number': {
          if (typed.multiples.length > 0 || typed.nonMultiples.length > 0) {
            const lowered = lowerMultipleOf(typed, this.context);
            if ('values' in lowered) for (const value of lowered.values) addLiteral(value);
            else
              for (const automaton of lowered.automata)
                node.alternatives.push({ kind: 'number', id: this.context.alternativeCount++, automaton, height: 1, check: lowered.check });
            break;
          }
          const range = {
            integer: typed.integer,
            minimum: typed.minimum,
            exclusiveMinimum: typed.exclusiveMinimum,
            maximum: typed.maximum,
            exclusiveMaximum: typed.exclusiveMaximum,
          };
          const cache = this.context.options.cache;
          const automaton = typed.fractional ? cache.fractionalNumberAutomaton(range) : cache.numberAutomaton(range);
          const unbounded = !typed.fractional && range.minimum === -Infinity && range.maximum === Infinity;
          const ranged = unbounded || typed.fractional ? undefined : range;
          const flags = { unboundedInteger: unbounded && typed.integer, unboundedNumber: unbounded && !typed.integer, rangedNumber: ranged };
          if (automaton !== null) node.alternatives.push({ kind: 'number', id: this.context.alternativeCount++, automaton, ...flags, height: 1 });
          break;
        }
        case 'string':
          node.alternatives.push(...this.lowerString(typed));
          break;
        case 'array':
          node.alternatives.push(this.lowerArray(typed));
          break;
        case 'object':
          for (const expanded of this.expandWitnesses(typed)) node.alternatives.push(this.lowerObject(expanded));
          break;
      }
    }
    if (literalCount > 0) node.literals = literals;
  }

  /** One string alternative per combination of the formats' alternatives (usually one). */
  private lowerString(typed: Typed, exclude: CodePointTrie | null = null): StringAlternative[] {
    let patternMinLength = typed.minLength;
    let patternMaxLength = typed.maxLength;
    for (const pattern of typed.patterns) {
      try {
        const compiled = this.context.options.cache.schemaPattern(pattern.source, this.context.options.automatonWork);
        patternMinLength = Math.max(patternMinLength, compiled.minLength);
        patternMaxLength = Math.min(patternMaxLength, compiled.maxLength);
      } catch (error) {
        if (error instanceof AutomatonWorkLimitError) throw error;
        // refused in stringDfa, with the regex's reason
      }
    }
    const alternatives: StringAlternative[] = [];
    for (const choice of formatChoices(typed.formats)) {
      const minLength = Math.max(patternMinLength, choice.minLength);
      const maxLength = Math.min(patternMaxLength, choice.maxLength);
      if (minLength > maxLength) continue;
      const constrained = this.algebra.stringDfa(typed.patterns, choice, true, typed.languages);
      const dfa = constrained ?? this.context.options.cache.anyString();
      if (dfa.start < 0) continue;
      const alternative: StringAlternative = {
        kind: 'string',
        id: this.context.alternativeCount++,
        dfa,
        free: constrained === undefined,
        minLength,
        maxLength,
        exclude,
        height: 1,
      };
      if (stringFeasible(alternative)) alternatives.push(alternative);
    }
    return alternatives;
  }

  private lowerArray(typed: Typed): ArrayAlternative {
    const prefixLength = Math.min(typed.prefix.length, typed.maxItems);
    const prefix = typed.prefix.slice(0, prefixLength).map((set) => this.nodeFor(set));
    const items = typed.items[0] === FALSE_LOCATION || typed.maxItems <= prefixLength ? null : this.nodeFor(typed.items);
    const maxItems = items === null ? Math.min(typed.maxItems, prefixLength) : typed.maxItems;
    const alternative: ArrayAlternative = {
      kind: 'array',
      id: this.context.alternativeCount++,
      prefix,
      items,
      minItems: typed.minItems,
      maxItems,
      unique: null,
      uniqueStrings: false,
      itemCompletions: null,
      uniqueContainers: false,
      uniqueNumbers: false,
      contains: null,
      height: Infinity,
    };
    const setBased = typed.uniqueItems && maxItems > 1;
    const rules = containsRules(typed, setBased, this.context, (left, right) => this.references.sameSchemas(left, right));
    if (rules.length > 0) (alternative as { contains: ContainsCounting | null }).contains = this.containsCounting(rules, typed, prefixLength, items !== null);
    // the items' literals are known once their node is filled: `emit` settles uniqueness then (and counts contains on the set)
    if (setBased) this.unique.add(alternative, typed.pointer, rules);
    return alternative;
  }

  /** Each position's item schema split into cells `item ∧ ±contains₁ ∧ ±contains₂ …`, one per combination of matches. */
  private containsCounting(rules: readonly ContainsRule[], typed: Typed, prefixLength: number, hasItems: boolean): ContainsCounting {
    const split = (set: LocationSet): ContainsCell[] => {
      const cells: ContainsCell[] = [];
      // matching cells first: they are filled (and refused) in the order one counter always used
      for (let matches = 2 ** rules.length - 1; matches >= 0; matches--) {
        // the schemas it matches first, so each complement is taken within the smallest set
        let cell = set;
        rules.forEach((rule, index) => (cell = (matches & (1 << index)) !== 0 ? unionSets(cell, rule.set) : cell));
        rules.forEach((rule, index) => {
          if ((matches & (1 << index)) === 0) cell = this.references.differenceSet(cell, rule.set, 'contains', `${rule.pointer}/contains`);
        });
        // an empty cell stays in the list: its node's height is Infinity, so it is never offered
        if (cell[0] !== FALSE_LOCATION) cells.push({ node: this.nodeFor(cell), matches });
      }
      return cells;
    };
    let stride = 1;
    const counters = rules.map((rule): ContainsCounter => {
      const counter = { min: rule.min, max: rule.max, cap: countCap(rule), stride };
      stride *= counter.cap + 1;
      return counter;
    });
    return {
      counters,
      prefixCells: typed.prefix.slice(0, prefixLength).map(split),
      itemsCells: hasItems ? split(typed.items) : null,
    };
  }

  private lowerObject(typed: Typed): ObjectAlternative {
    const names = layoutNames(typed);
    const namesKey = JSON.stringify(names);
    let excluded = this.excludedTries.get(namesKey);
    if (excluded === undefined) {
      this.excludedTries.set(namesKey, (excluded = new CodePointTrie()));
      for (const name of names) excluded.add(name);
    }
    const plan = this.planObject(typed, names);
    const properties: PropertyRule[] = plan.present.map((name) => ({
      name,
      value: this.nodeFor(valueSetFor(typed, name)),
      required: plan.required.has(name),
    }));
    const presentKey = JSON.stringify(plan.present);
    let keyTrie = this.keyTries.get(presentKey);
    if (keyTrie === undefined) {
      const keys = new ByteTrie();
      const encoder = new TextEncoder();
      properties.forEach((property, index) => keys.add(encoder.encode(JSON.stringify(property.name)), index));
      this.keyTries.set(presentKey, (keyTrie = { keys, keyValues: keys.subtreeValues() }));
    }
    const reach = new Int32Array(properties.length + 1);
    let nextRequired = properties.length - 1;
    for (let index = properties.length; index >= 0; index--) {
      // reach[i + 1]: after property i was written, keys up to this index may come next
      reach[index] = nextRequired;
      if (index - 1 >= 0 && properties[index - 1]!.required) nextRequired = index - 1;
    }
    let keyClasses = this.keyClasses(typed, names, excluded);
    // declared keys are written at most once and undeclared ones exclude them: only undeclared keys may repeat
    const distinct = typed.minProperties > 1 && keyClasses.length > 0 ? this.planDistinctKeys(keyClasses, properties.length) : null;
    if (distinct?.kind === 'counted') keyClasses = [{ ...keyClasses[0]!, keys: [distinct.keys] }];
    return {
      kind: 'object',
      id: this.context.alternativeCount++,
      properties,
      keyClasses,
      keys: keyTrie.keys,
      keyValues: keyTrie.keyValues,
      reach,
      blocked: plan.impossible,
      progress: this.progressRules(typed, properties, plan.dependencies, keyClasses.length > 0, distinct),
      distinctKeys: distinct !== null && distinct.kind !== 'refused',
      keyCompletions: distinct?.kind === 'counted' ? distinct.completions : null,
      height: Infinity,
    };
  }

  /**
   * An object with key witnesses as alternatives with at most one each: a witness is a declared name outside its names
   * (required, its value failing the witness's rules) or the object's last undeclared key. Witnesses that accept any
   * undeclared key share that last key with any other; two others would each need it, which is refused.
   */
  private expandWitnesses(typed: Typed): Typed[] {
    if (typed.witnesses.length === 0) return [typed];
    const layout = layoutNames(typed);
    let ways: { typed: Typed; last: KeyWitness<PatternGroup>[] }[] = [{ typed: { ...typed, witnesses: [] }, last: [] }];
    for (const witness of typed.witnesses) {
      ways = ways.flatMap((way) => {
        const next = [{ typed: way.typed, last: [...way.last, witness] }];
        for (const name of layout) {
          if (witness.names.has(name)) continue;
          const failing =
            witness.failingNames === undefined
              ? this.references.complementSet(witnessValueSet(witness, name))
              : this.algebra.satisfiesSet(name, witness.failingNames)
                ? [FALSE_LOCATION]
                : TRUE_SET;
          if (failing[0] === FALSE_LOCATION) continue;
          const declared = { ...way.typed, properties: new Map(way.typed.properties), required: new Set([...way.typed.required, name]) };
          declared.properties.set(name, unionSets(valueSetFor(way.typed, name), failing));
          next.push({ typed: declared, last: way.last });
        }
        return next;
      });
      if (ways.length > this.context.limits.maxAlternatives) {
        this.context.refuse(
          witness.keyword,
          witness.pointer,
          `the complement expands to more than ${this.context.limits.maxAlternatives} alternatives (limits.maxAlternatives)`,
        );
        return [{ ...typed, witnesses: [] }];
      }
    }
    return ways.map(({ typed: way, last }) => {
      if (last.length === 0) return way;
      const anywhere = last.find((witness) => witness.failingNames !== undefined);
      if (anywhere !== undefined && last.length > 1) {
        this.context.refuse(
          anywhere.keyword,
          anywhere.pointer,
          'the complement of "propertyNames" beside another negated key rule on one object is not enforced',
        );
        return way;
      }
      const constrained = last.filter((witness) => !anyKeyWitnesses(witness));
      if (constrained.length > 1) {
        // lenient: no witness, a looser object
        this.context.refuse(
          constrained[1]!.keyword,
          constrained[1]!.pointer,
          'an object whose last undeclared key must fail the additionalProperties or patternProperties of two negated schemas is not enforced (one key may fail each)',
        );
        return way;
      }
      return { ...way, witnesses: [constrained[0] ?? last[0]!] };
    });
  }

  /** The declared names that can appear (not false, accepted by propertyNames, their dependents can appear too) and the dependencies enforced. */
  private planObject(
    typed: Typed,
    names: readonly string[],
  ): { present: string[]; impossible: boolean; required: Set<string>; dependencies: Map<string, Set<string>> } {
    const absent = new Set<string>();
    for (const name of names) {
      if (valueSetFor(typed, name)[0] === FALSE_LOCATION || (typed.propertyNames.length > 0 && !this.algebra.satisfiesSet(name, typed.propertyNames)))
        absent.add(name);
    }
    // exact, and each saves a tracked bit: a required property's dependents are required too, and a dependent every valid object has needs no tracking
    const required = new Set(typed.required);
    for (let changed = true; changed;) {
      changed = false;
      for (const [name, dependents] of typed.dependencies) {
        if (!required.has(name)) continue;
        for (const dependent of dependents) {
          if (required.has(dependent)) continue;
          required.add(dependent);
          changed = true;
        }
      }
    }
    let dependencies = new Map<string, Set<string>>();
    for (const [name, dependents] of typed.dependencies) {
      const open = [...dependents].filter((dependent) => dependent !== name && !required.has(dependent));
      if (!required.has(name) && open.length > 0) dependencies.set(name, new Set(open));
    }
    if (dependencies.size > 0 && typed.maxProperties !== Infinity) {
      this.context.refuse('dependentRequired', typed.pointer, 'dependentRequired together with maxProperties is not enforced');
      dependencies = new Map();
    }
    for (let changed = true; changed;) {
      changed = false;
      for (const [name, dependents] of dependencies) {
        if (!absent.has(name) && [...dependents].some((dependent) => absent.has(dependent))) {
          absent.add(name);
          changed = true;
        }
      }
    }
    const present = names.filter((name) => !absent.has(name));
    const impossible = typed.minProperties > typed.maxProperties || names.some((name) => absent.has(name) && required.has(name));
    return { present, impossible, required, dependencies };
  }

  private progressRules(
    typed: Typed,
    properties: readonly PropertyRule[],
    dependencies: Map<string, Set<string>>,
    hasKeyClasses: boolean,
    distinct: DistinctKeysPlan | null,
  ): ObjectProgressRules {
    const index = new Map(properties.map((property, at) => [property.name, at]));
    const edges = [...dependencies].filter(([name, dependents]) => index.has(name) && [...dependents].some((dependent) => dependent !== name));
    // one declared property without other keys has one order anyway
    let anyOrder = this.context.options.propertyOrder === 'any' && (properties.length > 1 || (properties.length === 1 && hasKeyClasses));
    let tracked = anyOrder || edges.length > 0;
    let minProperties = typed.minProperties;
    if (distinct?.kind === 'refused') {
      this.context.refuse('minProperties', typed.pointer, distinct.reason);
      minProperties = 0;
    }
    // the count is the number of distinct keys held: past every string of their language no key can come (nor, if fewer than minProperties, an object)
    const maxProperties = distinct?.kind === 'counted' ? Math.min(typed.maxProperties, distinct.completions.total) : typed.maxProperties;
    // which properties get a bit in the written set: all of them, or in schema order only those a dependency names
    let bitted = properties.map((_, at) => at);
    if (tracked && properties.length > this.context.limits.maxTrackedProperties) {
      const named = [...new Set(edges.flatMap(([name, dependents]) => [name, ...dependents]).filter((name) => index.has(name)))].map((name) =>
        index.get(name)!,
      );
      // the rest kept in order as an untracked object keeps them: each at most once, so the property count stays exact
      if (!anyOrder && named.length <= this.context.limits.maxTrackedProperties) {
        bitted = named.sort((left, right) => left - right);
      } else {
        if (edges.length > 0)
          this.context.refuse(
            'dependentRequired',
            typed.pointer,
            `tracking which of ${anyOrder ? properties.length : named.length} declared properties were written exceeds limits.maxTrackedProperties (${this.context.limits.maxTrackedProperties})`,
          );
        if (anyOrder && !this.context.options.lenient)
          throw new UnsupportedSchemaError(
            'propertyOrder',
            typed.pointer,
            `propertyOrder "any" on an object with ${properties.length} declared properties exceeds limits.maxTrackedProperties (${this.context.limits.maxTrackedProperties}); use propertyOrder "schema"`,
          );
        // lenient: the schema's order (still exact) and no dependentRequired (looser, listed in relaxed)
        anyOrder = false;
        tracked = false;
      }
    }
    const tables = progressTables(properties, tracked ? bitted : [], tracked, edges, index);
    return {
      anyOrder,
      tracked,
      ...tables,
      minProperties,
      maxProperties,
      countCap: maxProperties !== Infinity ? maxProperties : minProperties,
      endsWithWitness: typed.witnesses.length > 0,
      witnessAnywhere: typed.witnesses[0]?.failingNames !== undefined,
    };
  }

  /** How the undeclared keys of an object with `minProperties` above 1 are kept distinct (`planDistinctKeys`). */
  private planDistinctKeys(keyClasses: readonly KeyClass[], declared: number): DistinctKeysPlan {
    return planDistinctKeys(keyClasses, declared, automatonConstructions(this.context), (dfa) => stringLanguage(this.context, dfa));
  }

  /** Keys other than the declared names, grouped by the value schema they get. */
  private keyClasses(typed: Typed, names: readonly string[], excluded: CodePointTrie): KeyClass[] {
    // at most one witness by now (expandWitnesses); lenient, when the key classes are refused, any undeclared key is one
    const witness = typed.witnesses[0];
    const loose = (): KeyClass[] => [{ keys: [this.freeKey(excluded)], value: this.nodeFor(TRUE_SET), witness: witness !== undefined }];
    const failingNames = witness?.failingNames === undefined ? undefined : this.failingNamesGroup(witness.failingNames, typed.pointer);
    if (failingNames === null) return loose();
    const witnessGroups = failingNames !== undefined ? [failingNames] : (witness?.patternGroups ?? []);
    if (typed.patternGroups.length === 0 && typed.propertyNames.length === 0 && witnessGroups.length === 0) {
      const classes: KeyClass[] = [];
      this.addKeyClasses(classes, [this.freeKey(excluded)], typed.additional, witness?.additional);
      return classes;
    }
    const typedRules = typed.patternGroups.reduce((count, group) => count + group.rules.length, 0);
    const rules = [...typed.patternGroups, ...witnessGroups].flatMap((group) => group.rules);
    let languages: readonly KeySignatureLanguage[] | KeySignatureOverflow;
    let keyLanguages: { dfa: CodePointDfa; minLength: number; maxLength: number }[];
    try {
      languages = this.context.options.cache.keySignatureLanguages(
        this.context.options.cache.literals([...names], this.context.options.automatonWork),
        rules.map((rule) => rule.dfa),
        this.context.limits.maxKeyClasses,
        this.context.options.automatonWork,
      );
      keyLanguages = typed.propertyNames.length === 0 ? [] : this.keyLanguages(typed.propertyNames);
    } catch (error) {
      if (!(error instanceof RegexUnsupportedError)) throw error;
      this.context.refuse('propertyNames', typed.pointer, error.message);
      return loose();
    }
    if (languages === 'states') {
      this.context.refuse('patternProperties', typed.pointer, `the key automaton (the product of the key patterns) exceeds ${MAX_DFA_STATES} states`);
      return loose();
    }
    if (languages === 'signatures') {
      this.context.refuse(
        'patternProperties',
        typed.pointer,
        `the keys of its ${rules.length} patterns fall into more than ${this.context.limits.maxKeyClasses} sets of matching patterns (limits.maxKeyClasses), over budget`,
      );
      return loose();
    }
    const classes: KeyClass[] = [];
    for (const { matched, dfa } of languages) {
      const set = signatureValueSet(typed.patternGroups, typed.additional, matched, 0);
      const failed = witness === undefined ? undefined : signatureValueSet(witnessGroups, witness.additional, matched, typedRules);
      if (set[0] === FALSE_LOCATION) continue;
      const keys: StringAlternative[] = [];
      for (const language of typed.propertyNames.length === 0 ? [{ dfa, minLength: 0, maxLength: Infinity }] : keyLanguages) {
        let keyDfa = dfa;
        if (language.dfa !== dfa) {
          try {
            keyDfa = this.context.options.cache.intersection([dfa, language.dfa], this.context.options.automatonWork);
          } catch (error) {
            if (!(error instanceof RegexUnsupportedError)) throw error;
            this.context.refuse('propertyNames', typed.pointer, error.message);
            return loose();
          }
        }
        if (keyDfa.start < 0) continue;
        const key: StringAlternative = {
          kind: 'string',
          id: this.context.alternativeCount++,
          dfa: keyDfa,
          free: false,
          minLength: language.minLength,
          maxLength: language.maxLength,
          exclude: null,
          height: 1,
        };
        if (stringFeasible(key)) keys.push(key);
      }
      if (keys.length > 0) this.addKeyClasses(classes, keys, set, failed);
    }
    return classes;
  }

  /**
   * The key class of `keys` with value `set`; with a witness whose rules give these keys `failed`, also the class of
   * the witnesses among them (`set ∧ ¬failed`), or the one class marked a witness when `failed` is false.
   */
  private addKeyClasses(classes: KeyClass[], keys: StringAlternative[], set: LocationSet, failed: LocationSet | undefined): void {
    const anyValueWitnesses = failed !== undefined && failed[0] === FALSE_LOCATION;
    if (set[0] !== FALSE_LOCATION) classes.push({ keys, value: this.nodeFor(set), witness: anyValueWitnesses });
    if (failed === undefined || anyValueWitnesses || failed.length === 0) return;
    const witnessSet = unionSets(set, this.references.complementSet(failed));
    if (witnessSet[0] !== FALSE_LOCATION) classes.push({ keys, value: this.nodeFor(witnessSet), witness: true });
  }

  private freeKey(excluded: CodePointTrie): StringAlternative {
    return {
      kind: 'string',
      id: this.context.alternativeCount++,
      dfa: this.context.options.cache.anyString(),
      free: true,
      minLength: 0,
      maxLength: Infinity,
      exclude: excluded,
      height: 1,
    };
  }

  /** The keys whose name fails a propertyNames schema, as one pattern whose keys' values must fail `false` (any value); null when refused. */
  private failingNamesGroup(set: LocationSet, pointer: string): PatternGroup | null {
    try {
      const languages = this.keyLanguages(set);
      const passing = languages.length === 0 ? undefined : unionLanguage(languages, automatonConstructions(this.context));
      if (passing === null) throw new RegexUnsupportedError(`its languages' union is past ${MAX_DFA_STATES} states`);
      const { cache, automatonWork } = this.context.options;
      const dfa = passing === undefined ? cache.anyString() : cache.complement(passing, automatonWork);
      return { rules: [{ source: '', set: [FALSE_LOCATION], dfa }], additional: TRUE_SET };
    } catch (error) {
      if (!(error instanceof RegexUnsupportedError)) throw error;
      this.context.refuse('not', pointer, `the complement of "propertyNames" is not enforced: ${error.message}`);
      return null;
    }
  }

  /** The string languages a propertyNames schema allows (non-string alternatives never apply to keys). */
  private keyLanguages(set: LocationSet): { dfa: CodePointDfa; minLength: number; maxLength: number }[] {
    const out: { dfa: CodePointDfa; minLength: number; maxLength: number }[] = [];
    for (const typed of this.algebra.denoteSet(set)) {
      if (typed.type !== 'string') continue;
      if (typed.literals !== undefined) {
        const dfa = this.context.options.cache.literals(
          typed.literals.filter((value) => this.algebra.satisfiesTyped(value, typed)) as string[],
          this.context.options.automatonWork,
        );
        if (dfa.start >= 0) out.push({ dfa, minLength: 0, maxLength: Infinity });
        continue;
      }
      for (const alternative of this.lowerString(typed)) out.push({ dfa: alternative.dfa, minLength: alternative.minLength, maxLength: alternative.maxLength });
    }
    return out;
  }
}
