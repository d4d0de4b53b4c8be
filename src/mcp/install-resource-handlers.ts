/**
 * `resources/list`, `resources/templates/list`, `resources/read` and
 * `resources/subscribe` / `unsubscribe` over a pack's resources and templates.
 * @module
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { ToolError } from '../tools/index.js';
import type { ToolLogger } from '../tools/index.js';
import type { McpResource, McpResourceTemplate, ResourceContent, ResourceReadResult } from './mcp-resource.js';
import { paginate } from './paginate.js';
import { ProtocolError } from './protocol-error.js';

/** JSON-RPC error code the MCP specification gives to an unknown resource URI. */
export const RESOURCE_NOT_FOUND = -32002;

export interface CompiledTemplate {
  template: McpResourceTemplate;
  matcher: UriTemplate;
}

export function compileTemplates(templates: readonly McpResourceTemplate[]): CompiledTemplate[] {
  return templates.map((template) => ({ template, matcher: new UriTemplate(template.uriTemplate) }));
}

export function installResourceHandlers(
  server: Server,
  options: { resources: readonly McpResource[]; templates: readonly CompiledTemplate[]; pageSize: number; logger: ToolLogger; subscriptions: Set<string> },
): void {
  const byUri = new Map(options.resources.map((resource) => [resource.uri, resource]));
  const listed: Resource[] = options.resources.map((resource) => {
    const entry: Resource = { uri: resource.uri, name: resource.name };
    if (resource.title !== undefined) entry.title = resource.title;
    if (resource.description !== undefined) entry.description = resource.description;
    if (resource.mimeType !== undefined) entry.mimeType = resource.mimeType;
    if (resource.size !== undefined) entry.size = resource.size;
    return entry;
  });
  const listedTemplates: ResourceTemplate[] = options.templates.map(({ template }) => {
    const entry: ResourceTemplate = { uriTemplate: template.uriTemplate, name: template.name };
    if (template.title !== undefined) entry.title = template.title;
    if (template.description !== undefined) entry.description = template.description;
    if (template.mimeType !== undefined) entry.mimeType = template.mimeType;
    return entry;
  });

  server.setRequestHandler(ListResourcesRequestSchema, (request) => {
    const { page, nextCursor } = paginate(listed, request.params?.cursor, options.pageSize);
    return nextCursor === undefined ? { resources: page } : { resources: page, nextCursor };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => {
    const { page, nextCursor } = paginate(listedTemplates, request.params?.cursor, options.pageSize);
    return nextCursor === undefined ? { resourceTemplates: page } : { resourceTemplates: page, nextCursor };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra): Promise<ReadResourceResult> => {
    const uri = request.params.uri;
    const resource = byUri.get(uri);
    if (resource) {
      const produced = await guardRead(uri, options.logger, () => resource.read(uri, { signal: extra.signal }));
      return { contents: normalizeContents(produced, uri, resource.mimeType) };
    }
    for (const { template, matcher } of options.templates) {
      const variables = matchUri(matcher, uri);
      if (!variables) continue;
      const produced = await guardRead(uri, options.logger, () => template.read(uri, variables, { signal: extra.signal }));
      return { contents: normalizeContents(produced, uri, template.mimeType) };
    }
    throw notFound(uri);
  });

  const known = (uri: string) => byUri.has(uri) || options.templates.some(({ matcher }) => matchUri(matcher, uri) !== undefined);
  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    if (!known(request.params.uri)) throw notFound(request.params.uri);
    options.subscriptions.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    options.subscriptions.delete(request.params.uri);
    return {};
  });
}

/** Finds the template variables of `uri`, treating a template that cannot match (or throws on odd input) as no match. */
export function matchUri(matcher: UriTemplate, uri: string): Record<string, string | string[]> | undefined {
  try {
    return matcher.match(uri) ?? undefined;
  } catch {
    return undefined;
  }
}

function notFound(uri: string): ProtocolError {
  const shown = uri.length > 200 ? uri.slice(0, 199) + '…' : uri;
  return new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${shown}. List the available resources with resources/list and resources/templates/list.`, {
    uri: shown,
  });
}

async function guardRead(uri: string, logger: ToolLogger, read: () => ResourceReadResult | Promise<ResourceReadResult>): Promise<ResourceReadResult> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ProtocolError || error instanceof McpError) throw error;
    if (ToolError.isInstance(error)) throw new ProtocolError(ErrorCode.InternalError, `Reading ${uri} failed: ${error.message}`);
    logger.error(`reading resource ${uri} threw`, { uri, error });
    throw new ProtocolError(ErrorCode.InternalError, `Reading ${uri} failed inside the server; the details are in the server's log.`);
  }
}

function normalizeContents(produced: ResourceReadResult, uri: string, mimeType: string | undefined): ReadResourceResult['contents'] {
  const list: ResourceContent[] = typeof produced === 'string' ? [{ text: produced }] : Array.isArray(produced) ? produced : [produced];
  return list.map((content) => {
    const type = content.mimeType ?? mimeType;
    const base = { uri: content.uri ?? uri, ...(type === undefined ? {} : { mimeType: type }) };
    return 'blob' in content ? { ...base, blob: content.blob } : { ...base, text: content.text };
  });
}
