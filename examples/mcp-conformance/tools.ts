/**
 * The tool pack the official MCP conformance suite expects
 * (`@modelcontextprotocol/conformance server`): the `test_*` tools, resources
 * and prompts its scenarios call, written as ordinary toolwright tools.
 *
 *   toolwright serve --tools examples/mcp-conformance/tools.ts --http 127.0.0.1:3100
 *   npx conformance server --url http://127.0.0.1:3100/mcp
 *
 * Tools reach MCP-only features (log notifications, sampling, elicitation)
 * through `currentMcpCall()`; outside an MCP call it is undefined.
 * @module
 */
import { ToolError, defineTool, toolResult } from '../../src/index.js';
import type { ToolContext } from '../../src/index.js';
import { currentMcpCall } from '../../src/mcp/index.js';
import type { McpCallContext, McpPrompt, McpResource, McpResourceTemplate } from '../../src/mcp/index.js';

/** A 1x1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A minimal WAV file. */
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

const noArguments = { type: 'object', properties: {}, additionalProperties: false } as const;

function mcp(toolName: string): McpCallContext {
  const call = currentMcpCall();
  if (!call) throw new ToolError(`"${toolName}" works only when called over MCP.`, { kind: 'unavailable', retryable: false });
  return call;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export const tools = [
  defineTool({
    name: 'test_simple_text',
    description: 'Returns a fixed line of text.',
    effect: 'read',
    hints: { openWorld: false },
    inputSchema: noArguments,
    execute: () => 'This is a simple text response for testing.',
  }),
  defineTool({
    name: 'test_image_content',
    description: 'Returns a 1x1 PNG image.',
    effect: 'read',
    hints: { openWorld: false },
    inputSchema: noArguments,
    execute: () => toolResult({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }),
  }),
  defineTool({
    name: 'test_audio_content',
    description: 'Returns a tiny WAV clip.',
    effect: 'read',
    hints: { openWorld: false },
    inputSchema: noArguments,
    execute: () => toolResult({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }),
  }),
  defineTool({
    name: 'test_embedded_resource',
    description: 'Returns a text resource embedded in the result.',
    effect: 'read',
    hints: { openWorld: false },
    inputSchema: noArguments,
    execute: () =>
      toolResult({
        content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
      }),
  }),
  defineTool({
    name: 'test_multiple_content_types',
    description: 'Returns text, an image and an embedded resource in one result.',
    effect: 'read',
    hints: { openWorld: false },
    inputSchema: noArguments,
    execute: () =>
      toolResult({
        content: [
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
        ],
      }),
  }),
  defineTool({
    name: 'test_tool_with_logging',
    description: 'Sends three log notifications while it runs.',
    effect: 'read',
    hints: { openWorld: false },
    inputSchema: noArguments,
    async execute(_args, context: ToolContext) {
      const call = mcp('test_tool_with_logging');
      await call.log('info', 'Tool execution started');
      await sleep(50, context.signal);
      await call.log('info', 'Tool processing data');
      await sleep(50, context.signal);
      await call.log('info', 'Tool execution completed');
      return 'Tool with logging executed successfully';
    },
  }),
  defineTool({
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50 and 100 of 100 while it runs.',
    effect: 'read',
    hints: { openWorld: false },
    inputSchema: noArguments,
    async execute(_args, context: ToolContext) {
      context.reportProgress(0, 100, 'Starting');
      await sleep(50, context.signal);
      context.reportProgress(50, 100, 'Halfway');
      await sleep(50, context.signal);
      context.reportProgress(100, 100, 'Done');
      return 'Progress test completed';
    },
  }),
  defineTool({
    name: 'test_error_handling',
    description: 'Always fails, to show how a tool error reaches the client.',
    effect: 'read',
    hints: { openWorld: false },
    inputSchema: noArguments,
    execute: () => {
      throw new ToolError('This tool intentionally returns an error for testing', { kind: 'failed' });
    },
  }),
  defineTool<{ prompt: string }>({
    name: 'test_sampling',
    description: "Asks the client's model to answer a prompt (sampling) and returns its answer.",
    effect: 'read',
    inputSchema: { type: 'object', properties: { prompt: { type: 'string', description: 'The prompt to send to the model.' } }, required: ['prompt'] },
    async execute({ prompt }) {
      const answer = await mcp('test_sampling').sample({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 });
      const content = Array.isArray(answer.content) ? answer.content[0] : answer.content;
      return `LLM response: ${content && content.type === 'text' ? content.text : '(no text)'}`;
    },
  }),
  defineTool<{ message: string }>({
    name: 'test_elicitation',
    description: 'Asks the person for a username and an email (elicitation) and returns the answer.',
    effect: 'read',
    inputSchema: { type: 'object', properties: { message: { type: 'string', description: 'What to ask the person.' } }, required: ['message'] },
    async execute({ message }) {
      const answer = await mcp('test_elicitation').elicit({
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "The person's username" },
            email: { type: 'string', description: "The person's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  defineTool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Asks for input with a default value for every field (SEP-1034).',
    effect: 'read',
    inputSchema: noArguments,
    async execute() {
      const answer = await mcp('test_elicitation_sep1034_defaults').elicit({
        message: 'Please review and update the form fields with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
          required: [],
        },
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  defineTool({
    name: 'test_elicitation_sep1330_enums',
    description: 'Asks for input with every enum form: untitled, titled, legacy, single and multiple choice (SEP-1330).',
    effect: 'read',
    inputSchema: noArguments,
    async execute() {
      const requestedSchema = {
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', description: 'Choose one option', enum: ['option1', 'option2', 'option3'] },
          titledSingle: {
            type: 'string',
            description: 'Choose one option',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: {
            type: 'string',
            description: 'Choose one option (legacy)',
            enum: ['opt1', 'opt2', 'opt3'],
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: {
            type: 'array',
            description: 'Choose multiple options',
            minItems: 1,
            maxItems: 3,
            items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          },
          titledMulti: {
            type: 'array',
            description: 'Choose multiple options',
            minItems: 1,
            maxItems: 3,
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
        required: [],
      };
      const answer = await mcp('test_elicitation_sep1330_enums').elicit({
        message: 'Please select options from the enum fields',
        requestedSchema: requestedSchema as never,
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  defineTool({
    name: 'json_schema_2020_12_tool',
    description: 'Takes an input schema that uses JSON Schema 2020-12 features ($schema, $defs, additionalProperties).',
    effect: 'read',
    hints: { openWorld: false },
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
    execute: (args) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`,
  }),
  defineTool({
    name: 'test_reconnection',
    description: 'Returns after a short pause (used by the SSE polling scenario).',
    effect: 'read',
    hints: { openWorld: false },
    inputSchema: noArguments,
    async execute(_args, context: ToolContext) {
      await sleep(100, context.signal);
      return 'Reconnection test completed';
    },
  }),
];

export const resources: McpResource[] = [
  {
    uri: 'test://static-text',
    name: 'static-text',
    description: 'A fixed text resource.',
    mimeType: 'text/plain',
    read: () => 'This is the content of the static text resource.',
  },
  {
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A fixed binary resource (a 1x1 PNG).',
    mimeType: 'image/png',
    read: () => ({ blob: PNG }),
  },
  {
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'A resource clients may subscribe to.',
    mimeType: 'text/plain',
    read: () => 'Watched resource content',
  },
];

export const resourceTemplates: McpResourceTemplate[] = [
  {
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    description: 'Data for one id.',
    mimeType: 'application/json',
    read: (_uri, variables) => {
      const id = String(variables.id);
      return JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
    },
  },
];

export const prompts: McpPrompt[] = [
  {
    name: 'test_simple_prompt',
    description: 'A prompt with no arguments.',
    get: () => 'This is a simple prompt for testing.',
  },
  {
    name: 'test_prompt_with_arguments',
    description: 'A prompt that uses two arguments.',
    arguments: [
      {
        name: 'arg1',
        description: 'The first argument',
        required: true,
        complete: (value) => ['paris', 'park', 'party'].filter((word) => word.startsWith(value)),
      },
      { name: 'arg2', description: 'The second argument', required: true },
    ],
    get: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource.',
    arguments: [{ name: 'resourceUri', description: 'The URI of the resource to embed', required: true }],
    get: ({ resourceUri }) => [
      { role: 'user', content: { type: 'resource', resource: { uri: resourceUri!, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  },
  {
    name: 'test_prompt_with_image',
    description: 'A prompt that includes an image.',
    get: () => [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  },
];
