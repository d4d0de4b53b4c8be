/**
 * The SDK's low-level `Server`, with one correction: a request whose params do
 * not fit the method's schema is answered -32602 (Invalid params), not -32603.
 * The SDK parses params before the handler runs and lets the Zod error fall to
 * its catch-all, which reports a client mistake as an internal error and puts
 * the raw Zod issue dump in the message.
 * @module
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AnyObjectSchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ProtocolError } from './protocol-error.js';

const MESSAGE_MAX_ISSUES = 3;

type Handler<T extends AnyObjectSchema> = Parameters<Server['setRequestHandler']>[1] extends (request: never, ...rest: infer Rest) => infer Result
  ? (request: SchemaOutput<T>, ...rest: Rest) => Result
  : never;

export class StrictParamsServer extends Server {
  override setRequestHandler<T extends AnyObjectSchema>(requestSchema: T, handler: Handler<T>): void {
    const schema = requestSchema as unknown as z.ZodType;
    const method = methodOf(requestSchema);
    // Only the method literal is checked up front; everything else is checked below, where a failure can become -32602.
    const lenient = z.looseObject({ method: z.literal(method) });
    super.setRequestHandler(lenient, (request, extra) => {
      const parsed = schema.safeParse(request);
      if (!parsed.success) throw new ProtocolError(ErrorCode.InvalidParams, describeIssues(method, parsed.error.issues));
      return (handler as (request: unknown, extra: unknown) => ReturnType<Handler<T>>)(parsed.data, extra);
    });
  }
}

function methodOf(schema: AnyObjectSchema): string {
  const shape = (schema as unknown as { shape?: Record<string, { value?: unknown }> }).shape;
  const value = shape?.method?.value;
  if (typeof value !== 'string') throw new TypeError('request schema has no method literal');
  return value;
}

function describeIssues(method: string, issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, MESSAGE_MAX_ISSUES).map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(request)'}: ${issue.message}`);
  const more = issues.length > MESSAGE_MAX_ISSUES ? ` (and ${issues.length - MESSAGE_MAX_ISSUES} more)` : '';
  return `Invalid params for ${method}: ${shown.join('; ')}${more}. Check the request against the MCP schema for ${method}.`;
}
