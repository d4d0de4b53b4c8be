/**
 * Serves a web-standard handler (`(request: Request) => Promise<Response>`, such as `createMcpHandler`'s) on Node's http
 * at 127.0.0.1, as Bun.serve or Deno.serve would: each request becomes a `Request` whose signal aborts when the client
 * goes away, and the response body is streamed back, cancelled when the connection closes first.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

export interface BridgedHandler {
  /** The endpoint, `http://127.0.0.1:<port><path>`. */
  url: string;
  close(): Promise<void>;
}

export async function serveOnNode(handler: (request: Request) => Promise<Response>, path = '/mcp'): Promise<BridgedHandler> {
  const server = createServer((req, res) => {
    const aborted = new AbortController();
    res.once('close', () => aborted.abort());
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else if (value !== undefined) headers.set(name, value);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      signal: aborted.signal,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
    } as RequestInit);
    void (async () => {
      const response = await handler(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      // An SSE stream may wait long for its first event; the client learns the status now, as from Bun.serve or Deno.serve.
      res.flushHeaders();
      if (response.body === null) return void res.end();
      const reader = response.body.getReader();
      res.once('close', () => void reader.cancel().catch(() => {}));
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
      res.end();
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
