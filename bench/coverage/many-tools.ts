/**
 * The "many tools" row of `bench:coverage`: every tool of the third-party fixtures compiled,
 * with its first mask, one after another in ONE process over one vocabulary, in file order,
 * as an MCP client importing a few hundred tools would. The first tool pays what a process
 * pays once per vocabulary (format automata, the tries and string statistics); later tools
 * reuse what the vocabulary's caches hold.
 * @module
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileJsonSchema, DecodingLimitError, UnsupportedSchemaError, type CompileJsonSchemaOptions, type Vocabulary } from '../../src/decoding/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The fixtures, in the order they are compiled. */
export const MANY_TOOLS_FIXTURES = ['test/fixtures/third-party/real-servers.json', 'test/fixtures/third-party/mcp-tools.json'] as const;

interface FixtureFile {
  readonly servers: readonly { readonly server: string; readonly tools: readonly { readonly name: string; readonly inputSchema: unknown }[] }[];
}

export interface ManyToolsRow {
  readonly fixture: string;
  readonly servers: number;
  readonly tools: number;
  readonly compiled: number;
  /** Tools refused (UnsupportedSchemaError), over budget or failing otherwise, with the reason's first line. */
  readonly failed: readonly string[];
  readonly totalMs: number;
  readonly perToolMs: { readonly p50: number; readonly p99: number; readonly max: number; readonly maxTool: string };
  /** The first tool of the fixture and its compile + first mask (for the first fixture: the first in process). */
  readonly first: { readonly tool: string; readonly ms: number };
}

/** Compiles every tool of each fixture in turn over `vocabulary`, timing compile + first mask per tool. */
export function measureManyTools(vocabulary: Vocabulary, options: CompileJsonSchemaOptions = {}): ManyToolsRow[] {
  const mask = new Uint32Array(vocabulary.maskWords);
  return MANY_TOOLS_FIXTURES.map((fixture) => {
    const file = JSON.parse(readFileSync(resolve(root, fixture), 'utf8')) as FixtureFile;
    const tools = file.servers.flatMap(({ server, tools: serverTools }) =>
      serverTools.map((tool) => ({ name: `${server}/${tool.name}`, schema: tool.inputSchema })),
    );
    const times: [number, string][] = [];
    const failed: string[] = [];
    const started = performance.now();
    for (const tool of tools) {
      const toolStarted = performance.now();
      try {
        compileJsonSchema(tool.schema, vocabulary, options).matcher().fillMask(mask);
      } catch (error) {
        const kind = error instanceof UnsupportedSchemaError ? 'refused' : error instanceof DecodingLimitError ? 'over budget' : 'error';
        failed.push(
          `${tool.name} (${kind}: ${String((error as Error).message ?? error)
            .split('\n')[0]!
            .slice(0, 160)})`,
        );
      }
      times.push([performance.now() - toolStarted, tool.name]);
    }
    const totalMs = performance.now() - started;
    const first = times[0] ?? [NaN, ''];
    const sorted = [...times].sort((left, right) => left[0] - right[0]);
    const at = (quantile: number): number => sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))]?.[0] ?? NaN;
    const worst = sorted[sorted.length - 1] ?? [NaN, ''];
    return {
      fixture,
      servers: file.servers.length,
      tools: tools.length,
      compiled: tools.length - failed.length,
      failed,
      totalMs,
      perToolMs: { p50: at(0.5), p99: at(0.99), max: worst[0], maxTool: worst[1] },
      first: { tool: first[1], ms: first[0] },
    };
  });
}

const ms = (value: number): string => (Number.isNaN(value) ? '–' : value < 10 ? value.toFixed(2) : value.toFixed(1));

/** The rows as a Markdown table. */
export function manyToolsTable(rows: readonly ManyToolsRow[]): string {
  const lines = [
    '| fixture (in this order, one process) | servers | tools | compiled | total (ms) | per tool p50 / p99 / max (ms) | slowest tool | first tool (ms) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |',
  ];
  for (const row of rows)
    lines.push(
      `| ${row.fixture.replace(/^test\/fixtures\/third-party\//, '')} | ${row.servers} | ${row.tools} | ${row.compiled} | ${ms(row.totalMs)} | ${ms(row.perToolMs.p50)} / ${ms(row.perToolMs.p99)} / ${ms(row.perToolMs.max)} | ${row.perToolMs.maxTool} | ${row.first.tool} ${ms(row.first.ms)} |`,
    );
  const failures = rows.flatMap((row) => row.failed);
  if (failures.length > 0) lines.push('', ...failures.map((failure) => `- not compiled: ${failure}`));
  return lines.join('\n');
}
