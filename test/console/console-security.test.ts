/**
 * Who the console answers, over raw HTTP (so every header is the test's to
 * choose): no token, a wrong token or a foreign Host is refused before any
 * page; the token is exchanged for an HttpOnly, SameSite=Strict cookie; a
 * write needs POST, the console's own Origin and the form token; a decision is
 * recorded once (the approval's signed token is single use); every page has a
 * strict Content-Security-Policy; and a tool result holding markup reaches the
 * page escaped, with the record's redactions.
 */
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE, SECRET, startConsoleFixture, type ConsoleFixture } from './console-fixture.js';
import { writeListedRun } from './run-list-fixture.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let fixture: ConsoleFixture;
let cookie: string;
let formToken: string;

beforeAll(async () => {
  fixture = await startConsoleFixture();
  const exchanged = await send({ path: `/?token=${fixture.console.token}` });
  cookie = String(exchanged.headers['set-cookie']).split(';')[0]!;
  const page = await send({ path: '/approvals', headers: { cookie } });
  formToken = /name="form" value="([^"]+)"/.exec(page.body)![1]!;
});
afterAll(() => fixture.close());

function send(options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: fixture.console.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: `127.0.0.1:${fixture.console.port}`, ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

function post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
  return send({
    method: 'POST',
    path,
    headers: { cookie, origin: `http://127.0.0.1:${fixture.console.port}`, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('the console refuses', () => {
  it('a request without the access token, or with a wrong one, before any page', async () => {
    for (const attempt of [
      { path: '/' },
      { path: `/runs/${fixture.runId}` },
      { path: '/approvals' },
      { path: '/console.css' },
      { path: '/?token=wrong' },
      { path: '/', headers: { cookie: `${cookie.split('=')[0]}=wrong` } },
      { path: `/?token=${fixture.console.token.slice(0, -1)}` },
    ]) {
      const reply = await send(attempt);
      expect(reply.status, attempt.path).toBe(401);
      expect(reply.body).toContain('needs its access token');
      expect(reply.body).not.toContain(fixture.runId);
      expect(reply.headers['set-cookie']).toBeUndefined();
    }
  });

  it('a Host header that is not the console (a DNS-rebinding page), even with the token', async () => {
    for (const host of ['evil.example:' + fixture.console.port, `127.0.0.1:${fixture.console.port + 1}`, '127.0.0.1', 'localhost.evil.example']) {
      const reply = await send({ path: '/', headers: { host, cookie } });
      expect(reply.status, host).toBe(421);
      expect(reply.body).not.toContain(fixture.runId);
    }
    expect((await send({ path: '/', headers: { host: `localhost:${fixture.console.port}`, cookie } })).status).toBe(200);
  });

  it('a write from another origin, without an origin, without the form token, by GET, or over 16 KiB; nothing is decided', async () => {
    const action = `/approvals/${fixture.approvalId}/approve`;
    expect((await post(action, { form: formToken }, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(action, { form: formToken }, { origin: `http://127.0.0.1:${fixture.console.port + 1}` })).status).toBe(403);
    expect((await post(action, { form: formToken }, { origin: 'null' })).status).toBe(403);
    const { origin: _origin, ...withoutOrigin } = { origin: '', cookie, 'content-type': 'application/x-www-form-urlencoded' };
    expect((await send({ method: 'POST', path: action, headers: withoutOrigin, body: `form=${formToken}` })).status).toBe(403);
    expect((await post(action, { form: 'forged' })).status).toBe(403);
    expect((await post(action, {})).status).toBe(403);
    expect((await send({ path: action, headers: { cookie } })).status).toBe(405);
    expect((await post(action, { form: formToken, reason: 'x'.repeat(17 * 1024) })).status).toBe(413);
    // The cookie is what a cross-site form could not send (SameSite=Strict), but the token in a URL is never accepted for a write either.
    expect((await send({ method: 'POST', path: `${action}?token=${fixture.console.token}`, body: `form=${formToken}` })).status).toBe(401);
    expect((await fixture.store.findConfirmation(fixture.approvalId))?.decision).toBeUndefined();
  });
});

describe('the console', () => {
  it('exchanges the token in the URL for an HttpOnly, SameSite=Strict cookie and drops it from the address', async () => {
    const reply = await send({ path: `/runs/${fixture.runId}?token=${fixture.console.token}` });
    expect(reply.status).toBe(303);
    expect(reply.headers.location).toBe(`/runs/${fixture.runId}`);
    expect(reply.headers['set-cookie']).toEqual([`tw_console_${fixture.console.port}=${fixture.console.token}; HttpOnly; SameSite=Strict; Path=/`]);
  });

  it('sends a strict Content-Security-Policy and no-sniff, no-frame, same-origin-referrer headers on every page', async () => {
    for (const path of [
      '/',
      '/?q=refund&status=stopped',
      '/?page=abc',
      '/approvals',
      `/approvals/${fixture.approvalId}`,
      `/runs/${fixture.runId}`,
      '/evals',
      '/nowhere',
    ]) {
      const reply = await send({ path, headers: { cookie } });
      expect(reply.headers['content-security-policy']).toBe(
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.headers['x-frame-options']).toBe('DENY');
      expect(reply.headers['referrer-policy']).toBe('same-origin');
      expect(reply.headers['cache-control']).toBe('no-store');
      // Only real tags start with `<` (escaped text cannot): none is a script, none has an inline style or handler.
      const tags = reply.body.match(/<[a-z][^>]*>/gi) ?? [];
      expect(tags.length).toBeGreaterThan(5);
      expect(tags.filter((tag) => /^<script|\sstyle=|\son\w+=/i.test(tag))).toEqual([]);
    }
  });

  it('renders a tool result holding markup as text, with the record’s redactions', async () => {
    const page = (await send({ path: `/runs/${fixture.runId}`, headers: { cookie } })).body;
    expect(page).not.toContain(HOSTILE);
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;document.title=\\&quot;owned\\&quot;&lt;/script&gt;&lt;img src=x onerror=');
    expect(page).not.toContain(SECRET);
    expect(page).toContain('key [REDACTED]');
  });

  it('redacts again a record written without redaction (by an older version), as `toolwright logs` does', async () => {
    const line = { time: new Date().toISOString(), runId: 'run_old', type: 'run_started', modelId: `model ${SECRET}`, tools: [], limits: {}, resumed: false };
    writeFileSync(join(fixture.folder, 'runs', 'run_old.jsonl'), `${JSON.stringify(line)}\n`);
    for (const path of ['/', '/runs/run_old']) {
      const page = (await send({ path, headers: { cookie } })).body;
      expect(page).toContain('run_old');
      expect(page).not.toContain(SECRET);
      expect(page).toContain('model [REDACTED]');
    }
  });

  it('escapes every string the run list shows: task, answer, error, tools, model, and the search it echoes', async () => {
    const bidi = 'mallory@\u202Emoc.elpmaxe';
    writeListedRun(join(fixture.folder, 'runs'), {
      runId: 'run_hostile_list',
      prompt: `${HOSTILE} ${bidi} key ${SECRET}`,
      status: 'stopped',
      error: `${HOSTILE} error`,
      model: `<b onmouseover="x()">model</b>`,
      tools: ['<svg onload=alert(1)>', 'send_email'],
      costUsd: 0,
      wallTimeMs: 10,
      startedAt: Date.now(),
    });
    writeListedRun(join(fixture.folder, 'runs'), {
      runId: 'run_hostile_answer',
      prompt: 'fine',
      status: 'completed',
      answer: `${HOSTILE} answer`,
      model: 'openai:gpt-4o-mini',
      tools: [],
      costUsd: 0.01,
      wallTimeMs: 10,
      startedAt: Date.now(),
    });
    const pages = [
      (await send({ path: '/', headers: { cookie } })).body,
      (await send({ path: `/?q=${encodeURIComponent(`${HOSTILE.slice(0, 40)}`)}`, headers: { cookie } })).body,
      (await send({ path: `/?tool=${encodeURIComponent('<svg onload=alert(1)>')}`, headers: { cookie } })).body,
    ];
    for (const page of pages) {
      expect(page).toContain('run_hostile_list');
      expect(page).not.toContain('<script>');
      expect(page).not.toContain('<svg onload');
      expect(page).not.toContain('<b onmouseover');
      expect(page).not.toContain('<img');
      expect(page).not.toContain('\u202E');
      expect(page).not.toContain(SECRET);
      // Real tags only (escaped text cannot start one), their quoted values blanked: an escaped value may read like a handler.
      const tags = (page.match(/<[a-z][^>]*>/gi) ?? []).map((tag) => tag.replace(/"[^"]*"/g, '""'));
      expect(tags.filter((tag) => /^<(script|img|svg|b\b)|\sstyle=|\son\w+=/i.test(tag))).toEqual([]);
    }
    expect(pages[0]).toContain('&lt;script&gt;document.title=&quot;owned&quot;&lt;/script&gt;');
    expect(pages[0]).toContain('mallory@⟨U+202E⟩moc.elpmaxe');
    expect(pages[0]).toContain('key [REDACTED]');
    expect(pages[0]).toContain('&lt;b onmouseover=&quot;x()&quot;&gt;model&lt;/b&gt;');
    expect(pages[0]).toContain('title="only runs offered this tool">&lt;svg onload=alert(1)&gt;</a>');
    expect(pages[0]).toContain(`href="/?${new URLSearchParams({ tool: '<svg onload=alert(1)>' }).toString()}"`);
    // The search box echoes the text as an attribute value, escaped.
    expect(pages[1]).toContain(`value="${HOSTILE.slice(0, 40).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')}"`);
    expect(pages[1]).toContain('run_hostile_answer');
    expect(pages[2]).not.toContain('run_hostile_answer');
  });

  it('escapes every string field of a hostile record on the run page: its lead, conversation, cards, decisions and notes', async () => {
    // Each field carries its own tag, so the test sees each one reach the page, escaped, in a view other than the raw JSON (whose `\"` differ).
    const tag = (field: string) => `<b id="pwn-${field}">${field}</b>`;
    const fields = [
      'model',
      'system',
      'prompt',
      'assistant',
      'tool',
      'key',
      'value',
      'nestedKey',
      'nestedValue',
      'argumentsText',
      'ruleId',
      'reason',
      'removedPath',
      'removedMessage',
      'flagMessage',
      'result',
      'failure',
      'structuredKey',
      'summary',
      'denial',
      'issue',
      'stop',
    ];
    const time = new Date().toISOString();
    const runId = 'run_hostile';
    const tool = tag('tool');
    const args = { [tag('key')]: tag('value'), nested: { [tag('nestedKey')]: [tag('nestedValue')] } };
    const lines = [
      { type: 'run_started', modelId: tag('model'), tools: [tool], limits: {}, resumed: false },
      {
        type: 'model_request',
        step: 0,
        messages: [
          { role: 'system', content: tag('system') },
          { role: 'user', content: tag('prompt') },
        ],
        tools: [tool],
        toolChoice: 'auto',
        maxOutputTokens: undefined,
        estimatedInputTokens: 1,
      },
      {
        type: 'model_response',
        step: 0,
        response: { content: [{ type: 'text', text: tag('assistant') }], stopReason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 1 } },
        raw: null,
        costUsd: 0,
        durationMs: 1,
      },
      { type: 'tool_call', step: 0, callKey: '0.0', callId: 'c1', toolName: tool, arguments: args, argumentsText: tag('argumentsText') },
      {
        type: 'policy_decision',
        step: 0,
        callKey: '0.0',
        callId: 'c1',
        toolName: tool,
        action: 'block',
        ruleId: tag('ruleId'),
        reason: tag('reason'),
        flags: [{ ruleId: 'copied-argument', argumentPath: 'to', message: tag('flagMessage') }],
        removed: [{ ruleId: 'values-from', argumentPath: tag('removedPath'), kind: 'url', message: tag('removedMessage') }],
      },
      {
        type: 'confirmation_requested',
        step: 0,
        pending: [{ approvalId: 'apr_x', runId, callKey: '0.0', callId: 'c1', toolName: tool, arguments: args, summary: tag('summary'), expiresAt: time }],
      },
      { type: 'confirmation_decided', callKey: '0.0', callId: 'c1', toolName: tool, decision: 'deny', reason: tag('denial') },
      {
        type: 'tool_result',
        step: 0,
        callKey: '0.0',
        callId: 'c1',
        toolName: tool,
        arguments: args,
        status: 'failed',
        result: { content: [{ type: 'text', text: tag('result') }], structuredContent: { [tag('structuredKey')]: 1 }, isError: true },
        durationMs: 1,
        truncated: false,
        failure: { code: tag('failure'), retryable: false },
      },
      { type: 'output_invalid', step: 1, output: 'answer', issues: [{ code: 'type', path: ['x'], message: tag('issue') }], repair: false },
      {
        type: 'stop',
        status: 'stopped',
        stopReason: { kind: 'aborted', message: tag('stop') },
        usage: { inputTokens: 1, outputTokens: 1, modelCalls: 1, toolCalls: 1, wallTimeMs: 5 },
        costUsd: 0,
      },
    ];
    writeFileSync(join(fixture.folder, 'runs', `${runId}.jsonl`), lines.map((line) => `${JSON.stringify({ time, runId, ...line })}\n`).join(''));
    const reply = await send({ path: `/runs/${runId}`, headers: { cookie } });
    expect(reply.status).toBe(200);
    expect(reply.body).not.toContain('<b id="pwn');
    expect(reply.body).not.toContain('<b ');
    const conversation = reply.body.slice(reply.body.indexOf('id="run-lead"'), reply.body.indexOf('<h2>Timeline</h2>'));
    for (const field of fields) expect(conversation, field).toContain(`&lt;b id=&quot;pwn-${field}&quot;&gt;${field}&lt;/b&gt;`);
  });

  it('lists runs when a record has a line of the wrong shape', async () => {
    const time = new Date().toISOString();
    const lines = [
      { time, runId: 'run_odd', type: 'run_started', modelId: { not: 'a string' }, tools: 5, resumed: false },
      { time, runId: 'run_odd', type: 'stop', status: 'completed', usage: null, costUsd: 'free' },
    ];
    writeFileSync(join(fixture.folder, 'runs', 'run_odd.jsonl'), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const reply = await send({ path: '/', headers: { cookie } });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatch(/<tr data-run-id="run_odd">[\s\S]*?completed/);
  });

  it('records a decision once: the approval’s signed token is single use', async () => {
    const action = `/approvals/${fixture.approvalId}/deny`;
    const first = await post(action, { form: formToken, reason: 'not today' });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe(`/approvals/${fixture.approvalId}`);
    const second = await post(`/approvals/${fixture.approvalId}/approve`, { form: formToken });
    expect(second.status).toBe(409);
    expect(second.body).toContain('Not recorded');
    expect(await fixture.store.findConfirmation(fixture.approvalId)).toMatchObject({ decision: 'deny', reason: 'not today' });
    await fixture.console.idle();
    const decidedPage = (await send({ path: first.headers.location as string, headers: { cookie } })).body;
    expect(decidedPage).toContain('You denied <code>refund</code>');
    expect(decidedPage).toMatch(
      /The run continued \(the model is told the call was denied\) and is now\s*<span class="status status-completed">completed<\/span>/,
    );
    expect(fixture.refunds).toEqual([]);
    expect((await fixture.store.loadRun(fixture.runId))?.status).toBe('completed');
  });
});
