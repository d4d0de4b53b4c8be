/**
 * An upstream server's resources, resource templates and prompts, served by the gateway as its own: listed once at
 * start, each read or get forwarded to the server that has it. A resource URI two servers list is served from the first.
 * @module
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Prompt, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { McpConnection } from '../import-mcp-tools.js';
import { listAllPages } from '../list-all-pages.js';
import type { McpPrompt, PromptGetResult, PromptMessage } from '../mcp-prompt.js';
import type { McpResource, McpResourceTemplate, ResourceContent } from '../mcp-resource.js';

interface Upstream {
  server: string;
  connection: McpConnection;
}

/** The server's resources and templates (none when it does not declare `resources`). */
export async function forwardedResources(upstream: Upstream): Promise<{ resources: McpResource[]; templates: McpResourceTemplate[] }> {
  const { client } = upstream.connection;
  if (!client.getServerCapabilities()?.resources) return { resources: [], templates: [] };
  const listed = await listAllPages<Resource>(async (cursor) => {
    const page = await client.listResources(cursor === undefined ? {} : { cursor });
    return { items: page.resources, nextCursor: page.nextCursor };
  });
  const templates = await listAllPages<ResourceTemplate>(async (cursor) => {
    const page = await client.listResourceTemplates(cursor === undefined ? {} : { cursor });
    return { items: page.resourceTemplates, nextCursor: page.nextCursor };
  }).catch((error: unknown) => {
    // Many servers declare `resources` without implementing templates; that is "no templates", not a broken server.
    if (error instanceof McpError && error.code === ErrorCode.MethodNotFound) return [];
    throw error;
  });
  const read = async (uri: string, signal: AbortSignal): Promise<ResourceContent[]> => {
    const result = await client.readResource({ uri }, { signal });
    return result.contents.map((content) =>
      'text' in content && typeof content.text === 'string'
        ? { uri: content.uri, text: content.text, ...(content.mimeType ? { mimeType: content.mimeType } : {}) }
        : { uri: content.uri, blob: String((content as { blob?: unknown }).blob ?? ''), ...(content.mimeType ? { mimeType: content.mimeType } : {}) },
    );
  };
  return {
    resources: listed.map((resource) => ({
      uri: resource.uri,
      name: resource.name,
      ...(resource.title ? { title: resource.title } : {}),
      ...(resource.description ? { description: resource.description } : {}),
      ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
      read: (uri, context) => read(uri, context.signal),
    })),
    templates: templates.map((template) => ({
      uriTemplate: template.uriTemplate,
      name: template.name,
      ...(template.title ? { title: template.title } : {}),
      ...(template.description ? { description: template.description } : {}),
      ...(template.mimeType ? { mimeType: template.mimeType } : {}),
      read: (uri, _variables, context) => read(uri, context.signal),
    })),
  };
}

/** The server's prompts (none when it does not declare `prompts`). */
export async function forwardedPrompts(upstream: Upstream): Promise<McpPrompt[]> {
  const { client } = upstream.connection;
  if (!client.getServerCapabilities()?.prompts) return [];
  const listed = await listAllPages<Prompt>(async (cursor) => {
    const page = await client.listPrompts(cursor === undefined ? {} : { cursor });
    return { items: page.prompts, nextCursor: page.nextCursor };
  });
  return listed.map((prompt) => ({
    name: prompt.name,
    ...(prompt.title ? { title: prompt.title } : {}),
    description: prompt.description ?? `The "${prompt.name}" prompt of the MCP server "${upstream.server}".`,
    ...(prompt.arguments
      ? {
          arguments: prompt.arguments.map((argument) => ({
            name: argument.name,
            ...(argument.description ? { description: argument.description } : {}),
            ...(argument.required ? { required: true } : {}),
          })),
        }
      : {}),
    get: async (args, context): Promise<PromptGetResult> => {
      const result = await client.getPrompt({ name: prompt.name, arguments: args }, { signal: context.signal });
      return { ...(result.description ? { description: result.description } : {}), messages: result.messages as PromptMessage[] };
    },
  }));
}
