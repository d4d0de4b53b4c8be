import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, propagation, trace, type Context, type TextMapPropagator } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LATEST_PROTOCOL_VERSION, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolError, ToolRegistry, defineTool, silentLogger } from '../tools/index.js';
import type { AnyTool } from '../tools/index.js';
import { createMcpServer, type McpServerOptions } from './create-mcp-server.js';
import { createMcpGateway } from './gateway/create-mcp-gateway.js';
import { importMcpTools } from './import-mcp-tools.js';
import { serveHttp } from './serve-http-on-call.js';
import { serveStdio } from './serve-stdio.js';
import { defaultSpanRedactor, extractTraceContext, startClientCallSpan } from './mcp-telemetry.js';
import { StdioLineTransport } from './stdio-line-transport.js';

// Argument text that must never reach a span: a tool's arguments are the user's data.
const ARGUMENT_TEXT = 'note-body-9f3c';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';
const RESULT_TEXT = `kept ${ARGUMENT_TEXT.length} characters`;

const note = defineTool<{ text: string }>({
  name: 'note',
  description: 'Keeps a note.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  execute: ({ text }) => `kept ${text.length} characters`,
});
const failing = defineTool({
  name: 'lookup',
  description: 'Looks a thing up; always fails.',
  effect: 'read',
  inputSchema: { type: 'object', properties: {} },
  execute: () => {
    throw new ToolError('No invoice INV-9 exists.', { kind: 'not_found' });
  },
});

function recorder() {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  return {
    provider,
    tracer: provider.getTracer('test'),
    spans: async (): Promise<ReadableSpan[]> => {
      await provider.forceFlush();
      return exporter.getFinishedSpans();
    },
  };
}

async function connect(tools: readonly AnyTool[], options: McpServerOptions) {
  const server = createMcpServer(tools, { logger: silentLogger, ...options });
  const client = new Client({ name: 'host', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return client;
}

function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  expect(found, `spans named "${name}" among ${spans.map((span) => span.name).join(', ')}`).toHaveLength(1);
  return found[0]!;
}

/** Every attribute value, link and status message of `spans`, as one text to search. */
function recordedText(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(spans.map((span) => [span.name, span.attributes, span.status, span.links]));
}

afterEach(() => {
  propagation.disable();
  trace.disable();
});

describe('the MCP server traces each tools/call', () => {
  it('records one SERVER span named "tools/call {tool}" with the MCP attributes, and neither argument nor result text', async () => {
    const { tracer, spans } = recorder();
    const client = await connect([note], { tracer });
    const answered = await client.callTool({ name: 'note', arguments: { text: ARGUMENT_TEXT } });
    expect(answered.content).toEqual([{ type: 'text', text: RESULT_TEXT }]);
    const span = only(await spans(), 'tools/call note');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'note',
      'jsonrpc.request.id': expect.stringMatching(/^\d+$/),
      'mcp.protocol.version': LATEST_PROTOCOL_VERSION,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(recordedText(await spans())).not.toContain(ARGUMENT_TEXT);
    expect(recordedText(await spans())).not.toContain(RESULT_TEXT);
    await client.close();
  });

  it('uses the globally registered tracer provider when no tracer is given, under the instrumentation name toolwright', async () => {
    const { provider, spans } = recorder();
    trace.setGlobalTracerProvider(provider);
    const client = await connect([note], {});
    await client.callTool({ name: 'note', arguments: { text: 'a' } });
    const span = only(await spans(), 'tools/call note');
    expect(span.instrumentationScope.name).toBe('toolwright');
    await client.close();
  });

  it('marks a result with isError as error.type tool_error, and an unknown tool with its JSON-RPC code', async () => {
    const { tracer, spans } = recorder();
    const client = await connect([note, failing], { tracer });
    const failed = await client.callTool({ name: 'lookup', arguments: {} });
    expect(failed.isError).toBe(true);
    const invalid = await client.callTool({ name: 'note', arguments: { text: 5 } });
    expect(invalid.isError).toBe(true);
    await expect(client.callTool({ name: 'no_such_tool', arguments: { text: ARGUMENT_TEXT } })).rejects.toThrow(McpError);
    const recorded = await spans();
    for (const toolError of [only(recorded, 'tools/call lookup'), only(recorded, 'tools/call note')]) {
      expect(toolError.attributes['error.type']).toBe('tool_error');
      expect(toolError.status.code).toBe(SpanStatusCode.ERROR);
    }
    // A name the server does not have is no span name target (a client could send any text there).
    const unknown = only(recorded, 'tools/call');
    expect(unknown.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602', 'gen_ai.tool.name': 'no_such_tool' });
    expect(unknown.status.code).toBe(SpanStatusCode.ERROR);
    expect(recordedText(recorded)).not.toContain(ARGUMENT_TEXT);
    await client.close();
  });

  it('redacts a secret the client sent as an unknown tool name, in the attribute and in the status message', async () => {
    const { tracer, spans } = recorder();
    const client = await connect([note], { tracer });
    const key = 'sk-proj-abcdefghijklmnop1234';
    await expect(client.callTool({ name: key, arguments: {} })).rejects.toThrow(McpError);
    const [span] = await spans();
    expect(span!.status.message).toContain('Unknown tool');
    expect(span!.attributes['gen_ai.tool.name']).toBeTypeOf('string');
    expect(recordedText(await spans())).not.toContain(key);
    await client.close();
  });

  it('names the transport pipe over stdio', async () => {
    const { tracer, spans } = recorder();
    const [toServer, fromServer] = [new PassThrough(), new PassThrough()];
    const stdio = await serveStdio([note], { input: toServer, output: fromServer, logger: silentLogger, tracer });
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(new StdioLineTransport(fromServer, toServer));
    await client.callTool({ name: 'note', arguments: { text: 'a' } });
    const [span] = await spans();
    expect(span!.attributes['network.transport']).toBe('pipe');
    expect(span!.attributes['mcp.session.id']).toBeUndefined();
    await client.close();
    await stdio.close();
  });

  it('continues the trace a client sends in _meta (traceparent, tracestate); an invalid traceparent starts a new trace', async () => {
    const { tracer, spans } = recorder();
    const client = await connect([note], { tracer });
    await client.callTool({
      name: 'note',
      arguments: { text: 'a' },
      _meta: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01`, tracestate: 'rojo=00f067aa0ba902b7' },
    });
    const [child] = await spans();
    expect(child!.parentSpanContext).toMatchObject({ traceId: TRACE_ID, spanId: CALLER_SPAN_ID, isRemote: true });
    expect(child!.spanContext().traceId).toBe(TRACE_ID);
    expect(child!.spanContext().traceState?.get('rojo')).toBe('00f067aa0ba902b7');

    await client.callTool({ name: 'note', arguments: { text: 'a' }, _meta: { traceparent: `00-${'0'.repeat(32)}-${CALLER_SPAN_ID}-01` } });
    await client.callTool({ name: 'note', arguments: { text: 'a' }, _meta: { traceparent: 42 } });
    const [, allZero, notText] = await spans();
    expect(allZero!.parentSpanContext).toBeUndefined();
    expect(notText!.parentSpanContext).toBeUndefined();
    await client.close();
  });

  it('reads _meta through the registered propagator when the application set one', async () => {
    // A propagator of its own key: the server must use it rather than reading traceparent itself.
    const w3c = new W3CTraceContextPropagator();
    const renamed: TextMapPropagator = {
      inject: () => {},
      extract: (context: Context, carrier: unknown, getter) => w3c.extract(context, { traceparent: getter.get(carrier, 'x-trace') }, getter),
      fields: () => ['x-trace'],
    };
    propagation.setGlobalPropagator(renamed);
    const { tracer, spans } = recorder();
    const client = await connect([note], { tracer });
    await client.callTool({ name: 'note', arguments: { text: 'a' }, _meta: { 'x-trace': `00-${TRACE_ID}-${CALLER_SPAN_ID}-01` } });
    const [span] = await spans();
    expect(span!.parentSpanContext?.spanId).toBe(CALLER_SPAN_ID);
    await client.close();
  });
});

describe('imported tools trace the calls they forward', () => {
  it('records a CLIENT span whose context the server continues: one trace across both', async () => {
    const { tracer, spans } = recorder();
    const upstream = await serveHttp([note], { port: 0, logger: silentLogger, tracer });
    const imported = await importMcpTools({ server: upstream.url, tracer });
    try {
      const registry = new ToolRegistry(imported.tools);
      const execution = await registry.execute('c1', registry.get('note')!, { text: ARGUMENT_TEXT });
      expect(execution.result.isError).not.toBe(true);
      const recorded = await spans();
      const client = recorded.find((span) => span.kind === SpanKind.CLIENT)!;
      const server = recorded.find((span) => span.kind === SpanKind.SERVER)!;
      expect(client.name).toBe('tools/call note');
      expect(client.attributes).toEqual({
        'mcp.method.name': 'tools/call',
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'note',
        'mcp.session.id': expect.any(String),
        'mcp.protocol.version': LATEST_PROTOCOL_VERSION,
        'network.transport': 'tcp',
      });
      expect(server.parentSpanContext?.spanId).toBe(client.spanContext().spanId);
      expect(server.spanContext().traceId).toBe(client.spanContext().traceId);
      expect(server.attributes).toMatchObject({ 'network.transport': 'tcp', 'mcp.session.id': client.attributes['mcp.session.id'] });
      expect(recordedText(recorded)).not.toContain(ARGUMENT_TEXT);
    } finally {
      await imported.close();
      await upstream.close();
    }
  });
});

describe('a forwarded call that fails', () => {
  it('is tool_error when the server answers isError, and _OTHER when the server cannot be reached', async () => {
    const { tracer, spans } = recorder();
    const upstream = await serveHttp([note, failing], { port: 0, logger: silentLogger });
    const imported = await importMcpTools({ server: upstream.url, tracer });
    try {
      const registry = new ToolRegistry(imported.tools);
      expect((await registry.execute('c1', registry.get('lookup')!, {})).result.isError).toBe(true);
      await upstream.close();
      expect((await registry.execute('c2', registry.get('note')!, { text: 'a' })).result.isError).toBe(true);
      const [toolError, unreachable] = await spans();
      expect(toolError!.attributes['error.type']).toBe('tool_error');
      expect(unreachable!.attributes['error.type']).toBe('_OTHER');
      expect(unreachable!.status.code).toBe(SpanStatusCode.ERROR);
    } finally {
      await imported.close();
    }
  });
});

describe('without an OpenTelemetry SDK', () => {
  it('adds no _meta to a forwarded call, and passes on a trace context the call came with', () => {
    const info = { toolName: 'note', knownTool: true };
    const fresh = startClientCallSpan(undefined, info, ROOT_CONTEXT, defaultSpanRedactor);
    expect(fresh.meta).toBeUndefined();
    fresh.end({});
    const traceparent = `00-${TRACE_ID}-${CALLER_SPAN_ID}-01`;
    const passed = startClientCallSpan(undefined, info, extractTraceContext({ traceparent }, ROOT_CONTEXT)!, defaultSpanRedactor);
    expect(passed.meta).toEqual({ traceparent });
    passed.end({});
  });
});

describe('the gateway traces a host call end to end', () => {
  it('host call → gateway SERVER span → gateway CLIENT span → upstream SERVER span, in the host trace; stdio upstreams as pipe', async () => {
    const { tracer, spans } = recorder();
    const upstreamTracer = recorder();
    const upstream = await serveHttp([note], { port: 0, logger: silentLogger, tracer: upstreamTracer.tracer });
    const folder = await mkdtemp(join(tmpdir(), 'toolwright-gateway-trace-'));
    const gateway = await createMcpGateway({
      servers: {
        notes: { url: upstream.url },
        memory: { command: join(process.cwd(), 'node_modules/.bin/mcp-server-memory'), env: { MEMORY_FILE_PATH: join(folder, 'memory.json') } },
      },
      pins: false,
      tracer,
      log: () => {},
    });
    const host = new Client({ name: 'host', version: '1.0.0' });
    const [hostSide, gatewaySide] = InMemoryTransport.createLinkedPair();
    try {
      await gateway.createServer().connect(gatewaySide);
      await host.connect(hostSide);
      const traceparent = `00-${TRACE_ID}-${CALLER_SPAN_ID}-01`;
      const answered = await host.callTool({ name: 'note', arguments: { text: ARGUMENT_TEXT }, _meta: { traceparent } });
      expect(answered.isError).not.toBe(true);
      expect((await host.callTool({ name: 'read_graph', arguments: {}, _meta: { traceparent } })).isError).not.toBe(true);

      const recorded = await spans();
      const gatewayServer = recorded.find((span) => span.kind === SpanKind.SERVER && span.name === 'tools/call note')!;
      const gatewayClient = recorded.find((span) => span.kind === SpanKind.CLIENT && span.name === 'tools/call note')!;
      const [upstreamServer] = await upstreamTracer.spans();
      expect(gatewayServer.parentSpanContext?.spanId).toBe(CALLER_SPAN_ID);
      expect(gatewayClient.parentSpanContext?.spanId).toBe(gatewayServer.spanContext().spanId);
      expect(upstreamServer!.name).toBe('tools/call note');
      expect(upstreamServer!.parentSpanContext?.spanId).toBe(gatewayClient.spanContext().spanId);
      for (const span of [gatewayServer, gatewayClient, upstreamServer!]) expect(span.spanContext().traceId).toBe(TRACE_ID);

      const memoryServer = recorded.find((span) => span.kind === SpanKind.SERVER && span.name === 'tools/call read_graph')!;
      const memoryClient = recorded.find((span) => span.kind === SpanKind.CLIENT && span.name === 'tools/call read_graph')!;
      expect(memoryClient.parentSpanContext?.spanId).toBe(memoryServer.spanContext().spanId);
      expect(memoryClient.attributes['network.transport']).toBe('pipe');
      expect(recordedText([...recorded, upstreamServer!])).not.toContain(ARGUMENT_TEXT);
    } finally {
      await host.close();
      await gateway.close();
      await upstream.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
