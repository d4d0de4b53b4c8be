/**
 * Characters a person cannot see but that change what they read: bidirectional
 * overrides, embeddings, isolates and marks reorder the text around them (an
 * address can be made to read backwards, a file name to end in another
 * extension), and zero-width characters split or join words unseen (a lookalike
 * recipient, a command that is not the one shown). Wherever a person reads text
 * that a model or a remote server wrote (a confirmation's summary and
 * arguments, the console, the CLI), each such character is replaced by a
 * visible `⟨U+202E⟩`.
 * @module
 */

/**
 * U+061C Arabic letter mark; U+180E Mongolian vowel separator; U+200B–U+200F zero-width space, non-joiner, joiner,
 * left-to-right and right-to-left marks; U+202A–U+202E embeddings and overrides; U+2060–U+2064 word joiner and the
 * invisible operators; U+2066–U+2069 isolates; U+206A–U+206F deprecated format controls; U+FEFF zero-width no-break
 * space (byte-order mark). One character class: a single linear scan.
 */
const INVISIBLE = /[\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/g;

/** `text` with every bidirectional control and zero-width character written as `⟨U+XXXX⟩`; other text unchanged. */
export function showInvisible(text: string): string {
  return text.replace(INVISIBLE, (char) => `⟨U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/**
 * JSON text with the same characters written as `\uHHHH` escapes: the value it parses to is unchanged (they can only
 * stand inside strings, JSON's own syntax being ASCII), and a terminal shows the escape instead of obeying it.
 */
export function escapeInvisibleInJson(json: string): string {
  return json.replace(INVISIBLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
