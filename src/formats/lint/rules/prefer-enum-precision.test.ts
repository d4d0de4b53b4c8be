import { describe, expect, it } from 'vitest';
import { defineTool } from '../../../tools/index.js';
import { LABELLED_DESCRIPTIONS } from '../__fixtures__/descriptions.js';
import { lintTools } from '../lint-tools.js';

/** One tool per description, the description on a free-text property whose name says nothing (so only the prose can fire the rule). */
function firesOn(description: string): boolean {
  const tool = defineTool({
    name: 'fixture_tool',
    description: 'Look up something for the fixture, when the test asks.',
    effect: 'read',
    inputSchema: { type: 'object', properties: { value: { type: 'string', description } }, required: ['value'], additionalProperties: false },
    execute: () => 'ok',
  });
  return lintTools([tool], { rules: { 'tw/vague-description': 'off' } }).some((finding) => finding.rule === 'tw/prefer-enum');
}

describe('tw/prefer-enum on real-world-like descriptions', () => {
  const outcomes = LABELLED_DESCRIPTIONS.map(({ description, closed }) => ({ description, closed, fired: firesOn(description) }));
  const truePositives = outcomes.filter((outcome) => outcome.closed && outcome.fired).length;
  const falsePositives = outcomes.filter((outcome) => !outcome.closed && outcome.fired);
  const falseNegatives = outcomes.filter((outcome) => outcome.closed && !outcome.fired);

  it('has a labelled set large enough to measure on', () => {
    expect(LABELLED_DESCRIPTIONS.length).toBeGreaterThanOrEqual(40);
    expect(LABELLED_DESCRIPTIONS.filter((entry) => entry.closed).length).toBeGreaterThanOrEqual(15);
  });

  it('fires only on genuine closed lists: precision 1.00 (no prose, "e.g." or "either … not both" misread)', () => {
    expect(falsePositives.map((outcome) => outcome.description)).toEqual([]);
    expect(truePositives / (truePositives + falsePositives.length)).toBe(1);
  });

  it('finds most closed lists: recall 22/24; the two misses have no cue word at all', () => {
    expect(falseNegatives.map((outcome) => outcome.description)).toEqual([
      'Granularity of the data points. Options: hour, day, week.',
      'Page orientation: portrait or landscape.',
    ]);
    expect(truePositives / (truePositives + falseNegatives.length)).toBeGreaterThanOrEqual(0.9);
  });

  it('skips the name-only guess on imported tools, but keeps a listed set', () => {
    const tool = defineTool({
      name: 'list_issues',
      description: 'List the issues of a repository, when the user asks about open work.',
      effect: 'read',
      inputSchema: {
        type: 'object',
        properties: { state: { type: 'string', description: 'One of "open", "closed" or "all".' }, mode: { type: 'string', description: 'Search mode.' } },
        required: ['state', 'mode'],
      },
      execute: () => 'ok',
    });
    const paths = (imported: boolean) =>
      lintTools([tool], { imported })
        .filter((finding) => finding.rule === 'tw/prefer-enum')
        .map((finding) => finding.path);
    expect(paths(false)).toEqual(['/inputSchema/properties/state', '/inputSchema/properties/mode']);
    expect(paths(true)).toEqual(['/inputSchema/properties/state']);
  });
});
