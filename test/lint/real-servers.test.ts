/**
 * The real tool lists of 16 MCP servers from npm (test/fixtures/third-party/real-servers.json, written by
 * scripts/vendor-mcp-tool-lists.mjs): what importing them converts, compiles and loses, and what the linter finds on
 * real, benign descriptions, counted by rule, so that a change to a rule or to the import shows up here.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { importedToolLosses, loadImportedTools, type LoadedImportedTools } from '../../src/cli/commands/lint-imported.js';
import { lintTools, type LintFinding } from '../../src/formats/lint/index.js';
import { ToolRegistry } from '../../src/tools/index.js';
import { useSchemaValidator } from '../../src/tools/validator-kind.js';

const FIXTURE = 'test/fixtures/third-party/real-servers.json';

interface VendoredServer {
  server: string;
  package: string;
  version: string;
  license: string;
  tools: Record<string, unknown>[];
}
const vendored = (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { servers: VendoredServer[] }).servers;

function countByRule(findings: readonly LintFinding[]): Record<string, string> {
  const counts: Record<string, { errors: number; warnings: number }> = {};
  for (const finding of findings) {
    const entry = (counts[finding.rule] ??= { errors: 0, warnings: 0 });
    if (finding.severity === 'error') entry.errors++;
    else entry.warnings++;
  }
  return Object.fromEntries(Object.entries(counts).map(([rule, { errors, warnings }]) => [rule, `${errors}e ${warnings}w`]));
}

let loaded: LoadedImportedTools;
beforeAll(async () => void (loaded = await loadImportedTools(FIXTURE)));
afterEach(() => void useSchemaValidator('auto'));

describe('the real tool lists of 16 MCP servers from npm (test/fixtures/third-party/real-servers.json)', () => {
  it('holds 193 tools of permissively licensed servers, each named with its exact version in NOTICE.md', () => {
    expect(Object.fromEntries(vendored.map((entry) => [entry.server, entry.tools.length]))).toEqual({
      filesystem: 14,
      memory: 9,
      everything: 13,
      'sequential-thinking': 1,
      github: 26,
      slack: 8,
      puppeteer: 7,
      postgres: 1,
      'brave-search': 2,
      'google-maps': 7,
      playwright: 25,
      notion: 24,
      context7: 2,
      firecrawl: 26,
      tavily: 5,
      kubernetes: 23,
    });
    expect(vendored.reduce((sum, entry) => sum + entry.tools.length, 0)).toBe(193);
    const notice = readFileSync('test/fixtures/third-party/NOTICE.md', 'utf8');
    for (const entry of vendored) {
      expect(['MIT', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', 'ISC'], entry.package).toContain(entry.license);
      expect(entry.version, entry.package).toMatch(/^\d+\.\d+\.\d+$/);
      expect(notice, entry.package).toContain(`| ${entry.server} | \`${entry.package}\` | ${entry.version} | ${entry.license}`);
    }
    // Kept as the servers sent them, newer fields included (a parser that drops what it does not know would lose these).
    expect([...new Set(vendored.flatMap((entry) => entry.tools.flatMap((tool) => Object.keys(tool))))].sort()).toEqual([
      'annotations',
      'description',
      'execution',
      'inputSchema',
      'name',
      'outputSchema',
      'title',
    ]);
  });

  it('converts every tool; the only import warnings are draft-07 schemas rewritten into 2020-12', () => {
    const { tools, warnings } = loaded;
    expect(tools).toHaveLength(193);
    expect(tools.map((tool) => (tool.origin.kind === 'mcp' ? tool.origin.server : tool.origin.kind))).toEqual(
      vendored.flatMap((entry) => entry.tools.map(() => entry.server)),
    );
    expect(warnings.filter((warning) => warning.type === 'skipped')).toEqual([]);
    expect(new Set(warnings.map((warning) => `${warning.type} ${warning.feature}`))).toEqual(new Set(['rewritten schema-dialect']));
    // Input and output schemas of filesystem, memory and sequential-thinking; the input schemas of github and everything, and one output schema of everything.
    const rewrittenByServer: Record<string, number> = {};
    const serverOf = new Map(tools.map((tool) => [tool.name, tool.origin.kind === 'mcp' ? tool.origin.server : '']));
    for (const warning of warnings) rewrittenByServer[serverOf.get(warning.tool)!] = (rewrittenByServer[serverOf.get(warning.tool)!] ?? 0) + 1;
    expect(rewrittenByServer).toEqual({ filesystem: 28, memory: 18, everything: 14, 'sequential-thinking': 2, github: 26 });
  });

  it('compiles every input and output schema in the registry, with Ajv and with the interpreter, which agree on which tools take {}', () => {
    const { tools } = loaded;
    const acceptEmpty: Record<string, string[]> = {};
    for (const kind of ['ajv', 'interpreter'] as const) {
      useSchemaValidator(kind);
      const registry = new ToolRegistry(tools);
      expect(registry.size).toBe(193);
      acceptEmpty[kind] = tools.filter((tool) => registry.validate(tool.name, {}).success).map((tool) => tool.name);
    }
    expect(acceptEmpty.interpreter).toEqual(acceptEmpty.ajv);
    expect(acceptEmpty.ajv).toHaveLength(34);
    // A call missing a required argument fails with an issue naming it.
    const registry = new ToolRegistry(tools);
    const failed = registry.validate('read_text_file', {});
    expect(failed.success).toBe(false);
    expect(failed.success ? [] : failed.issues.map((issue) => issue.message)).toEqual([expect.stringContaining('path')]);
  });

  it('lints them as imported: findings counted by rule, and which tools the errors are on', () => {
    const { tools } = loaded;
    const findings = lintTools(tools);
    expect(countByRule(findings)).toEqual({
      'tw/vague-description': '0e 29w',
      'tw/unconfirmed-action': '3e 0w',
      'tw/provider-compatibility': '0e 29w',
      'tw/prefer-enum': '0e 9w',
      'tw/hidden-instruction': '2e 0w',
    });
    // tw/unconfirmed-action: each says "send" in its description: a demo that sends nothing, and two that send feedback to
    // firecrawl. tw/hidden-instruction: two firecrawl tools tell the model to "always default to using this tool" (docs/lint-rules.md,
    // "Poisoning checks measured", judges them true).
    expect(findings.filter((finding) => finding.severity === 'error').map((finding) => `${finding.rule} ${finding.tool}`)).toEqual([
      'tw/unconfirmed-action simulate-research-query',
      'tw/hidden-instruction firecrawl_scrape',
      'tw/hidden-instruction firecrawl_search',
      'tw/unconfirmed-action firecrawl_search_feedback',
      'tw/unconfirmed-action firecrawl_feedback',
    ]);
  });

  it('what strict mode and the token mask lose: the mask compiles every schema, strict mode changes all but 19', () => {
    const { tools } = loaded;
    const losses = tools.map(importedToolLosses);
    expect(losses.filter((entry) => entry.tokenMask.refused !== undefined || entry.tokenMask.failed !== undefined)).toEqual([]);
    const unchanged = losses.filter((entry) => entry.strictMode.dropped.length + entry.strictMode.rewritten.length === 0);
    expect(unchanged).toHaveLength(19);
    const dropped: Record<string, number> = {};
    for (const entry of losses) for (const loss of entry.strictMode.dropped) dropped[loss.feature] = (dropped[loss.feature] ?? 0) + 1;
    expect(dropped).toEqual({ default: 136, format: 14, 'open-object': 28, propertyNames: 12, additionalProperties: 206, maxLength: 19, minLength: 18 });
  });
});
