/**
 * The package as a user gets it, shared by the tests that install it: `npm pack` (which builds dist/ through
 * `prepack`) once per content, then the tarball installed into throwaway apps, offline.
 *
 * Offline by construction: each app gets a lock file cut from this repository's package-lock.json, so
 * `npm ci --offline` needs only the tarballs that this repository's own `npm ci` put in the npm cache. A tarball
 * missing from the cache is reported as a skip reason; nothing reaches the network. An app installed with
 * `resolve: true` gets no lock: `npm install --offline` resolves it from the cache's metadata as a user's `npm i`
 * does, checking every peer range.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
export const tsc = join(root, 'node_modules/typescript/bin/tsc');

export interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [key: string]: unknown;
}
export const repoLock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
export const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  files: string[];
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional: boolean }>;
};

/** Where npm's lookup from `fromPath` finds `name`: the nearest node_modules up the tree, as Node resolves it. */
function locate(fromPath: string, name: string): string | undefined {
  let base = fromPath;
  for (;;) {
    const candidate = `${base === '' ? '' : `${base}/`}node_modules/${name}`;
    if (repoLock.packages[candidate]) return candidate;
    if (base === '') return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

/** The repository lock's entries that installing `names` needs (dependencies and required peers, transitively). */
function closure(names: string[]): Record<string, LockEntry> {
  const picked: Record<string, LockEntry> = {};
  const pending = names.map((name) => ({ from: '', name }));
  while (pending.length > 0) {
    const { from, name } = pending.pop()!;
    const path = locate(from, name);
    if (path === undefined || picked[path]) continue;
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = repoLock.packages[path]!;
    picked[path] = entry;
    const requiredPeers = Object.keys(entry.peerDependencies ?? {}).filter((peer) => !entry.peerDependenciesMeta?.[peer]?.optional);
    for (const next of [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...requiredPeers]) {
      pending.push({ from: path, name: next });
    }
  }
  return picked;
}

export function diskKilobytes(path: string): number {
  let bytes = 0;
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const stat = lstatSync(join(at, name));
      if (stat.isDirectory()) walk(join(at, name));
      else bytes += stat.size;
    }
  };
  walk(path);
  return Math.round(bytes / 1024);
}

/** A digest of everything `npm pack` reads: the tarball is rebuilt only when one of these changed. */
function packInputsDigest(): string {
  const hash = createHash('sha256');
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) if (name !== 'node_modules') visit(join(path, name));
    } else hash.update(path).update(readFileSync(path));
  };
  for (const path of [
    'package.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'scripts/mark-optional-peer-types.mjs',
    'src',
    'README.md',
    'LICENSE',
    // A pattern such as docs/*.md: its whole folder is digested.
    ...manifest.files.filter((f) => f !== 'dist').map((f) => f.replace(/\/\*.*$/, '')),
  ])
    visit(join(root, path));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The packed tarball of this checkout, built once per content and shared by every test file (and run) that needs it:
 * node_modules/.cache/toolwright-pack/<digest>/toolwright-<version>.tgz. Concurrent callers wait on one build.
 */
export async function packedTarball(): Promise<string> {
  const cache = join(root, 'node_modules/.cache/toolwright-pack');
  const digest = packInputsDigest();
  const folder = join(cache, digest);
  const done = join(folder, 'done');
  const lock = join(cache, `${digest}.lock`);
  mkdirSync(cache, { recursive: true });
  while (!existsSync(done)) {
    try {
      mkdirSync(lock);
    } catch {
      // Another test file is packing: wait for it (a lock older than 10 minutes is a dead run's, taken over).
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held !== undefined && Date.now() - held.mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((ready) => setTimeout(ready, 250));
      continue;
    }
    try {
      const staging = `${folder}.staging`;
      rmSync(staging, { recursive: true, force: true });
      mkdirSync(staging, { recursive: true });
      const packed = spawnSync(npm, ['pack', '--pack-destination', staging, '--silent'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      if (packed.status !== 0) throw new Error(`npm pack failed (${packed.status ?? packed.signal}):\n${packed.stdout}\n${packed.stderr}`);
      writeFileSync(join(staging, 'done'), '');
      rmSync(folder, { recursive: true, force: true });
      renameSync(staging, folder);
      // Tarballs of other contents a day old are a previous checkout's: dropped so that the cache does not grow.
      for (const name of readdirSync(cache))
        if (name !== digest && !name.endsWith('.lock') && Date.now() - statSync(join(cache, name)).mtimeMs > 86_400_000)
          rmSync(join(cache, name), { recursive: true, force: true });
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return join(
    folder,
    readdirSync(folder).find((name) => name.endsWith('.tgz'))!,
  );
}

export interface InstalledApp {
  dir: string;
  seconds: number;
  kilobytes: number;
  packages: number;
}

export interface InstallOptions {
  /** A peer may come from another lock entry of this repository (an npm alias such as zod4-alt), to install another release under its own name. */
  aliases?: Record<string, string>;
  /** No lock: `npm install` checks every peer range, as for a user (`npm ci` follows a lock without checking them). */
  resolve?: boolean;
}

/** Installs the tarball plus `peers` (at the versions this repository tests) into a fresh app in `dir`, offline. */
export function installApp(dir: string, tarball: string, peers: string[], options: InstallOptions = {}): InstalledApp | { skipped: string } {
  const aliases = options.aliases ?? {};
  mkdirSync(dir, { recursive: true });
  const lockPathOf = (name: string) => aliases[name] ?? `node_modules/${name}`;
  const peerVersions = Object.fromEntries(peers.map((name) => [name, repoLock.packages[lockPathOf(name)]!.version!]));
  const dependencies = { toolwright: `file:${tarball}`, ...peerVersions };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, dependencies }, null, 2));
  const own = closure([...Object.keys(manifest.dependencies), ...peers.filter((name) => !(name in aliases))]);
  for (const name of peers.filter((peer) => peer in aliases)) {
    const { name: _alias, dev: _dev, ...entry } = repoLock.packages[aliases[name]!]!;
    own[`node_modules/${name}`] = entry;
  }
  const lock = {
    name: 'app',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'app', version: '1.0.0', dependencies },
      'node_modules/toolwright': {
        version: '0.1.0',
        resolved: `file:${tarball}`,
        dependencies: manifest.dependencies,
        bin: manifest.bin,
        peerDependencies: manifest.peerDependencies,
        peerDependenciesMeta: manifest.peerDependenciesMeta,
      },
      ...own,
    },
  };
  if (options.resolve !== true) writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock, null, 2));
  const started = process.hrtime.bigint();
  // Install scripts off: the figures are for what npm downloads and unpacks (better-sqlite3 would otherwise compile or fetch its addon).
  const command = options.resolve === true ? 'install' : 'ci';
  const result = spawnSync(npm, [command, '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: dir, encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) {
    const output = `${result.stdout}${result.stderr}`;
    if (/ENOTCACHED|only-if-cached/.test(output))
      return { skipped: `a package is not in the npm cache (run \`npm ci\` online once): ${output.split('\n')[1] ?? output}` };
    throw new Error(`npm ${command} failed in ${dir}:\n${output}`);
  }
  const packages = readdirSync(join(dir, 'node_modules'), { recursive: true, encoding: 'utf8' }).filter((path) =>
    /^(?:.*[\\/]node_modules[\\/])?(?:@[^\\/]+[\\/])?[^\\/@.][^\\/]*[\\/]package\.json$/.test(path),
  ).length;
  return { dir, seconds, kilobytes: diskKilobytes(join(dir, 'node_modules')), packages };
}
