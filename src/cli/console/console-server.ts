/**
 * `toolwright console`: a local web app over a run store and a folder of run
 * records. It lists runs, draws one run's record as a waterfall, lists the
 * calls waiting for a person and approves or denies them through the same
 * signed, single-use path as `toolwright approvals` (`decideConfirmation`),
 * then continues the run through the caller's `resume` once nothing else of
 * it waits; it also opens the HTML reports `toolwright eval` writes.
 *
 * Served by node:http on 127.0.0.1 only, with no script on any page and a
 * strict Content-Security-Policy; {@link ConsoleGate} decides who may ask.
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  ConfirmationRefusedError,
  createRedactor,
  decideConfirmation,
  InvalidRunIdError,
  listPendingConfirmations,
  RunStoreUnavailableError,
  type Decision,
  type RunStore,
} from '../../agent/index.js';
import { ApprovalNotPendingError, type FileApprovalQueue } from '../../mcp/gateway/approval-queue.js';
import { ToolwrightError } from '../../shared/errors.js';
import { ConsoleGate, type Refusal } from './console-gate.js';
import { approvalPage } from './approval-decided-page.js';
import { approvalsPage, errorPage, evalsPage, runPage } from './console-pages.js';
import { gatewayApprovalsPage } from './gateway-approvals-page.js';
import { listRuns, readRecord, summarize, type ConsoleSources, type RunSummary } from './console-runs.js';
import { CONSOLE_CSS } from './console-style.js';
import type { Html } from './html.js';
import { withWayBack } from './report-way-back.js';
import { buildTimeline } from './run-timeline.js';
import { runListPage } from './run-list-page.js';
import { filterRuns, MAX_LISTED_RUNS, pageOf, parseRunListQuery } from './run-list-query.js';
import { shownStatus } from './run-liveness.js';
import type { StoredSettingsNotice } from './stored-settings-card.js';

export interface ConsoleOptions {
  store: RunStore;
  /** The folder of run records (the CLI's `$TOOLWRIGHT_HOME/runs`). */
  runsDir: string;
  /** Folders `toolwright eval --out` wrote to; each one's `report.html`, and those of its subfolders, are listed. */
  evalDirs?: readonly string[];
  /** 0 (the default) takes a free port. The console always binds to 127.0.0.1. */
  port?: number;
  /**
   * Continues a run once every call it waits on is decided (the CLI's is `toolwright resume`). Without it, the console records decisions
   * and the run waits for a resume elsewhere.
   */
  resume?: (runId: string) => Promise<unknown>;
  /**
   * What a stored run's meta names that a resume would execute or contact, and how it compares with the settings `resume` runs
   * with; shown on the run's approval cards. Without it, the cards show none.
   */
  storedSettings?: (meta: Record<string, unknown>) => StoredSettingsNotice | undefined;
  /**
   * The MCP gateway's approvals folder (`createFileApprovalQueue` over the config's `approvalsDir`): calls a host that
   * cannot ask a person is waiting on, listed at `/gateway-approvals` and decided there. Default: none.
   */
  gatewayApprovals?: Pick<FileApprovalQueue, 'list' | 'decide'>;
  /** Where the console reports a failure it cannot show on a page. Default: nowhere. */
  log?: (message: string) => void;
}

export interface ConsoleServer {
  /** The URL to open, with the access token; print it once. */
  url: string;
  origin: string;
  port: number;
  /** The access token (also in `url`). */
  token: string;
  /** Resolves when every resume the console started has ended (for tests and a clean shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** A form body larger than this is refused (a decision's reason is a line, not a document). */
const MAX_FORM_BYTES = 16 * 1024;
/** An eval report larger than this is not served. */
const MAX_REPORT_BYTES = 16 * 1024 * 1024;

const PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
// The eval report is one self-contained file with inline styles; sandboxed, it runs nothing and reaches nothing.
// `allow-same-origin` only so that its links back to the console carry the console's SameSite=Strict cookie (from an opaque
// origin they would arrive without it, and be refused); with no `allow-scripts`, and `default-src 'none'`, nothing runs.
const REPORT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'; sandbox allow-same-origin";

type ResumeState = { state: 'resuming' } | { state: 'failed'; message: string };

/** Starts the console; resolves once it listens. */
export async function startConsole(options: ConsoleOptions): Promise<ConsoleServer> {
  const sources: ConsoleSources = { store: options.store, runsDir: options.runsDir };
  const resumes = new Map<string, ResumeState>();
  const running = new Set<Promise<void>>();
  const redactText = createRedactor().text;

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // A malformed id in a path is the asker's mistake, and a store gone away is no bug of the console: both say so on the page.
      if (!response.headersSent && InvalidRunIdError.isInstance(error)) return send(response, 400, errorPage(400, error.message));
      if (!response.headersSent && RunStoreUnavailableError.isInstance(error)) return send(response, 503, errorPage(503, redactText(error.message)));
      options.log?.(`console: ${redactText(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`);
      if (!response.headersSent) send(response, 500, errorPage(500, 'The console failed on this request; the terminal running it has the details.'));
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const refusedHost = gate.checkHost(request);
    if (refusedHost) return refuse(response, refusedHost);
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const auth = gate.authenticate(request, url);
    if (typeof auth !== 'string') return refuse(response, auth);
    if (auth === 'query') {
      // The token leaves the URL (history, screenshots) for an HttpOnly cookie.
      url.searchParams.delete('token');
      response.writeHead(303, { ...securityHeaders(PAGE_CSP), location: `${url.pathname}${url.search}`, 'set-cookie': gate.cookie() });
      return void response.end();
    }
    const path = url.pathname;
    const decision = /^\/approvals\/([^/]+)\/(approve|deny)$/.exec(path);
    const gatewayDecision = /^\/gateway-approvals\/([^/]+)\/(approve|deny)$/.exec(path);
    if (decision || gatewayDecision) {
      const refusedOrigin = gate.checkWriteOrigin(request);
      if (refusedOrigin) return refuse(response, refusedOrigin);
      const form = await readForm(request);
      if (form === 'too_large') return refuse(response, { status: 413, message: 'The form is too large: a reason is one line.' });
      const refusedForm = gate.checkFormToken(form.get('form') ?? undefined);
      if (refusedForm) return refuse(response, refusedForm);
      if (gatewayDecision) return decideAtGateway(response, decodePath(gatewayDecision[1]!), gatewayDecision[2] as Decision, form.get('reason') ?? undefined);
      return decide(response, decodePath(decision![1]!), decision![2] as Decision, form.get('reason') ?? undefined);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(response, { status: 405, message: 'The console’s pages are read with GET.' });
    // Browsers ask for an icon on their own; answering "none" keeps a 404 out of their console.
    if (path === '/favicon.ico') return void response.writeHead(204, securityHeaders(PAGE_CSP)).end();
    if (path === '/console.css') return send(response, 200, CONSOLE_CSS, 'text/css; charset=utf-8');
    if (path === '/') return showRunList(response, url.searchParams);
    if (path === '/approvals') {
      const pending = await listPendingConfirmations({ store: options.store });
      return send(response, 200, approvalsPage(pending, gate.formToken, await storedSettingsOf(pending), options.gatewayApprovals?.list().length));
    }
    if (path === '/gateway-approvals') {
      if (!options.gatewayApprovals)
        return send(response, 404, errorPage(404, 'This console was started without a gateway: start it with --gateway <config>.'));
      const pending = await listPendingConfirmations({ store: options.store });
      return send(response, 200, gatewayApprovalsPage(options.gatewayApprovals.list(), gate.formToken, pending.length));
    }
    const approval = /^\/approvals\/([^/]+)$/.exec(path);
    if (approval) return showApproval(response, decodePath(approval[1]!));
    const run = /^\/runs\/([^/]+)$/.exec(path);
    if (run) return showRun(response, decodePath(run[1]!));
    if (path === '/evals') return send(response, 200, evalsPage(await findReports()));
    const report = /^\/evals\/(\d+)\/report\.html$/.exec(path);
    if (report) return showReport(response, Number(report[1]));
    return send(response, 404, errorPage(404, 'No such page: start from the runs list.'));
  }

  async function showRunList(response: ServerResponse, params: URLSearchParams): Promise<void> {
    const parsed = parseRunListQuery(params);
    if (!parsed.ok) return send(response, 400, errorPage(400, `${parsed.message} Start again from the runs list.`));
    const pending = await listPendingConfirmations({ store: options.store });
    const searched = await listRuns(sources, MAX_LISTED_RUNS);
    const list = pageOf(filterRuns(searched, parsed.query), parsed.query.page);
    return send(
      response,
      200,
      runListPage({ list, query: parsed.query, searched, pending, formToken: gate.formToken, storedSettings: await storedSettingsOf(pending) }),
    );
  }

  async function showApproval(response: ServerResponse, approvalId: string): Promise<void> {
    const confirmation = await options.store.findConfirmation(approvalId);
    if (!confirmation) return send(response, 404, errorPage(404, `No approval "${approvalId}" in the run store: pick one from the approvals.`));
    const [run, open, allPending] = await Promise.all([
      options.store.loadRun(confirmation.runId),
      options.store.listConfirmations({ runId: confirmation.runId, undecided: true }),
      listPendingConfirmations({ store: options.store }),
    ]);
    const resume = resumes.get(confirmation.runId);
    const storedSettings = run ? options.storedSettings?.(run.state.meta) : undefined;
    return send(
      response,
      200,
      approvalPage({
        confirmation,
        runStatus: run?.status,
        othersWaiting: open.filter((item) => item.approvalId !== approvalId).length,
        resumes: options.resume !== undefined,
        ...(resume ? { resume } : {}),
        formToken: gate.formToken,
        pendingCount: allPending.length,
        ...(storedSettings ? { storedSettings } : {}),
      }),
    );
  }

  async function showRun(response: ServerResponse, runId: string): Promise<void> {
    const stored = await options.store.loadRun(runId);
    const record = await readRecord(sources, runId, stored);
    if (!stored && 'missing' in record) return send(response, 404, errorPage(404, `No run "${runId}" in the store or the records folder.`));
    const fromRecord: RunSummary | undefined = 'lines' in record ? summarize(runId, record.lines) : undefined;
    const summary: RunSummary = {
      ...(fromRecord ?? {
        runId,
        status: 'unknown',
        model: undefined,
        tools: [],
        costUsd: undefined,
        durationMs: undefined,
        startedAt: undefined,
        updatedAt: undefined,
      }),
      ...(stored
        ? {
            status: shownStatus({ status: stored.status, lease: stored.lease, lastWriteAt: stored.updatedAt }),
            model: stored.state.modelId,
            costUsd: stored.state.costUsd,
            durationMs: stored.state.usage.wallTimeMs,
          }
        : {}),
    };
    const allPending = await listPendingConfirmations({ store: options.store });
    const resume = resumes.get(runId);
    const storedSettings = stored ? options.storedSettings?.(stored.state.meta) : undefined;
    return send(
      response,
      200,
      runPage({
        summary,
        timeline: 'lines' in record ? buildTimeline(record.lines) : undefined,
        ...('tooLarge' in record ? { recordNote: `The record (${record.bytes} bytes) is too large to show here: read it with toolwright logs ${runId}.` } : {}),
        ...('missing' in record ? { recordNote: 'This run has no record (it ran with recording off, or its record is on another machine).' } : {}),
        pending: allPending.filter((item) => item.runId === runId),
        formToken: gate.formToken,
        ...(resume ? { resume } : {}),
        pendingCount: allPending.length,
        ...(storedSettings ? { storedSettings } : {}),
        ...('lines' in record ? { record: record.lines } : {}),
      }),
    );
  }

  /** The stored-settings notice of each run with a waiting call. */
  async function storedSettingsOf(pending: readonly { runId: string }[]): Promise<Map<string, StoredSettingsNotice>> {
    const notices = new Map<string, StoredSettingsNotice>();
    if (!options.storedSettings) return notices;
    for (const runId of new Set(pending.map((item) => item.runId))) {
      const run = await options.store.loadRun(runId);
      const notice = run ? options.storedSettings(run.state.meta) : undefined;
      if (notice) notices.set(runId, notice);
    }
    return notices;
  }

  async function decide(response: ServerResponse, approvalId: string, decision: Decision, reason: string | undefined): Promise<void> {
    const pending = await options.store.findConfirmation(approvalId);
    if (!pending)
      return send(response, 404, errorPage(404, `No approval "${approvalId}" in the run store: it may belong to another store. Reload the approvals.`));
    try {
      // The same path as `toolwright approvals approve|deny`: the stored signed token, decided once.
      await decideConfirmation(
        { token: pending.token, decision, ...(reason !== undefined && reason.trim() !== '' ? { reason: reason.trim() } : {}) },
        // The record goes to the console's folder, never to a path the stored run names.
        { store: options.store, recordDir: options.runsDir },
      );
    } catch (error) {
      if (error instanceof ConfirmationRefusedError) return send(response, 409, errorPage(409, `Not recorded: ${error.message}`));
      throw error;
    }
    const open = await options.store.listConfirmations({ runId: pending.runId, undecided: true });
    if (open.length === 0 && options.resume && resumes.get(pending.runId)?.state !== 'resuming') startResume(pending.runId);
    // To the approval's own page: it says what was decided and what happens to the run next.
    response.writeHead(303, { ...securityHeaders(PAGE_CSP), location: `/approvals/${encodeURIComponent(approvalId)}` });
    response.end();
  }

  /** A call waiting at the MCP gateway: decided once, through the queue's folder, which the waiting gateway reads. */
  function decideAtGateway(response: ServerResponse, id: string, decision: Decision, reason: string | undefined): void {
    if (!options.gatewayApprovals) return send(response, 404, errorPage(404, 'This console was started without a gateway: start it with --gateway <config>.'));
    try {
      const trimmed = reason?.trim();
      options.gatewayApprovals.decide(id, {
        approved: decision === 'approve',
        ...(trimmed ? { reason: trimmed } : {}),
        by: 'a person in the toolwright console',
      });
    } catch (error) {
      if (ApprovalNotPendingError.isInstance(error)) return send(response, 409, errorPage(409, `Not recorded: ${error.message}`));
      throw error;
    }
    response.writeHead(303, { ...securityHeaders(PAGE_CSP), location: '/gateway-approvals' });
    response.end();
  }

  function startResume(runId: string): void {
    resumes.set(runId, { state: 'resuming' });
    const done = options.resume!(runId).then(
      () => void resumes.delete(runId),
      (error: unknown) => {
        const message = ToolwrightError.isInstance(error) ? error.message : 'it failed; the terminal running the console has the details.';
        if (!ToolwrightError.isInstance(error)) options.log?.(`console: resuming ${runId} failed: ${redactText(String((error as Error)?.stack ?? error))}\n`);
        resumes.set(runId, { state: 'failed', message: redactText(message) });
      },
    );
    running.add(done);
    void done.finally(() => running.delete(done));
  }

  async function findReports(): Promise<{ index: number; folder: string; path: string; modifiedAt: number }[]> {
    const found: { folder: string; path: string; modifiedAt: number }[] = [];
    for (const folder of options.evalDirs ?? []) {
      const subfolders = await readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const candidate of [folder, ...subfolders.filter((entry) => entry.isDirectory()).map((entry) => join(folder, entry.name))]) {
        const path = join(candidate, 'report.html');
        const info = await stat(path).catch(() => undefined);
        if (info?.isFile()) found.push({ folder: resolve(candidate), path, modifiedAt: info.mtimeMs });
      }
    }
    return found.map((report, index) => ({ ...report, index }));
  }

  async function showReport(response: ServerResponse, index: number): Promise<void> {
    const report = (await findReports())[index];
    const info = report && (await stat(report.path).catch(() => undefined));
    if (!report || !info) return send(response, 404, errorPage(404, 'No such eval report: pick one from the list.'));
    if (info.size > MAX_REPORT_BYTES) return send(response, 413, errorPage(413, `The report at ${report.path} is too large to serve (${info.size} bytes).`));
    response.writeHead(200, { ...securityHeaders(REPORT_CSP), 'content-type': 'text/html; charset=utf-8' });
    response.end(withWayBack(await readFile(report.path, 'utf8')));
  }

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolvePromise();
    });
  });
  const port = (server.address() as AddressInfo).port;
  // Requests are answered from here on: the gate needs the port, which a free-port listen only now knows.
  const gate = new ConsoleGate(port);
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${gate.token}`,
    origin,
    port,
    token: gate.token,
    idle: async () => {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
    },
  };
}

function securityHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    // Not `no-referrer`: under it a browser sends `Origin: null` with a form POST, and the origin check needs the real one.
    'referrer-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  };
}

function send(response: ServerResponse, status: number, body: Html | string, contentType = 'text/html; charset=utf-8'): void {
  response.writeHead(status, { ...securityHeaders(PAGE_CSP), 'content-type': contentType });
  response.end(String(body));
}

function refuse(response: ServerResponse, refusal: Refusal): void {
  // A refusal shows no page of the console, only the message.
  response.writeHead(refusal.status, { ...securityHeaders(PAGE_CSP), 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
  response.end(`${refusal.message}\n`);
}

/** A path segment as text; a malformed escape stays as it was sent (and then names nothing). */
function decodePath(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** An `application/x-www-form-urlencoded` body, at most {@link MAX_FORM_BYTES}. */
async function readForm(request: IncomingMessage): Promise<URLSearchParams | 'too_large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return 'too_large';
    chunks.push(chunk);
  }
  const type = request.headers['content-type'] ?? '';
  return type.split(';')[0]!.trim() === 'application/x-www-form-urlencoded'
    ? new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
    : new URLSearchParams();
}
