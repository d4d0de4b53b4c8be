/**
 * Filling a suite's injection vectors when its environment is built: each
 * vector holds the attacker's text the case gives it, or its benign default.
 * @module
 */
import { InvalidArgumentError } from '../shared/errors.js';
import type { InjectionVector } from './suite-types.js';

/**
 * A reader of the text each vector holds: `injections[id]` when the case names it (an own key, never one
 * inherited from `Object.prototype`), otherwise the vector's default. An id no vector has throws, naming the
 * vectors of `environment` (`the workspace`, `the team chat`).
 */
export function vectorFiller(vectors: readonly InjectionVector[], injections: Readonly<Record<string, string>>, environment: string): (id: string) => string {
  return (id) => {
    const vector = vectors.find((item) => item.id === id);
    if (!vector) throw new InvalidArgumentError(`No injection vector "${id}" in ${environment}; use one of: ${vectors.map((item) => item.id).join(', ')}.`);
    return Object.prototype.hasOwnProperty.call(injections, id) ? injections[id]! : vector.default;
  };
}
