/**
 * Starts `toolwright serve` as a child process, the way a client would, for
 * the tests that speak to it from outside (conformance, Inspector, fuzz).
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CONFORMANCE_PACK = 'examples/mcp-conformance/tools.ts';

/** The command line that runs the CLI from source (what `npm run toolwright` does). */
export function cliCommand(...args: string[]): [string, string[]] {
  return [process.execPath, ['--import', 'tsx', resolve(ROOT, 'src/cli/main.ts'), ...args]];
}

export interface ServingCli {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `toolwright serve --tools <pack> --http 127.0.0.1:0 ...` (or `serve <pack> …`) and resolves once it prints its URL. */
export function startHttpServe(extraArgs: string[] = [], pack = CONFORMANCE_PACK, form: 'flag' | 'positional' = 'flag'): Promise<ServingCli> {
  const [command, args] = cliCommand('serve', ...(form === 'flag' ? ['--tools', pack] : [pack]), '--http', '127.0.0.1:0', ...extraArgs);
  const child = spawn(command, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`toolwright serve did not start within 60 s:\n${stderr}`)), 60_000);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /at (http:\/\/\S+\/mcp)\n/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolveStart({
          child,
          url: match[1]!,
          stderr: () => stderr,
          stop: () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`toolwright serve exited with ${code} before printing its URL:\n${stderr}`));
    });
  });
}
