/**
 * Every developer-error class answers `isInstance` for itself and its subclasses
 * only (a static method is inherited, so this has to be built in, not assumed),
 * also for errors thrown by a second loaded copy of the package.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ConfirmationRefusedError,
  InvalidRunIdError,
  RunLeasedError,
  RunNotFoundError,
  RunNotResumableError,
  RunStoreError,
  RunStoreUnavailableError,
} from '../../src/agent/agent-errors.js';
import { DecodingLimitError, InvalidDecodingLimitsError, UnsupportedSchemaError, VocabularyError } from '../../src/decoding/decoding-errors.js';
import {
  InvalidModelSpecError,
  MissingApiKeyError,
  ProviderAuthError,
  ProviderBadRequestError,
  ProviderError,
  ProviderModelNotFoundError,
  ProviderRateLimitError,
  ProviderResponseError,
  ProviderTimeoutError,
  ProviderUnavailableError,
  type ProviderErrorContext,
} from '../../src/models/provider-errors.js';
import { ScriptExhaustedError } from '../../src/models/scripted/scripted-model.js';
import {
  DuplicateToolError,
  InvalidArgumentError,
  InvalidStateError,
  ModuleLoadError,
  MissingPeerError,
  SchemaCompileError,
  SchemaEvaluationError,
  SchemaReferenceCycleError,
  ToolDefinitionError,
  ToolExampleError,
  ToolNotFoundError,
  ToolwrightError,
  UnsafePatternError,
} from '../../src/shared/errors.js';
import type * as errorsModule from '../../src/shared/errors.js';
import { NotFoundError, ToolError } from '../../src/tools/tool-error.js';
import { StoredSettingsMismatchError } from '../../src/cli/run-settings.js';
import { MissingPackagesError } from '../../src/cli/required-packages.js';
import { ApprovalNotPendingError } from '../../src/mcp/gateway/approval-queue.js';
import { DefinitionPinsError } from '../../src/mcp/gateway/definition-pins.js';
import { McpHttpResponseError } from '../../src/mcp/http-client-transport.js';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const context: ProviderErrorContext = { providerName: 'OpenAI', modelId: 'gpt-test', baseURL: 'https://example.invalid/v1', keyVariable: 'OPENAI_API_KEY' };

/** One instance of every class; the test below fails when a class exists in src/ but not here. */
const SAMPLES: ReadonlyArray<[name: string, make: () => ToolwrightError]> = [
  ['ToolwrightError', () => new ToolwrightError('TW_INVALID_ARGUMENT', 'base')],
  ['ToolDefinitionError', () => new ToolDefinitionError('t', 'bad')],
  ['ToolExampleError', () => new ToolExampleError('t', 0, ['$.city must be a string; got the number 3'])],
  ['SchemaCompileError', () => new SchemaCompileError('t', 'bad')],
  ['SchemaReferenceCycleError', () => new SchemaReferenceCycleError('t', ['#', '#/allOf/0', '#'])],
  ['SchemaEvaluationError', () => new SchemaEvaluationError('t')],
  ['UnsafePatternError', () => new UnsafePatternError('t', '/pattern', '(?=a)', 'lookahead')],
  ['DuplicateToolError', () => new DuplicateToolError('t')],
  ['ToolNotFoundError', () => new ToolNotFoundError('t', [])],
  ['InvalidArgumentError', () => new InvalidArgumentError('bad')],
  ['ModuleLoadError', () => new ModuleLoadError('./tools.js', 'missing')],
  ['MissingPeerError', () => new MissingPeerError('openai', 'An OpenAI model')],
  ['MissingPackagesError', () => new MissingPackagesError('toolwright run', [{ name: 'openai', neededFor: 'the model openai:gpt-4o-mini' }])],
  ['InvalidStateError', () => new InvalidStateError('started twice')],
  ['RunNotFoundError', () => new RunNotFoundError('run')],
  ['RunNotResumableError', () => new RunNotResumableError('run', 'completed', 'finished')],
  ['RunLeasedError', () => new RunLeasedError('run', undefined)],
  ['ConfirmationRefusedError', () => new ConfirmationRefusedError('forged', 'forged')],
  ['RunStoreError', () => new RunStoreError('broken')],
  ['RunStoreUnavailableError', () => new RunStoreUnavailableError('postgres', 'gone')],
  ['InvalidRunIdError', () => new InvalidRunIdError('run id', 'a\u0000b')],
  ['StoredSettingsMismatchError', () => new StoredSettingsMismatchError('run_1', [{ setting: 'model', stored: '"openai:x"', configured: '"openai:y"' }])],
  ['UnsupportedSchemaError', () => new UnsupportedSchemaError('not', '#', 'negation')],
  ['VocabularyError', () => new VocabularyError('broken')],
  ['DecodingLimitError', () => new DecodingLimitError('maxStates', 1)],
  ['InvalidDecodingLimitsError', () => new InvalidDecodingLimitsError('`limits.maxDepth` must be a whole number of 1 or more (got 0)')],
  ['ScriptExhaustedError', () => new ScriptExhaustedError(2, 1)],
  ['ProviderError', () => new ProviderError('TW_PROVIDER_RESPONSE', context, 'base')],
  ['InvalidModelSpecError', () => new InvalidModelSpecError('x', 'no provider')],
  ['MissingApiKeyError', () => new MissingApiKeyError('OpenAI', 'OPENAI_API_KEY')],
  ['ProviderAuthError', () => new ProviderAuthError(context, 'denied', { status: 401 })],
  ['ProviderModelNotFoundError', () => new ProviderModelNotFoundError(context, 'unknown', { status: 404 })],
  ['ProviderBadRequestError', () => new ProviderBadRequestError(context, 'bad', { status: 400 })],
  ['ProviderRateLimitError', () => new ProviderRateLimitError(context, 'slow down', 1000, { status: 429 })],
  ['ProviderUnavailableError', () => new ProviderUnavailableError(context, 'is down', { status: 503 })],
  ['ProviderTimeoutError', () => new ProviderTimeoutError(context, 1000, {})],
  ['ProviderResponseError', () => new ProviderResponseError(context, 'no choices')],
  ['DefinitionPinsError', () => new DefinitionPinsError('/tmp/pins.json', 'it is not JSON')],
  ['ApprovalNotPendingError', () => new ApprovalNotPendingError('apr_1', 'it was already decided')],
  ['McpHttpResponseError', () => new McpHttpResponseError('The MCP server at http://127.0.0.1:1/mcp answered POST with HTTP 500.', { status: 500 })],
];

function classOf(sample: ToolwrightError): typeof ToolwrightError {
  return sample.constructor as typeof ToolwrightError;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('error classes', () => {
  it('samples every exported class in the ToolwrightError family', () => {
    const known = new Set(SAMPLES.map(([name]) => name));
    const family = new Set(['ToolwrightError']);
    const declared: Array<[name: string, base: string]> = [];
    for (const file of sourceFiles(src)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/export class (\w+) extends (\w+)/g)) declared.push([match[1]!, match[2]!]);
    }
    for (let grown = true; grown;) {
      grown = false;
      for (const [name, base] of declared) if (family.has(base) && !family.has(name)) grown = Boolean(family.add(name));
    }
    expect([...family].filter((name) => !known.has(name)).sort()).toEqual([]);
  });

  it.each(SAMPLES)('%s.isInstance is true for its own instances and subclasses only', (name, make) => {
    const Class = classOf(make());
    expect(Class.name).toBe(name);
    for (const [otherName, makeOther] of SAMPLES) {
      const other = makeOther();
      expect(Class.isInstance(other), `${name}.isInstance(new ${otherName})`).toBe(other instanceof Class);
    }
    expect(Class.isInstance(new Error('plain'))).toBe(false);
    expect(Class.isInstance({ code: 'TW_PROVIDER_AUTH' })).toBe(false);
    expect(Class.isInstance(undefined)).toBe(false);
  });

  it('says false for a provider class asked about a registry error, the case the issue names', () => {
    expect(ProviderAuthError.isInstance(new ToolNotFoundError('t', []))).toBe(false);
    expect(ProviderError.isInstance(new ProviderAuthError(context, 'denied', { status: 401 }))).toBe(true);
    expect(ToolwrightError.isInstance(new ProviderAuthError(context, 'denied', { status: 401 }))).toBe(true);
  });

  it('recognises errors from a second copy of the module, per class', async () => {
    // A query string makes Vite load a separate module instance, as a duplicated package would be.
    const secondCopy = new URL('../../src/shared/errors.ts?second-copy', import.meta.url).href;
    const copy = (await import(secondCopy)) as typeof errorsModule;
    expect(copy.ToolNotFoundError).not.toBe(ToolNotFoundError);
    const foreign = new copy.ToolNotFoundError('t', []);
    expect(foreign instanceof ToolNotFoundError).toBe(false);
    expect(ToolNotFoundError.isInstance(foreign)).toBe(true);
    expect(ToolwrightError.isInstance(foreign)).toBe(true);
    expect(DuplicateToolError.isInstance(foreign)).toBe(false);
    expect(copy.ToolNotFoundError.isInstance(new ToolNotFoundError('t', []))).toBe(true);
    expect(copy.DuplicateToolError.isInstance(new ToolNotFoundError('t', []))).toBe(false);
  });

  it('gives tool errors the same per-class check', () => {
    expect(ToolError.isInstance(new NotFoundError('gone'))).toBe(true);
    expect(NotFoundError.isInstance(new NotFoundError('gone'))).toBe(true);
    expect(NotFoundError.isInstance(new ToolError('failed'))).toBe(false);
    expect(ToolError.isInstance(new ToolwrightError('TW_INVALID_ARGUMENT', 'x'))).toBe(false);
    expect(ToolwrightError.isInstance(new ToolError('failed'))).toBe(false);
  });
});
