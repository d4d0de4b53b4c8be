import { describe, expect, it } from 'vitest';
import { lintTools, type LintFinding } from '../../src/formats/lint/index.js';
import { formatImportedLosses, importedToolLosses, loadImportedTools } from '../../src/cli/commands/lint-imported.js';
import { lintModule } from '../../src/cli/commands/lint.js';

const FIXTURE = 'test/fixtures/third-party/mcp-tools.json';

function countByRule(findings: readonly LintFinding[]): Record<string, string> {
  const counts: Record<string, { errors: number; warnings: number }> = {};
  for (const finding of findings) {
    const entry = (counts[finding.rule] ??= { errors: 0, warnings: 0 });
    if (finding.severity === 'error') entry.errors++;
    else entry.warnings++;
  }
  return Object.fromEntries(Object.entries(counts).map(([rule, { errors, warnings }]) => [rule, `${errors}e ${warnings}w`]));
}

describe('the linter on third-party-like tools (test/fixtures/third-party: filesystem, GitHub, Slack, fetch, Postgres, Puppeteer)', () => {
  it('reports no errors on them, and only what an importer can act on', async () => {
    const { tools, warnings } = await loadImportedTools(FIXTURE);
    expect(tools).toHaveLength(22);
    expect(warnings).toEqual([]);
    expect(tools.every((tool) => tool.origin.kind === 'mcp')).toBe(true);
    const findings = lintTools(tools);
    // Before this linter knew about imported tools (87f4d11): 18 errors (every one tw/missing-reason) and 75 warnings.
    expect(countByRule(findings)).toEqual({ 'tw/vague-description': '0e 3w', 'tw/prefer-enum': '0e 2w', 'tw/provider-compatibility': '0e 1w' });
    expect(findings.filter((finding) => finding.rule === 'tw/prefer-enum').map((finding) => `${finding.tool}${finding.path}`)).toEqual([
      'list_issues/inputSchema/properties/state',
      'merge_pull_request/inputSchema/properties/merge_method',
    ]);
  });

  it('as if written here, checks reachable $defs only, a shared one once, and still demands a reason on writes', async () => {
    const { tools } = await loadImportedTools(FIXTURE);
    const findings = lintTools(tools, { imported: false });
    expect(countByRule(findings)).toEqual({
      'tw/missing-description': '0e 18w',
      'tw/missing-reason': '18e 0w',
      'tw/open-object': '0e 23w',
      'tw/missing-when': '0e 18w',
      'tw/vague-description': '0e 4w',
      'tw/prefer-enum': '0e 2w',
      'tw/missing-format': '0e 5w',
      'tw/missing-required': '0e 3w',
      'tw/provider-compatibility': '0e 1w',
      // move_file's destination, both Slack channel ids, puppeteer_navigate's url.
      'tw/unmarked-critical': '0e 4w',
    });
    // `User` is defined in three tools and used by none; `RepoRef` is used by four and reported on the first.
    expect(findings.filter((finding) => finding.path.includes('/$defs/User'))).toEqual([]);
    const repoRef = findings.filter((finding) => finding.path.includes('/$defs/RepoRef'));
    expect(repoRef.map((finding) => [finding.rule, finding.tool, finding.path])).toEqual([
      ['tw/missing-description', 'list_issues', '/inputSchema/$defs/RepoRef/properties/owner'],
      ['tw/missing-description', 'list_issues', '/inputSchema/$defs/RepoRef/properties/name'],
      ['tw/open-object', 'list_issues', '/inputSchema/$defs/RepoRef'],
    ]);
    expect(repoRef[0]!.message).toBe(
      'Property "owner" has no description. The same definition is in "create_issue", "create_pull_request", "merge_pull_request"; reported once.',
    );
  });

  it('lint --imported lists what strict mode and the token mask lose per tool', async () => {
    const report = await lintModule(FIXTURE, { imported: true });
    expect([report.tools, report.errors, report.warnings]).toEqual([22, 0, 6]);
    const createIssue = report.imported!.losses.find((entry) => entry.tool === 'create_issue')!;
    expect(createIssue.server).toBe('github');
    expect(createIssue.strictMode.dropped.map((loss) => `${loss.feature} ${loss.path}`)).toEqual(['uniqueItems /properties/assignees/uniqueItems']);
    // the token mask enforces uniqueItems over any strings (the matcher remembers the items written)
    expect(createIssue.tokenMask).toEqual({ refused: undefined, relaxed: [], failed: undefined });
    const fetch = report.imported!.losses.find((entry) => entry.tool === 'fetch')!;
    expect(fetch.strictMode.dropped.map((loss) => loss.feature)).toEqual(['format', 'default', 'default', 'default']);
    expect(fetch.tokenMask).toEqual({ refused: undefined, relaxed: [], failed: undefined });
    const text = formatImportedLosses(report.imported!.losses);
    expect(text).toContain('\ncreate_issue  (github)\n  strict mode drops uniqueItems at /properties/assignees/uniqueItems: ');
    expect(text).not.toContain('token mask refuses "uniqueItems"');
    expect(text.trimEnd().split('\n').at(-1)).toBe('1 of 22 tools lose nothing under OpenAI strict mode or the token mask.');
  });

  it('treats the file as hostile: entries that are not tool descriptors are skipped with a warning, bad JSON is a load error', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const folder = mkdtempSync(join(tmpdir(), 'tw-lint-imported-'));
    writeFileSync(join(folder, 'list.json'), JSON.stringify({ tools: [{ name: 'ok_tool', inputSchema: { type: 'object' } }, { name: 3 }, 'x'] }));
    writeFileSync(join(folder, 'broken.json'), '{ "tools": [');
    const loaded = await loadImportedTools('list.json', folder);
    expect(loaded.tools.map((tool) => tool.name)).toEqual(['ok_tool']);
    expect(loaded.warnings.map((warning) => `${warning.type} ${warning.tool}`)).toEqual(['rewritten ok_tool', 'skipped #1', 'skipped #2']);
    await expect(loadImportedTools('broken.json', folder)).rejects.toThrow(/is not valid JSON/);
    // A root with no properties accepts any object; strict mode can only send {} for it.
    expect(importedToolLosses(loaded.tools[0]!).strictMode.dropped.map((loss) => `${loss.feature} ${loss.path}`)).toEqual(['open-object ']);
  });
});
