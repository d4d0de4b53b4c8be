/**
 * One smoke run of the runtime-neutral core, the same on every runtime (test/runtimes/runtimes.test.ts bundles it with
 * esbuild and runs it on Node, Bun, Deno, Vercel's edge runtime and workerd): define tools, validate a good and a bad
 * call, run an agent with the scripted model, stream it, pause a write for confirmation and resume it (Web Crypto: the
 * HMAC token, the sealed store), serve the tools with `createMcpHandler` to the official MCP client (its `fetch` handing
 * each request straight to the handler, as a runtime's server would), and, where there is no file system, refuse a
 * record directory. Plain TypeScript, no
 * test framework: it returns a JSON verdict, each step's facts or the error it threw.
 */
import { ToolRegistry, defineTool, resumeAgent, runAgent, silentLogger, streamAgent } from '../../src/index.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../../src/test.js';
// Loaded for the proof that they load here (module load is what test/runtimes/neutral-entries.test.ts pins).
import { compileJsonSchema } from '../../src/decoding/index.js';
import { createMcpHandler, createMcpServer } from '../../src/mcp/index.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface SmokeOptions {
  /** Whether to run the steps that validate tool calls (Ajv compiles schemas to code: a runtime that forbids code generation needs an interpreter). */
  validate: boolean;
}

export type StepVerdict = { ok: true; facts: Record<string, unknown> } | { ok: false; error: string } | { skipped: string };

export interface SmokeVerdict {
  /** Whether `new Function` works here (workerd and the edge runtime forbid it, as in production). */
  codeGeneration: boolean;
  /** Whether the runtime offers Node's file system (`process.getBuiltinModule('node:fs')`). */
  fileSystem: boolean;
  steps: Record<string, StepVerdict>;
}

const defineWeather = () =>
  defineTool({
    name: 'get_weather',
    description: 'The weather in a city today.',
    inputSchema: { type: 'object', properties: { city: { type: 'string', minLength: 1 } }, required: ['city'], additionalProperties: false },
    effect: 'read',
    execute: ({ city }: { city: string }) => `Sunny in ${city}.`,
  });

const defineTransfer = () =>
  defineTool({
    name: 'transfer',
    description: 'Moves money between two accounts.',
    inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
    effect: 'write',
    confirm: true,
    execute: ({ amount }: { amount: number }) => `Moved ${amount}.`,
  });

function codeGenerationWorks(): boolean {
  try {
    return new Function('return 1')() === 1;
  } catch {
    return false;
  }
}

function hasFileSystem(): boolean {
  const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return host?.getBuiltinModule?.('node:fs') !== undefined;
}

async function step(run: () => Promise<Record<string, unknown>>): Promise<StepVerdict> {
  try {
    return { ok: true, facts: await run() };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

const textOf = (content: readonly { type: string; text?: string }[]): string => content.map((part) => part.text ?? '').join('');

export async function runSmoke(options: SmokeOptions): Promise<SmokeVerdict> {
  const steps: Record<string, StepVerdict> = {};
  steps.entries = await step(async () => ({ decoding: typeof compileJsonSchema, mcp: typeof createMcpServer }));
  const needsValidation = 'needs a validator that runs without code generation';
  let weather = undefined as unknown as ReturnType<typeof defineWeather>;
  let transfer = undefined as unknown as ReturnType<typeof defineTransfer>;
  steps.define = await step(async () => {
    weather = defineWeather();
    transfer = defineTransfer();
    return { tools: [weather.name, transfer.name] };
  });
  if ('error' in steps.define) return { codeGeneration: codeGenerationWorks(), fileSystem: hasFileSystem(), steps };

  if (options.validate) {
    // The registry compiles each tool's schema as it is made.
    const registry = new ToolRegistry([weather, transfer]);
    steps.goodCall = await step(async () => {
      const done = await registry.call({ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } });
      return { isError: done.result.isError ?? false, text: textOf(done.result.content) };
    });
    steps.badCall = await step(async () => {
      const done = await registry.call({ id: 'c2', name: 'get_weather', arguments: { city: 42 } });
      return { isError: done.result.isError ?? false, text: textOf(done.result.content) };
    });
    // A crash is logged by the registry's default logger: process.stderr where there is one, the console elsewhere.
    steps.crashingTool = await step(async () => {
      const crashing = defineTool({
        name: 'crash',
        description: 'Always fails.',
        inputSchema: { type: 'object' },
        effect: 'read',
        execute: () => {
          throw new Error('internal detail');
        },
      });
      const done = await new ToolRegistry([crashing]).call({ id: 'c3', name: 'crash', arguments: {} });
      const text = textOf(done.result.content);
      return { isError: done.result.isError ?? false, leaksMessage: text.includes('internal detail') };
    });
  } else {
    steps.goodCall = { skipped: needsValidation };
    steps.badCall = { skipped: needsValidation };
    steps.crashingTool = { skipped: needsValidation };
  }

  // Without validation the run offers no tool (a run compiles every tool's schema as it starts) and the model only
  // answers: the loop, the store and the stream still run.
  const tools = options.validate ? [weather] : [];
  const script = () =>
    options.validate
      ? [toolCallTurn([{ name: 'get_weather', arguments: { city: 'Paris' } }]), textTurn('It is sunny in Paris.')]
      : [textTurn('It is sunny in Paris.')];

  steps.agent = await step(async () => {
    const result = await runAgent({ model: createScriptedModel(script()), tools, prompt: 'Weather in Paris?' });
    const toolResults = result.messages.filter((message) => message.role === 'tool').length;
    return { status: result.status, text: result.status === 'completed' ? result.text : undefined, toolResults, runId: result.runId };
  });

  steps.stream = await step(async () => {
    const stream = streamAgent({ model: createScriptedModel(script()), tools, prompt: 'Weather in Paris?' });
    const types: string[] = [];
    for await (const event of stream) if (!types.includes(event.type)) types.push(event.type);
    const result = await stream.result;
    return { status: result.status, text: result.status === 'completed' ? result.text : undefined, eventTypes: types };
  });

  steps.confirmAndResume = options.validate
    ? await step(async () => {
        const model = createScriptedModel([toolCallTurn([{ name: 'transfer', arguments: { amount: 5 } }]), textTurn('Done.')]);
        const paused = await runAgent({ model, tools: [transfer], prompt: 'Move 5.' });
        if (paused.status !== 'awaiting_confirmation') return { status: paused.status };
        const token = paused.pending[0]!.token;
        const resumed = await resumeAgent(paused.runId, [{ token, decision: 'approve' }], { model, tools: [transfer] });
        const toolText = resumed.messages
          .filter((message) => message.role === 'tool')
          .flatMap((message) => message.results.map((part) => textOf(part.result.content)));
        return { paused: paused.status, tokenPrefix: token.split('.')[0], resumed: resumed.status, toolText };
      })
    : { skipped: needsValidation };

  steps.mcpHandler = await step(async () => {
    const handler = createMcpHandler(options.validate ? [weather] : [], { logger: silentLogger });
    const client = new Client({ name: 'runtime-smoke', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler(new Request(url, init)) });
    await client.connect(transport);
    const listed = (await client.listTools()).tools.map((tool) => tool.name);
    const facts: Record<string, unknown> = { listed };
    if (options.validate) {
      const good = await client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } });
      const bad = await client.callTool({ name: 'get_weather', arguments: { city: 42 } });
      facts.good = { isError: good.isError, text: textOf(good.content as { type: string; text?: string }[]) };
      facts.bad = { isError: bad.isError, text: textOf(bad.content as { type: string; text?: string }[]) };
    }
    await transport.terminateSession();
    facts.sessionsAfter = handler.sessionCount;
    await client.close();
    await handler.close(0);
    return facts;
  });

  steps.recordDir = hasFileSystem()
    ? { skipped: 'this runtime has a file system: run records are tested on Node (src/agent/run-agent.test.ts)' }
    : await step(async () => {
        try {
          const result = await runAgent({ model: createScriptedModel([textTurn('hi')]), tools: [], prompt: 'hi', recordDir: '/records' });
          return { refused: false, status: result.status };
        } catch (error) {
          return { refused: true, code: (error as { code?: string }).code, message: (error as Error).message };
        }
      });

  return { codeGeneration: codeGenerationWorks(), fileSystem: hasFileSystem(), steps };
}
