/**
 * The tool module a command acts on, given positionally (`toolwright serve ./tools.ts`) or with `--tools`, as every
 * command that takes one accepts both.
 * @module
 */
import { InvalidArgumentError } from '../shared/errors.js';

/** The module named either way; a clear error when neither names one, or when the two name different modules. */
export function toolModuleFrom(command: string, positional: string | undefined, flag: string | undefined, example: string): string {
  if (positional !== undefined && flag !== undefined && positional !== flag) {
    throw new InvalidArgumentError(
      `toolwright ${command} was given two tool modules, "${positional}" and --tools "${flag}". Name one, either way: toolwright ${command} ${example}.`,
    );
  }
  const module = positional ?? flag;
  if (module === undefined || module.trim() === '') {
    throw new InvalidArgumentError(
      `toolwright ${command} needs the module that exports the tools, e.g. toolwright ${command} ${example} (or --tools ${example}).`,
    );
  }
  return module;
}
