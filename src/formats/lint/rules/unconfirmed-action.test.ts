import { describe, expect, it } from 'vitest';
import { defineTool, type JsonSchemaObject } from '../../../tools/index.js';
import type { ToolOrigin } from '../../../tools/index.js';
import { lintTools } from '../lint-tools.js';

const schema: JsonSchemaObject = {
  type: 'object',
  properties: { reason: { type: 'string', description: "Why (quote the user's request)." } },
  required: ['reason'],
  additionalProperties: false,
};

function tool(name: string, description: string, options: { effect?: 'read' | 'write'; confirm?: boolean | (() => boolean); origin?: ToolOrigin } = {}) {
  return defineTool({
    name,
    description,
    effect: options.effect ?? 'write',
    ...(options.confirm === undefined ? {} : { confirm: options.confirm }),
    ...(options.origin === undefined ? {} : { origin: options.origin }),
    inputSchema: schema,
    execute: () => 'ok',
  });
}

function fired(...tools: ReturnType<typeof tool>[]): string[] {
  return lintTools(tools)
    .filter((finding) => finding.rule === 'tw/unconfirmed-action')
    .map((finding) => `${finding.tool}: ${finding.message}`);
}

describe('tw/unconfirmed-action', () => {
  it('reports a write that moves money, deletes, sends or publishes without confirm, by name or by description', () => {
    expect(
      fired(
        tool('create_refund', 'Give the customer their money back, when support approved it.'),
        tool('deleteNote', 'Forget one saved note, when the user asks.'),
        tool('notify_team', 'Tell the team about the outage, when the user asks.'),
        tool('create_post', 'Put a new entry on the company blog, when the user asks.'),
        tool('archive_thread', 'Archive a thread and send a summary to its members, when the user asks.'),
        tool('settle_invoice', 'Transfers funds from the customer wallet to settle an invoice, when the user asks.'),
      ),
    ).toEqual([
      'create_refund: Tool "create_refund" moves money (its name says "refund") but runs without a person\'s confirmation, so one wrong call cannot be undone.',
      'deleteNote: Tool "deleteNote" deletes (its name says "delete") but runs without a person\'s confirmation, so one wrong call cannot be undone.',
      'notify_team: Tool "notify_team" sends (its name says "notify") but runs without a person\'s confirmation, so one wrong call cannot be undone.',
      'create_post: Tool "create_post" publishes (its name says "post") but runs without a person\'s confirmation, so one wrong call cannot be undone.',
      'archive_thread: Tool "archive_thread" sends (its description says "send") but runs without a person\'s confirmation, so one wrong call cannot be undone.',
      'settle_invoice: Tool "settle_invoice" moves money (its description says "Transfers funds") but runs without a person\'s confirmation, so one wrong call cannot be undone.',
    ]);
  });

  it('is satisfied by confirm: true or a confirm function, and ignores reads and nouns that share a verb spelling', () => {
    expect(
      fired(
        tool('delete_note', 'Delete a note, when the user asks.', { confirm: true }),
        tool('send_invoice', 'Email an invoice, when the user asks.', { confirm: () => true }),
        tool('list_deleted_notes', 'List the notes the user deleted, when they ask.', { effect: 'read' }),
        tool('update_plan', 'Change the plan; the customer sees the new charges on the next invoice, when the user asks.'),
        tool('rename_label', 'Rename a label, when the user asks; the posts keep it.'),
      ),
    ).toEqual([]);
  });

  it('takes an unannotated imported tool as what its name and description say, and tells the importer how to fix it', () => {
    const unannotated: ToolOrigin = { kind: 'mcp', server: 'files', effectAnnotated: false };
    const findings = lintTools([
      tool('delete_file', 'Delete a file.', { confirm: false, origin: unannotated }),
      tool('read_file', 'Read a file.', { confirm: false, origin: unannotated }),
    ]).filter((finding) => finding.rule === 'tw/unconfirmed-action');
    expect(findings.map((finding) => [finding.tool, finding.severity, finding.fix])).toEqual([
      ['delete_file', 'error', 'Import it with a confirm rule that asks for it (importMcpTools({ confirm: (tool) => … })), or leave it out with `include`.'],
    ]);
  });
});
