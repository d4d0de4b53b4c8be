/**
 * Tools: one definition, a validating registry, and errors written for the model.
 * Internal barrel, not a package entry point (see package.json `exports`): what users can import is
 * chosen name by name in src/index.ts or a subpath entry. Use named exports, not wildcards.
 * @module
 */
export { defineTool } from './define-tool.js';
export { DEFAULT_OUTPUT_NAME, defineOutput } from './define-output.js';
export type { OutputDefinition, OutputOf, OutputOption, OutputOptions } from './define-output.js';
export type {
  AnyTool,
  ArgumentRefinement,
  ConfirmRule,
  DefineToolWithContext,
  GrammarToolDefinition,
  JsonToolDefinition,
  SeedToolDefinition,
  Tool,
  ToolHints,
  ToolOrigin,
  ZodSchemaLike,
  ZodSchemaOutput,
  ZodToolDefinition,
} from './define-tool.js';
export { DEFAULT_ARGUMENT_LIMITS } from './argument-limits.js';
export type { GrammarToolArguments, ToolGrammar, ToolGrammarSyntax } from './grammar-input.js';
export { approvalText, describeArguments } from './call-summary.js';
export type { ArgumentsSummary, DecisiveArgument, ShownText } from './call-summary.js';
export { ToolRegistry, silentLogger, stderrLogger } from './tool-registry.js';
export type {
  CallOptions,
  PreparedCall,
  RegistrableTool,
  ToolExecution,
  ToolFailure,
  ToolFailureCode,
  ToolLogger,
  ToolRegistryOptions,
} from './tool-registry.js';
export { ToolError, NotFoundError } from './tool-error.js';
export type { ToolErrorKind, ToolErrorOptions } from './tool-error.js';
export { toolResult, normalizeToolOutput } from './tool-output.js';
export { compileSchema } from './schema-validator.js';
export type { SchemaValidator } from './schema-validator.js';
export { schemaValidatorKind, useSchemaValidator } from './validator-kind.js';
export type { SchemaValidatorKind } from './validator-kind.js';
export { formatIssuePath, toJsonPointer } from './validation-issues.js';
export type { ValidationIssue, ValidationIssueCode, ValidationResult } from './validation-issues.js';
export { TOOL_NAME_PATTERN, describeToolNameProblem, suggestToolName } from './tool-name.js';
export type {
  ArgumentLimits,
  AudioContent,
  ContentPart,
  EmbeddedResourceContent,
  ImageContent,
  JsonSchema,
  JsonSchemaObject,
  ProgrammaticCaller,
  ResourceLinkContent,
  TextContent,
  ToolCallApproval,
  ToolCallRequest,
  ToolCallRuleInput,
  ToolCallerKind,
  ToolContext,
  ToolEffect,
  ToolResult,
} from './types.js';
