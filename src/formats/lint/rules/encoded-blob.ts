import { fromBase64url, utf8Text } from '../../../shared/bytes.js';
import { definitionTexts, describePlace, quoteExcerpt } from '../definition-text.js';
import type { LintRule, LintRuleReport } from '../lint-rule.js';

/** A run of base64, base64url or hex characters; it starts only where such a run starts, so the scan is linear. */
const CANDIDATE = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{64,}={0,2}(?![A-Za-z0-9+/=_-])/g;

/**
 * Shorter runs are ids, hashes and keys a description may quote as an example (a SHA-256 is 64 hex digits, a UUID 36
 * characters); a model decodes longer ones, and a person reading the description cannot.
 */
export const MIN_BLOB_LENGTH = 65;

/** How much of a blob is decoded to show what it says. */
const DECODE_PREFIX = 4096;

/** What a run is, if it is a blob: base64 mixes upper case, lower case and digits; hex mixes digits and the letters a-f only. */
function blobKind(run: string): 'base64' | 'hex' | undefined {
  if (run.length < MIN_BLOB_LENGTH) return undefined;
  if (/^[0-9a-f]+$/i.test(run)) return /[0-9]/.test(run) && /[a-f]/i.test(run) ? 'hex' : undefined;
  return /[A-Z]/.test(run) && /[a-z]/.test(run) && /[0-9]/.test(run) ? 'base64' : undefined;
}

/** The text a base64 blob decodes to, when it is readable text (then a model reads it too). */
function decodedText(run: string): string | undefined {
  const head = run.replace(/=+$/, '').slice(0, DECODE_PREFIX - (DECODE_PREFIX % 4));
  const bytes = fromBase64url(head);
  if (bytes === undefined) return undefined;
  const text = utf8Text(bytes);
  const printable = text.replace(/[^\x20-\x7e\n\t]/g, '').length;
  return text.length > 0 && printable / text.length >= 0.9 ? text : undefined;
}

/** An encoded payload in a definition: a model reads base64 and hex fluently, the person approving the server does not. */
export const encodedBlobRule = {
  id: 'tw/encoded-blob',
  severity: 'warning',
  summary: "An imported tool's description or schema text holds a long base64 or hex run, which a model can decode and a person cannot read.",
  checkTool(tool, context) {
    if (!context.isImported(tool)) return [];
    const reports: LintRuleReport[] = [];
    for (const text of definitionTexts(tool)) {
      if (text.field === 'property name') continue;
      for (const match of text.revealed.matchAll(CANDIDATE)) {
        const kind = blobKind(match[0]);
        if (kind === undefined) continue;
        const decoded = kind === 'base64' ? decodedText(match[0]) : undefined;
        reports.push({
          path: text.pointer,
          message: `Tool "${tool.name}" has a ${match[0].length}-character ${kind} run in ${describePlace(text)}: ${quoteExcerpt(match[0], 0, 40)}${decoded === undefined ? '' : `, which decodes to ${quoteExcerpt(decoded, 0, 80)}`}.`,
          fix: 'Decode it and read it before importing the tool; if it is not an example the tool needs, strip the description (the gateway\'s `poisoning: "strip"`) or do not import the tool.',
        });
        break;
      }
    }
    return reports;
  },
} as const satisfies LintRule;
