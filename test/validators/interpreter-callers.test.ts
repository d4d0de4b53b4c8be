/**
 * compileSchema's other callers' tests, run again with the interpreter forced: tools imported from an MCP server,
 * policy argument rules, and the token mask against JSON-Schema-Test-Suite (which asks the registry's validator
 * wherever the mask and the suite disagree).
 */
import { afterAll } from 'vitest';
import { schemaValidatorKind, useSchemaValidator } from '../../src/tools/validator-kind.js';

useSchemaValidator('interpreter');
if (schemaValidatorKind() !== 'interpreter') throw new Error('the interpreter could not be forced');
afterAll(() => void useSchemaValidator('auto'));

await import('../../src/mcp/import-mcp-tools.test.js');
await import('../../src/policy/argument-rule.test.js');
await import('../decoding/json-schema-test-suite.test.js');
