import { describe, expect, it } from 'vitest';
import { splitCommandLine } from './split-command-line.js';

describe('splitCommandLine', () => {
  it('splits on whitespace and honours quotes and backslashes', () => {
    expect(splitCommandLine('node  server.js --stdio')).toEqual(['node', 'server.js', '--stdio']);
    expect(splitCommandLine(`node "my server.js" 'a "b" c' d\\ e ""`)).toEqual(['node', 'my server.js', 'a "b" c', 'd e', '']);
    expect(splitCommandLine('say "quote \\" inside"')).toEqual(['say', 'quote " inside']);
  });

  it('refuses an unclosed quote', () => {
    expect(() => splitCommandLine('node "server.js')).toThrow('The command line has an unclosed " quote: node "server.js');
  });
});
