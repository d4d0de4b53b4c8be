/**
 * A streamed run as a web `Response` of Server-Sent Events, for a server route
 * (Next.js, Hono, Remix, Bun, Deno, or Node's http through a small bridge):
 * one `event:`/`data:` pair per stream event, the data redacted as the record
 * would be (`AgentStream.redacted`). A client that goes away cancels the body,
 * which aborts the run.
 * @module
 */
import type { AgentStream } from './stream-agent.js';
import type { RedactStreamOptions } from './stream-redaction.js';

export interface EventStreamResponseOptions extends RedactStreamOptions {
  /** Aborts the run when it fires, e.g. the incoming request's `signal`. */
  signal?: AbortSignal;
  /** More response headers; the SSE ones (`content-type`, `cache-control`) are set unless given here. */
  headers?: Record<string, string>;
  /** The HTTP status. Default 200. */
  status?: number;
}

/**
 * Turns a streamed run into an SSE `Response`. Each event is sent as `event: <type>` and `data: <JSON>`; the last is
 * `stop`. Should the run fail for a caller's mistake (a broken run store), an `error` event with its message ends the
 * stream. Reads the run's events itself: do not iterate `run` as well.
 *
 * @example
 * ```ts
 * export async function POST(request: Request) {
 *   const { prompt } = await request.json();
 *   return toEventStreamResponse(streamAgent({ model, tools, prompt }), { signal: request.signal });
 * }
 * ```
 */
export function toEventStreamResponse(run: AgentStream, options: EventStreamResponseOptions = {}): Response {
  const { signal, headers, status, ...redaction } = options;
  const encoder = new TextEncoder();
  const events = run.redacted(redaction)[Symbol.asyncIterator]();
  // The run is aborted first: the reader may be waiting for an event that only the abort brings.
  const onAbort = () => run.abort(signal?.reason);
  let done = false;
  const finish = () => {
    done = true;
    signal?.removeEventListener('abort', onAbort);
  };
  if (signal?.aborted) run.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return;
      try {
        const next = await events.next();
        if (next.done) {
          finish();
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(serverSentEvent(next.value.type, next.value)));
      } catch (error) {
        finish();
        const message = error instanceof Error ? error.message : String(error);
        controller.enqueue(encoder.encode(serverSentEvent('error', { type: 'error', runId: run.runId, message })));
        controller.close();
      }
    },
    async cancel() {
      // The client went away: stop the run, and let it finish its record.
      finish();
      run.abort(new Error('the client disconnected'));
      await events.return?.();
    },
  });
  return new Response(body, {
    status: status ?? 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      ...headers,
    },
  });
}

/** One SSE message. JSON has no raw line breaks, so `data` is one line; a value JSON cannot write is sent as its error. */
function serverSentEvent(type: string, data: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(data, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)) ?? 'null';
  } catch (error) {
    json = JSON.stringify({ type, unserializable: error instanceof Error ? error.message : String(error) });
  }
  // U+2028 and U+2029 are line breaks to some SSE readers; JSON allows them raw.
  return `event: ${type}\ndata: ${json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')}\n\n`;
}
