/**
 * The gateway's configuration: which upstream MCP servers to connect to, how each is trusted, which of its tools need a
 * person, what to do with a definition that carries instructions for the model, and the session-wide guards. The same
 * shape comes from a JSON file (`toolwright gateway --config gateway.json`) or a module's default export, so it is
 * checked here field by field, and every mistake names the field and the fix.
 * @module
 */
import { InvalidArgumentError } from '../../shared/errors.js';
import { getOwn, isPlainObject } from '../../shared/own.js';
import type { Policy } from '../../policy/types.js';
import { checkedCallLimits, type McpCallLimits } from '../session-guards.js';

/** What the gateway does with a tool whose definition the poisoning checks flag (`toolwright lint --imported`'s rules). */
export type PoisoningAction = 'warn' | 'strip' | 'block';

/** Which calls of a server's tools need a person: every call, writes (the default), none, or the listed remote tool names. */
export type ConfirmSetting = 'all' | 'writes' | 'none' | readonly string[];

/** One upstream MCP server: a command (stdio) or a URL (Streamable HTTP), and how the gateway treats it. */
export interface GatewayServerConfig {
  /** The command that starts a stdio server (`npx`, `node`, a path). Exactly one of `command` and `url`. */
  command?: string;
  args?: readonly string[];
  /** The child's environment, added to the SDK's safe subset of the gateway's. Values may be `${env:NAME}` (read from the gateway's environment). */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
  /** A Streamable HTTP endpoint (`https://…/mcp`). */
  url?: string;
  /** Sent with every HTTP request (`Authorization`, API keys); values may be `${env:NAME}`. */
  headers?: Readonly<Record<string, string>>;
  /** Serve only these remote tools. */
  include?: readonly string[];
  /** Never serve these remote tools. */
  exclude?: readonly string[];
  /** Which calls need a person. `writes` (default): every tool the server does not annotate read-only or non-destructive. */
  confirm?: ConfirmSetting;
  /**
   * How the policy labels this server's results: `untrusted` (default: a web page, an issue, a file may carry someone
   * else's text) or `trusted` (only data the user controls). After an untrusted result, a write to any server needs a
   * person, or is blocked (`policy.untrustedWrites`).
   */
  trust?: 'trusted' | 'untrusted';
  /** Remote tools the host's model may not call at all (they are still listed, so the model reads why it was refused). */
  deny?: readonly string[];
  /** Per remote tool, the most calls one session may make. */
  callLimits?: Readonly<Record<string, number>>;
  /** A definition the poisoning checks flag: `block` (default) withholds the tool, `strip` serves it without its descriptions, `warn` only logs. */
  poisoning?: PoisoningAction;
  /** How long one call may wait for this server, in ms; its progress notifications restart the wait. Default 60 000. */
  requestTimeoutMs?: number;
}

/** The gateway's configuration (`gateway.json`, or the default export of `gateway.ts`). */
export interface GatewayConfig {
  /** The upstream servers by name. A name is how messages, the record and the pin file call the server, and its prefix when tool names collide. */
  servers: Readonly<Record<string, GatewayServerConfig>>;
  /**
   * `on-collision` (default): a tool (or prompt) keeps its name unless another server has one of that name, then both are
   * `<server>_<name>`; `always`: every tool and prompt is. A resource URI two servers list is served once, from the first.
   */
  namespace?: 'on-collision' | 'always';
  /**
   * Where the approved definitions are kept (`toolwright gateway approve` writes it). A relative path is resolved from the
   * config file's folder. Default `gateway.pins.json` beside the config. `false` turns pinning off: every definition is served as listed.
   */
  pins?: string | false;
  /** A folder for one JSONL record per host session (redacted). Default: none. */
  recordDir?: string;
  /**
   * A folder of pending approvals, for hosts that cannot ask the person themselves (`toolwright gateway approvals`).
   * Default: none; such calls are refused with how to approve them.
   */
  approvalsDir?: string;
  /** What a write after untrusted output needs: `confirm` (default), `block`, or `allow`. */
  untrustedWrites?: 'allow' | 'confirm' | 'block';
  /** Per host session: `maxToolCalls`, `maxIdenticalCalls`, `maxRepeatedFailures`, `toolTimeoutMs`. */
  limits?: McpCallLimits;
  /** How long a person has to answer a confirmation, in ms. Default 10 minutes. */
  confirmationTimeoutMs?: number;
  /** The gateway's `serverInfo.name` toward the host. Default `toolwright-gateway`. */
  name?: string;
  /**
   * A policy of your own (`createPolicy`, in a `.ts` config), naming tools as the gateway serves them; it replaces the one
   * built from `trust`, `deny`, `callLimits` and `untrustedWrites`.
   */
  policy?: Policy;
}

const SERVER_KEYS = [
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
  'include',
  'exclude',
  'confirm',
  'trust',
  'deny',
  'callLimits',
  'poisoning',
  'requestTimeoutMs',
] as const;
const CONFIG_KEYS = [
  'servers',
  'namespace',
  'pins',
  'recordDir',
  'approvalsDir',
  'untrustedWrites',
  'limits',
  'confirmationTimeoutMs',
  'name',
  'policy',
  '$schema',
] as const;
const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

/**
 * Checks a parsed configuration and returns it typed; throws {@link InvalidArgumentError} naming the first wrong field
 * (`servers.github.url must be …`). `source` names the file in messages.
 */
export function checkGatewayConfig(value: unknown, source = 'the gateway config'): GatewayConfig {
  const fail = (message: string): never => {
    throw new InvalidArgumentError(`${source}: ${message}`);
  };
  if (!isPlainObject(value)) fail('expected an object with "servers" (e.g. { "servers": { "files": { "command": "npx", "args": [...] } } }).');
  const config = value as Record<string, unknown>;
  unknownKeys(config, CONFIG_KEYS, '', fail);
  const servers = getOwn(config, 'servers');
  if (!isPlainObject(servers) || Object.keys(servers).length === 0) {
    fail(
      '"servers" must name at least one upstream server, e.g. "servers": { "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] } }.',
    );
  }
  for (const [name, server] of Object.entries(servers as Record<string, unknown>)) {
    const at = `servers.${name}`;
    if (!SERVER_NAME.test(name))
      fail(`the server name ${JSON.stringify(name)} must be 1–40 letters, digits, "-" or "_", starting with a letter or digit (it prefixes tool names).`);
    if (!isPlainObject(server)) fail(`${at} must be an object with "command" or "url".`);
    const entry = server as Record<string, unknown>;
    unknownKeys(entry, SERVER_KEYS, `${at}.`, fail);
    const command = getOwn(entry, 'command');
    const url = getOwn(entry, 'url');
    if ((command === undefined) === (url === undefined)) fail(`${at} needs exactly one of "command" (a stdio server) and "url" (Streamable HTTP).`);
    if (command !== undefined && (typeof command !== 'string' || command.trim() === '')) fail(`${at}.command must be a non-empty string such as "npx".`);
    if (url !== undefined) {
      if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) fail(`${at}.url must be an http(s):// URL such as "https://example.com/mcp".`);
      if (getOwn(entry, 'args') !== undefined || getOwn(entry, 'env') !== undefined || getOwn(entry, 'cwd') !== undefined) {
        fail(`${at} has a "url": "args", "env" and "cwd" are for a stdio "command"; remove them.`);
      }
    }
    if (command !== undefined && getOwn(entry, 'headers') !== undefined) fail(`${at}.headers are sent to a "url"; a stdio server takes "env" instead.`);
    stringList(entry, 'args', at, fail);
    stringList(entry, 'include', at, fail);
    stringList(entry, 'exclude', at, fail);
    stringList(entry, 'deny', at, fail);
    stringMap(entry, 'env', at, fail);
    stringMap(entry, 'headers', at, fail);
    const cwd = getOwn(entry, 'cwd');
    if (cwd !== undefined && typeof cwd !== 'string') fail(`${at}.cwd must be a folder path.`);
    const confirm = getOwn(entry, 'confirm');
    if (confirm !== undefined && !['all', 'writes', 'none'].includes(confirm as string)) {
      if (!Array.isArray(confirm) || !confirm.every((item) => typeof item === 'string')) {
        fail(`${at}.confirm must be "all", "writes", "none" or a list of the server's tool names.`);
      }
    }
    oneOf(entry, 'trust', ['trusted', 'untrusted'], at, fail);
    oneOf(entry, 'poisoning', ['warn', 'strip', 'block'], at, fail);
    positiveInteger(entry, 'requestTimeoutMs', at, fail);
    const callLimits = getOwn(entry, 'callLimits');
    if (callLimits !== undefined) {
      if (!isPlainObject(callLimits)) fail(`${at}.callLimits must map tool names to a number of calls, e.g. { "write_file": 5 }.`);
      for (const [tool, limit] of Object.entries(callLimits as Record<string, unknown>)) {
        if (!Number.isInteger(limit) || (limit as number) < 0) fail(`${at}.callLimits.${tool} must be a whole number of calls (0 or more).`);
      }
    }
  }
  oneOf(config, 'namespace', ['on-collision', 'always'], 'the config', fail);
  oneOf(config, 'untrustedWrites', ['allow', 'confirm', 'block'], 'the config', fail);
  const pins = getOwn(config, 'pins');
  if (pins !== undefined && pins !== false && (typeof pins !== 'string' || pins === '')) fail('"pins" must be a file path, or false to turn pinning off.');
  for (const key of ['recordDir', 'approvalsDir', 'name'] as const) {
    const field = getOwn(config, key);
    if (field !== undefined && (typeof field !== 'string' || field === '')) fail(`"${key}" must be a non-empty string.`);
  }
  positiveInteger(config, 'confirmationTimeoutMs', 'the config', fail);
  const limits = getOwn(config, 'limits');
  if (limits !== undefined && !isPlainObject(limits))
    fail('"limits" must be an object with any of maxToolCalls, maxIdenticalCalls, maxRepeatedFailures, toolTimeoutMs.');
  // Checked now, as createMcpServer would check them: otherwise a wrong limit surfaces only when the first host connects.
  try {
    checkedCallLimits(limits as McpCallLimits | undefined);
  } catch (error) {
    fail(`"limits": ${(error as Error).message.replace(/^createMcpServer: /, '')}`);
  }
  const policy = getOwn(config, 'policy');
  if (policy !== undefined && (!isPlainObject(policy) || typeof (policy as { startRun?: unknown }).startRun !== 'function')) {
    fail('"policy" must be a policy made by createPolicy (in a .ts config); a JSON config uses "trust", "deny", "callLimits" and "untrustedWrites".');
  }
  return config as unknown as GatewayConfig;
}

/**
 * `${env:NAME}` in a string, replaced from `environment`; a missing variable is an error that names it. `onSubstitute` is
 * told each value put in, so that a message quoting the expanded string can hide it again.
 */
export function expandEnvironment(
  value: string,
  environment: Readonly<Record<string, string | undefined>>,
  where: string,
  onSubstitute?: (name: string, value: string) => void,
): string {
  return value.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => {
    const found = environment[name];
    if (found === undefined) {
      throw new InvalidArgumentError(
        `${where} uses \${env:${name}}, but ${name} is not set in the gateway's environment. Set it where the host starts the gateway.`,
      );
    }
    onSubstitute?.(name, found);
    return found;
  });
}

function unknownKeys(object: Record<string, unknown>, known: readonly string[], prefix: string, fail: (message: string) => never): void {
  for (const key of Object.keys(object)) {
    if (!known.includes(key)) fail(`unknown field "${prefix}${key}"; the fields are ${known.filter((name) => name !== '$schema').join(', ')}.`);
  }
}

function stringList(object: Record<string, unknown>, key: string, at: string, fail: (message: string) => never): void {
  const value = getOwn(object, key);
  if (value !== undefined && (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))) fail(`${at}.${key} must be a list of strings.`);
}

function stringMap(object: Record<string, unknown>, key: string, at: string, fail: (message: string) => never): void {
  const value = getOwn(object, key);
  if (value !== undefined && (!isPlainObject(value) || !Object.values(value).every((item) => typeof item === 'string'))) {
    fail(`${at}.${key} must map names to strings (use "\${env:NAME}" for a secret from the environment).`);
  }
}

function oneOf(object: Record<string, unknown>, key: string, values: readonly string[], at: string, fail: (message: string) => never): void {
  const value = getOwn(object, key);
  if (value !== undefined && !values.includes(value as string))
    fail(`${at === 'the config' ? '' : `${at}.`}${key} must be ${values.map((item) => `"${item}"`).join(', ')}; got ${JSON.stringify(value)}.`);
}

function positiveInteger(object: Record<string, unknown>, key: string, at: string, fail: (message: string) => never): void {
  const value = getOwn(object, key);
  if (value !== undefined && (!Number.isInteger(value) || (value as number) < 1))
    fail(`${at === 'the config' ? '' : `${at}.`}${key} must be a positive whole number of milliseconds.`);
}
