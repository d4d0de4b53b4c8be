/**
 * The poisoning and shadowing checks on real tool lists: every finding on the 193 tools that 16 MCP servers from npm
 * list (test/fixtures/third-party/real-servers.json) and on the 22 tools written to mimic popular servers
 * (mcp-tools.json) is pinned here, and each was read and judged (docs/lint-rules.md, "Poisoning checks measured").
 */
import { describe, expect, it } from 'vitest';
import { loadImportedTools } from '../../src/cli/commands/lint-imported.js';
import { checkImportedDefinitions } from '../../src/formats/lint/index.js';

async function findingsOf(file: string) {
  const { tools } = await loadImportedTools(file);
  const findings = checkImportedDefinitions(tools);
  return { tools, findings: findings.map((finding) => [finding.tool, finding.rule, finding.path]) };
}

describe('the poisoning checks on real tool lists', () => {
  it('find two orders to the model among the 193 tools of 16 real servers, both firecrawl telling the model to prefer its tool always', async () => {
    const { tools, findings } = await findingsOf('test/fixtures/third-party/real-servers.json');
    expect(tools).toHaveLength(193);
    expect(new Set(tools.map((tool) => (tool.origin.kind === 'mcp' ? tool.origin.server : ''))).size).toBe(16);
    // "…if available you should always default to using this tool for any web scraping needs." (and "…web search needs.")
    expect(findings).toEqual([
      ['firecrawl_scrape', 'tw/hidden-instruction', '/description'],
      ['firecrawl_search', 'tw/hidden-instruction', '/description'],
    ]);
  });

  it('find nothing among the 22 tools written to mimic popular servers', async () => {
    const { tools, findings } = await findingsOf('test/fixtures/third-party/mcp-tools.json');
    expect(tools).toHaveLength(22);
    expect(findings).toEqual([]);
  });
});
