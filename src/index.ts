/**
 * toolwright: define tools, hold them in a validating registry, and run agents over any model.
 * The root entry holds what most programs name (defining tools, the registry, running agents,
 * models, the neutral conversation and the base error); each area's other public names live
 * in its own subpath: `toolwright/tools`, `toolwright/models`, `toolwright/agent`,
 * `toolwright/formats`, `toolwright/policy`, `toolwright/errors` (docs/architecture.md, "The public surface").
 * Any new export added here becomes public API and changes the count pinned in
 * test/architecture/entry-counts.test.ts. Use named exports, not wildcards.
 * @module
 */
// Defining tools and the registry.
export { NotFoundError, ToolError, ToolRegistry, defineOutput, defineTool, silentLogger, stderrLogger, toolResult } from './tools/index.js';
export type {
  AnyTool,
  ContentPart,
  JsonSchema,
  OutputDefinition,
  Tool,
  ToolCallRequest,
  ToolContext,
  ToolEffect,
  ToolExecution,
  ToolFailure,
  ToolLogger,
  ToolResult,
} from './tools/index.js';
// Running agents.
// From their modules, not the agent's barrel: the barrel also holds the Node-only SQLite store and run record (docs/architecture.md, "Runtimes").
export { runAgent } from './agent/run-agent.js';
export { resumeAgent } from './agent/resume-agent.js';
export { resumeAgentStream, streamAgent } from './agent/streaming/stream-agent.js';
export type {
  AgentLimits,
  AgentResult,
  AgentStep,
  AgentStopReason,
  AgentStream,
  AgentStreamEvent,
  AgentUsage,
  AwaitingConfirmationResult,
  CompletedAgentResult,
  ConfirmationDecision,
  PendingConfirmation,
  ResumeAgentOptions,
  RunAgentOptions,
  StoppedAgentResult,
} from './agent/index.js';
// Run stores: the contract `runAgent({ store })` takes; the stores, the queue and their errors are in toolwright/stores.
export type { RunStore } from './agent/index.js';
// Models.
export { createModel } from './models/index.js';
export type { Model, ModelOptions, ModelProvider } from './models/index.js';
// The neutral conversation and model call.
export { toolCallsOf } from './protocol/index.js';
export type {
  AssistantMessage,
  FormatWarning,
  ImagePart,
  Message,
  ModelOutputFormat,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ProviderTurnItems,
  ModelToolSearch,
  ReasoningPart,
  StopReason,
  SystemMessage,
  TextPart,
  TokenUsage,
  ToolCallPart,
  ToolChoice,
  ToolMessage,
  ToolResultPart,
  UserMessage,
} from './protocol/index.js';
// The base of every developer error; the classes themselves are in toolwright/errors.
export { ERROR_CODES, ToolwrightError } from './shared/errors.js';
export type { ErrorCode } from './shared/errors.js';
