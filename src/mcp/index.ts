/**
 * MCP: serve a toolwright registry over stdio or Streamable HTTP, and use
 * other people's MCP servers as toolwright tools.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 * @module
 */
export { createMcpServer } from './create-mcp-server.js';
export type { McpCallInfo, McpServerOptions, McpToolSource } from './create-mcp-server.js';
export type { McpAuthIdentity, McpAuthOptions } from './auth/mcp-auth-options.js';
export { serveStdio } from './serve-stdio.js';
export type { McpStdioHandle, McpStdioOptions } from './serve-stdio.js';
export { serveHttp } from './serve-http-on-call.js';
export type { McpHttpHandle, McpHttpOptions } from './serve-http.js';
export { createMcpHandler } from './web-handler.js';
export type { McpHandler, McpHandlerOptions } from './web-handler.js';
export { StdioLineTransport } from './stdio-line-transport.js';
export type { StdioLineTransportOptions } from './stdio-line-transport.js';
export { currentMcpCall } from './mcp-call-context.js';
export type { McpCallContext } from './mcp-call-context.js';
export type { McpConfirmationDecision, McpConfirmationHandler, McpConfirmationRequest } from './mcp-confirmation.js';
export type { CompleteFunction, McpResource, McpResourceTemplate, ResourceContent, ResourceReadContext, ResourceReadResult } from './mcp-resource.js';
export type { McpPrompt, PromptArgument, PromptGetResult, PromptMessage } from './mcp-prompt.js';
export { importMcpTools } from './import-mcp-tools.js';
export type { ImportedMcpTools, ImportMcpToolsOptions, McpHttpServerSpec, McpImportWarning, McpStdioServerSpec } from './import-mcp-tools.js';
export { readMcpExtras } from './read-mcp-extras.js';
export { createMcpGateway } from './gateway/create-mcp-gateway.js';
export type { GatewayToolStatus, McpGateway, McpGatewayOptions, WithheldReason } from './gateway/create-mcp-gateway.js';
export { checkGatewayConfig } from './gateway/gateway-config.js';
export type { ConfirmSetting, GatewayConfig, GatewayServerConfig, PoisoningAction } from './gateway/gateway-config.js';
export type { DefinitionPin, DefinitionState, PinnedDefinition } from './gateway/definition-pins.js';
export type { McpCallLimits } from './session-guards.js';
export type { McpExtras } from './read-mcp-extras.js';
