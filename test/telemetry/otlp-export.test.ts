/**
 * The GenAI spans toolwright emits, exported as a user exports them: the OpenTelemetry JS SDK (`@opentelemetry/sdk-trace`)
 * registered as the global tracer provider through `@opentelemetry/api`, its OTLP exporters (protobuf, what Phoenix and
 * Langfuse take, and JSON) sending to a receiver this test starts on 127.0.0.1, which decodes each request itself (the
 * protobuf reader below follows opentelemetry-proto's trace.proto, independent of the SDK's own serializer). A run
 * against the fake provider server through the real OpenAI SDK must arrive as one trace: the `invoke_agent` span, its
 * `chat` and `execute_tool` children, the GenAI attributes, the resource's `service.name`, and no secret anywhere in
 * the bytes sent (the API key, a `writeOnly` argument, the secret a failing tool's error quotes).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter as OTLPJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/run-agent.js';
import { createModel } from '../../src/models/create-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/tools/tool-registry.js';
import { startProviderServer, type ProviderServer } from '../provider-server/index.js';

// ---- A protobuf reader for the OTLP trace request (opentelemetry-proto: collector/trace/v1, trace/v1, common/v1) ----

type Field = { number: number; wire: number; value: bigint | Uint8Array };

function readFields(bytes: Uint8Array): Field[] {
  const fields: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = bytes[at++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
    }
  };
  while (at < bytes.length) {
    const key = Number(varint());
    const number = key >>> 3;
    const wire = key & 7;
    if (wire === 0) fields.push({ number, wire, value: varint() });
    else if (wire === 1) fields.push({ number, wire, value: bytes.slice(at, (at += 8)) });
    else if (wire === 5) fields.push({ number, wire, value: bytes.slice(at, (at += 4)) });
    else if (wire === 2) {
      const length = Number(varint());
      fields.push({ number, wire, value: bytes.slice(at, (at += length)) });
    } else throw new Error(`unexpected wire type ${wire}`);
  }
  return fields;
}

const text = (value: Field['value']) => new TextDecoder().decode(value as Uint8Array);
const hex = (value: Field['value']) => Buffer.from(value as Uint8Array).toString('hex');
const all = (fields: Field[], number: number) => fields.filter((field) => field.number === number).map((field) => field.value);
const one = (fields: Field[], number: number) => all(fields, number)[0];

type AttributeValue = string | number | boolean | AttributeValue[];

/** common.v1.AnyValue: string 1, bool 2, int 3, double 4, array 5. */
function anyValue(bytes: Uint8Array): AttributeValue {
  const [field] = readFields(bytes);
  if (field === undefined) return '';
  switch (field.number) {
    case 1:
      return text(field.value);
    case 2:
      return field.value === 1n;
    case 3:
      return Number(BigInt.asIntN(64, field.value as bigint));
    case 4:
      return Buffer.from(field.value as Uint8Array).readDoubleLE(0);
    case 5:
      return all(readFields(field.value as Uint8Array), 1).map((value) => anyValue(value as Uint8Array));
    default:
      throw new Error(`AnyValue field ${field.number} not read by this test`);
  }
}

/** repeated common.v1.KeyValue: key 1, value 2. */
function attributes(values: Field['value'][]): Record<string, AttributeValue> {
  return Object.fromEntries(
    values.map((value) => {
      const fields = readFields(value as Uint8Array);
      return [text(one(fields, 1)!), anyValue((one(fields, 2) ?? new Uint8Array()) as Uint8Array)];
    }),
  );
}

interface ReceivedSpan {
  resource: Record<string, AttributeValue>;
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, AttributeValue>;
  status: { code: number; message: string };
}

/** ExportTraceServiceRequest: resource_spans 1 → resource 1 (attributes 1), scope_spans 2 → scope 1 (name 1), spans 2. */
function decodeProtobufRequest(body: Uint8Array): ReceivedSpan[] {
  return all(readFields(body), 1).flatMap((resourceSpans) => {
    const resourceFields = readFields(resourceSpans as Uint8Array);
    const resource = attributes(all(readFields((one(resourceFields, 1) ?? new Uint8Array()) as Uint8Array), 1));
    return all(resourceFields, 2).flatMap((scopeSpans) => {
      const scopeFields = readFields(scopeSpans as Uint8Array);
      const scope = text(one(readFields(one(scopeFields, 1) as Uint8Array), 1) ?? new Uint8Array());
      return all(scopeFields, 2).map((span) => {
        // Span: trace_id 1, span_id 2, parent_span_id 4, name 5, kind 6, attributes 9, status 15 (message 2, code 3).
        const fields = readFields(span as Uint8Array);
        const status = readFields((one(fields, 15) ?? new Uint8Array()) as Uint8Array);
        return {
          resource,
          scope,
          traceId: hex(one(fields, 1)!),
          spanId: hex(one(fields, 2)!),
          parentSpanId: one(fields, 4) === undefined ? '' : hex(one(fields, 4)!),
          name: text(one(fields, 5)!),
          kind: Number(one(fields, 6) ?? 0n),
          attributes: attributes(all(fields, 9)),
          status: { code: Number(one(status, 3) ?? 0n), message: one(status, 2) === undefined ? '' : text(one(status, 2)!) },
        };
      });
    });
  });
}

// ---- The receiver ----

interface ReceivedRequest {
  path: string;
  contentType: string;
  body: Buffer;
}

let receiver: Server;
let receiverURL = '';
const received: ReceivedRequest[] = [];

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

let provider: ProviderServer;
let tracerProvider: TracerProvider;

const API_KEY = 'sk-otlp-test-0123456789abcdefSECRET';
const PASSWORD = 'hunter2-correct-horse-battery';

const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Looks up an order by id.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  execute: ({ id }: { id: string }) => `order ${id}: shipped`,
});
const signIn = defineTool({
  name: 'sign_in',
  description: 'Signs in to the shop.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { user: { type: 'string' }, password: { type: 'string', writeOnly: true } }, required: ['user', 'password'] },
  execute: ({ password }: { user: string; password: string }) => {
    throw new Error(`sign-in refused for password ${password}`);
  },
});

beforeAll(async () => {
  receiver = createServer((request, response) => {
    void readBody(request).then((body) => {
      received.push({ path: request.url ?? '', contentType: request.headers['content-type'] ?? '', body });
      // An empty ExportTraceServiceResponse: an empty protobuf message, or `{}` in JSON.
      const json = (request.headers['content-type'] ?? '').includes('json');
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json ? '{}' : '');
    });
  });
  await new Promise<void>((ready) => receiver.listen(0, '127.0.0.1', ready));
  receiverURL = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  provider = await startProviderServer();
  tracerProvider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'otlp-test-shop' }),
    spanProcessors: [
      new BatchSpanProcessor({ exporter: new OTLPProtoTraceExporter({ url: `${receiverURL}/v1/traces` }) }),
      new SimpleSpanProcessor({ exporter: new OTLPJsonTraceExporter({ url: `${receiverURL}/json/v1/traces` }) }),
    ],
  });
  // Registered the way an app registers its SDK; runAgent is given no tracer, so it must find this one.
  trace.setGlobalTracerProvider(tracerProvider);
});

afterAll(async () => {
  await tracerProvider?.shutdown();
  trace.disable();
  await provider?.close();
  await new Promise((closed) => receiver?.close(closed));
});

describe('OTLP export of the GenAI spans', () => {
  it('a run arrives at an OTLP receiver as one trace with the GenAI names and attributes, and no secret', async () => {
    provider.enqueue(
      {
        toolCalls: [
          { id: 'call_lookup', name: 'lookup_order', arguments: { id: 'A-17' } },
          { id: 'call_sign_in', name: 'sign_in', arguments: { user: 'ada', password: PASSWORD } },
        ],
        usage: { inputTokens: 120, outputTokens: 30 },
      },
      { text: 'Order A-17 has shipped.', usage: { inputTokens: 180, outputTokens: 9 } },
    );
    const model = createModel('openai:gpt-4o-mini', { apiKey: API_KEY, baseURL: provider.openaiBaseURL, maxRetries: 0 });
    const result = await runAgent({ model, tools: [lookupOrder, signIn], prompt: 'Where is order A-17?', logger: silentLogger, agentName: 'shop-assistant' });
    expect(result.status).toBe('completed');
    await tracerProvider.forceFlush();

    const protobuf = received.filter((request) => request.path === '/v1/traces');
    expect(protobuf.length).toBeGreaterThan(0);
    expect(new Set(protobuf.map((request) => request.contentType))).toEqual(new Set(['application/x-protobuf']));
    const spans = protobuf.flatMap((request) => decodeProtobufRequest(request.body));
    expect(spans.map((span) => span.name).sort()).toEqual(
      ['chat gpt-4o-mini', 'chat gpt-4o-mini', 'execute_tool lookup_order', 'execute_tool sign_in', 'invoke_agent shop-assistant'].sort(),
    );

    const run = spans.find((span) => span.name === 'invoke_agent shop-assistant')!;
    expect(run.resource['service.name']).toBe('otlp-test-shop');
    expect(run.scope).toBe('toolwright');
    expect(run.parentSpanId).toBe('');
    expect(run.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'shop-assistant',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.conversation.id': result.runId,
      'gen_ai.usage.input_tokens': 300,
      'gen_ai.usage.output_tokens': 39,
    });
    // Every other span is a child of the run, in its trace.
    for (const span of spans.filter((candidate) => candidate !== run)) {
      expect([span.name, span.traceId, span.parentSpanId]).toEqual([span.name, run.traceId, run.spanId]);
    }

    const chats = spans.filter((span) => span.name === 'chat gpt-4o-mini');
    // SpanKind: INTERNAL 1, CLIENT 3.
    expect(chats.map((chat) => chat.kind)).toEqual([3, 3]);
    expect(chats.map((chat) => chat.attributes)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o-mini',
          'gen_ai.response.model': 'gpt-4o-mini',
          'gen_ai.response.finish_reasons': ['tool_calls'],
          'gen_ai.usage.input_tokens': 120,
          'gen_ai.usage.output_tokens': 30,
        }),
        expect.objectContaining({ 'gen_ai.response.finish_reasons': ['end_turn'], 'gen_ai.usage.input_tokens': 180, 'gen_ai.usage.output_tokens': 9 }),
      ]),
    );

    const lookup = spans.find((span) => span.name === 'execute_tool lookup_order')!;
    expect([lookup.kind, lookup.status.code]).toEqual([1, 0]);
    expect(lookup.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup_order',
      'gen_ai.tool.call.id': 'call_lookup',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Looks up an order by id.',
    });
    const failed = spans.find((span) => span.name === 'execute_tool sign_in')!;
    // StatusCode: ERROR 2.
    expect([failed.status.code, failed.attributes['gen_ai.tool.name'], failed.attributes['error.type']]).toEqual([2, 'sign_in', 'internal_error']);

    // The JSON exporter sent the same spans.
    const json = received.filter((request) => request.path === '/json/v1/traces');
    const jsonNames = json.flatMap((request) =>
      (JSON.parse(request.body.toString('utf8')) as { resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[] }).resourceSpans.flatMap((resource) =>
        resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => span.name)),
      ),
    );
    expect(jsonNames.sort()).toEqual(spans.map((span) => span.name).sort());

    // No secret in any byte sent: not the API key, not the writeOnly password, not the error that quotes it.
    for (const request of received) {
      expect(request.body.includes(API_KEY)).toBe(false);
      expect(request.body.includes(PASSWORD)).toBe(false);
    }
    // The provider did get the key and the password travelled to it in the model's own call, so their absence above means something.
    expect(JSON.stringify(provider.requests.map((request) => request.headers))).toContain(API_KEY);
  });

  it("a failed model call's span has the error type and a status message without the API key the provider quoted", async () => {
    received.length = 0;
    provider.enqueue({ kind: 'error', status: 401, message: `Incorrect API key provided: ${API_KEY}.` });
    const model = createModel('openai:gpt-4o-mini', { apiKey: API_KEY, baseURL: provider.openaiBaseURL, maxRetries: 0 });
    const result = await runAgent({ model, tools: [lookupOrder], prompt: 'Where is order A-17?', logger: silentLogger });
    expect(result.status).toBe('stopped');
    await tracerProvider.forceFlush();
    const spans = received.filter((request) => request.path === '/v1/traces').flatMap((request) => decodeProtobufRequest(request.body));
    const chat = spans.find((span) => span.name === 'chat gpt-4o-mini')!;
    expect([chat.status.code, chat.attributes['error.type']]).toEqual([2, 'TW_PROVIDER_AUTH']);
    expect(chat.status.message).toContain('Incorrect API key provided');
    for (const request of received) expect(request.body.includes(API_KEY)).toBe(false);
  });
});
