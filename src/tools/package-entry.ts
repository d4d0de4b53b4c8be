/**
 * The package entry `toolwright/tools`: the parts of a tool definition and of the registry
 * that the root entry leaves out (definition shapes, content parts, hints, limits, validation
 * issues), what a person deciding on a call is shown (docs/agent.md, "The arguments a person is
 * shown"), and the rewrite of older JSON Schema drafts into 2020-12 that defineTool applies.
 * `defineTool`, `ToolRegistry`, `Tool` and the other everyday names are in the root entry.
 * Any new export added here becomes public API and changes the count pinned in
 * test/architecture/entry-counts.test.ts. Use named exports, not wildcards.
 * @module
 */
export { DEFAULT_ARGUMENT_LIMITS, TOOL_NAME_PATTERN } from './index.js';
export type {
  ArgumentLimits,
  ArgumentRefinement,
  AudioContent,
  CallOptions,
  ConfirmRule,
  DefineToolWithContext,
  EmbeddedResourceContent,
  GrammarToolArguments,
  GrammarToolDefinition,
  ImageContent,
  JsonSchemaObject,
  JsonToolDefinition,
  PreparedCall,
  ProgrammaticCaller,
  RegistrableTool,
  ResourceLinkContent,
  SeedToolDefinition,
  TextContent,
  ToolCallApproval,
  ToolCallRuleInput,
  ToolCallerKind,
  ToolErrorKind,
  ToolErrorOptions,
  ToolFailureCode,
  ToolGrammar,
  ToolGrammarSyntax,
  ToolHints,
  ToolOrigin,
  ToolRegistryOptions,
  ValidationIssue,
  ValidationIssueCode,
  ValidationResult,
  ZodSchemaLike,
  ZodSchemaOutput,
  ZodToolDefinition,
} from './index.js';
// Structured output: the option's shapes (defineOutput itself is in the root entry).
export type { OutputOf, OutputOption, OutputOptions } from './index.js';
// What a person deciding on a call is shown, for an approval screen of your own.
export { approvalText, describeArguments } from './index.js';
export type { ArgumentsSummary, DecisiveArgument, ShownText } from './index.js';
export { showInvisible } from '../shared/visible-text.js';
// Which validator checks schemas: Ajv, or the interpreter where code generation is forbidden (docs/architecture.md, "Validation without code generation").
export { schemaValidatorKind, useSchemaValidator } from './index.js';
export type { SchemaValidatorKind } from './index.js';
// Older JSON Schema drafts rewritten into 2020-12, as defineTool and compileJsonSchema do.
export { upgradeSchemaDialect } from '../shared/json-schema/upgrade-schema-dialect.js';
export type { SchemaDialect, UpgradeSchemaDialectOptions, UpgradedSchema } from '../shared/json-schema/upgrade-schema-dialect.js';
