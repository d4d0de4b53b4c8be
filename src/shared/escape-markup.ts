/**
 * Text made safe for an HTML or SVG text node or a quoted attribute value:
 * `&`, `<`, `>`, `"` and `'` become entities. The one escape the eval
 * reports and the console's `html` template share.
 * @module
 */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}
