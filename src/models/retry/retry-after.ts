/**
 * Reads how long a provider asked to wait: `retry-after-ms` (milliseconds, sent
 * by OpenAI and honoured by both official SDKs), else `retry-after` as seconds
 * or as an HTTP date (RFC 9110 §10.2.3). Unreadable or negative values count as
 * absent.
 */
export function parseRetryAfter(headers: Pick<Headers, 'get'> | undefined, now: number = Date.now()): number | undefined {
  if (headers === undefined) return undefined;
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && milliseconds.trim() !== '') {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const header = headers.get('retry-after');
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
