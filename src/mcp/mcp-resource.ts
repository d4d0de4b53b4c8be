/**
 * Resources a tool pack may serve beside its tools: fixed URIs and URI
 * templates (RFC 6570, as MCP uses them). Plain objects, so a pack does not
 * need the MCP SDK to declare them.
 * @module
 */

/** One piece of a resource's contents: text, or base64 bytes in `blob`. */
export type ResourceContent =
  | {
      /** Defaults to the URI that was read. */
      uri?: string;
      /** Defaults to the resource's own `mimeType`. */
      mimeType?: string;
      text: string;
    }
  | {
      uri?: string;
      mimeType?: string;
      /** Base64-encoded bytes. */
      blob: string;
    };

/** What a `read` function may return: a string is one text content. */
export type ResourceReadResult = string | ResourceContent | ResourceContent[];

/** Passed to `read`: the abort signal of the `resources/read` request. */
export interface ResourceReadContext {
  signal: AbortSignal;
}

/** A resource at one fixed URI (listed by `resources/list`). */
export interface McpResource {
  /** The exact URI clients read, such as `file:///notes/today.md` or `test://static-text`. */
  uri: string;
  /** A short programmatic name. */
  name: string;
  /** A human-facing title. */
  title?: string;
  description?: string;
  mimeType?: string;
  /** Size in bytes, when known; lets clients plan context use. */
  size?: number;
  /** Produces the contents; called on every `resources/read`. */
  read: (uri: string, context: ResourceReadContext) => ResourceReadResult | Promise<ResourceReadResult>;
}

/** A family of resources addressed by a URI template (listed by `resources/templates/list`). */
export interface McpResourceTemplate {
  /** An RFC 6570 template such as `test://template/{id}/data`. */
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Produces the contents of one URI that matched the template, with the template's variables. */
  read: (uri: string, variables: Record<string, string | string[]>, context: ResourceReadContext) => ResourceReadResult | Promise<ResourceReadResult>;
  /** Completions for template variables (`completion/complete` with `ref/resource`), by variable name. */
  complete?: Record<string, CompleteFunction>;
}

/** Suggests values for a partly typed argument; `context.arguments` holds the other arguments already chosen. */
export type CompleteFunction = (value: string, context: { arguments: Record<string, string> }) => readonly string[] | Promise<readonly string[]>;
