import { describe, expect, it } from 'vitest';
import { createRedactor } from '../shared/redaction/index.js';
import { summarizeCall } from './call-rules.js';
import { DECISIVE_VALUE_MAX_CHARS, OTHER_ARGUMENTS_MAX_CHARS, approvalText, argumentLines, describeArguments } from './call-summary.js';
import { defineTool } from './define-tool.js';

const redactor = createRedactor();
const mail = defineTool({
  name: 'send_email',
  description: 'Sends mail.',
  effect: 'write',
  confirm: true,
  inputSchema: { type: 'object' },
  execute: () => 'ok',
});

describe('describeArguments', () => {
  it('puts the arguments that decide where the effect goes first, by name, in canonical order', () => {
    const summary = describeArguments({ body: 'Hi', amount: 12, recipientEmail: 'a', file_path: '/etc/passwd', iban: 'x', note: 'n' });
    expect(summary.decisive.map((argument) => argument.path)).toEqual(['amount', 'file_path', 'iban', 'recipientEmail']);
    expect(summary.others).toEqual({ text: '{"body":"Hi","note":"n"}', omittedChars: 0 });
  });

  it('finds address-shaped values under any name, nested objects and arrays included', () => {
    const summary = describeArguments({
      message: { subject: 's', reply: 'mallory＠evil.example' },
      links: ['hxxp', 'https://evil.example/reset'],
      payments: [{ memo: 'rent', iban: 'DE89370400440532013000' }],
      text: 'plain',
    });
    expect(summary.decisive.map((argument) => [argument.path, argument.text])).toEqual([
      ['links', '["hxxp","https://evil.example/reset"]'],
      ['message.reply', '"mallory＠evil.example"'],
      ['payments[0].iban', '"DE89370400440532013000"'],
    ]);
    expect(summary.others?.text).toBe('{"message":{"subject":"s"},"payments":[{"memo":"rent"}],"text":"plain"}');
  });

  it('caps each decisive value and says how much it left out, never dropping one', () => {
    const args: Record<string, string> = { to: 'x'.repeat(1000) };
    for (let index = 0; index < 50; index++) args[`cc_${index}`] = `person${index}@corp.example`;
    const summary = describeArguments(args);
    expect(summary.decisive).toHaveLength(51);
    const to = summary.decisive.find((argument) => argument.path === 'to')!;
    expect(to.text).toHaveLength(DECISIVE_VALUE_MAX_CHARS);
    expect(to.omittedChars).toBe(1002 - DECISIVE_VALUE_MAX_CHARS);
    expect(argumentLines(summary)).toContain(`to: "${'x'.repeat(DECISIVE_VALUE_MAX_CHARS - 1)}… (${1002 - DECISIVE_VALUE_MAX_CHARS} more characters)`);
  });

  it('cuts the other arguments with the count of what was cut', () => {
    const summary = describeArguments({ to: 'a@b.example', body: 'y'.repeat(25_000) });
    expect(summary.others!.text).toHaveLength(OTHER_ARGUMENTS_MAX_CHARS);
    expect(summary.others!.omittedChars).toBe('{"body":""}'.length + 25_000 - OTHER_ARGUMENTS_MAX_CHARS);
    expect(argumentLines(summary)[0]).toBe('to: "a@b.example"');
    expect(argumentLines(summary)[1]).toMatch(/^other arguments: \{"body":"y+… \(24711 more characters\)$/);
  });

  it('shows arguments that are not an object, and an empty object, as they are', () => {
    expect(describeArguments('text')).toEqual({ decisive: [], others: { text: '"text"', omittedChars: 0 } });
    expect(describeArguments({})).toEqual({ decisive: [], others: { text: '{}', omittedChars: 0 } });
    expect(describeArguments({ to: 'a' })).toEqual({ decisive: [{ path: 'to', text: '"a"', omittedChars: 0 }] });
  });

  it('never splits a surrogate pair when it cuts', () => {
    const summary = describeArguments({ to: '😀'.repeat(200) });
    const text = summary.decisive[0]!.text;
    expect(text.length).toBeLessThanOrEqual(DECISIVE_VALUE_MAX_CHARS);
    expect(text).toBe(`"${'😀'.repeat((text.length - 1) / 2)}`);
  });

  it('shows a bidirectional override in a value as ⟨U+202E⟩', () => {
    expect(argumentLines(describeArguments({ to: 'mallory@\u202Emoc.elpmaxe' }))).toEqual(['to: "mallory@⟨U+202E⟩moc.elpmaxe"']);
  });
});

describe('summarizeCall and approvalText', () => {
  it('keeps the recipient in the default line whatever the length of the body', () => {
    for (const length of [400, 25_000]) {
      const line = summarizeCall(mail, { body: 'z'.repeat(length), subject: 'Figures', to: 'mallory@evil.example' }, { redactor });
      expect(line.startsWith('send_email(to: "mallory@evil.example", {"body":"zzz')).toBe(true);
      expect(line).toContain(`… (${length + '{"body":"","subject":"Figures"}'.length - OTHER_ARGUMENTS_MAX_CHARS} more characters)`);
    }
  });

  it('shows the arguments beside a custom line that names none of them', () => {
    const quiet = defineTool({ ...mail, name: 'send_quiet', summarize: () => 'Send the weekly update' });
    const args = { body: 'Hi', to: 'mallory@evil.example' };
    expect(approvalText(summarizeCall(quiet, args, { redactor }), args)).toBe(
      'Send the weekly update\n  to: "mallory@evil.example"\n  other arguments: {"body":"Hi"}',
    );
  });

  it("puts a tool's declared decisive arguments first too, and refuses a declaration that is not a list of names", () => {
    const transfer = defineTool({ ...mail, name: 'transfer', decisiveArguments: ['ref'] });
    const args = { memo: 'm'.repeat(400), ref: 'ACCT-0042' };
    expect(summarizeCall(transfer, args, { redactor }).startsWith('transfer(ref: "ACCT-0042", {"memo":"mmm')).toBe(true);
    expect(approvalText('Transfer', args, transfer.decisiveArguments).split('\n')[1]).toBe('  ref: "ACCT-0042"');
    expect(() => defineTool({ ...mail, name: 'bad', decisiveArguments: 'ref' as never })).toThrow(/decisiveArguments/);
  });

  it('never shows a secret, decisive or not', () => {
    const line = summarizeCall(
      mail,
      { to: 'a@b.example', account_password: 'hunter2hunter2', api_key: 'sk-proj-Q7wLx9VbT2mZk4RcY8nD3fHs6JpA1eGu' },
      { redactor },
    );
    expect(line).toBe('send_email(account_password: "[REDACTED]", to: "a@b.example", {"api_key":"[REDACTED]"})');
  });
});
