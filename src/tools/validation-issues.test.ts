import { describe, expect, it } from 'vitest';
import { compileSchema } from './schema-validator.js';
import { formatIssuePath, toJsonPointer } from './validation-issues.js';

describe('validation issues', () => {
  it('keep instance paths with "/" and "~" in property names, and array indices as numbers', () => {
    const validator = compileSchema({ type: 'object', properties: { 'a/b~c': { type: 'array', items: { type: 'string' } } } });
    const result = validator.validate({ 'a/b~c': ['x', 1] });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.issues[0]!.path).toEqual(['a/b~c', 1]);
    expect(toJsonPointer(result.issues[0]!.path)).toBe('/a~1b~0c/1');
    expect(formatIssuePath(result.issues[0]!.path)).toBe('$["a/b~c"][1]');
  });

  it('name a referenced alternative by its decoded definition name', () => {
    const validator = compileSchema({
      type: 'object',
      properties: { unit: { anyOf: [{ $ref: '#/$defs/temperature~1unit' }, { $ref: '#/$defs/wind%20speed' }] } },
      $defs: { 'temperature/unit': { enum: ['c', 'f'] }, 'wind speed': { type: 'number' } },
    });
    const result = validator.validate({ unit: true });
    expect(result.success).toBe(false);
    if (result.success) return;
    const alternatives = result.issues.find((issue) => issue.code === 'no_matching_alternative');
    expect(alternatives?.message).toBe('must be a temperature/unit, or a wind speed; got the boolean true');
  });

  it('describe a value Ajv read through the prototype (a property named toString) instead of throwing', () => {
    // A remote server's schema may name such a property; Ajv then checks the inherited function when the call omits it.
    const validator = compileSchema({ type: 'object', properties: { toString: { type: 'string' } } });
    const result = validator.validate({});
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.issues[0]!.message).toContain('got a function');
  });
});
