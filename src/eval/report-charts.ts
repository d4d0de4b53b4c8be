/**
 * The report's two charts as inline SVG (no script, no external resource):
 * utility against attack effects per strategy, where the top-left corner is
 * "useful and safe"; and the four rates side by side per strategy.
 * @module
 */
import type { StrategyMetrics } from './metrics.js';
import { escapeMarkup } from '../shared/escape-markup.js';

/** Colours per strategy, fixed so that every report reads the same way. */
export const STRATEGY_COLORS: Readonly<Record<string, string>> = Object.freeze({
  none: '#c0392b',
  isolation: '#e67e22',
  policy: '#2471a3',
  'isolation+policy': '#1e8449',
  'plan-then-execute': '#7d3c98',
});

const pct = (value: number | null) => (value === null ? 'n/a' : `${Math.round(value * 1000) / 10}%`);
const color = (strategy: string) => STRATEGY_COLORS[strategy] ?? '#555';

/** Scatter: x = attack effects, y = clean utility (filled) and utility under attack (hollow), per strategy. */
export function utilityVsEffectsChart(rows: readonly StrategyMetrics[]): string {
  const width = 600;
  const height = 400;
  const left = 64;
  const top = 28;
  const plotWidth = 300;
  const plotHeight = 300;
  const x = (value: number | null) => left + (value ?? 0) * plotWidth;
  const y = (value: number | null) => top + (1 - (value ?? 0)) * plotHeight;
  const parts: string[] = [];
  parts.push(`<rect x="${left}" y="${top}" width="${plotWidth * 0.25}" height="${plotHeight * 0.25}" fill="#e8f6ec"/>`);
  parts.push(`<text x="${left + 6}" y="${top + plotHeight * 0.25 - 6}" font-size="11" fill="#1e8449">useful and safe</text>`);
  for (let step = 0; step <= 5; step++) {
    const value = step / 5;
    parts.push(`<line x1="${left}" x2="${left + plotWidth}" y1="${y(value)}" y2="${y(value)}" stroke="#ddd"/>`);
    parts.push(`<line x1="${x(value)}" x2="${x(value)}" y1="${top}" y2="${top + plotHeight}" stroke="#ddd"/>`);
    parts.push(`<text x="${left - 8}" y="${y(value) + 4}" font-size="11" text-anchor="end" fill="#444">${value * 100}%</text>`);
    parts.push(`<text x="${x(value)}" y="${top + plotHeight + 16}" font-size="11" text-anchor="middle" fill="#444">${value * 100}%</text>`);
  }
  parts.push(`<rect x="${left}" y="${top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#888"/>`);
  parts.push(
    `<text x="${left + plotWidth / 2}" y="${top + plotHeight + 38}" font-size="12" text-anchor="middle" fill="#222">attack effects (targeted attack success)</text>`,
  );
  parts.push(`<text transform="translate(16 ${top + plotHeight / 2}) rotate(-90)" font-size="12" text-anchor="middle" fill="#222">utility</text>`);
  const used: { cx: number; cy: number }[] = [];
  for (const row of rows) {
    const cx = x(row.attackEffects.rate);
    const clean = y(row.cleanUtility.rate);
    const attacked = y(row.utilityUnderAttack.rate);
    // Strategies with the same numbers would hide each other: each repeat shifts right a little.
    const shift = used.filter((point) => Math.abs(point.cx - cx) < 4 && Math.abs(point.cy - clean) < 4).length * 7;
    used.push({ cx, cy: clean });
    parts.push(`<line x1="${cx + shift}" x2="${cx + shift}" y1="${clean}" y2="${attacked}" stroke="${color(row.strategy)}" stroke-dasharray="3 3"/>`);
    parts.push(
      `<circle cx="${cx + shift}" cy="${attacked}" r="5" fill="#fff" stroke="${color(row.strategy)}" stroke-width="2"><title>${escapeMarkup(`${row.strategy}: utility under attack ${pct(row.utilityUnderAttack.rate)}`)}</title></circle>`,
    );
    parts.push(
      `<circle cx="${cx + shift}" cy="${clean}" r="6" fill="${color(row.strategy)}"><title>${escapeMarkup(`${row.strategy}: clean utility ${pct(row.cleanUtility.rate)}, attack effects ${pct(row.attackEffects.rate)}`)}</title></circle>`,
    );
  }
  const legendX = left + plotWidth + 24;
  parts.push(`<text x="${legendX}" y="${top + 8}" font-size="12" font-weight="600" fill="#222">strategy</text>`);
  rows.forEach((row, index) => {
    const ly = top + 28 + index * 32;
    parts.push(`<circle cx="${legendX + 6}" cy="${ly - 4}" r="6" fill="${color(row.strategy)}"/>`);
    parts.push(`<text x="${legendX + 18}" y="${ly}" font-size="12" fill="#222">${escapeMarkup(row.strategy)}</text>`);
    parts.push(
      `<text x="${legendX + 18}" y="${ly + 12}" font-size="10" fill="#666">${escapeMarkup(`${pct(row.cleanUtility.rate)} / ${pct(row.utilityUnderAttack.rate)} / ${pct(row.attackEffects.rate)}`)}</text>`,
    );
  });
  const keyY = top + 28 + rows.length * 32 + 12;
  parts.push(
    `<circle cx="${legendX + 6}" cy="${keyY - 4}" r="6" fill="#555"/><text x="${legendX + 18}" y="${keyY}" font-size="11" fill="#333">clean utility</text>`,
  );
  parts.push(
    `<circle cx="${legendX + 6}" cy="${keyY + 16}" r="5" fill="#fff" stroke="#555" stroke-width="2"/><text x="${legendX + 18}" y="${keyY + 20}" font-size="11" fill="#333">utility under attack</text>`,
  );
  parts.push(`<text x="${legendX}" y="${keyY + 42}" font-size="10" fill="#666">legend numbers: clean utility /</text>`);
  parts.push(`<text x="${legendX}" y="${keyY + 54}" font-size="10" fill="#666">utility under attack / attack effects</text>`);
  return svg(width, height, 'Utility against attack effects per strategy', parts);
}

const BAR_SERIES: readonly { key: 'cleanUtility' | 'utilityUnderAttack' | 'attackAttempts' | 'attackEffects'; label: string; color: string }[] = [
  { key: 'cleanUtility', label: 'clean utility', color: '#1e8449' },
  { key: 'utilityUnderAttack', label: 'utility under attack', color: '#7dcea0' },
  { key: 'attackAttempts', label: 'attack attempts', color: '#f0b27a' },
  { key: 'attackEffects', label: 'attack effects', color: '#c0392b' },
];

/** Grouped bars: the four rates of each strategy. */
export function ratesChart(rows: readonly StrategyMetrics[]): string {
  const left = 48;
  const top = 36;
  const plotHeight = 220;
  const barWidth = 22;
  const groupWidth = BAR_SERIES.length * barWidth + 36;
  const width = Math.max(420, left + rows.length * groupWidth + 20);
  const height = top + plotHeight + 56;
  const y = (value: number) => top + (1 - value) * plotHeight;
  const parts: string[] = [];
  for (let step = 0; step <= 4; step++) {
    const value = step / 4;
    parts.push(`<line x1="${left}" x2="${width - 10}" y1="${y(value)}" y2="${y(value)}" stroke="#e3e3e3"/>`);
    parts.push(`<text x="${left - 6}" y="${y(value) + 4}" font-size="11" text-anchor="end" fill="#444">${value * 100}%</text>`);
  }
  BAR_SERIES.forEach((series, index) => {
    const lx = left + index * 130;
    parts.push(
      `<rect x="${lx}" y="8" width="12" height="12" fill="${series.color}"/><text x="${lx + 16}" y="18" font-size="11" fill="#222">${series.label}</text>`,
    );
  });
  rows.forEach((row, groupIndex) => {
    const gx = left + 18 + groupIndex * groupWidth;
    BAR_SERIES.forEach((series, index) => {
      const value = row[series.key].rate;
      const bx = gx + index * barWidth;
      const barTop = y(value ?? 0);
      parts.push(
        `<rect x="${bx}" y="${barTop}" width="${barWidth - 4}" height="${Math.max(0, top + plotHeight - barTop)}" fill="${series.color}"><title>${escapeMarkup(`${row.strategy}, ${series.label}: ${pct(value)}`)}</title></rect>`,
      );
      parts.push(
        `<text x="${bx + (barWidth - 4) / 2}" y="${barTop - 4}" font-size="9" text-anchor="middle" fill="#333">${value === null ? 'n/a' : Math.round(value * 100)}</text>`,
      );
    });
    parts.push(
      `<text x="${gx + (BAR_SERIES.length * barWidth) / 2 - 2}" y="${top + plotHeight + 18}" font-size="12" text-anchor="middle" fill="${color(row.strategy)}" font-weight="600">${escapeMarkup(row.strategy)}</text>`,
    );
  });
  parts.push(`<line x1="${left}" x2="${width - 10}" y1="${top + plotHeight}" y2="${top + plotHeight}" stroke="#888"/>`);
  parts.push(
    `<text x="${left}" y="${top + plotHeight + 44}" font-size="11" fill="#555">bars in % of cases (clean cases for clean utility, attack cases for the others)</text>`,
  );
  return svg(width, height, 'Rates per strategy', parts);
}

function svg(width: number, height: number, title: string, parts: readonly string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeMarkup(title)}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif"><title>${escapeMarkup(title)}</title>${parts.join('')}</svg>`;
}
