/**
 * What the docs' code blocks take from around them, as text written into the snippets' app by `snippets.test.ts`:
 * the preludes (`<!-- snippet: prelude NAME -->`: declarations of the names a page leaves to the reader) and the
 * reader's own modules that blocks import (`./tools.js`, `./agent.js`).
 */

/** Each prelude, by name: declarations only, so a block that has one is type-checked and not run. */
export const PRELUDES: Record<string, string> = {
  agent: `// Prelude "agent": the names a docs page leaves to the reader around an agent run (their model, tools, prompt and data).
declare const model: import('toolwright').Model;
declare const tools: import('toolwright').AnyTool[];
declare const prompt: string;
declare const paused: import('toolwright').AwaitingConfirmationResult;
declare const contacts: string[];
declare function askPerson(question: string): Promise<boolean>;`,
  mcp: `// Prelude "mcp": what a docs page on the MCP server leaves to the reader (their tools, registry, resources, prompts, token, sessions).
declare const tools: import('toolwright').AnyTool[];
declare const registry: import('toolwright').ToolRegistry;
declare const resources: import('toolwright/mcp').McpResource[];
declare const prompts: import('toolwright/mcp').McpPrompt[];
declare const authToken: string;
declare const sessions: Map<string, { id: string; name: string }>;`,
  decoding: `// Prelude "decoding": what a docs page on the token mask leaves to the reader (a tool, the engine's logits and its sampler).
declare const tool: import('toolwright').AnyTool;
declare const logits: Float32Array;
declare function sample(logits: Float32Array, allowed: Uint32Array): number;`,
  bun: `// Prelude "bun": the part of Bun's global the docs use (Bun's own types are not installed here; the example runs under Bun in test/runtimes/deploy-examples.test.ts).
declare const Bun: { serve(options: { hostname: string; port: number; idleTimeout?: number; fetch(request: Request): Response | Promise<Response> }): unknown };`,
  deno: `// Prelude "deno": the part of Deno's global the docs use (Deno's own types are not installed here; the example runs under Deno in test/runtimes/deploy-examples.test.ts).
declare const Deno: { serve(options: { hostname: string; port: number }, handler: (request: Request) => Response | Promise<Response>): unknown };`,
  'provider-server': `// Prelude "provider-server": the part of this repository's test/provider-server (not in the package) the page uses, and a request.
declare function startProviderServer(): Promise<{ openaiBaseURL: string; enqueue(...replies: object[]): void; requests: { body: unknown }[]; close(): Promise<void> }>;
declare const request: import('toolwright').ModelRequest;`,
};

/** The reader's own modules, by path in the app: what `./tools.js` and `./agent.js` stand for in the docs. */
export const APP_FILES: Record<string, string> = {
  'tools.ts': `// The tools module a reader has beside their code, which the docs import as \`./tools.js\`.
import { defineTool } from 'toolwright';

export const tools = [
  defineTool<{ city: string }>({
    name: 'get_weather',
    description: 'Gets the current weather of a city. Call it when the user asks about the weather somewhere.',
    effect: 'read',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
    execute: ({ city }) => \`Sunny in \${city}.\`,
  }),
];
`,
  'agent.ts': `// The model and tools of a reader's agent, which docs/deploy.md imports as \`./agent.js\`.
import { createModel } from 'toolwright';

export { tools } from './tools.js';
export const model = createModel('openai:gpt-4o-mini');
`,
};
