// TEMPORARY (uncommitted): replaced by wt-p's version at merge.
import type { AnyTool } from '../../tools/index.js';
import type { LintFinding } from './lint-tools.js';
export function checkImportedDefinitions(_tools: readonly AnyTool[]): LintFinding[] {
  return [];
}
