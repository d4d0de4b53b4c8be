/**
 * A token that closes an object item of a `uniqueItems` array: where the item's last value is a string no held item has
 * inside it, the walk leaves the item's canonical text unread (no repeat of a held item is possible), and reads it only
 * where the same token closes another item of that array, which may repeat it (`PendingContainers`). Whether a held
 * item has the string inside it is asked once per mask for the string the mask's text ends in (`heldLeaf`). On the byte
 * vocabulary with tokens that close an item and write a whole one after it, the mask refuses the token whose second
 * item repeats the first or a held one, allows the others, and accept() agrees; every text is completed to a valid one.
 */
import { describe, expect, it } from 'vitest';
import { repeatTokenProblems } from './generation.js';

const closedItems = {
  type: 'array',
  items: { type: 'object', properties: { selector: { type: 'string' }, message: { type: 'string' } }, required: ['selector'], additionalProperties: false },
  uniqueItems: true,
};
const anyObjects = { type: 'array', items: { type: 'object' }, uniqueItems: true };

describe('object items closed by a token, their text read only where another item may repeat them', () => {
  it('under closed objects of endless strings (the last value a new string, held, or closed by the token)', () => {
    const tokens = [
      '"},{"selector":"x"}',
      '"},{"selector":"y"}',
      '"},{"selector":"b"}',
      '"}',
      '},{"selector":"x"}',
      '},{"selector":"b"}',
      '},{"selector":"y"}',
    ];
    expect(
      repeatTokenProblems(closedItems, tokens, [
        {
          prefix: '[{"selector":"b"},{"selector":"x',
          refused: ['"},{"selector":"x"}', '"},{"selector":"b"}'],
          allowed: ['"},{"selector":"y"}', '"}'],
          completedBy: '"}]',
        },
        {
          prefix: '[{"selector":"b"},{"selector":"x"',
          refused: ['},{"selector":"x"}', '},{"selector":"b"}'],
          allowed: ['},{"selector":"y"}', '}'],
          completedBy: '}]',
        },
        { prefix: '[{"selector":"b"},{"selector":"b', refused: ['"}', '"},{"selector":"y"}'], allowed: [], completedBy: '",' + '"message":"m"}]' },
        { prefix: '[{"selector":"b"},{"selector":"b"', refused: ['}', '},{"selector":"y"}'], allowed: [], completedBy: ',"message":"m"}]' },
      ]),
    ).toEqual([]);
  });

  it('under any objects', () => {
    const tokens = ['"},{"a":"y"}', '"},{"a":"x"}', '"}', '},{"a":"y"}', '},{"a":"z"}'];
    expect(
      repeatTokenProblems(anyObjects, tokens, [
        { prefix: '[{"a":"x"},{"a":"y', refused: ['"},{"a":"y"}', '"},{"a":"x"}'], allowed: ['"}'], completedBy: '"}]' },
        { prefix: '[{"a":"x"},{"a":"y"', refused: ['},{"a":"y"}'], allowed: ['},{"a":"z"}', '}'], completedBy: '}]' },
        { prefix: '[{"a":"x"},{"a":"x"', refused: ['}', '},{"a":"z"}'], allowed: [], completedBy: ',"b":1}]' },
      ]),
    ).toEqual([]);
  });
});
