/**
 * The TypeScript and JavaScript code blocks of README.md and docs/*.md, read with their directives and turned into the
 * programs `test/docs/snippets.test.ts` type-checks and runs (the conventions are described there).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The fence languages checked, and the extension each block's file gets. */
const EXTENSIONS: Record<string, string> = { ts: 'ts', typescript: 'ts', tsx: 'tsx', js: 'mjs', javascript: 'mjs', mjs: 'mjs', cjs: 'cjs' };

/** A block of a page, as written. */
export interface CodeBlock {
  /** The page, relative to the repository root (`README.md`, `docs/agent.md`). */
  page: string;
  /** The 1-based line of the opening fence. */
  fenceLine: number;
  language: string;
  code: string;
}

/** A directive from the HTML comment right above a block's fence. */
export interface Directives {
  continues: boolean;
  prelude?: string;
  file?: string;
  noRun?: string;
}

/** One piece of a program: code from a block (or a prelude), and where its first line sits. */
export interface Segment {
  code: string;
  /** `page:line` of the segment's first line, or undefined for a prelude's lines. */
  page?: string;
  firstLine?: number;
}

/** A block as the test checks it: the program it is (its prelude, the blocks it continues, itself), and whether it runs. */
export interface SnippetProgram {
  block: CodeBlock;
  directives: Directives;
  /** The file the program is written to, relative to the snippets folder. */
  file: string;
  segments: Segment[];
  /** Why the program is not run, or undefined when it is. */
  notRun: string | undefined;
}

const FENCE = /^(\s*)```([\w-]*)\s*$/;
const DIRECTIVE = /^<!--\s*snippet:\s*(.*?)\s*-->$/;

/** Every fenced block of a Markdown text, in any language (an unlabelled one has the language ''). */
export function codeBlocks(page: string, markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index]!);
    if (open === null) continue;
    const indent = open[1]!.length;
    let end = index + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) end++;
    const code = lines
      .slice(index + 1, end)
      .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)))
      .join('\n');
    blocks.push({ page, fenceLine: index + 1, language: open[2]!, code });
    index = end;
  }
  return blocks;
}

/** Reads the `<!-- snippet: … -->` comment on the line above the fence; an unknown directive throws, so a typo is not ignored. */
export function directivesOf(block: CodeBlock, markdown: string): Directives {
  const above = markdown.split('\n')[block.fenceLine - 2]?.trim() ?? '';
  const comment = DIRECTIVE.exec(above);
  const directives: Directives = { continues: false };
  if (comment === null) return directives;
  for (const part of comment[1]!.split(';').map((text) => text.trim())) {
    const [keyword, ...rest] = part.split(/\s+/);
    const value = rest.join(' ');
    if (keyword === 'continues' && value === '') directives.continues = true;
    else if (keyword === 'prelude' && /^[a-z-]+$/.test(value)) directives.prelude = value;
    else if (keyword === 'file' && /^[\w./-]+$/.test(value) && !value.includes('..')) directives.file = value;
    else if (keyword === 'no-run' && value !== '') directives.noRun = value;
    else throw new Error(`${block.page}:${block.fenceLine - 1}: unknown snippet directive "${part}" (continues | prelude NAME | file PATH | no-run REASON)`);
  }
  return directives;
}

/** The Markdown pages whose code users copy: README.md and docs/*.md. */
export function pages(root: string): string[] {
  return [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `docs/${name}`),
  ];
}

/** Every checked block of the pages as the program the test writes, with its prelude from `preludes`. */
export function snippetPrograms(root: string, preludes: Record<string, string>): SnippetProgram[] {
  const programs: SnippetProgram[] = [];
  for (const page of pages(root)) {
    const markdown = readFileSync(join(root, page), 'utf8');
    let previous: SnippetProgram | undefined;
    for (const block of codeBlocks(page, markdown)) {
      const extension = EXTENSIONS[block.language];
      if (extension === undefined) continue;
      const directives = directivesOf(block, markdown);
      if (directives.continues && previous === undefined) throw new Error(`${page}:${block.fenceLine}: "continues", but no block comes before it on the page`);
      const segments: Segment[] = directives.continues ? [...previous!.segments] : [];
      if (directives.prelude !== undefined) {
        const prelude = preludes[directives.prelude];
        if (prelude === undefined) throw new Error(`${page}:${block.fenceLine - 1}: no prelude "${directives.prelude}" (${Object.keys(preludes).join(', ')})`);
        segments.push({ code: prelude });
      }
      segments.push({ code: block.code, page, firstLine: block.fenceLine + 1 });
      const name = `${page.replace(/\.md$/, '').replace(/[^\w]+/g, '-')}-L${block.fenceLine}`;
      const file = directives.file ?? `${name}.${extension === 'mjs' && /\brequire\(/.test(block.code) ? 'cjs' : extension}`;
      const inheritedPrelude = segments.some((segment) => segment.page === undefined);
      const notRun =
        directives.noRun ??
        (inheritedPrelude ? 'its prelude only declares names' : directives.continues && previous!.notRun !== undefined ? previous!.notRun : undefined);
      const program: SnippetProgram = { block, directives, file, segments, notRun };
      programs.push(program);
      previous = program;
    }
  }
  return programs;
}

/** The program's text: its segments one after the other, made a module so that its names stay its own. */
export function programText(program: SnippetProgram): string {
  const body = program.segments.map((segment) => segment.code).join('\n');
  return program.file.endsWith('.cjs') ? `${body}\n` : `${body}\nexport {};\n`;
}

/** `page:line` of a 1-based line of the program's text, or undefined for a prelude's line or the closing `export {}`. */
export function sourceLine(program: SnippetProgram, line: number): string | undefined {
  let first = 1;
  for (const segment of program.segments) {
    const count = segment.code.split('\n').length;
    if (line < first + count) return segment.page === undefined ? undefined : `${segment.page}:${segment.firstLine! + (line - first)}`;
    first += count;
  }
  return undefined;
}
