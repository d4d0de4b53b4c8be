/**
 * toolwright: one tool definition for OpenAI, Anthropic and MCP, a validating
 * registry whose errors teach the model, and the adapters between them.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 * @module
 */
export {
  NotFoundError,
  TOOL_NAME_PATTERN,
  ToolError,
  ToolRegistry,
  compileSchema,
  defineTool,
  describeToolNameProblem,
  formatIssuePath,
  normalizeToolOutput,
  silentLogger,
  stderrLogger,
  suggestToolName,
  toJsonPointer,
  toolResult,
} from './tools/index.js';
export type {
  AnyTool,
  CallOptions,
  ConfirmRule,
  ContentPart,
  JsonSchema,
  JsonSchemaObject,
  JsonToolDefinition,
  PreparedCall,
  SchemaValidator,
  Tool,
  ToolCallRequest,
  ToolContext,
  ToolEffect,
  ToolErrorKind,
  ToolErrorOptions,
  ToolExecution,
  ToolFailure,
  ToolFailureCode,
  ToolHints,
  ToolLogger,
  ToolRegistryOptions,
  ToolResult,
  ValidationIssue,
  ValidationIssueCode,
  ValidationResult,
  ZodToolDefinition,
} from './tools/index.js';
export {
  DuplicateToolError,
  ERROR_CODES,
  InvalidArgumentError,
  ModuleLoadError,
  SchemaCompileError,
  ToolDefinitionError,
  ToolNotFoundError,
  ToolwrightError,
} from './shared/errors.js';
export type { ErrorCode } from './shared/errors.js';
export { safeParseJson } from './shared/safe-json.js';
export type { JsonParseFailure, JsonParseResult } from './shared/safe-json.js';
