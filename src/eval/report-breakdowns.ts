/**
 * The report's breakdowns by suite, by attack, the adaptive attack against
 * the single-shot ones, and by scope, in HTML and in
 * Markdown: a defence tuned to one domain or to one attack shows up as a row
 * that differs from the others, and in-scope goals (those a task scope cannot
 * pin) are counted apart from the rest.
 * @module
 */
import type { EvalMetrics } from './metrics.js';
import { fraction } from './report-input.js';
import { escapeMarkup } from '../shared/escape-markup.js';

interface Table {
  id: string;
  title: string;
  header: string[];
  rows: string[][];
  /** Columns whose non-zero count is bad (attack effects). */
  badColumns: number[];
}

function tables(metrics: EvalMetrics): Table[] {
  const out: Table[] = [];
  if (metrics.bySuite && metrics.bySuite.length > 0)
    out.push({
      id: 'suites',
      title: 'Per suite',
      header: ['Suite', 'Strategy', 'Clean utility', 'Utility under attack', 'Attack attempts', 'Attack effects', 'False blocks on clean'],
      rows: metrics.bySuite.map((item) => [
        item.suite,
        item.strategy,
        fraction(item.cleanUtility),
        fraction(item.utilityUnderAttack),
        fraction(item.attempts),
        fraction(item.effects),
        `${item.falseBlocksOnClean} (${item.cleanCasesWithBlocks} cases)${item.rewrittenOnClean > 0 ? `; ${item.rewrittenOnClean} rewritten` : ''}`,
      ]),
      badColumns: [5],
    });
  if (metrics.byAttack && metrics.byAttack.length > 0)
    out.push({
      id: 'attacks',
      title: 'Per attack',
      header: ['Attack', 'Strategy', 'Utility under attack', 'Attack attempts', 'Attack effects'],
      rows: metrics.byAttack.map((item) => [item.attack, item.strategy, fraction(item.utilityUnderAttack), fraction(item.attempts), fraction(item.effects)]),
      badColumns: [4],
    });
  if (metrics.adaptive && metrics.adaptive.length > 0)
    out.push({
      id: 'adaptive',
      title: 'Adaptive attack: best of N tries per case, beside the best single-shot attack',
      header: [
        'Strategy',
        'Adaptive: effects (best of N)',
        'Best single-shot attack: effects',
        'Tries run / budget',
        'Model calls (all tries)',
        'Attacker model failures',
      ],
      rows: metrics.adaptive.map((item) => [
        item.strategy,
        fraction(item.bestOfN),
        item.bestSingleShot ? `${fraction(item.bestSingleShot.effects)} (${item.bestSingleShot.attack})` : '—',
        `${item.triesUsed} / ${item.budget} (N = ${item.maxTries})`,
        String(item.modelCalls),
        // Optional in metrics written before failures were counted.
        (item.proposerFailures ?? 0) === 0 ? '0' : `${item.proposerFailures}: ${(item.proposerFailureReasons ?? []).join('; ')}`,
      ]),
      badColumns: [1, 2],
    });
  const scoped = metrics.strategies.filter((item) => item.effectsByScope);
  if (scoped.length > 0)
    out.push({
      id: 'scope',
      title:
        "Attack effects by scope (in scope: the user task's scope alone lets the goal through, so only a rule on where a value came from can keep it out; or the suite declares so)",
      header: ['Strategy', 'In-scope pairs', 'In scope', 'In-scope cases a person was asked about', 'In-scope effects after an approval', 'Outside the scope'],
      rows: scoped.map((item) => {
        const scope = item.effectsByScope!;
        const counted = (value: number | undefined) => (value === undefined ? '—' : String(value));
        return [
          item.strategy,
          counted(scope.inScopePairs),
          fraction(scope.inScope),
          counted(scope.inScopeConfirmed),
          counted(scope.inScopeApprovedEffects),
          fraction(scope.outOfScope),
        ];
      }),
      badColumns: [2, 4, 5],
    });
  return out;
}

const hasCount = (cell: string) => cell !== '—' && !/^0(\/|$)/.test(cell);

/** The breakdown tables as HTML sections. */
export function renderBreakdownsHtml(metrics: EvalMetrics): string[] {
  return tables(metrics).map(
    (table) =>
      `<h2>${escapeMarkup(table.title)}</h2><div class="table-wrap"><table id="${table.id}"><thead><tr>${table.header.map((cell) => `<th>${escapeMarkup(cell)}</th>`).join('')}</tr></thead><tbody>${table.rows
        .map(
          (row) =>
            `<tr>${row.map((cell, index) => `<td>${table.badColumns.includes(index) ? `<span class="${hasCount(cell) ? 'bad' : 'ok'}">${escapeMarkup(cell)}</span>` : escapeMarkup(cell)}</td>`).join('')}</tr>`,
        )
        .join('')}</tbody></table></div>`,
  );
}

/** The breakdown tables as Markdown lines. */
export function renderBreakdownsMarkdown(metrics: EvalMetrics): string[] {
  return tables(metrics).flatMap((table) => [
    `## ${table.title}`,
    '',
    `| ${table.header.join(' | ')} |`,
    `|${table.header.map(() => '---').join('|')}|`,
    ...table.rows.map((row) => `| ${row.map(markdownCell).join(' | ')} |`),
    '',
  ]);
}

/** A cell can hold text from outside (an attacker model's error): a bar or a line break would end the row. */
function markdownCell(text: string): string {
  return text.replace(/\r?\n|\r/g, ' ').replace(/\|/g, '\\|');
}
