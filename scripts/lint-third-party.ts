/**
 * Lints the third-party-like tool lists in test/fixtures/third-party/mcp-tools.json (mimicking popular MCP
 * servers) and prints errors and warnings per rule, twice: linted as imported (how importMcpTools' tools are
 * linted) and as if the tools were written here (`imported: false`).
 *
 *   npx tsx scripts/lint-third-party.ts
 * @module
 */
import { readFileSync } from 'node:fs';
import { lintTools, type LintFinding } from '../src/formats/lint/index.js';
import { mcpToolsFromList } from '../src/mcp/import-mcp-tools.js';
import type { AnyTool } from '../src/tools/index.js';

interface Fixture {
  servers: { server: string; tools: unknown[] }[];
}

const fixture = JSON.parse(readFileSync(new URL('../test/fixtures/third-party/mcp-tools.json', import.meta.url), 'utf8')) as Fixture;
const tools: AnyTool[] = fixture.servers.flatMap(({ server, tools: list }) => mcpToolsFromList(list, { server }).tools);

function countByRule(findings: readonly LintFinding[]): Record<string, { errors: number; warnings: number }> {
  const counts: Record<string, { errors: number; warnings: number }> = {};
  for (const finding of findings) {
    const entry = (counts[finding.rule] ??= { errors: 0, warnings: 0 });
    if (finding.severity === 'error') entry.errors++;
    else entry.warnings++;
  }
  return counts;
}

for (const imported of [true, false]) {
  const findings = lintTools(tools, { imported });
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  console.log(`${tools.length} tools, linted ${imported ? 'as imported' : 'as if written here'}: ${errors} errors, ${findings.length - errors} warnings`);
  console.table(countByRule(findings));
}
