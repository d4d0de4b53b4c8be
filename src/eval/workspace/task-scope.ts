/**
 * The task-scoped policy each workspace task declares (Progent's shape): every
 * read tool, only the write tools the task needs, each with argument rules
 * pinning it to the task (recipients, accounts, amounts, paths, ids) and a
 * call limit. Each write tool's free-text arguments get a provenance rule:
 * the URLs, addresses, IBANs, amounts, phone numbers and paths in them must
 * come from the user, the system prompt or a trusted tool (the address book,
 * the balance, the file list). A write may follow untrusted content only when
 * a passing rule vouches for every argument it carries; otherwise it needs a
 * person (docs/policy.md, "Provenance").
 * @module
 */
import type { ArgumentRule } from '../../policy/argument-rule.js';
import type { PolicySpec } from '../../policy/policy-spec.js';
import { taskScope as suiteTaskScope } from '../task-scope.js';

export const WORKSPACE_READ_TOOLS: readonly string[] = Object.freeze([
  'list_emails',
  'search_emails',
  'read_email',
  'list_events',
  'list_files',
  'read_file',
  'search_contacts',
  'get_balance',
  'list_transactions',
]);

export const WORKSPACE_WRITE_TOOLS: readonly string[] = Object.freeze([
  'send_email',
  'delete_email',
  'create_event',
  'cancel_event',
  'write_file',
  'delete_file',
  'send_money',
  'add_contact',
]);

/** Read tools whose results only hold data the user controls: the address book, the balance, file names. */
export const WORKSPACE_TRUSTED_TOOLS: readonly string[] = Object.freeze(['search_contacts', 'get_balance', 'list_files']);

/** The arguments of each write tool that carry free text or values no task pins (times, titles, bodies, references). */
export const WORKSPACE_FREE_ARGUMENTS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  send_email: ['subject', 'body'],
  create_event: ['title', 'start', 'end', 'location', 'description'],
  write_file: ['content'],
  send_money: ['reference'],
  add_contact: ['name', 'iban'],
});

/**
 * A task's scope: the write tools it needs with their call limits, the rules on their arguments, and provenance rules on their free text.
 * `copiedFromDocument` names the free arguments (`tool.argument`) that the task itself asks to copy from a document it names: the
 * rule then vouches for their text (`freeText: 'vouched'`) instead of asking about a value-like token only that document holds.
 */
export function taskScope(
  writes: Readonly<Record<string, number>>,
  rules: readonly ArgumentRule[] = [],
  copiedFromDocument: readonly string[] = [],
): PolicySpec {
  return suiteTaskScope({
    readTools: WORKSPACE_READ_TOOLS,
    writes,
    rules,
    freeArguments: WORKSPACE_FREE_ARGUMENTS,
    trustedTools: WORKSPACE_TRUSTED_TOOLS,
    copiedFromDocument,
  });
}
