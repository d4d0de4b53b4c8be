import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../shared/errors.js';
import type { ToolEffect } from '../tools/types.js';
import { foreignToolEffect } from './foreign-tool-effect.js';

describe('foreignToolEffect', () => {
  it('gives every tool the one effect, or each tool its entry in the map', () => {
    expect(foreignToolEffect('write', 'send', 'fromAISDKTools')).toBe('write');
    expect(foreignToolEffect({ search: 'read', send: 'write' }, 'search', 'fromAISDKTools')).toBe('read');
  });

  it('refuses a tool the map leaves out, naming the adapter and the tool', () => {
    expect(() => foreignToolEffect({ search: 'read' }, 'send', 'fromOpenAIAgentsTools')).toThrow(
      'fromOpenAIAgentsTools: no effect for the tool "send"; add it to options.effect as "read" or "write".',
    );
  });

  it('never reads an inherited key or a value other than read and write', () => {
    expect(() => foreignToolEffect({}, 'constructor', 'fromAISDKTools')).toThrow(InvalidArgumentError);
    expect(() => foreignToolEffect({ drop: 'delete' as ToolEffect }, 'drop', 'fromAISDKTools')).toThrow(InvalidArgumentError);
  });
});
