/**
 * A JSON value as a person reads it: a flat object as a table of its keys, a nested one as a tree, strings as text
 * with their real line breaks (never a JSON string with `\n` and `\"` escapes). Every key and value goes through the
 * escaping `html` template. The values come from run records, which a model or a remote server wrote, so the
 * rendering is bounded: a value too deep, too wide or too long is cut with a note, and the raw JSON (itself cut at
 * `MAX_SHOWN_CHARS`) stays one click away on the page.
 * @module
 */
import { html, type Html } from './html.js';

/** How much of a value the view renders; the rest is cut with a note that says how much and where to read it. */
export interface ValueViewLimits {
  /** Levels of nesting rendered; a deeper object or array is summarised (`object with 3 keys`). */
  maxDepth: number;
  /** Keys of one object, or items of one array, rendered; the rest are counted. */
  maxEntries: number;
  /** Objects, arrays and leaves rendered in all; past it, what is left is summarised. */
  maxNodes: number;
  /** Characters of string content rendered in all, over every string of the value; a string past it is cut. */
  maxChars: number;
}

export const VALUE_VIEW_LIMITS: ValueViewLimits = Object.freeze({ maxDepth: 6, maxEntries: 50, maxNodes: 500, maxChars: 20_000 });

interface Budget {
  readonly limits: ValueViewLimits;
  nodes: number;
  chars: number;
}

/** Renders `value` as text, a table (a flat object) or a tree (a nested one), within `limits`. */
export function valueView(value: unknown, limits: ValueViewLimits = VALUE_VIEW_LIMITS): Html {
  return html`<div class="value">${node(value, 0, { limits, nodes: 0, chars: 0 })}</div>`;
}

/** A string as text with its line breaks kept (the stylesheet's `white-space: pre-wrap`), cut at `maxChars`. */
export function textView(text: string, limits: ValueViewLimits = VALUE_VIEW_LIMITS): Html {
  return leafText(text, { limits, nodes: 0, chars: 0 });
}

function node(value: unknown, depth: number, budget: Budget): Html {
  budget.nodes++;
  if (value === null || typeof value !== 'object') return leaf(value, budget);
  const isList = Array.isArray(value);
  if (depth >= budget.limits.maxDepth) return html`<span class="value-cut">${summaryOf(value)}, nested too deep to show here: see the raw JSON</span>`;
  const total = isList ? value.length : Object.keys(value).length;
  if (total === 0) return html`<span class="value-literal">${isList ? '[] (empty list)' : '{} (empty object)'}</span>`;
  const entries: [string, unknown][] = isList
    ? value.slice(0, budget.limits.maxEntries).map((item, index) => [String(index), item])
    : Object.entries(value).slice(0, budget.limits.maxEntries);
  const isFlat = !isList && entries.every(([, item]) => item === null || typeof item !== 'object');
  const rendered: Html[] = [];
  for (const [key, item] of entries) {
    // Checked before each entry, so that a wide value of many small leaves stops as soon as a deep one does.
    if (budget.nodes >= budget.limits.maxNodes) break;
    const inner = node(item, depth + 1, budget);
    rendered.push(
      isFlat
        ? html`<tr>
            <th scope="row">${key}</th>
            <td>${inner}</td>
          </tr>`
        : isList
          ? html`<li>${inner}</li>`
          : html`<li><span class="value-key">${key}</span> ${inner}</li>`,
    );
  }
  const rest = total - rendered.length;
  const more = rest > 0 ? html`<span class="value-cut">… and ${rest} more ${isList ? 'items' : 'keys'}: see the raw JSON</span>` : '';
  if (isFlat)
    return html`<table class="value-table">
        <tbody>
          ${rendered}
        </tbody>
      </table>
      ${more}`;
  return isList
    ? html`<ol class="value-tree value-list" start="0">
          ${rendered}
        </ol>
        ${more}`
    : html`<ul class="value-tree">
          ${rendered}
        </ul>
        ${more}`;
}

function leaf(value: unknown, budget: Budget): Html {
  if (typeof value === 'string') return leafText(value, budget);
  if (value === undefined) return html`<span class="value-literal muted">absent</span>`;
  return html`<span class="value-literal">${String(value)}</span>`;
}

function leafText(text: string, budget: Budget): Html {
  const room = Math.max(budget.limits.maxChars - budget.chars, 0);
  const kept = text.length > room ? text.slice(0, room) : text;
  budget.chars += kept.length;
  if (text.length === 0) return html`<span class="value-literal muted">"" (empty text)</span>`;
  return html`<span class="value-text">${kept}</span>${
      kept.length < text.length ? html`<span class="value-cut">… (${text.length - kept.length} more characters: see the raw JSON)</span>` : ''
    }`;
}

function summaryOf(value: object): string {
  const count = Array.isArray(value) ? value.length : Object.keys(value).length;
  return Array.isArray(value) ? `list of ${count} item${count === 1 ? '' : 's'}` : `object with ${count} key${count === 1 ? '' : 's'}`;
}
