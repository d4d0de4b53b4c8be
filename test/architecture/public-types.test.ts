/**
 * Every type a public signature mentions can be named by the user: for each entry
 * point in package.json `exports`, the types declared under src/ that its exports'
 * signatures reach (parameters, returns, properties, heritage, alias bodies,
 * constraints; recursively) are exported from some entry point (the root keeps the
 * everyday names, so `RunAgentOptions` reaches `Policy`, which `toolwright/policy`
 * exports). Private and `@internal` members are not public. A generated file then
 * names every exported type through its entry point and must typecheck.
 *
 * `npx tsx scripts/count-exports.ts` prints the export counts.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyseEntry, createSurfaceProgram, PACKAGE_ROOT, readEntryPoints, type EntrySurface } from '../../scripts/public-surface.js';

const entries = readEntryPoints();
const NAMING_FILE = join(PACKAGE_ROOT, 'test/architecture/__names-every-public-type__.ts');

/** `import type * as E0 from '…/src/index.js'; type E0_Tool = E0.Tool<never>; …` for every type export. */
function namingSource(surfaces: EntrySurface[]): string {
  const lines: string[] = [];
  surfaces.forEach((surface, index) => {
    const specifier = './' + join('../..', surface.entry.file.slice(PACKAGE_ROOT.length + 1)).replace(/\.ts$/, '.js');
    lines.push(`import type * as E${index} from '${specifier}';`);
    for (const { name, typeParameters } of surface.typeNames) {
      const argumentsText = typeParameters === 0 ? '' : `<${Array.from({ length: typeParameters }, () => 'never').join(', ')}>`;
      lines.push(`export type E${index}_${name} = E${index}.${name}${argumentsText};`);
    }
  });
  return lines.join('\n') + '\n';
}

let program: ts.Program;
let surfaces: EntrySurface[];

beforeAll(() => {
  program = createSurfaceProgram(entries.map((entry) => entry.file));
  surfaces = entries.map((entry) => analyseEntry(program, entry));
}, 120_000);

describe('public types', () => {
  it('finds every entry point and its exports', () => {
    expect(entries.map((entry) => entry.subpath)).toEqual([
      '.',
      './agent',
      './ai-sdk',
      './decoding',
      './errors',
      './eval',
      './formats',
      './mcp',
      './models',
      './openai-agents',
      './policy',
      './stores',
      './test',
      './tools',
    ]);
    for (const surface of surfaces) expect(surface.names.length, surface.entry.subpath).toBeGreaterThan(0);
    // The walk reaches deep types: RunStore → StoredRun is the chain the issue found missing.
    const root = surfaces[0]!;
    expect(root.referenced.map((type) => type.name)).toContain('StoredRun');
  });

  it('exports every src/ type that a public signature uses, from some entry point', () => {
    const nameable = new Set(surfaces.flatMap((surface) => [...surface.exportedSymbols]));
    const missing = surfaces.flatMap((surface) =>
      surface.referenced
        .filter((type) => !nameable.has(type.symbol))
        .map((type) => `${surface.entry.subpath}: ${type.name} (${type.declaredIn}, reached from ${type.via})`),
    );
    expect(missing).toEqual([]);
  });

  it('re-exports nothing through a wildcard', () => {
    const wildcards = entries.filter((entry) => /^\s*export\s+\*/m.test(ts.sys.readFile(entry.file) ?? ''));
    expect(wildcards.map((entry) => entry.subpath)).toEqual([]);
  });

  it('marks every other index.ts under src/ as an internal barrel', () => {
    const entryFiles = new Set(entries.map((entry) => entry.file));
    const barrels = ts.sys.readDirectory(join(PACKAGE_ROOT, 'src'), ['.ts']).filter((file) => file.endsWith('/index.ts') && !entryFiles.has(file));
    expect(barrels.length).toBeGreaterThan(0);
    expect(barrels.filter((file) => !(ts.sys.readFile(file) ?? '').slice(0, 800).includes('Internal barrel, not a package entry point'))).toEqual([]);
  });

  it('lets a user name every exported type through its entry point', () => {
    const text = namingSource(surfaces);
    const base = ts.createCompilerHost(program.getCompilerOptions());
    const host: ts.CompilerHost = {
      ...base,
      fileExists: (file) => file === NAMING_FILE || base.fileExists(file),
      readFile: (file) => (file === NAMING_FILE ? text : base.readFile(file)),
      getSourceFile: (file, languageVersion, onError, shouldCreate) =>
        file === NAMING_FILE ? ts.createSourceFile(file, text, languageVersion, true) : base.getSourceFile(file, languageVersion, onError, shouldCreate),
    };
    const naming = ts.createProgram({ rootNames: [NAMING_FILE], options: program.getCompilerOptions(), host, oldProgram: program });
    const diagnostics = ts.getPreEmitDiagnostics(naming, naming.getSourceFile(NAMING_FILE));
    expect(diagnostics.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))).toEqual([]);
    expect(text.split('\n').filter((line) => line.startsWith('export type')).length).toBe(surfaces.reduce((sum, surface) => sum + surface.typeNames.length, 0));
  }, 120_000);
});
