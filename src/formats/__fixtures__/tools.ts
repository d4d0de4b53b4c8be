/**
 * The tools the provider documentation examples call, defined once with
 * toolwright, so every format's tests and the round-trip suite share them.
 */
import { defineTool } from '../../tools/define-tool.js';
import { toolResult } from '../../tools/tool-output.js';

/** OpenAI function-calling guide's `get_weather` with Anthropic's optional `unit`. */
export const getWeather = defineTool<{ location: string; unit?: 'celsius' | 'fahrenheit' }>({
  name: 'get_weather',
  title: 'Weather',
  description: 'Get current temperature for a given location.',
  effect: 'read',
  hints: { openWorld: true },
  inputSchema: {
    type: 'object',
    properties: {
      location: { type: 'string', description: 'City and country e.g. Bogotá, Colombia' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: "The unit of temperature, either 'celsius' or 'fahrenheit'" },
    },
    required: ['location'],
    additionalProperties: false,
  },
  execute: ({ location, unit }) => `${location}: 15 degrees ${unit ?? 'celsius'}`,
});

/** OpenAI function-calling guide's `get_weather` exactly as the guide declares it (no `unit`), so its strict declaration must equal the guide's. */
export const guideGetWeather = defineTool({
  name: 'get_weather',
  description: 'Get current temperature for a given location.',
  effect: 'read',
  inputSchema: {
    type: 'object',
    properties: { location: { type: 'string', description: 'City and country e.g. Bogotá, Colombia' } },
    required: ['location'],
    additionalProperties: false,
  },
  execute: () => 'sunny',
});

/** OpenAI function-calling guide's `send_email` (parallel calls example). */
export const sendEmail = defineTool<{ to: string; body: string }>({
  name: 'send_email',
  description: 'Send an email to a given recipient with a subject and message.',
  effect: 'write',
  hints: { additive: true, idempotent: false, openWorld: true },
  inputSchema: {
    type: 'object',
    properties: { to: { type: 'string', description: 'The recipient email address.' }, body: { type: 'string', description: 'Body of the email message.' } },
    required: ['to', 'body'],
    additionalProperties: false,
  },
  execute: ({ to }) => ({ sent: true, to }),
});

/** Anthropic's parallel tool use example: `get_time`. */
export const getTime = defineTool<{ timezone: string }>({
  name: 'get_time',
  description: 'Get the current time in a given time zone',
  effect: 'read',
  inputSchema: {
    type: 'object',
    properties: { timezone: { type: 'string', description: 'The IANA time zone name, e.g. America/Los_Angeles' } },
    required: ['timezone'],
  },
  execute: ({ timezone }) => `It is 09:30 in ${timezone}.`,
});

/** A 1×1 transparent PNG, base64. */
export const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** Returns text and an image, to show what each provider does with non-text parts. */
export const takeScreenshot = defineTool<{ url: string }>({
  name: 'take_screenshot',
  description: 'Take a screenshot of a web page.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
  execute: ({ url }) =>
    toolResult({
      content: [
        { type: 'text', text: `Screenshot of ${url}` },
        { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
      ],
    }),
});

export const docTools = [getWeather, sendEmail, getTime, takeScreenshot];
