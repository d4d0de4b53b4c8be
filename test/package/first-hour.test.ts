/**
 * The first hour of a new user, with the packed tarball: `npm i toolwright openai` in a fresh app, then
 * `npx toolwright init tools`, then every step of the generated TOOLWRIGHT.md as written, `toolwright run` included
 * (against the local provider server, set only through what TOOLWRIGHT.md tells a user to set: OPENAI_BASE_URL), the
 * HTTP server's port 3000 replaced by a free one.
 *
 * The install step is the one line not run as written (the registry is not reachable from a test): the packages it
 * names, and only those, are installed offline into the pack's folder as fresh-app.ts installs any app, with install
 * scripts off; better-sqlite3's native addon, which its install script would build, is linked from this checkout.
 * Before that step, the app that has only toolwright and openai shows what friction 1 of issue #30 was: `run` must
 * name the missing run-store driver before any model call, and `logs` must say there is no such run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderServer, type ProviderServer } from '../provider-server/index.js';
import { installApp, packedTarball, root, type InstalledApp } from './fresh-app.js';

let work = '';
let tarball = '';
let app: InstalledApp | { skipped: string };
let server: ProviderServer;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'toolwright-first-hour-'));
  server = await startProviderServer();
  tarball = await packedTarball();
  app = installApp(join(work, 'app'), tarball, ['openai']);
}, 600_000);

afterAll(async () => {
  await server?.close();
  if (work !== '') rmSync(work, { recursive: true, force: true });
});

/** The environment of a user's shell: the key and base URL only where TOOLWRIGHT.md sets them; npx never downloads. */
function shellEnv(): NodeJS.ProcessEnv {
  const { OPENAI_API_KEY: _key, OPENAI_BASE_URL: _url, ANTHROPIC_API_KEY: _anthropic, NODE_OPTIONS: _options, ...env } = process.env;
  return { ...env, TOOLWRIGHT_HOME: join(work, 'home'), NO_COLOR: '1', npm_config_offline: 'true', npm_config_yes: 'false' };
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command line as a shell would, in a process group of its own, so that `npx` and the node it starts end
 * together; stdin is closed at once (a stdio server then ends, as when its client goes away). `until` ends a
 * long-running one (the HTTP server) once its output says it is up.
 */
function shell(line: string, cwd: string, env: NodeJS.ProcessEnv, until?: RegExp): Promise<Ran> {
  process.stdout.write(`first hour: $ ${line}\n`);
  const child: ChildProcess = spawn('sh', ['-c', line], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  child.stdin!.end();
  let stdout = '';
  let stderr = '';
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const timer = setTimeout(() => killGroup('SIGKILL'), 90_000);
  let stopping = false;
  const check = () => {
    if (!stopping && until && until.test(stdout + stderr)) {
      stopping = true;
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 5_000).unref();
    }
  };
  child.stdout!.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), check()));
  child.stderr!.on('data', (chunk: Buffer) => ((stderr += chunk.toString()), check()));
  return new Promise((done) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    }),
  );
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((ready) => probe.listen(0, '127.0.0.1', ready));
  const { port } = probe.address() as AddressInfo;
  await new Promise((closed) => probe.close(closed));
  return port;
}

/** The lines of the markdown's `sh` code blocks, comments and blank lines left out. */
function shellSteps(markdown: string): string[] {
  const steps: string[] = [];
  for (const block of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const raw of block[1]!.split('\n')) {
      const line = raw.replace(/\s+#.*$/, '').trim();
      if (line !== '' && !line.startsWith('#')) steps.push(line);
    }
  }
  return steps;
}

describe('the first hour: npm i toolwright openai, toolwright init tools, then TOOLWRIGHT.md as written', () => {
  it('runs every step, toolwright run included, with no package that TOOLWRIGHT.md does not list', async (context) => {
    if ('skipped' in app) return context.skip(app.skipped);
    const appDir = app.dir;
    const toolwright = join(appDir, 'node_modules/.bin/toolwright');
    const env = shellEnv();

    const init = await shell(`${toolwright} init tools`, appDir, env);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('  cd tools\n');
    expect(init.stdout).toContain("package.json is new: the packages install into this folder's own project");
    const pack = join(appDir, 'tools');
    const markdown = readFileSync(join(pack, 'TOOLWRIGHT.md'), 'utf8');
    const initManifest = readFileSync(join(pack, 'package.json'), 'utf8');

    // Friction 1: without the store's driver, `run` says so before the model is called, naming every missing package.
    server.reset();
    const early = await shell(`${toolwright} run --model openai:gpt-4o-mini --no-interactive tools/tools.ts "Delete the launch post task."`, appDir, {
      ...env,
      OPENAI_API_KEY: 'sk-test-first-hour',
      OPENAI_BASE_URL: server.openaiBaseURL,
    });
    expect(early.code).toBe(2);
    expect(early.stderr).toContain('toolwright run needs a package that is not installed: better-sqlite3 (the run store');
    expect(early.stderr).toContain('Nothing was run. Install it in your app: npm i better-sqlite3');
    expect(server.requests).toHaveLength(0);
    // … and `logs` of a run that cannot exist says so, without an install line to read nothing.
    const logs = await shell(`${toolwright} logs run_nothing_here`, appDir, env);
    expect(logs.code).toBe(2);
    expect(logs.stderr).toContain('No record for run "run_nothing_here"');
    expect(logs.stderr).toContain('better-sqlite3 is not installed, so no run was stored there');
    expect(logs.stderr).not.toContain('npm i');

    const steps = shellSteps(markdown);
    const installs = steps.filter((step) => step.startsWith('npm i '));
    expect(installs).toHaveLength(1);
    const listed = installs[0]!.slice('npm i '.length).split(/\s+/);
    expect(listed[0]).toBe('toolwright');
    const runs: string[] = [];
    for (const step of steps) {
      if (step.startsWith('npm i ')) {
        // Only what the line names; installApp writes its own package.json and lock, then the one init wrote is put back.
        const installed = installApp(pack, tarball, listed.slice(1));
        if ('skipped' in installed) return context.skip(installed.skipped);
        writeFileSync(join(pack, 'package.json'), initManifest);
        // What better-sqlite3's install script would have built.
        symlinkSync(join(root, 'node_modules/better-sqlite3/build'), join(pack, 'node_modules/better-sqlite3/build'), 'dir');
        continue;
      }
      if (step.includes('toolwright run')) {
        server.reset();
        server.enqueue({
          toolCalls: [{ id: 'call_1', name: 'delete_task', arguments: { reason: 'User said: "delete the launch post task"', task_id: 'task_001' } }],
        });
      }
      // A server has done its part once it says what it serves: the stdio one then ends at stdin's end, the HTTP one is stopped.
      const serving = step.includes('toolwright serve') ? /serving 2 tools/ : undefined;
      // The one change to a line: the HTTP server's port 3000, which another process on this machine may hold, becomes a free one.
      const line = step.includes('127.0.0.1:3000') ? step.replace('127.0.0.1:3000', `127.0.0.1:${await freePort()}`) : step;
      const ran = await shell(line, pack, { ...env, OPENAI_BASE_URL: server.openaiBaseURL }, serving);
      runs.push(step);
      if (serving) expect(`${ran.stdout}${ran.stderr}`, step).toMatch(serving);
      else expect(ran.code, `${step}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
      if (step.includes('tsx --test')) expect(ran.stdout).toMatch(/# pass 4\b/);
      if (step.includes('toolwright run')) {
        expect(server.requests.length).toBeGreaterThan(0);
        expect(ran.stdout).toContain('— waiting for confirmation');
      }
      if (step.includes('approvals list')) expect(ran.stdout).toContain('Delete task task_001');
    }
    // Every kind of step ran: test, lint, run, approvals, both servers.
    expect(runs.filter((step) => /tsx --test|toolwright (lint|run|approvals|serve)/.test(step))).toHaveLength(6);
    expect(listed).toEqual(Object.keys((JSON.parse(initManifest) as { dependencies: Record<string, string> }).dependencies));
  }, 300_000);
});
