import { describe, expect, it } from 'vitest';
import { defineTool } from '../../../tools/index.js';
import { lintTools } from '../lint-tools.js';

function toolWith(description: string, properties: Record<string, unknown> = {}) {
  return defineTool({
    name: 'manage_subscription',
    description,
    effect: 'read',
    inputSchema: { type: 'object', properties, required: [], additionalProperties: false },
    execute: () => 'ok',
  });
}

function vague(description: string, properties: Record<string, unknown> = {}) {
  return lintTools([toolWith(description, properties)]).filter((finding) => finding.rule === 'tw/vague-description');
}

describe('tw/vague-description', () => {
  it("reports the seed's bad tool: a generic opening and generic property descriptions", () => {
    const findings = vague("Manage a user's subscription", {
      action: { type: 'string', description: 'What to do' },
      details: { type: 'string', description: 'Additional details' },
    });
    expect(findings.map((finding) => [finding.severity, finding.path, finding.message])).toEqual([
      [
        'warning',
        '/description',
        'The description of tool "manage_subscription" is vague: it opens with "Manage", which hides which action the tool takes ("Manage a user\'s subscription").',
      ],
      ['warning', '/inputSchema/properties/action', 'The description of property "action" is vague: it is made only of generic words ("What to do").'],
      [
        'warning',
        '/inputSchema/properties/details',
        'The description of property "details" is vague: it is made only of generic words ("Additional details").',
      ],
    ]);
    expect(findings[0]!.fix).toBe(
      'Name the one action the tool takes, what it returns, and when to call it. If it does several things, split it into one tool per action ("update_subscription", "cancel_subscription").',
    );
  });

  it('reports descriptions that are too short, generic, or repeat the name', () => {
    expect(vague('Do stuff').map((finding) => finding.message)).toEqual([
      'The description of tool "manage_subscription" is vague: it is made only of generic words ("Do stuff").',
    ]);
    expect(vague('Manage subscription.').map((finding) => finding.message)).toEqual([
      'The description of tool "manage_subscription" is vague: it opens with "Manage", which hides which action the tool takes ("Manage subscription.").',
    ]);
    expect(vague('Changes the plan.').map((finding) => [finding.message, finding.fix])).toEqual([
      [
        'The description of tool "manage_subscription" is vague: it has 3 words, too few to say what the tool does and when to call it ("Changes the plan.").',
        'Say what the tool does, what it returns, and when to call it (and when not to), in a sentence or two.',
      ],
    ]);
    expect(
      vague('Cancel the subscription of the user now, at once.', { user_id: { type: 'string', description: 'The user ID' } }).map((finding) => finding.message),
    ).toEqual(['The description of property "user_id" is vague: it only repeats the property name ("The user ID").']);
  });

  it('stays silent on specific descriptions', () => {
    expect(
      vague("Change a user's subscription plan. Only call when the user has explicitly asked for a plan change and confirmed the new plan.", {
        reason: { type: 'string', description: "Why this subscription is being changed (quote the user's request)" },
        user_id: { type: 'string', description: 'The user id from the conversation context', pattern: '^usr_[a-zA-Z0-9]{20}$' },
      }),
    ).toEqual([]);
  });

  it('leaves empty descriptions to tw/missing-description', () => {
    expect(vague('', { note: { type: 'string', description: '' } })).toEqual([]);
  });
});
