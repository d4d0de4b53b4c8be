/**
 * Runs JSON-Schema-Test-Suite (draft 2020-12) through the mask engine: every schema the
 * engine compiles must accept each valid instance (in its layout) and reject each invalid one.
 * Where the mask and the suite disagree, the registry's own validator is asked too: the mask's
 * target is that validator (Ajv with ajv-formats), which is looser or stricter than the suite
 * on some formats.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { compileJsonSchema, UnsupportedSchemaError, type CompiledGrammar } from '../../src/decoding/index.js';
import { SchemaCompileError } from '../../src/shared/errors.js';
import { compileSchema, type SchemaValidator } from '../../src/tools/schema-validator.js';
import { byteVocabulary } from './byte-vocabulary.js';

export type SuiteStatus = 'pass' | 'refused' | 'valid-rejected' | 'invalid-accepted';

export interface SuiteResult {
  readonly key: string;
  readonly status: SuiteStatus;
  readonly detail?: string;
  /**
   * For a disagreement with the suite: whether the registry's validator disagrees with the suite the same way (undefined when it cannot compile the
   * schema).
   */
  readonly validatorAgrees?: boolean;
}

interface SuiteTest {
  description: string;
  data: unknown;
  valid: boolean;
}
interface SuiteGroup {
  description: string;
  schema: unknown;
  tests: SuiteTest[];
}

function walk(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? walk(path) : name.endsWith('.json') ? [path] : [];
  });
}

export function suiteRoot(repoRoot: string): string {
  return resolve(repoRoot, 'test/fixtures/json-schema-test-suite');
}

export function loadRemotes(root: string): Record<string, unknown> {
  const remotes: Record<string, unknown> = {};
  const folder = join(root, 'remotes');
  if (!existsSync(folder)) return remotes;
  for (const file of walk(folder))
    remotes[`http://localhost:1234/${relative(folder, file).split('\\').join('/')}`] = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  return remotes;
}

/** Compact JSON with plain-decimal numbers and object keys ordered by `rank` first. */
function serialize(value: unknown, rank: Map<string, number>): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'null';
    const text = JSON.stringify(value);
    return /e/i.test(text) ? BigInt(Math.trunc(value)).toString() : text;
  }
  if (Array.isArray(value)) return `[${value.map((item) => serialize(item, rank)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort((left, right) => (rank.get(left) ?? Infinity) - (rank.get(right) ?? Infinity));
    return `{${keys.map((key) => `${JSON.stringify(key)}:${serialize((value as Record<string, unknown>)[key], rank)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Property names in the order they first appear in the schema text. */
function schemaKeyRank(schema: unknown): Map<string, number> {
  const rank = new Map<string, number>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'properties' && value !== null && typeof value === 'object')
          for (const name of Object.keys(value)) if (!rank.has(name)) rank.set(name, rank.size);
        if (key === 'required' && Array.isArray(value)) for (const name of value) if (typeof name === 'string' && !rank.has(name)) rank.set(name, rank.size);
        visit(value);
      }
    }
  };
  visit(schema);
  return rank;
}

function accepts(grammar: CompiledGrammar, text: string): boolean {
  const matcher = grammar.matcher();
  return matcher.acceptString(text) && matcher.canTerminate();
}

export function runSuite(repoRoot: string): SuiteResult[] {
  const root = suiteRoot(repoRoot);
  const testsFolder = join(root, 'tests/draft2020-12');
  const remotes = loadRemotes(root);
  const vocabulary = byteVocabulary();
  const results: SuiteResult[] = [];
  for (const file of walk(testsFolder).sort()) {
    const name = relative(testsFolder, file).split('\\').join('/');
    const groups = JSON.parse(readFileSync(file, 'utf8')) as SuiteGroup[];
    groups.forEach((group, groupIndex) => {
      const prefix = `${name}#${groupIndex} ${group.description}`;
      let grammar: CompiledGrammar | undefined;
      let refusal: string | undefined;
      let empty = false;
      try {
        grammar = compileJsonSchema(group.schema, vocabulary, { schemas: remotes });
      } catch (error) {
        if (UnsupportedSchemaError.isInstance(error) && error instanceof UnsupportedSchemaError) refusal = `${error.keyword} at ${error.pointer}`;
        else if (error instanceof SchemaCompileError && /accepts no JSON value/.test(error.message)) empty = true;
        else refusal = `error: ${(error as Error).message}`;
      }
      const rank = schemaKeyRank(group.schema);
      let validator: SchemaValidator | null | undefined;
      const validatorVerdict = (data: unknown): boolean | undefined => {
        if (validator === undefined) {
          try {
            validator = compileSchema(group.schema as never);
          } catch {
            validator = null;
          }
        }
        if (validator === null) return undefined;
        try {
          return validator.validate(data).success;
        } catch (error) {
          console.log(`registry validator threw on ${JSON.stringify(data)?.slice(0, 80)}: ${(error as Error).message}`);
          return undefined;
        }
      };
      group.tests.forEach((test, testIndex) => {
        const key = `${prefix} :: ${testIndex} ${test.description}`;
        if (refusal !== undefined) {
          results.push({ key, status: 'refused', detail: refusal });
          return;
        }
        if (empty || grammar === undefined) {
          results.push({ key, status: test.valid ? 'valid-rejected' : 'pass', detail: 'schema accepts no value' });
          return;
        }
        if (test.valid) {
          const text = grammar.format(test.data);
          const validatorAgrees = validatorVerdict(test.data) === undefined ? undefined : validatorVerdict(test.data) === false;
          if (text === undefined) results.push({ key, status: 'valid-rejected', detail: 'no layout text (value judged invalid)', validatorAgrees });
          else if (!accepts(grammar, text)) results.push({ key, status: 'valid-rejected', detail: `matcher rejects ${text.slice(0, 200)}`, validatorAgrees });
          else results.push({ key, status: 'pass' });
        } else {
          const texts = new Set([serialize(test.data, new Map()), serialize(test.data, rank)]);
          const accepted = [...texts].find((text) => accepts(grammar, text));
          if (accepted === undefined) results.push({ key, status: 'pass' });
          else
            results.push({
              key,
              status: 'invalid-accepted',
              detail: `matcher accepts ${accepted.slice(0, 200)}`,
              validatorAgrees: validatorVerdict(test.data),
            });
        }
      });
    });
  }
  return results;
}
