/**
 * `toolwright eval --suite`: a built-in suite by name, or a user's suite
 * module by path or package name. The module contract: the default export
 * (or a named export `suite`) is an eval suite (`EvalSuite`, see
 * src/eval/suite-types.ts): `name`, `version`, `userName`, `systemPrompt`,
 * `vectors`, `createState`, `createTools`, `userTasks`, `injectionTasks`.
 * @module
 */
import { BUILT_IN_SUITES } from '../eval/built-in-suites.js';
import type { AnyEvalSuite } from '../eval/suite-types.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { getOwn } from '../shared/own.js';
import { importUserModule } from './load-tool-module.js';

const CONTRACT =
  'Export the suite as the default export (or as `export const suite`): an object with name, version, userName, systemPrompt, vectors, createState(injections), createTools(env), userTasks and injectionTasks (see docs/eval.md, "Writing a suite").';

/** Resolves one `--suite` entry: a built-in name, else a module path or package. */
export async function loadSuite(nameOrPath: string, cwd: string = process.cwd()): Promise<AnyEvalSuite> {
  const builtIn = getOwn(BUILT_IN_SUITES, nameOrPath);
  if (builtIn) return builtIn;
  const { namespace, display } = await importUserModule(nameOrPath, cwd);
  const candidate = getOwn(namespace, 'default') ?? getOwn(namespace, 'suite');
  const problem = suiteProblem(candidate);
  if (problem) throw new InvalidArgumentError(`${display} is not an eval suite: ${problem}. ${CONTRACT}`);
  return candidate as AnyEvalSuite;
}

/** Parses `--suite a,b`: each entry a built-in name or a module. */
export async function loadSuites(list: string, cwd?: string): Promise<AnyEvalSuite[]> {
  const entries = list
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0)
    throw new InvalidArgumentError(`--suite names no suite; give a built-in suite (${Object.keys(BUILT_IN_SUITES).join(', ')}) or a module path.`);
  const suites: AnyEvalSuite[] = [];
  for (const entry of entries) suites.push(await loadSuite(entry, cwd));
  return suites;
}

function suiteProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'it has no default export (or `suite` export) that is an object';
  const suite = value as Record<string, unknown>;
  for (const key of ['name', 'version', 'userName', 'systemPrompt']) if (typeof suite[key] !== 'string') return `\`${key}\` is not a string`;
  for (const key of ['createState', 'createTools']) if (typeof suite[key] !== 'function') return `\`${key}\` is not a function`;
  for (const key of ['vectors', 'userTasks', 'injectionTasks']) if (!Array.isArray(suite[key])) return `\`${key}\` is not an array`;
  if ((suite.userTasks as unknown[]).length === 0) return 'it has no user tasks';
  return undefined;
}
