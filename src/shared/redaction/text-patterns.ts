/**
 * Secrets recognised in free text by their shape: provider keys, bearer
 * tokens, JWTs, PEM private keys, cloud and forge tokens, passwords in URLs,
 * credential headers and `name=value` pairs with a credential name.
 *
 * Every pattern here runs in linear time on any input: each starts with a
 * literal or a one-character look-behind that lets a match begin only at the
 * start of a run of token characters, its repeated parts are single character
 * classes with nothing after them that could fail late, or are bounded. PEM
 * blocks are found with `indexOf`, not with a lazy regex.
 * @module
 */
import { isSensitiveName } from './sensitive-names.js';

export const REDACTED = '[REDACTED]';

/** Key and token formats, replaced whole. */
export const DEFAULT_REDACTION_PATTERNS: readonly RegExp[] = Object.freeze([
  // OpenAI (sk-…, sk-proj-…), Anthropic (sk-ant-…) and most `sk-` style keys.
  /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{16,}/g,
  // JWTs: three base64url segments, the first a JSON header (`{"` is `eyJ`).
  /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g,
  // AWS access key ids.
  /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])/g,
  // GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained.
  /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{20,}/g,
  /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{20,}/g,
  // Slack tokens, Google API keys, Stripe secret and restricted keys.
  /(?<![A-Za-z0-9-])xox[abprs]-[A-Za-z0-9-]{10,}/g,
  /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}/g,
  /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g,
]);

/** `Bearer <token>`: the token goes, the word stays so a reader knows what was there. */
const BEARER = /\b(Bearer[ \t]{1,16})[A-Za-z0-9._~+/-]{8,}=*/gi;
/** `scheme://user:password@host`: the password goes. */
const URL_PASSWORD = /(?<=:\/\/)([^\s/@:]{1,256}):[^\s/@]{1,256}@/g;
/** A credential header on a line of its own (`Authorization: Basic …`, `Cookie: …`): the rest of the line goes. */
const CREDENTIAL_HEADER = /(?<![A-Za-z0-9_-])((?:proxy-)?authorization|(?:set-)?cookie|x-api-key|api-key)([ \t]{0,8}:[ \t]{0,8})[^\r\n]+/gi;
/**
 * `name=value`, `name: value` and `"name": "value"` with a credential name
 * (judged by {@link isSensitiveName}): the value goes. Values are a quoted run
 * up to the closing quote or line end, or an unquoted run up to a separator.
 */
const NAME_VALUE = /(?<![A-Za-z0-9_.-])([A-Za-z_][A-Za-z0-9_.-]{0,63})(["']?[ \t]{0,8}[:=][ \t]{0,8})(?:"[^"\r\n]*"?|'[^'\r\n]*'?|[^\s"'&,;<>)}\]]+)/g;

/** Where a PEM block starts and ends; the redacted stream holds back every line while one is open. */
export const PEM_BEGIN = '-----BEGIN ';
const PEM_HEADER = /^-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----/;
export const PEM_END = '-----END ';

/** Redacts every built-in shape, then `extra` patterns, in `text`. `sensitiveNames` adds names (from a schema) to the `name=value` rule. */
export function redactSecretsInText(text: string, extra: readonly RegExp[], literals: readonly string[], sensitiveNames?: ReadonlySet<string>): string {
  let out = redactPemBlocks(text);
  for (const pattern of DEFAULT_REDACTION_PATTERNS) out = replaceAll(out, pattern, REDACTED);
  out = out.replace(BEARER, `$1${REDACTED}`);
  out = out.replace(URL_PASSWORD, `$1:${REDACTED}@`);
  out = out.replace(CREDENTIAL_HEADER, `$1$2${REDACTED}`);
  out = out.replace(NAME_VALUE, (match: string, name: string, separator: string) => {
    if (!isSensitiveName(name) && !(sensitiveNames?.has(name) ?? false)) return match;
    const value = match.slice(name.length + separator.length);
    // Already redacted by a rule above (the unquoted value stops before the marker's closing bracket).
    if (value.replace(/^["']/, '').startsWith(REDACTED.slice(0, -1))) return match;
    const quote = value[0] === '"' || value[0] === "'" ? value[0] : '';
    const closed = quote !== '' && value.length > 1 && value.endsWith(quote) ? quote : '';
    return `${name}${separator}${quote}${REDACTED}${closed}`;
  });
  for (const pattern of extra) out = replaceAll(out, pattern, REDACTED);
  for (const literal of literals) if (literal !== '' && out.includes(literal)) out = out.split(literal).join(REDACTED);
  return out;
}

function replaceAll(text: string, pattern: RegExp, replacement: string): string {
  pattern.lastIndex = 0;
  return text.replace(pattern, replacement);
}

/**
 * PEM private keys, from `-----BEGIN … PRIVATE KEY-----` to the matching
 * `-----END …-----` line; a block with no end is redacted to the end of the
 * text (a cut key is still a key). One forward scan.
 */
function redactPemBlocks(text: string): string {
  let from = text.indexOf(PEM_BEGIN);
  if (from === -1) return text;
  let out = '';
  let copied = 0;
  while (from !== -1) {
    const header = PEM_HEADER.exec(text.slice(from, from + 80));
    if (!header) {
      from = text.indexOf(PEM_BEGIN, from + PEM_BEGIN.length);
      continue;
    }
    const endAt = text.indexOf(PEM_END, from + header[0].length);
    const closing = endAt === -1 ? -1 : text.indexOf('-----', endAt + PEM_END.length);
    out += `${text.slice(copied, from)}${REDACTED}`;
    if (closing === -1) return out;
    copied = closing + 5;
    from = text.indexOf(PEM_BEGIN, copied);
  }
  return out + text.slice(copied);
}
