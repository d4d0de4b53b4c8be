/**
 * HTML built by a tagged template that escapes every interpolated value, so a
 * string from a run record (model output, tool results: hostile text) can only
 * ever land in the page as text. Markup is composed from other `html` values.
 * @module
 */
import { escapeMarkup } from '../../shared/escape-markup.js';
import { showInvisible } from '../../shared/visible-text.js';

/**
 * Escapes text for an HTML text node or a quoted attribute value. Bidirectional controls and zero-width characters
 * become a visible `⟨U+XXXX⟩` (`showInvisible`): in a page they would reorder or hide what a person reads.
 */
export function escapeHtml(text: string): string {
  return escapeMarkup(showInvisible(text));
}

/** Markup that is already safe: only `html` and {@link trustedHtml} make one. */
export class Html {
  readonly #markup: string;
  constructor(markup: string) {
    this.#markup = markup;
  }
  toString(): string {
    return this.#markup;
  }
}

type Interpolated = Html | string | number | boolean | undefined | null | readonly Interpolated[];

function render(value: Interpolated): string {
  if (value === undefined || value === null || value === false) return '';
  if (value instanceof Html) return value.toString();
  if (Array.isArray(value)) return (value as readonly Interpolated[]).map(render).join('');
  return escapeHtml(String(value));
}

/** `html\`<td>${text}</td>\``: interpolated strings and numbers are escaped, `Html` values and arrays of them are inserted as they are. */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): Html {
  let out = strings[0]!;
  for (let index = 0; index < values.length; index++) out += render(values[index]!) + strings[index + 1]!;
  return new Html(out);
}

/** For markup written in this module's own source only (the stylesheet, constant fragments), never for data. */
export function trustedHtml(markup: string): Html {
  return new Html(markup);
}
