/**
 * OpenTelemetry from the packed package in a fresh app (issue #30 item 7): the app has toolwright and
 * `@opentelemetry/api` installed and the OpenTelemetry SDK and OTLP exporter beside them, registers its tracer
 * provider globally through its own `@opentelemetry/api`, and the spans of a run reach an OTLP/HTTP receiver the app
 * starts on 127.0.0.1. Proves that the app's API and the one toolwright depends on are one installed copy, so
 * toolwright finds the app's provider with no `tracer` option.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installApp, packedTarball, root, type InstalledApp } from './fresh-app.js';

/**
 * The OpenTelemetry SDK packages the app imports, linked from this checkout rather than installed (they are dev
 * dependencies here, not in the offline npm cache a fresh install reads). Linked, they resolve `@opentelemetry/api`
 * from this checkout, a second copy of the same version; the app's own `@opentelemetry/api`, which it registers the
 * provider through, and toolwright's are one installed copy.
 */
const LINKED = [
  'sdk-trace',
  'resources',
  'exporter-trace-otlp-http',
  'otlp-exporter-base',
  'otlp-transformer',
  'core',
  'sdk-logs',
  'sdk-metrics',
  'semantic-conventions',
];

let work = '';
let installed: InstalledApp | { skipped: string } = { skipped: 'not installed' };

describe('OTLP export from the packed package', () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'toolwright-otlp-'));
    installed = installApp(join(work, 'app'), await packedTarball(), ['@opentelemetry/api']);
    if ('skipped' in installed) return;
    for (const name of LINKED) symlinkSync(join(root, 'node_modules/@opentelemetry', name), join(installed.dir, 'node_modules/@opentelemetry', name), 'dir');
  }, 240_000);

  afterAll(() => {
    if (work !== '') rmSync(work, { recursive: true, force: true });
  });

  it("a run's GenAI spans reach an OTLP receiver through the app's globally registered SDK", (context) => {
    if ('skipped' in installed) return context.skip(installed.skipped);
    const { dir } = installed;
    writeFileSync(
      join(dir, 'main.mjs'),
      `import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { defineTool, runAgent } from 'toolwright';
import { createScriptedModel, textTurn, toolCallTurn } from 'toolwright/test';

const bodies = [];
const receiver = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{}');
  });
});
await new Promise((ready) => receiver.listen(0, '127.0.0.1', ready));
const provider = new TracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'installed-app' }),
  spanProcessors: [new SimpleSpanProcessor({ exporter: new OTLPTraceExporter({ url: 'http://127.0.0.1:' + receiver.address().port + '/v1/traces' }) })],
});
trace.setGlobalTracerProvider(provider);

const echo = defineTool({ name: 'echo', description: 'Echo text.', effect: 'read',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, execute: ({ text }) => text });
const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'echo', arguments: { text: 'hi' } }]), textTurn('done')], { id: 'openai:gpt-4o-mini' });
const result = await runAgent({ model, tools: [echo], prompt: 'Echo hi.' });
await provider.forceFlush();
await provider.shutdown();
receiver.close();

const spans = bodies.flatMap((body) => body.resourceSpans.flatMap((resource) =>
  resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => ({
    service: resource.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue,
    scope: scope.scope.name,
    name: span.name,
  })))));
const require = createRequire(import.meta.url);
const toolwrightRequire = createRequire(require.resolve('toolwright'));
console.log(JSON.stringify({
  status: result.status,
  spans,
  sameApi: require.resolve('@opentelemetry/api') === toolwrightRequire.resolve('@opentelemetry/api'),
}));
`,
    );
    const printed = JSON.parse(execFileSync(process.execPath, ['--no-warnings', 'main.mjs'], { cwd: dir, encoding: 'utf8' })) as {
      status: string;
      spans: Array<{ service: string; scope: string; name: string }>;
      sameApi: boolean;
    };
    expect(printed.status).toBe('completed');
    expect(printed.sameApi).toBe(true);
    expect(printed.spans.map((span) => span.name).sort()).toEqual(['chat gpt-4o-mini', 'chat gpt-4o-mini', 'execute_tool echo', 'invoke_agent toolwright']);
    expect(new Set(printed.spans.map((span) => `${span.service} ${span.scope}`))).toEqual(new Set(['installed-app toolwright']));
  });
});
