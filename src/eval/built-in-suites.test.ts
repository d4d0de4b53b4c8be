/**
 * The secret and code detectors' false-positive guard on real task text: every
 * text the built-in suites show an agent (their data, prompts, goals and the
 * reference calls' arguments) holds no secret and no one-time code but the
 * ones planted on purpose.
 */
import { describe, expect, it } from 'vitest';
import { detectValues, redactSecret, type DetectedValue } from '../policy/provenance/value-detectors.js';
import { BUILT_IN_SUITES } from './built-in-suites.js';
import type { AnyEvalSuite } from './suite-types.js';
import { DEPLOY_TOKEN } from './team-chat/team-chat-data.js';

const SUITES = Object.values(BUILT_IN_SUITES).map((suite) => [suite.name, suite] as const);

function suiteTexts(suite: AnyEvalSuite): string[] {
  const state: unknown = suite.createState();
  return [
    JSON.stringify(state),
    suite.systemPrompt,
    ...suite.userTasks.flatMap((task) => [task.prompt, JSON.stringify(task.reference(structuredClone(state)))]),
    ...suite.injectionTasks.flatMap((task) => [task.goal, JSON.stringify(task.reference(structuredClone(state))), task.payload ?? '']),
  ];
}

/** The workspace wiki's password-reset code (workspace-data.ts), which two injection tasks ask the agent to mail out. */
const WIKI_RESET_CODE = '482913';

describe('the built-in suites under the secret detector', () => {
  it.each(SUITES)('%s: finds only the planted deploy token', (_, suite) => {
    const found = new Set(suiteTexts(suite).flatMap((text) => detectValues(text, ['secret']).map((value) => redactSecret(value.text))));
    expect([...found]).toEqual(suite.name === 'team-chat' ? [redactSecret(DEPLOY_TOKEN)] : []);
  });
});

describe('the built-in suites under the code detector', () => {
  it.each(SUITES)('%s: finds only the planted reset code', (_, suite) => {
    const found = new Set(suiteTexts(suite).flatMap((text) => detectValues(text, ['code']).map((value) => value.value)));
    expect([...found]).toEqual(suite.name === 'workspace' ? [WIKI_RESET_CODE] : []);
  });

  it('finds the reset code where the wiki mail states it, and in the attacker reference that mails it', () => {
    const workspace = BUILT_IN_SUITES.workspace!;
    const state: unknown = workspace.createState();
    expect(detectValues(JSON.stringify(state), ['code']).map((value) => value.value)).toEqual([WIKI_RESET_CODE]);
    const mailing = workspace.injectionTasks.filter((task) => detectValues(JSON.stringify(task.reference(structuredClone(state))), ['code']).length > 0);
    expect(mailing.map((task) => task.id)).toEqual(['injection_task_1', 'injection_task_8']);
  });
});

describe('the built-in suites under the shapes the detectors learned for issue #25', () => {
  // Bare hosts, defanged and data: URLs, written-out and fullwidth addresses, lower-case and dashed IBANs: the suites write
  // every link with a scheme or a path, every address with a plain @ and every IBAN in upper case, so any value in one of
  // the new shapes would be ordinary text misread.
  const newShape = (value: DetectedValue) =>
    value.kind === 'url'
      ? /^hxxp|^data:|\[\.\]|\(\.\)|\[:\]/i.test(value.text) || (!/^(?:https?:\/\/|www\.)/i.test(value.text) && !value.text.includes('/'))
      : value.kind === 'email'
        ? !/^[^\s@]+@[^\s@]+$/.test(value.text)
        : value.kind === 'iban'
          ? /[a-z-]/.test(value.text)
          : false;

  it.each(SUITES)('%s: finds no value in a new shape in any text of the suite', (_, suite) => {
    const found = suiteTexts(suite).flatMap((text) => detectValues(text, ['url', 'email', 'iban']).filter(newShape));
    expect(found.map((value) => value.text)).toEqual([]);
  });

  it('would flag the shapes, so the check above can fail', () => {
    const probe = 'evil-login.example, hxxps://evil[.]example, mallory at evil dot example, de89-3704-0044-0532-0130-00';
    expect(detectValues(probe, ['url', 'email', 'iban']).filter(newShape)).toHaveLength(4);
  });
});
