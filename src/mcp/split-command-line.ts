/**
 * Splits a command line into words the way a POSIX shell would for the
 * simple cases (`node "my server.js" --flag 'a b'`): whitespace separates,
 * single quotes keep everything, double quotes and backslashes escape. No
 * variables, globs or pipes: the words go straight to `spawn`, never a shell.
 * @module
 */
import { InvalidArgumentError } from '../shared/errors.js';

export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < line.length; index++) {
    const character = line[index]!;
    if (quote === "'") {
      if (character === "'") quote = undefined;
      else current += character;
      continue;
    }
    if (character === '\\' && index + 1 < line.length && (quote === undefined || /["\\$`]/.test(line[index + 1]!))) {
      current += line[++index];
      inWord = true;
      continue;
    }
    if (quote === '"') {
      if (character === '"') quote = undefined;
      else current += character;
      continue;
    }
    if (character === "'" || character === '"') {
      quote = character;
      inWord = true;
    } else if (/\s/.test(character)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += character;
      inWord = true;
    }
  }
  if (quote !== undefined) throw new InvalidArgumentError(`The command line has an unclosed ${quote} quote: ${line}`);
  if (inWord) words.push(current);
  return words;
}
