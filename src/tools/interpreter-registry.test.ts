/**
 * The registry's own validation tests, run again with the interpreter forced (`useSchemaValidator('interpreter')`),
 * as a runtime without `new Function` or a page under a CSP without `unsafe-eval` runs them.
 */
import { afterAll } from 'vitest';
import { schemaValidatorKind, useSchemaValidator } from './validator-kind.js';

useSchemaValidator('interpreter');
if (schemaValidatorKind() !== 'interpreter') throw new Error('the interpreter could not be forced');
afterAll(() => void useSchemaValidator('auto'));

await import('./schema-validator.test.js');
await import('./tool-registry.test.js');
await import('./validation-issues.test.js');
await import('./define-tool.test.js');
await import('./tool-examples.test.js');
// the hostile inputs the registry's validator must survive: backtracking patterns, another tool's $id, unsafe patterns
// (test/hardening/validator-failure.test.ts is not run again: it makes Ajv's compile overflow by mocking it)
await import('../../test/hardening/redos.test.js');
await import('../../test/hardening/schema-isolation.test.js');
await import('../../test/hardening/unsafe-patterns.test.js');
