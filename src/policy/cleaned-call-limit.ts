/**
 * The call limit and calls the policy cleaned. A call that `valuesFrom({ action: 'remove' })` (or any rule's `remove`) ran
 * with values taken out may be the user's own call with an outsider's link folded in, or a call the outsider made the model
 * write (the phishing mail to Bob, sent without its link). Counted against the task's call limit, the second used up the
 * user's chance, and the user's own call was then blocked. Which of the two a cleaned call is cannot be told from its text:
 * a model paraphrases the injected text (a test for a verbatim copy caught 5 of 30 such calls under `sim:naive`) and a user's
 * summary of a document copies it (the same test blocked 6 user writes under `sim:folding`). So no cleaned call counts
 * against the tool's limit; cleaned calls count against an allowance of their own, as large as the limit, so the limit
 * still bounds how many calls of the tool run (at most twice the limit, half of them with the outsider's values taken out).
 * @module
 */

/** The key under which a session counts a tool's cleaned calls, beside the tool's own count (kept in its snapshot). */
export function cleanedCountKey(toolName: string): string {
  return `cleaned:${toolName}`;
}

/**
 * Which count a call of `toolName` goes under, or `undefined` when it may not run: a cleaned call under its own allowance
 * first and the tool's count when that is used up, any other call under the tool's count. Without a limit, the tool's count.
 */
export function callLimitCount(counts: ReadonlyMap<string, number>, toolName: string, limit: number | undefined, cleaned: boolean): string | undefined {
  if (limit === undefined) return toolName;
  const keys = cleaned ? [cleanedCountKey(toolName), toolName] : [toolName];
  return keys.find((key) => (counts.get(key) ?? 0) < limit);
}
