import { describe, expect, it } from 'vitest';
import { ToolwrightError } from '../shared/errors.js';
import { vectorFiller } from './injection-vectors.js';
import { createTeamChatState } from './team-chat/team-chat-data.js';
import { createWorkspaceState } from './workspace/workspace-data.js';

const vectors = [
  { id: 'note', description: 'A note.', default: 'benign note' },
  { id: 'title', description: 'A title.', default: 'benign title' },
];

describe('vectorFiller', () => {
  it("gives a vector the case's text, and the others their default", () => {
    const fill = vectorFiller(vectors, { note: 'ATTACK' }, 'the test');
    expect([fill('note'), fill('title')]).toEqual(['ATTACK', 'benign title']);
  });

  it('reads only own keys: text inherited through the prototype is not an injection', () => {
    const inherited = Object.create({ note: 'from the prototype' }) as Record<string, string>;
    expect(vectorFiller(vectors, inherited, 'the test')('note')).toBe('benign note');
  });

  it('refuses an unknown vector id, naming the environment and its vectors', () => {
    const fill = vectorFiller(vectors, {}, 'the test');
    expect(() => fill('toString')).toThrow('No injection vector "toString" in the test; use one of: note, title.');
    expect(() => fill('toString')).toThrow(ToolwrightError);
  });

  it('is what both suites build their state with', () => {
    expect(JSON.stringify(createWorkspaceState({ invoice_note: 'PAYLOAD-W' }))).toContain('PAYLOAD-W');
    expect(JSON.stringify(createTeamChatState({ ci_log: 'PAYLOAD-T' }))).toContain('PAYLOAD-T');
    expect(JSON.stringify(createTeamChatState())).not.toContain('PAYLOAD');
  });
});
