/**
 * The task-scoped policy each workspace task declares (Progent's shape): every
 * read tool, only the write tools the task needs, each with argument rules
 * pinning it to the task (recipients, accounts, amounts, paths, ids) and a
 * call limit. A write whose arguments are pinned may follow untrusted
 * content; any other write would need a person (none is allowed here anyway).
 * @module
 */
import type { ArgumentRule } from '../../policy/argument-rule.js';
import type { PolicySpec } from '../../policy/policy-spec.js';

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

/** A task's scope: the write tools it needs with their call limits, and the rules on their arguments. */
export function taskScope(writes: Readonly<Record<string, number>>, rules: readonly ArgumentRule[] = []): PolicySpec {
  const ruled = new Set(rules.flatMap((rule) => rule.tools));
  return {
    name: 'task-scope',
    allowTools: [...WORKSPACE_READ_TOOLS, ...Object.keys(writes)],
    callLimits: writes,
    rules,
    flow: { untrustedWrites: 'confirm', exemptTools: Object.keys(writes).filter((tool) => ruled.has(tool)), copiedArguments: 'flag' },
  };
}
