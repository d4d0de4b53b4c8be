/**
 * A JSON-RPC error for the wire. The SDK's `McpError` prefixes its message
 * with "MCP error <code>:", and the SDK client adds that prefix again, so
 * errors raised here carry the plain message and only a `code` (and `data`),
 * which is all the SDK's request handling reads.
 * @module
 */

export class ProtocolError extends Error {
  /** The JSON-RPC error code (-32602 Invalid params, -32002 Resource not found…). */
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code;
    this.data = data;
  }
}
