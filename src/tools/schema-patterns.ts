/**
 * Where a JSON Schema holds regular expressions (`pattern` values and
 * `patternProperties` keys), and whether toolwright's linear-time engine can run
 * each. The registry, the MCP importer and the linter share this walk so that
 * they agree on what a pattern is and where it sits.
 * @module
 */
import { escapePointer } from '../shared/json-schema/json-pointer.js';
import { walkSubschemas } from '../shared/json-schema/walk-schema.js';
import { isPlainObject } from '../shared/own.js';
import { compileLinearRegExp, type LinearRegExp } from '../shared/regex/linear-regexp.js';
import { RegexUnsupportedError } from '../shared/regex/parse-regex.js';

export interface SchemaPatternSite {
  /** JSON Pointer to the `pattern` keyword, or to the `patternProperties` entry whose key is the pattern. */
  pointer: string;
  keyword: 'pattern' | 'patternProperties';
  pattern: string;
  /** The subschema that holds the keyword. */
  holder: Record<string, unknown>;
}

/** Every pattern in the schema's subschemas (not inside `const`, `enum`, `default` or `examples`), in document order. */
export function listSchemaPatterns(schema: unknown, rootPointer = ''): SchemaPatternSite[] {
  const sites: SchemaPatternSite[] = [];
  walkSubschemas(
    schema,
    ({ schema: node, pointer }) => {
      if (typeof node.pattern === 'string') sites.push({ pointer: `${pointer}/pattern`, keyword: 'pattern', pattern: node.pattern, holder: node });
      if (isPlainObject(node.patternProperties)) {
        for (const key of Object.keys(node.patternProperties)) {
          sites.push({ pointer: `${pointer}/patternProperties/${escapePointer(key)}`, keyword: 'patternProperties', pattern: key, holder: node });
        }
      }
    },
    { rootPointer },
  );
  return sites;
}

/** Compiled patterns, shared by every validator: compiling is pure, and the lazy automaton's cache is bounded per pattern. */
const compiled = new Map<string, LinearRegExp>();
const MAX_SHARED_PATTERNS = 512;

/** The linear-time matcher for a `u`-flag pattern; throws {@link RegexUnsupportedError} when the engine cannot run it. */
export function linearPattern(pattern: string, flags = 'u'): LinearRegExp {
  const key = `${flags}/${pattern}`;
  let regExp = compiled.get(key);
  if (regExp === undefined) {
    regExp = compileLinearRegExp(pattern, flags);
    if (compiled.size >= MAX_SHARED_PATTERNS) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, regExp);
  }
  return regExp;
}

/**
 * Why the linear-time engine refuses the pattern, or `undefined` when it runs it. A pattern that is
 * not a valid `u`-flag regex at all is not "refused": compiling the schema reports it as invalid.
 */
export function unsupportedPatternReason(pattern: string): string | undefined {
  try {
    linearPattern(pattern);
    return undefined;
  } catch (error) {
    if (!(error instanceof RegexUnsupportedError)) throw error;
    return isValidUnicodeRegExp(pattern) ? error.message : undefined;
  }
}

/** Compiling a RegExp is linear; only running one can backtrack. */
function isValidUnicodeRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
