/**
 * `toolwright demo`: the main job, offline and without keys. It shows the example
 * tool packs going through every wire format, what the model reads for each kind
 * of mistake, and the linter; `--json` prints the same as data.
 * @module
 */
import type { Command } from 'commander';
import { MissingPeerError } from '../../shared/errors.js';
import { wholeNumberOption } from '../number-option.js';
import { modelPackages, requirePackages } from '../required-packages.js';
import { runFormatsDemo, type DemoPack, type FormatsDemoReport } from '../demo/formats-demo.js';
import { renderLocalDemo, runLocalDemo, type LocalDemoReport } from '../demo/local-demo.js';

/**
 * The example packs, compiled into dist/ with the CLI (their sources are under
 * src/cli/demo/packs; examples/ re-exports them), so that the installed package's
 * demo needs neither the repository nor a TypeScript loader. Imported on demand:
 * other commands do not pay for them.
 */
async function loadDemoPacks(): Promise<{ packs: DemoPack[]; lintPacks: DemoPack[] }> {
  const [conjugate, subscriptions, badTools] = await Promise.all([
    import('../demo/packs/conjugate.js'),
    import('../demo/packs/subscriptions/index.js'),
    import('../demo/packs/bad-tools.js'),
  ]);
  const packs = [
    { name: 'conjugate', tools: conjugate.tools },
    { name: 'subscriptions', tools: subscriptions.tools },
  ];
  return { packs, lintPacks: [...packs, { name: 'bad-tools', tools: badTools.tools }] };
}

export interface DemoOptions {
  json?: boolean;
  /** Any model spec; default: the tiny structural test model, offline. */
  model?: string;
  baseUrl?: string;
  /** Only the format, error and lint sections (no model). */
  local?: boolean;
  /** Where the agent run's record goes. */
  runs?: string;
  /** Calls per pack for the validity count. */
  calls?: string;
}

/** Everything `demo --json` prints: `constrained` and `unconstrained` hold the validity counts. */
export interface DemoReport extends Partial<Omit<LocalDemoReport, 'model'>> {
  formats: FormatsDemoReport;
  model?: string;
  /** Why the model section did not run: the tiny model's optional peers are not installed. */
  localSkipped?: string;
}

export async function runDemo(
  options: DemoOptions,
  write: (text: string) => void = (text) => process.stdout.write(text),
  progress: (text: string) => void = () => {},
): Promise<DemoReport> {
  // Every option is checked before the first section prints, and the packages a named model needs with them.
  const calls = wholeNumberOption('--calls', options.calls, { min: 1, max: 1000 });
  if (options.local !== false && options.model !== undefined) requirePackages('toolwright demo --model', modelPackages(options.model));
  const { packs, lintPacks } = await loadDemoPacks();
  const formats = await runFormatsDemo(packs, lintPacks);
  if (!options.json) write(renderFormatsDemo(formats));
  const report: DemoReport = { formats };
  if (options.local !== false) {
    let local: LocalDemoReport;
    try {
      local = await runLocalDemo(packs, {
        ...(options.model !== undefined ? { model: options.model } : {}),
        ...(options.baseUrl !== undefined ? { baseURL: options.baseUrl } : {}),
        ...(options.runs !== undefined ? { recordDir: options.runs } : {}),
        ...(calls !== undefined ? { callsPerPack: calls } : {}),
        onProgress: options.json ? () => {} : progress,
      });
    } catch (error) {
      // Sections 1–4 stand on their own: an installed toolwright without the tiny model's peers still shows them.
      if (!(error instanceof MissingPeerError) || options.model !== undefined) throw error;
      report.localSkipped = `${error.message} (or run \`toolwright demo --no-local\` to leave the model section out)`;
      if (options.json) write(JSON.stringify(report, null, 2) + '\n');
      else write(`5. The token mask on a real inference engine: skipped. ${report.localSkipped}\n`);
      return report;
    }
    Object.assign(report, local);
    if (!options.json) write(renderLocalDemo(local));
  }
  if (options.json) write(JSON.stringify(report, null, 2) + '\n');
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
  for (const pack of report.packs)
    out.push(`   ${pack.name}: ${pack.tools} tools${pack.categories.length > 0 ? ` in categories ${pack.categories.join(', ')}` : ''}`);
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
    for (const finding of pack.findings.slice(0, pack.pack === 'bad-tools' ? 6 : 3))
      out.push(`     ${finding.severity} ${finding.rule} ${finding.tool}${finding.path}: ${finding.message}`);
    if (pack.findings.length > (pack.pack === 'bad-tools' ? 6 : 3))
      out.push(`     … (${pack.findings.length} in all; \`toolwright lint <pack>\` lists every finding of a pack)`);
  }
  out.push('');
  return out.join('\n') + '\n';
}

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('Run the offline demo: the example tools through every wire format, errors as the model reads them, and the linter')
    .option(
      '--model <spec>',
      'run the model sections with this model: local:/path/model.gguf, openai:gpt-4o-mini, anthropic:…, openai-compatible:… (default: the tiny structural test model, offline)',
    )
    .option('--base-url <url>', 'the provider API root, for openai-compatible servers')
    .option('--calls <n>', 'tool calls sampled per example pack, with and without the mask (default 10)')
    .option('--runs <folder>', "where the agent run's record is written (default $TOOLWRIGHT_HOME/runs)")
    .option('--no-local', 'skip the model sections (formats, errors and lint only)')
    .option('--json', 'print the figures as JSON (constrained.valid, constrained.total, unconstrained.valid, unconstrained.total, run, formats)')
    .action(async (options: DemoOptions) => {
      await runDemo(options, undefined, (text) => process.stderr.write(`  … ${text}\n`));
    });
}
