/**
 * `toolwright demo`: the main job, offline and without keys. It shows the example
 * tool packs going through every wire format, what the model reads for each kind
 * of mistake, and the linter; `--json` prints the same as data.
 * @module
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { loadToolModule } from '../load-tool-module.js';
import { runFormatsDemo, type DemoPack, type FormatsDemoReport } from '../demo/formats-demo.js';

// src/cli/commands and dist/cli/commands both sit three levels below the package root.
const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const EXAMPLE_PACKS = ['conjugate', 'subscriptions'] as const;

async function loadExamplePack(name: string): Promise<DemoPack> {
  const path = join(packageRoot, 'examples', name, 'index.ts');
  if (!existsSync(path)) throw new Error(`the example pack ${path} is missing; run the demo from a clone of the toolwright repository`);
  const loaded = await loadToolModule(path);
  return { name, tools: loaded.tools };
}

export interface DemoOptions {
  json?: boolean;
}

export async function runDemo(options: DemoOptions, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<FormatsDemoReport> {
  const packs = await Promise.all(EXAMPLE_PACKS.map(loadExamplePack));
  const badPath = join(packageRoot, 'examples', 'bad-tools', 'index.ts');
  const lintPacks = existsSync(badPath) ? [...packs, { name: 'bad-tools', tools: (await loadToolModule(badPath)).tools }] : packs;
  const report = await runFormatsDemo(packs, lintPacks);
  if (options.json) write(JSON.stringify({ formats: report }, null, 2) + '\n');
  else write(renderFormatsDemo(report));
  return report;
}

function indent(text: string, prefix = '    '): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

function compact(value: unknown, max = 400): string {
  const text = JSON.stringify(value);
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

export function renderFormatsDemo(report: FormatsDemoReport): string {
  const out: string[] = [];
  out.push('toolwright demo — offline, no API key, no network\n');
  out.push('1. The example tool packs');
  for (const pack of report.packs) out.push(`   ${pack.name}: ${pack.tools} tools${pack.categories.length > 0 ? ` in categories ${pack.categories.join(', ')}` : ''}`);
  out.push('\n2. One definition, four wire formats: `conjugate` declared, called and answered in each');
  for (const trip of report.roundTrips) {
    out.push(`   ${trip.format}`);
    out.push(`     declaration: ${compact(trip.declaration)}`);
    out.push(`     tool call:   ${compact(trip.wireCall)}`);
    out.push(`     result:      ${compact(trip.resultMessage)}`);
    if (trip.warnings.length > 0) out.push(`     ${trip.warnings.length} warning(s), e.g. ${trip.warnings[0]!.details}`);
  }
  out.push(`   OpenAI strict mode over every example tool: ${report.strictWarnings} schema rewrites reported as warnings (none dropped silently)`);
  out.push('\n3. Errors are prompts: the exact text the model reads');
  for (const example of report.errors) {
    out.push(`   ${example.situation} [${example.code}]`);
    out.push(indent(example.modelSees.length > 700 ? example.modelSees.slice(0, 699) + '…' : example.modelSees, '     │ '));
  }
  out.push('\n4. The schema linter');
  for (const pack of report.lint) {
    out.push(`   ${pack.pack}: ${pack.errors} error(s), ${pack.warnings} warning(s)`);
    for (const finding of pack.findings.slice(0, pack.pack === 'bad-tools' ? 6 : 3)) out.push(`     ${finding.severity} ${finding.rule} ${finding.tool}${finding.path}: ${finding.message}`);
    if (pack.findings.length > (pack.pack === 'bad-tools' ? 6 : 3)) out.push(`     … (npm run toolwright -- lint examples/${pack.pack}/index.ts shows all)`);
  }
  out.push('');
  return out.join('\n') + '\n';
}

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('Run the offline demo: the example tools through every wire format, errors as the model reads them, and the linter')
    .option('--json', 'print the figures as JSON')
    .action(async (options: DemoOptions) => {
      await runDemo(options);
    });
}
