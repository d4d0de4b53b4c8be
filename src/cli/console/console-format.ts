/**
 * How the console's pages write values, durations and times: one place, shared by the run list, the run page's
 * timeline and its conversation view.
 * @module
 */

/** A value longer than this (as JSON) is cut in the page, with a note saying how much is left out. */
export const MAX_SHOWN_CHARS = 20_000;

/** A value as the page shows it: strings as they are, anything else as indented JSON, cut at `max` ({@link MAX_SHOWN_CHARS}). */
export function shown(value: unknown, max = MAX_SHOWN_CHARS): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
  } catch {
    text = '(cannot be shown)';
  }
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters in the record)` : text;
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? '–' : date.toISOString().replace('T', ' ').slice(0, 19);
}
