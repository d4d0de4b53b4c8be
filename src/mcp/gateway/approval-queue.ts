/**
 * Approvals for hosts that cannot elicit: a confirmation becomes a file in a folder, and a person decides it from
 * another process (`toolwright gateway approvals list|approve|deny`), while the call waits. The folder is the only
 * channel between the two, so a gateway and the command a person runs need nothing else in common; it is plugged in as
 * `createMcpServer({ confirmationFallback: queue.handler })`, asked only when the host did not declare elicitation.
 *
 * Each waiting call is `<id>.json` (mode 0600): the tool's name, its server and category, and the redacted `summary` and
 * `prompt` the confirmation request carries, never the arguments themselves. A decision is `<id>.decision.json`, created
 * exclusively, so two people deciding at once cannot both win; the waiting call reads it, then removes both files.
 * Everything in the folder is read as untrusted: a file that is not JSON of the expected shape, too large, or not a
 * regular file (a symlink) is skipped with a message, and a decision that cannot be read refuses the call.
 * @module
 */
import { randomHex } from '../../shared/bytes.js';
import { ToolwrightError } from '../../shared/errors.js';
import { nodeFileSystem } from '../../shared/node-file-system.js';
import { getOwn, isPlainObject } from '../../shared/own.js';
import { safeParseJson } from '../../shared/safe-json.js';
import { showInvisible } from '../../shared/visible-text.js';
import { stderrLogger } from '../../tools/index.js';
import type { ToolLogger } from '../../tools/index.js';
import type { McpConfirmationDecision, McpConfirmationHandler } from '../mcp-confirmation.js';

/** A call waiting for a person's decision, as its file holds it. */
export interface PendingApproval {
  /** `apr_` and 32 hex digits: what `decide` takes. */
  id: string;
  /** The tool's name, as the host called it. */
  tool: string;
  /** The upstream server, for a tool imported from one. */
  server?: string;
  category?: string;
  /** One line for a person, redacted (the confirmation request's `summary`). */
  summary: string;
  /** The summary and the redacted arguments, one per line (the confirmation request's `prompt`). */
  prompt: string;
  /** When the call started waiting (ISO 8601). */
  createdAt: string;
}

export interface ApprovalDecisionInput {
  approved: boolean;
  /** Why, for a denial: the host's model reads it. */
  reason?: string;
  /** Who decided, for the model's text and the file. */
  by?: string;
}

export interface FileApprovalQueueOptions {
  /** How often a waiting call looks for its decision, in ms. Default 500. */
  pollMs?: number;
  /** Where skipped files and unreadable decisions are reported. Default: stderr. */
  logger?: ToolLogger;
}

export interface FileApprovalQueue {
  /** The confirmation handler: writes the call's file and waits for its decision, or for the call's signal. */
  handler: McpConfirmationHandler;
  /** The calls waiting now, oldest first; files that cannot be read as one are skipped and reported to the logger. */
  list(): PendingApproval[];
  /** Decides a waiting call; throws {@link ApprovalNotPendingError} for an id that is not waiting (unknown, already decided). */
  decide(id: string, decision: ApprovalDecisionInput): void;
}

/** A decision for an approval id that is not waiting in the folder. */
export class ApprovalNotPendingError extends ToolwrightError {
  readonly approvalId: string;
  constructor(approvalId: string, why: string) {
    super(
      'TW_APPROVAL_NOT_PENDING',
      `No call is waiting for approval ${JSON.stringify(showInvisible(approvalId.slice(0, 80)))}: ${why}. ` +
        'List the calls that are waiting (`toolwright gateway approvals list`) and decide one of those ids; a call whose request was cancelled must be made again.',
    );
    this.approvalId = approvalId;
  }
}

const ID_SHAPE = /^apr_[0-9a-f]{32}$/;
const REQUEST_FILE = /^(apr_[0-9a-f]{32})\.json$/;
const DECISION_SUFFIX = '.decision.json';
/** Larger files are not read: a request holds a capped prompt, a decision a short reason. */
const MAX_FILE_BYTES = 64 * 1024;
const MAX_REASON_CHARS = 2000;
const DEFAULT_POLL_MS = 500;
/** Request files read by one `list`: each is read whole, so a folder flooded with files is not read whole. */
const MAX_LISTED = 1000;

/** A confirmation queue in `dir`, shared by every process that opens one over the same folder. */
export function createFileApprovalQueue(dir: string, options: FileApprovalQueueOptions = {}): FileApprovalQueue {
  const { fs, path } = nodeFileSystem(
    'The gateway approval queue',
    'Run the gateway on Node, Bun or Deno, or give createMcpServer another confirmationFallback.',
  );
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const logger = options.logger ?? stderrLogger;
  const requestPath = (id: string) => path.join(dir, `${id}.json`);
  const decisionPath = (id: string) => path.join(dir, `${id}${DECISION_SUFFIX}`);
  // O_NOFOLLOW: a symlink planted under an approval's name is refused by open itself, not followed to its target;
  // O_NONBLOCK: a named pipe planted there opens at once (and is then refused as not a regular file) instead of
  // blocking the process until someone writes to it.
  const readFlags = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

  async function exists(file: string): Promise<boolean> {
    try {
      await fs.promises.lstat(file);
      return true;
    } catch {
      return false;
    }
  }

  async function removeFiles(id: string): Promise<void> {
    await Promise.all([fs.promises.rm(requestPath(id), { force: true }), fs.promises.rm(decisionPath(id), { force: true })]);
  }

  /** The decision for `id`: undefined while there is none; a refusal when its file cannot be read as one. */
  async function readDecision(id: string): Promise<McpConfirmationDecision | undefined> {
    let text: string;
    try {
      const handle = await fs.promises.open(decisionPath(id), readFlags);
      try {
        const stat = await handle.stat();
        if (!stat.isFile()) throw new Error('it is not a regular file');
        if (stat.size > MAX_FILE_BYTES) throw new Error(`it is ${stat.size} bytes long, more than ${MAX_FILE_BYTES}`);
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
      return unreadableDecision(id, describeReadError(error));
    }
    const decision = parseDecision(text);
    return typeof decision === 'string' ? unreadableDecision(id, decision) : decision;
  }

  function unreadableDecision(id: string, problem: string): McpConfirmationDecision {
    logger.error(`the decision file for approval ${id} in ${dir} could not be read (${problem}); the call was refused`, { approvalId: id });
    return { approved: false, reason: 'its decision could not be read' };
  }

  const handler: McpConfirmationHandler = async (request) => {
    const id = `apr_${randomHex(16)}`;
    const pending: PendingApproval = {
      id,
      tool: request.tool.name,
      ...(request.tool.origin.kind === 'mcp' ? { server: request.tool.origin.server } : {}),
      ...(request.tool.category === undefined ? {} : { category: request.tool.category }),
      summary: request.summary,
      prompt: request.prompt,
      createdAt: new Date().toISOString(),
    };
    request.signal.throwIfAborted();
    await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
    // Written beside, then renamed: `list` in another process never reads half a request.
    const temporary = path.join(dir, `${id}.${randomHex(4)}.tmp`);
    try {
      await fs.promises.writeFile(temporary, JSON.stringify(pending), { mode: 0o600, flag: 'wx' });
      await fs.promises.rename(temporary, requestPath(id));
    } catch (error) {
      await fs.promises.rm(temporary, { force: true });
      throw error;
    }
    try {
      for (;;) {
        request.signal.throwIfAborted();
        const decision = await readDecision(id);
        if (decision !== undefined) return decision;
        if (!(await exists(requestPath(id)))) {
          logger.error(`approval ${id} was removed from ${dir} before anyone decided it; the call was refused`, { approvalId: id });
          return { approved: false, reason: 'its approval request was removed before anyone decided it' };
        }
        await sleep(pollMs, request.signal);
      }
    } finally {
      // Decided or given up (the host cancelled the call): either way nobody should find it waiting any more.
      await removeFiles(id);
    }
  };

  function list(): PendingApproval[] {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return [];
      throw error;
    }
    const present = new Set(names);
    const waiting = names.sort().flatMap((name) => {
      const id = REQUEST_FILE.exec(name)?.[1];
      // a call with a decision is no longer waiting: it is being picked up
      return id === undefined || present.has(`${id}${DECISION_SUFFIX}`) ? [] : [{ id, name }];
    });
    if (waiting.length > MAX_LISTED) {
      logger.error(`the approval folder ${dir} holds ${waiting.length} waiting calls; only the first ${MAX_LISTED} by name were read`, {
        count: waiting.length,
      });
    }
    const pending: PendingApproval[] = [];
    for (const { id, name } of waiting.slice(0, MAX_LISTED)) {
      const read = readRequestFile(id);
      if (typeof read === 'string') {
        logger.error(`skipped ${JSON.stringify(showInvisible(name))} in the approval folder ${dir}: ${read}. Remove the file; no call is waiting on it.`, {
          file: name,
        });
        continue;
      }
      pending.push(read);
    }
    return pending.sort((left, right) => left.createdAt.localeCompare(right.createdAt));
  }

  /** The request in `<id>.json`, or why it cannot be read as one. */
  function readRequestFile(id: string): PendingApproval | string {
    let text: string;
    try {
      const fd = fs.openSync(requestPath(id), readFlags);
      try {
        const stat = fs.fstatSync(fd);
        if (!stat.isFile()) return 'it is not a regular file';
        const size = stat.size;
        if (size > MAX_FILE_BYTES) return `it is ${size} bytes long, more than the ${MAX_FILE_BYTES} an approval file may be`;
        text = fs.readFileSync(fd, 'utf8');
      } finally {
        fs.closeSync(fd);
      }
    } catch (error) {
      return describeReadError(error);
    }
    const parsed = safeParseJson(text, { maxDepth: 4, maxChars: MAX_FILE_BYTES });
    if (!parsed.success) return `it is not JSON (${parsed.error.message})`;
    return pendingFromJson(id, parsed.value);
  }

  function decide(id: string, decision: ApprovalDecisionInput): void {
    if (!ID_SHAPE.test(id)) throw new ApprovalNotPendingError(id, 'it is not an approval id (`apr_` and 32 hex digits)');
    let requestStat;
    try {
      requestStat = fs.lstatSync(requestPath(id));
    } catch {
      throw new ApprovalNotPendingError(id, 'no such call is waiting (it was never queued, was already decided, or its request was cancelled)');
    }
    if (!requestStat.isFile()) throw new ApprovalNotPendingError(id, 'its file in the approval folder is not a regular file');
    const reason = decision.reason === undefined ? undefined : decision.reason.slice(0, MAX_REASON_CHARS);
    const by = decision.by === undefined ? undefined : decision.by.slice(0, 200);
    const body = JSON.stringify({
      approved: decision.approved === true,
      ...(reason === undefined ? {} : { reason }),
      ...(by === undefined ? {} : { by }),
      decidedAt: new Date().toISOString(),
    });
    const temporary = path.join(dir, `${id}.${randomHex(4)}.tmp`);
    fs.writeFileSync(temporary, body, { mode: 0o600, flag: 'wx' });
    try {
      // link fails if the decision exists: of two people deciding at once, exactly one is told it worked.
      fs.linkSync(temporary, decisionPath(id));
    } catch (error) {
      if ((error as { code?: unknown }).code === 'EEXIST') throw new ApprovalNotPendingError(id, 'it was already decided');
      throw error;
    } finally {
      fs.rmSync(temporary, { force: true });
    }
  }

  return { handler, list, decide };
}

/** A request file's content as a {@link PendingApproval}, or what is wrong with it. */
function pendingFromJson(id: string, value: unknown): PendingApproval | string {
  if (!isPlainObject(value)) return 'it is not a JSON object';
  const text = (key: string) => {
    const field = getOwn(value, key);
    return typeof field === 'string' ? field : undefined;
  };
  if (text('id') !== id) return 'its "id" is not the one its name gives';
  const [tool, summary, prompt, createdAt] = [text('tool'), text('summary'), text('prompt'), text('createdAt')];
  if (tool === undefined || summary === undefined || prompt === undefined || createdAt === undefined) {
    return 'it lacks one of the text fields "tool", "summary", "prompt", "createdAt"';
  }
  const [server, category] = [text('server'), text('category')];
  return { id, tool, ...(server === undefined ? {} : { server }), ...(category === undefined ? {} : { category }), summary, prompt, createdAt };
}

/** A decision file's content, or what is wrong with it. Only `"approved": true` approves. */
function parseDecision(text: string): McpConfirmationDecision | string {
  const parsed = safeParseJson(text, { maxDepth: 2, maxChars: MAX_FILE_BYTES });
  if (!parsed.success) return `it is not JSON (${parsed.error.message})`;
  const value = parsed.value;
  if (!isPlainObject(value) || typeof getOwn(value, 'approved') !== 'boolean') return 'it is not an object with a boolean "approved"';
  if (getOwn(value, 'approved') === true) return { approved: true };
  const reason = getOwn(value, 'reason');
  const by = getOwn(value, 'by');
  const who = typeof by === 'string' && by !== '' ? by : 'the person';
  return { approved: false, reason: `${who} denied it in the approval queue${typeof reason === 'string' && reason !== '' ? `: ${reason}` : ''}` };
}

function describeReadError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'ELOOP' || code === 'EMLINK') return 'it is a symbolic link, which the approval folder never follows';
  if (code === 'ENOENT') return 'it was removed while being read';
  return (error as Error).message;
}

/** Waits `ms`, or less when `signal` aborts first; never rejects (the caller checks the signal). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
