import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compareRunSettings, configuredSettings, shownSetting, storedSettingsLines } from './run-settings.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('stored run settings, as a person reads them', () => {
  it('quotes a value and writes control, bidirectional and zero-width characters as escapes', () => {
    const shown = shownSetting('node \u001b[2Jserver.js\u200b \u2066evil\u2069 \u202egnp.js \u0085\ufeff');
    expect(shown).toBe('"node \\u001b[2Jserver.js\\u200b \\u2066evil\\u2069 \\u202egnp.js \\u0085\\ufeff"');
    expect([...shown].every((char) => char >= ' ' && char <= '~')).toBe(true);
    expect(shownSetting(undefined)).toBe('(none)');
  });

  it('redacts a credential in a stored URL', () => {
    expect(shownSetting('http://127.0.0.1/v1?key=sk-proj-abcdefghijklmnopqrstuvwxyz0123')).not.toContain('abcdefghijklmnopqrstuvwxyz0123');
  });

  it('lists what a stored meta names, and nothing for a run the CLI did not start', () => {
    expect(storedSettingsLines({ modelSpec: 'openai:m', baseURL: 'http://h/v1', toolsModule: '/p/t.ts', mcp: ['node s.js', 'https://x/mcp'] })).toEqual([
      'model: "openai:m"',
      'base URL: "http://h/v1"',
      'tools module: "/p/t.ts"',
      'MCP server: "node s.js"',
      'MCP server: "https://x/mcp"',
    ]);
    expect(storedSettingsLines({ tenant: 'acme' })).toEqual([]);
  });

  it('finds no difference when the operator names what the run stored (a relative tool path resolved as the loader does)', () => {
    const tools = 'examples/subscriptions/index.ts';
    const configured = configuredSettings({ model: 'openai:gpt-4o-mini', tools, baseUrl: 'http://127.0.0.1:1/v1' })!;
    const stored = { modelSpec: 'openai:gpt-4o-mini', toolsModule: join(root, tools), baseURL: 'http://127.0.0.1:1/v1' };
    expect(compareRunSettings(stored, configured, root)).toEqual([]);
    expect(compareRunSettings({ ...stored, baseURL: undefined }, configured, root)).toEqual([
      { setting: 'base URL', stored: '(none)', configured: '"http://127.0.0.1:1/v1"' },
    ]);
    expect(compareRunSettings({ ...stored, mcp: ['node planted.js'] }, configured, root)).toEqual([
      { setting: 'MCP servers', stored: '["node planted.js"]', configured: '(none)' },
    ]);
  });

  it('needs a model and tools (or MCP servers) from the operator', () => {
    expect(configuredSettings({ tools: 'x.ts' })).toBeUndefined();
    expect(configuredSettings({ model: 'openai:m' })).toBeUndefined();
    expect(configuredSettings({ model: 'openai:m', mcp: ['node s.js'] })).toEqual({ modelSpec: 'openai:m', toolsModule: '', mcp: ['node s.js'] });
  });
});
