/**
 * The built-in suites by name, for `toolwright eval --suite <name>`: two
 * domains with their own tools, data and tasks, so that no defence can be
 * tuned to one.
 * @module
 */
import { PAYABLES_SUITE } from './payables/payables-suite.js';
import type { AnyEvalSuite } from './suite-types.js';
import { TEAM_CHAT_SUITE } from './team-chat/team-chat-suite.js';
import { WORKSPACE_SUITE } from './workspace/workspace-suite.js';

export const BUILT_IN_SUITES: Readonly<Record<string, AnyEvalSuite>> = Object.freeze({
  [WORKSPACE_SUITE.name]: WORKSPACE_SUITE,
  [TEAM_CHAT_SUITE.name]: TEAM_CHAT_SUITE,
  [PAYABLES_SUITE.name]: PAYABLES_SUITE,
});
