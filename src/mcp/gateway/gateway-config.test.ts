/**
 * checkGatewayConfig: every wrong field of a gateway config is refused with a message that names the field and says
 * what it should be; `${env:NAME}` names a missing variable.
 */
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../shared/errors.js';
import { createPolicy } from '../../policy/create-policy.js';
import { checkGatewayConfig, expandEnvironment } from './gateway-config.js';

const memory = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] };
const withServer = (server: Record<string, unknown>) => ({ servers: { memory: { ...memory, ...server } } });
const withUrlServer = (server: Record<string, unknown>) => ({ servers: { remote: { url: 'https://example.com/mcp', ...server } } });

/** The message checkGatewayConfig throws for `value`, checked to be an InvalidArgumentError. */
function refusal(value: unknown): string {
  try {
    checkGatewayConfig(value, 'gateway.json');
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return (error as Error).message;
  }
  throw new Error('checkGatewayConfig accepted the config');
}

describe('checkGatewayConfig', () => {
  it('accepts a config with every field set right, and returns it', () => {
    const config = {
      $schema: 'https://example.com/gateway.schema.json',
      servers: {
        memory: {
          ...memory,
          env: { MEMORY_FILE_PATH: '${env:HOME}/memory.json' },
          cwd: '.',
          include: ['read_graph'],
          exclude: ['delete_entities'],
          confirm: ['create_entities'],
          trust: 'trusted',
          deny: ['delete_relations'],
          callLimits: { create_entities: 5 },
          poisoning: 'strip',
          requestTimeoutMs: 5_000,
        },
        github: { url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer ${env:GITHUB_TOKEN}' }, confirm: 'all', poisoning: 'warn' },
      },
      namespace: 'always',
      pins: 'pins.json',
      recordDir: 'records',
      approvalsDir: 'approvals',
      untrustedWrites: 'block',
      limits: { maxToolCalls: 20 },
      confirmationTimeoutMs: 60_000,
      name: 'my-gateway',
      policy: createPolicy({ name: 'mine' }),
    };
    expect(checkGatewayConfig(config)).toBe(config);
    expect(checkGatewayConfig({ servers: { memory }, pins: false }).pins).toBe(false);
  });

  // Each case: the config, and what its message must say (the field, and what to write instead).
  const cases: [string, unknown, string[]][] = [
    ['not an object', [], ['gateway.json: expected an object with "servers"']],
    ['no servers', {}, ['"servers" must name at least one upstream server', '"command": "npx"']],
    ['empty servers', { servers: {} }, ['"servers" must name at least one upstream server']],
    ['an unknown top-level field', { servers: { memory }, server: {} }, ['unknown field "server"', 'the fields are servers, namespace']],
    ['an unknown server field', withServer({ arg: ['x'] }), ['unknown field "servers.memory.arg"', 'args']],
    ['a bad server name', { servers: { 'my server': memory } }, ['the server name "my server" must be 1–40 letters, digits, "-" or "_"']],
    ['a server that is not an object', { servers: { memory: 'npx server-memory' } }, ['servers.memory must be an object with "command" or "url"']],
    ['neither command nor url', { servers: { memory: { args: [] } } }, ['servers.memory needs exactly one of "command" (a stdio server) and "url"']],
    ['both command and url', withServer({ url: 'https://example.com/mcp' }), ['servers.memory needs exactly one of "command"']],
    ['an empty command', withServer({ command: ' ' }), ['servers.memory.command must be a non-empty string such as "npx"']],
    ['a url that is not http(s)', withUrlServer({ url: 'ftp://example.com/mcp' }), ['servers.remote.url must be an http(s):// URL']],
    ['args with a url', withUrlServer({ args: ['x'] }), ['servers.remote has a "url": "args", "env" and "cwd" are for a stdio "command"; remove them.']],
    ['headers with a command', withServer({ headers: { A: 'b' } }), ['servers.memory.headers are sent to a "url"; a stdio server takes "env" instead.']],
    ['args not strings', withServer({ args: ['-y', 3] }), ['servers.memory.args must be a list of strings.']],
    ['include not a list', withServer({ include: 'read_graph' }), ['servers.memory.include must be a list of strings.']],
    ['exclude not a list', withServer({ exclude: [1] }), ['servers.memory.exclude must be a list of strings.']],
    ['deny not a list', withServer({ deny: 'x' }), ['servers.memory.deny must be a list of strings.']],
    ['env values not strings', withServer({ env: { PORT: 3000 } }), ['servers.memory.env must map names to strings', '${env:NAME}']],
    ['headers values not strings', withUrlServer({ headers: { Authorization: true } }), ['servers.remote.headers must map names to strings']],
    ['cwd not a string', withServer({ cwd: 1 }), ['servers.memory.cwd must be a folder path.']],
    ['a bad confirm', withServer({ confirm: 'writes-only' }), ['servers.memory.confirm must be "all", "writes", "none" or a list']],
    ['a bad trust', withServer({ trust: 'high' }), ['servers.memory.trust must be "trusted", "untrusted"; got "high".']],
    ['a bad poisoning', withServer({ poisoning: 'ignore' }), ['servers.memory.poisoning must be "warn", "strip", "block"; got "ignore".']],
    ['a bad requestTimeoutMs', withServer({ requestTimeoutMs: 0 }), ['servers.memory.requestTimeoutMs must be a positive whole number of milliseconds.']],
    ['callLimits not an object', withServer({ callLimits: 5 }), ['servers.memory.callLimits must map tool names to a number of calls']],
    ['a negative call limit', withServer({ callLimits: { create_entities: -1 } }), ['servers.memory.callLimits.create_entities must be a whole number']],
    ['a bad namespace', { servers: { memory }, namespace: 'prefix' }, ['namespace must be "on-collision", "always"; got "prefix".']],
    ['a bad untrustedWrites', { servers: { memory }, untrustedWrites: 'deny' }, ['untrustedWrites must be "allow", "confirm", "block"; got "deny".']],
    ['pins true', { servers: { memory }, pins: true }, ['"pins" must be a file path, or false to turn pinning off.']],
    ['an empty recordDir', { servers: { memory }, recordDir: '' }, ['"recordDir" must be a non-empty string.']],
    ['approvalsDir not a string', { servers: { memory }, approvalsDir: 1 }, ['"approvalsDir" must be a non-empty string.']],
    ['a bad confirmationTimeoutMs', { servers: { memory }, confirmationTimeoutMs: 1.5 }, ['confirmationTimeoutMs must be a positive whole number']],
    ['limits not an object', { servers: { memory }, limits: 10 }, ['"limits" must be an object with any of maxToolCalls']],
    ['an unknown limit', { servers: { memory }, limits: { maxCalls: 5 } }, ['"limits": `limits` takes maxToolCalls', 'remove maxCalls']],
    ['a limit out of range', { servers: { memory }, limits: { maxToolCalls: -1 } }, ['"limits": ', 'maxToolCalls']],
    ['a policy that is not one', { servers: { memory }, policy: { denyTools: ['x'] } }, ['"policy" must be a policy made by createPolicy', '"deny"']],
  ];
  it.each(cases)('refuses %s, naming the field and the fix', (_label, value, expected) => {
    const message = refusal(value);
    for (const part of expected) expect(message).toContain(part);
    expect(message.startsWith('gateway.json: ')).toBe(true);
  });
});

describe('expandEnvironment', () => {
  it('replaces ${env:NAME} from the environment given', () => {
    expect(expandEnvironment('Bearer ${env:TOKEN}/${env:TOKEN}', { TOKEN: 'abc' }, 'servers.github.headers.Authorization')).toBe('Bearer abc/abc');
  });
  it('names the field and the missing variable, and says where to set it', () => {
    expect(() => expandEnvironment('Bearer ${env:GITHUB_TOKEN}', {}, 'servers.github.headers.Authorization')).toThrow(
      new InvalidArgumentError(
        "servers.github.headers.Authorization uses ${env:GITHUB_TOKEN}, but GITHUB_TOKEN is not set in the gateway's environment. Set it where the host starts the gateway.",
      ),
    );
  });
});
