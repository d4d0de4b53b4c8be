/**
 * Secret redaction shared by every layer that writes or prints data a model or
 * a remote server sent: the agent's record and run store, the CLI, MCP and tools.
 * Internal barrel, not a package entry point (see package.json `exports`): what users can import is
 * chosen name by name in src/index.ts or a subpath entry. Use named exports, not wildcards.
 * @module
 */
export { CIRCULAR, MAX_REDACTION_DEPTH, TOO_DEEP, UNREADABLE, createRedactor, restoreRedacted } from './redactor.js';
export type { RedactedOriginal, Redactor, RedactorOptions } from './redactor.js';
export { DEFAULT_REDACTION_PATTERNS, PEM_BEGIN, PEM_END, REDACTED, redactSecretsInText } from './text-patterns.js';
export { isSensitiveName, nameWords } from './sensitive-names.js';
export { schemaSensitivity } from './schema-sensitivity.js';
export type { SensitivityNode } from './schema-sensitivity.js';
