/**
 * Hash-consing of the values typed alternatives hold: one small integer per distinct structure, so that telling two
 * alternatives (or two of their fields) apart compares numbers, and a structure is read once, not written out as text
 * for every comparison. A structure's id comes from its kind and its parts' ids.
 * @module
 */

/** A sequence of ids read so far: the sequences that go on from it, and its own id once one ends here. */
interface SequenceNode {
  next: Map<number, SequenceNode> | undefined;
  id: number;
}

/** The first part of a container's sequence: its kind (a record is the caller's, such as an alternative's fields). */
const ARRAY = -1;
const MAP = -2;
const SET = -3;
const PLAIN_OBJECT = -4;
const RECORD = -5;

const UNDEFINED_ID = 0;
const NULL_ID = 1;
const FALSE_ID = 2;
const TRUE_ID = 3;

/**
 * Ids of structures: equal ids exactly for equal values, where equal means the same primitive (`0` and `-0` alike,
 * `NaN` like itself), or arrays, Maps (entries in order), Sets (values in order) or plain objects (own enumerable
 * properties in order, those holding `undefined` left out, as JSON.stringify leaves them out) whose parts are equal,
 * or the very same instance of any other class.
 *
 * Ids are numbered per instance of this class: compare only ids of one. A container (array, Map, Set, plain object) is
 * read once per pass ({@link beginPass}) and its id kept by identity until the next pass, since the values it is given
 * are not changed within a pass; across passes it is read again, so a container changed in between gets its new id.
 * A container's id is found by walking the sequence of its kind and its parts' ids through a trie of numbers: no text
 * is written, whatever the parts hold.
 */
export class StructureIds {
  private nextId = TRUE_ID + 1;
  private readonly strings = new Map<string, number>();
  /** Numbers (and bigints) by SameValueZero: `0` and `-0` are one key, `NaN` is one. */
  private readonly numbers = new Map<number | bigint, number>();
  private readonly instances = new WeakMap<object, number>();
  private readonly sequences: SequenceNode = { next: undefined, id: -1 };
  private containers = new Map<object, number>();

  /** Forgets the containers' ids by identity (their content may change between passes); the ids of structures stay. */
  beginPass(): void {
    if (this.containers.size > 0) this.containers = new Map();
  }

  idOf(value: unknown): number {
    switch (typeof value) {
      case 'string': {
        let id = this.strings.get(value);
        if (id === undefined) this.strings.set(value, (id = this.nextId++));
        return id;
      }
      case 'number':
      case 'bigint': {
        let id = this.numbers.get(value);
        if (id === undefined) this.numbers.set(value, (id = this.nextId++));
        return id;
      }
      case 'boolean':
        return value ? TRUE_ID : FALSE_ID;
      case 'undefined':
        return UNDEFINED_ID;
      case 'object':
        if (value === null) return NULL_ID;
        return this.containerId(value);
      default:
        return this.instanceId(value as object);
    }
  }

  /** The id of a record of the caller's: the ids of its parts in order (an alternative's fields' names and values, say), kept apart from every value's. */
  recordId(parts: readonly number[]): number {
    return this.sequenceId(RECORD, parts);
  }

  private containerId(value: object): number {
    const known = this.containers.get(value);
    if (known !== undefined) return known;
    let id: number;
    if (Array.isArray(value)) {
      const parts: number[] = [];
      // by index, not map: a hole is read as undefined
      for (let index = 0; index < value.length; index++) parts.push(this.idOf((value as unknown[])[index]));
      id = this.sequenceId(ARRAY, parts);
    } else if (value instanceof Map) {
      const parts: number[] = [];
      for (const [key, item] of value) parts.push(this.idOf(key), this.idOf(item));
      id = this.sequenceId(MAP, parts);
    } else if (value instanceof Set) {
      const parts: number[] = [];
      for (const item of value) parts.push(this.idOf(item));
      id = this.sequenceId(SET, parts);
    } else if (Object.getPrototypeOf(value) === Object.prototype) {
      const parts: number[] = [];
      for (const [key, item] of Object.entries(value)) if (item !== undefined) parts.push(this.idOf(key), this.idOf(item));
      id = this.sequenceId(PLAIN_OBJECT, parts);
    } else return this.instanceId(value);
    this.containers.set(value, id);
    return id;
  }

  /** The id of `kind` followed by `parts` (every part's id found before: reading a part may find ids of its own). */
  private sequenceId(kind: number, parts: readonly number[]): number {
    let node = this.step(this.sequences, kind);
    for (const part of parts) node = this.step(node, part);
    if (node.id < 0) node.id = this.nextId++;
    return node.id;
  }

  private step(node: SequenceNode, part: number): SequenceNode {
    let next = node.next?.get(part);
    if (next === undefined) (node.next ??= new Map()).set(part, (next = { next: undefined, id: -1 }));
    return next;
  }

  private instanceId(value: object): number {
    let id = this.instances.get(value);
    if (id === undefined) this.instances.set(value, (id = this.nextId++));
    return id;
  }
}
