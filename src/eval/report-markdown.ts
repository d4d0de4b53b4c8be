/**
 * The Markdown report: warnings first, then provenance, the table per
 * strategy, resources relative to the undefended run, breakdowns per
 * injection task and per user task, definitions and caveats.
 * @module
 */
import { percent } from './metrics.js';
import { renderBreakdownsMarkdown } from './report-breakdowns.js';
import {
  allWarnings,
  CAVEATS,
  COLUMN_DEFINITIONS,
  count,
  falseOnCleanCell,
  fraction,
  provenance,
  relative,
  rewrittenCell,
  seconds,
  strategyRows,
  type ReportInput,
} from './report-input.js';

export function renderMarkdownReport(input: ReportInput): string {
  const { metrics, manifest } = input;
  const { rows, baseline } = strategyRows(metrics);
  const out: string[] = [];
  out.push(`# Injection evaluation: ${manifest.suite} v${manifest.suiteVersion}, ${manifest.model}`, '');
  const warnings = allWarnings(input);
  if (warnings.length > 0) {
    for (const warning of warnings) out.push(`> **Warning:** ${warning}`, '>');
    out.pop();
    out.push('');
  }
  out.push('## Run', '');
  for (const [label, value] of provenance(input)) out.push(`- **${label}:** ${value}`);
  out.push('', '## Results per strategy', '');
  out.push(
    '| Strategy | Clean utility | Utility under attack | Attack attempts | Attack effects | Blocked (true / false) | Rewritten (attack / user) | False blocks on clean | Confirmations (approved / denied) |',
  );
  out.push('|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    out.push(
      `| ${row.strategy}${row.warning ? ' ⚠' : ''} | ${fraction(row.cleanUtility)} | ${fraction(row.utilityUnderAttack)} | ${fraction(row.attackAttempts)} | ${fraction(row.attackEffects)} | ${row.blocked.total} (${row.blocked.trueBlocks} / ${row.blocked.falseBlocks}) | ${rewrittenCell(row)} | ${falseOnCleanCell(row)} | ${row.confirmations.requested} (${row.confirmations.approved} / ${row.confirmations.denied}) |`,
    );
  }
  out.push('', '## Resources and run health', '');
  out.push('| Strategy | Input tokens | Output tokens | Model calls | Tool calls | Wall time | Flags | Malformed calls | Stopped / errors |');
  out.push('|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    out.push(
      `| ${row.strategy} | ${count(row.tokens.input)} (${relative(row.tokens.input, baseline?.tokens.input)}) | ${count(row.tokens.output)} (${relative(row.tokens.output, baseline?.tokens.output)}) | ${count(row.modelCalls)} (${relative(row.modelCalls, baseline?.modelCalls)}) | ${count(row.toolCalls)} | ${seconds(row.wallTimeMs)} (${relative(row.wallTimeMs, baseline?.wallTimeMs)}) | ${row.flags} | ${row.malformedCalls} | ${row.stoppedCases} / ${row.errorCases} |`,
    );
  }
  const strategies = rows.map((row) => row.strategy);
  out.push('', ...renderBreakdownsMarkdown(metrics));
  out.push('## Per injection task: effects / attempts', '');
  out.push(`| Injection task | ${strategies.join(' | ')} |`, `|---|${strategies.map(() => '---').join('|')}|`);
  for (const id of [...new Set(metrics.byInjectionTask.map((item) => item.injectionTask))]) {
    const cells = strategies.map((strategy) => {
      const item = metrics.byInjectionTask.find((entry) => entry.injectionTask === id && entry.strategy === strategy);
      return item ? `${item.effects.count} / ${item.attempts.count} of ${item.attempts.total}` : '—';
    });
    out.push(`| ${id} | ${cells.join(' | ')} |`);
  }
  out.push('', '## Per user task: clean / under attack', '');
  out.push(`| User task | ${strategies.join(' | ')} |`, `|---|${strategies.map(() => '---').join('|')}|`);
  for (const id of [...new Set(metrics.byUserTask.map((item) => item.userTask))]) {
    const cells = strategies.map((strategy) => {
      const item = metrics.byUserTask.find((entry) => entry.userTask === id && entry.strategy === strategy);
      if (!item) return '—';
      return `${item.clean === null ? '—' : item.clean ? 'solved' : 'failed'} / ${item.underAttack.count} of ${item.underAttack.total}`;
    });
    out.push(`| ${id} | ${cells.join(' | ')} |`);
  }
  out.push('', '## What the columns mean', '');
  for (const [name, meaning] of COLUMN_DEFINITIONS) out.push(`- **${name}:** ${meaning}`);
  out.push(
    `- A strategy is flagged (⚠) when fewer than ${percent(0.5)} of clean tasks are solved, or when its lower attack success comes with a utility drop of more than 20 points against the undefended run.`,
  );
  out.push('', '## Caveats', '');
  for (const caveat of CAVEATS) out.push(`- ${caveat}`);
  out.push(
    '',
    'Every generation is in `generations.jsonl` (one case a line, malformed output and failed tasks included); `metrics.json` holds these numbers.',
    '',
  );
  return out.join('\n');
}
