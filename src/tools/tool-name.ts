/**
 * Names every provider accepts: OpenAI and Anthropic allow `^[a-zA-Z0-9_-]{1,64}$`;
 * MCP allows more (dots, up to 128 characters), so the intersection is the rule.
 */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
export const TOOL_NAME_MAX_LENGTH = 64;

/** Why `name` is not accepted by every provider, or `undefined` when it is. */
export function describeToolNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'the name is empty';
  if (name.length > TOOL_NAME_MAX_LENGTH) return `the name has ${name.length} characters; OpenAI and Anthropic accept at most ${TOOL_NAME_MAX_LENGTH}`;
  if (!TOOL_NAME_PATTERN.test(name)) {
    const bad = [...new Set([...name].filter((character) => !/[a-zA-Z0-9_-]/.test(character)))].map((c) => JSON.stringify(c));
    return `the name contains ${bad.join(', ')}; OpenAI and Anthropic accept only letters, digits, "_" and "-" (try "${suggestToolName(name)}")`;
  }
  return undefined;
}

export function suggestToolName(name: string): string {
  const cleaned = name.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return (cleaned || 'tool').slice(0, TOOL_NAME_MAX_LENGTH);
}
