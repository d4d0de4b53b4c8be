/** One server-sent event: an optional `event:` name and its `data:` line. */
export interface SseEvent {
  event?: string;
  data: string;
}

export function formatSse(event: SseEvent): string {
  return `${event.event === undefined ? '' : `event: ${event.event}\n`}data: ${event.data}\n\n`;
}

/** Cuts text into pieces of `size` characters (at least one piece, possibly empty). */
export function chunks(text: string, size: number): string[] {
  if (text.length === 0) return [];
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

export function argumentsText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export const DEFAULT_USAGE = { inputTokens: 11, outputTokens: 7 };
export const DEFAULT_CHUNK_SIZE = 5;
