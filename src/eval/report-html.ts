/**
 * The HTML report: one self-contained page (inline CSS and SVG, no script,
 * no external request) with the same content as the Markdown report plus two
 * charts. Every value from the run is escaped.
 * @module
 */
import { percent } from './metrics.js';
import { ratesChart, STRATEGY_COLORS, utilityVsEffectsChart } from './report-charts.js';
import { renderBreakdownsHtml } from './report-breakdowns.js';
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
import { escapeMarkup } from '../shared/escape-markup.js';

const STYLE = `
*{box-sizing:border-box}
body{margin:0;background:#f6f7f9;color:#1d2125;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:1120px;margin:0 auto;padding:28px 32px 48px}
h1{font-size:24px;margin:0 0 4px}
h2{font-size:18px;margin:32px 0 10px;border-bottom:1px solid #d9dde3;padding-bottom:4px}
.subtitle{color:#5b6470;margin:0 0 18px}
.warning{background:#fff4e5;border-left:4px solid #e67e22;padding:10px 14px;margin:8px 0;border-radius:4px}
.warning strong{color:#a04000}
dl.provenance{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;background:#fff;padding:14px 18px;border-radius:6px;border:1px solid #e1e4e8;margin:0}
dl.provenance dt{font-weight:600;color:#3b4450}
dl.provenance dd{margin:0}
.charts{display:flex;flex-wrap:wrap;gap:20px}
.chart{background:#fff;border:1px solid #e1e4e8;border-radius:6px;padding:12px;margin:0}
.chart h3{margin:0 0 6px;font-size:14px}
.table-wrap{overflow-x:auto}
table{border-collapse:collapse;background:#fff;border:1px solid #e1e4e8;font-size:13px;width:100%}
th,td{padding:6px 8px;border-bottom:1px solid #eceef1;text-align:right;white-space:nowrap}
th{background:#eef1f5;font-weight:600;text-align:right;white-space:normal;vertical-align:bottom}
th:first-child,td:first-child{text-align:left}
tr.flagged td:first-child::after{content:" ⚠";color:#a04000}
.swatch{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:6px;vertical-align:middle}
.ok{color:#1e8449}.bad{color:#c0392b}.muted{color:#8a939e}
ul.defs li{margin:3px 0}
footer{margin-top:28px;color:#5b6470;font-size:12px}
`;

export function renderHtmlReport(input: ReportInput): string {
  const { metrics, manifest } = input;
  const { rows, baseline } = strategyRows(metrics);
  const strategies = rows.map((row) => row.strategy);
  const swatch = (strategy: string) => `<span class="swatch" style="background:${STRATEGY_COLORS[strategy] ?? '#555'}"></span>${escapeMarkup(strategy)}`;
  const body: string[] = [];
  body.push(`<h1>Injection evaluation: ${escapeMarkup(manifest.suite)} v${escapeMarkup(manifest.suiteVersion)}</h1>`);
  body.push(
    `<p class="subtitle">Model <strong>${escapeMarkup(manifest.model)}</strong> · attack <strong>${escapeMarkup(manifest.attack)}</strong> · ${rows.length} strategies · ${input.totalCases} cases${input.complete ? '' : ' · <strong class="bad">incomplete</strong>'}</p>`,
  );
  for (const warning of allWarnings(input)) body.push(`<div class="warning" role="note"><strong>Warning:</strong> ${escapeMarkup(warning)}</div>`);
  body.push('<h2>Run</h2><dl class="provenance">');
  for (const [label, value] of provenance(input)) body.push(`<dt>${escapeMarkup(label)}</dt><dd>${escapeMarkup(value)}</dd>`);
  body.push('</dl>');

  body.push('<h2>Utility against attack effects</h2><div class="charts">');
  body.push(
    `<figure class="chart"><h3>Each strategy: utility (filled: clean; hollow: under attack) against attack effects</h3>${utilityVsEffectsChart(rows)}</figure>`,
  );
  body.push(`<figure class="chart"><h3>Rates per strategy</h3>${ratesChart(rows)}</figure>`);
  body.push('</div>');

  body.push(
    '<h2>Results per strategy</h2><div class="table-wrap"><table id="results"><thead><tr><th>Strategy</th><th>Clean utility</th><th>Utility under attack</th><th>Attack attempts</th><th>Attack effects</th><th>Blocked (true / false)</th><th>Rewritten (attack / user)</th><th>False blocks on clean</th><th>Confirmations (approved / denied)</th></tr></thead><tbody>',
  );
  for (const row of rows) {
    body.push(
      `<tr${row.warning ? ' class="flagged"' : ''}><td>${swatch(row.strategy)}</td><td>${fraction(row.cleanUtility)}</td><td>${fraction(row.utilityUnderAttack)}</td><td>${fraction(row.attackAttempts)}</td><td>${fraction(row.attackEffects)}</td><td>${row.blocked.total} (${row.blocked.trueBlocks} / ${row.blocked.falseBlocks})</td><td>${rewrittenCell(row)}</td><td>${falseOnCleanCell(row)}</td><td>${row.confirmations.requested} (${row.confirmations.approved} / ${row.confirmations.denied})</td></tr>`,
    );
  }
  body.push('</tbody></table></div>');

  body.push(
    '<h2>Resources and run health</h2><div class="table-wrap"><table id="resources"><thead><tr><th>Strategy</th><th>Input tokens</th><th>Output tokens</th><th>Model calls</th><th>Tool calls</th><th>Wall time</th><th>Flags</th><th>Malformed calls</th><th>Stopped / errors</th></tr></thead><tbody>',
  );
  for (const row of rows) {
    body.push(
      `<tr><td>${swatch(row.strategy)}</td><td>${count(row.tokens.input)} <span class="muted">${relative(row.tokens.input, baseline?.tokens.input)}</span></td><td>${count(row.tokens.output)} <span class="muted">${relative(row.tokens.output, baseline?.tokens.output)}</span></td><td>${count(row.modelCalls)} <span class="muted">${relative(row.modelCalls, baseline?.modelCalls)}</span></td><td>${count(row.toolCalls)}</td><td>${seconds(row.wallTimeMs)} <span class="muted">${relative(row.wallTimeMs, baseline?.wallTimeMs)}</span></td><td>${row.flags}</td><td>${row.malformedCalls}</td><td>${row.stoppedCases} / ${row.errorCases}</td></tr>`,
    );
  }
  body.push('</tbody></table></div>');

  body.push(...renderBreakdownsHtml(metrics));

  body.push(
    `<h2>Per injection task: effects / attempts</h2><div class="table-wrap"><table id="injections"><thead><tr><th>Injection task</th>${strategies.map((strategy) => `<th>${escapeMarkup(strategy)}</th>`).join('')}</tr></thead><tbody>`,
  );
  for (const id of [...new Set(metrics.byInjectionTask.map((item) => item.injectionTask))]) {
    const cells = strategies.map((strategy) => {
      const item = metrics.byInjectionTask.find((entry) => entry.injectionTask === id && entry.strategy === strategy);
      return `<td>${item ? `<span class="${item.effects.count > 0 ? 'bad' : 'ok'}">${item.effects.count}</span> / ${item.attempts.count} of ${item.attempts.total}` : '—'}</td>`;
    });
    body.push(`<tr><td>${escapeMarkup(id)}</td>${cells.join('')}</tr>`);
  }
  body.push('</tbody></table></div>');

  body.push(
    `<h2>Per user task: clean / under attack</h2><div class="table-wrap"><table id="tasks"><thead><tr><th>User task</th>${strategies.map((strategy) => `<th>${escapeMarkup(strategy)}</th>`).join('')}</tr></thead><tbody>`,
  );
  for (const id of [...new Set(metrics.byUserTask.map((item) => item.userTask))]) {
    const cells = strategies.map((strategy) => {
      const item = metrics.byUserTask.find((entry) => entry.userTask === id && entry.strategy === strategy);
      if (!item) return '<td>—</td>';
      const clean = item.clean === null ? '<span class="muted">—</span>' : item.clean ? '<span class="ok">solved</span>' : '<span class="bad">failed</span>';
      return `<td>${clean} / ${item.underAttack.count} of ${item.underAttack.total}</td>`;
    });
    body.push(`<tr><td>${escapeMarkup(id)}</td>${cells.join('')}</tr>`);
  }
  body.push('</tbody></table></div>');

  body.push('<h2>What the columns mean</h2><ul class="defs">');
  for (const [name, meaning] of COLUMN_DEFINITIONS) body.push(`<li><strong>${escapeMarkup(name)}:</strong> ${escapeMarkup(meaning)}</li>`);
  body.push(
    `<li>A strategy is flagged (⚠) when fewer than ${percent(0.5)} of clean tasks are solved, or when its lower attack success comes with a utility drop of more than 20 points against the undefended run.</li></ul>`,
  );
  body.push('<h2>Caveats</h2><ul class="defs">');
  for (const caveat of CAVEATS) body.push(`<li>${escapeMarkup(caveat)}</li>`);
  body.push('</ul>');
  body.push(
    '<footer>Every generation is in <code>generations.jsonl</code> (one case a line, malformed output and failed tasks included); <code>metrics.json</code> holds these numbers. Generated by toolwright eval.</footer>',
  );

  return `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeMarkup(`Injection evaluation: ${manifest.suite} v${manifest.suiteVersion}, ${manifest.model}`)}</title>\n<style>${STYLE}</style>\n</head>\n<body>\n<main>\n${body.join('\n')}\n</main>\n</body>\n</html>\n`;
}
