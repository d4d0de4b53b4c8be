/**
 * Cursor pagination for the list methods (`tools/list`, `prompts/list`…). The cursor is opaque to clients
 * (base64url of an offset); a cursor this server did not issue is a protocol
 * error (-32602), as the spec asks.
 * @module
 */
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { fromBase64url, toBase64url, utf8Bytes, utf8Text } from '../shared/bytes.js';
import { ProtocolError } from './protocol-error.js';

/** One page of `items` and the cursor of the next, if any. */
export function paginate<T>(items: readonly T[], cursor: string | undefined, pageSize: number): { page: T[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : decodeCursor(cursor, items.length);
  const end = Math.min(items.length, start + pageSize);
  const page = items.slice(start, end);
  return end < items.length ? { page, nextCursor: encodeCursor(end) } : { page };
}

function encodeCursor(offset: number): string {
  return toBase64url(utf8Bytes(`o:${offset}`));
}

function decodeCursor(cursor: string, length: number): number {
  const bytes = fromBase64url(cursor);
  const match = bytes === undefined ? null : /^o:(\d{1,9})$/.exec(utf8Text(bytes));
  const offset = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(offset) || offset < 0 || offset > length) {
    throw new ProtocolError(ErrorCode.InvalidParams, 'Invalid cursor: use the nextCursor of the previous page, or no cursor for the first page.');
  }
  return offset;
}
