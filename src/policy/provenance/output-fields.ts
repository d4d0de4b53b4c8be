/**
 * A tool's output read as the values it holds. A tool that returns an object reaches the run as its JSON text, where a line
 * break inside a string is the two characters `\n`: searched as text, `"Pay to:\nACME GmbH"` has the name glued to an `n`
 * (a verbatim copy of "ACME GmbH" is not found on word boundaries) and an IBAN right after a `\n` is glued to one too (the
 * detectors miss it). So an output whose text is a JSON object or array is indexed field by field: each string and number,
 * with its field path, as the pair `"key":value` it was in the JSON text but with its escapes decoded. The key stays beside
 * its value because a key can be the only cue that a number is a code (`"pin":4096`, value-detectors.ts).
 *
 * What this does not see: a value or a verbatim copy spanning two fields (each field is a text of its own), a code whose cue
 * word is in another field, and object keys that are themselves values (`{"DE89…": …}`). An output that is not one JSON
 * object or array (plain text, several content parts, a text cut at the size cap) is indexed as its text, as before.
 * @module
 */
import { safeParseJson } from '../../shared/safe-json.js';
import { isPlainObject } from '../../shared/own.js';
import { stringLeaves } from '../argument-values.js';

/** One text of a tool's output to index, and the field it came from (`transactions[0].subject`), when the output was JSON. */
export interface OutputField {
  text: string;
  field?: string;
}

/**
 * Nesting beyond which a JSON output is indexed as its text: a bound on the parse, far above what a tool's result needs
 * (the text is indexed either way, so an output nested deeper loses only the decoding of its escapes).
 */
const MAX_OUTPUT_DEPTH = 64;

/**
 * Fields beyond which an output's fields are indexed as one text with no field path: each field costs the detectors' fixed
 * overhead (about 6 µs), so 100,000 one-character fields in a 200,000-character output held the event loop for 600 ms.
 */
export const MAX_OUTPUT_FIELDS = 5_000;

/** The texts to index for a tool's output text: its fields when it is a JSON object or array, else the text itself. */
export function outputFields(text: string, maxChars: number): OutputField[] {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return [{ text }];
  const parsed = safeParseJson(text, { maxDepth: MAX_OUTPUT_DEPTH, maxChars });
  if (!parsed.success || (!isPlainObject(parsed.value) && !Array.isArray(parsed.value))) return [{ text }];
  const fields = stringLeaves(parsed.value, '', true).map((leaf) => {
    const key = /([^.[\]]+)(?:\[\d+\])*$/.exec(leaf.path)?.[1];
    const value = typeof leaf.value === 'number' ? String(leaf.value) : `"${leaf.value as string}"`;
    return { text: key === undefined ? value : `"${key}":${value}`, field: leaf.path };
  });
  // Each field is a text of its own, indexed at a fixed cost: past the cap, the fields are one text, read as values but with no field.
  return fields.length > MAX_OUTPUT_FIELDS ? [{ text: fields.map((item) => item.text).join('\n') }] : fields;
}

/**
 * A tool's output as the copied-argument check searches it: its fields (`outputFields`) one per line, so a value copied from
 * a field is found with its line breaks as they are, not as JSON escapes.
 */
export function outputSearchText(text: string): string {
  // The session has already cut the text to what it keeps.
  return outputFields(text, text.length)
    .map((item) => item.text)
    .join('\n');
}
