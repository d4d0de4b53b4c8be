/**
 * `TOOLWRIGHT.md`, the README snippet `toolwright init` writes beside the pack:
 * how to install, lint, test, run and serve it. The toolwright CLI loads a `.ts`
 * pack itself; the pack's own test runs under tsx, because Node 20 cannot import TypeScript on its own.
 * @module
 */
import { packInstallCommand, packPackages } from './pack-packages.js';
import type { ScaffoldSchemaKind } from './templates.js';

/** The snippet for a pack whose schemas are written in `schema`. */
export function readmeSnippet(schema: ScaffoldSchemaKind): string {
  const install = packInstallCommand(schema);
  const packages = packPackages(schema)
    .map((item) => `- \`${item.name}\`: ${item.neededFor}`)
    .join('\n');
  const schemas = schema === 'zod' ? 'Zod (zod 4)' : 'JSON Schema (2020-12)';
  return `# Tool pack

Made by \`toolwright init --schema ${schema}\`:

- \`tools.ts\`: two tools over an in-memory to-do list, input schemas in ${schemas}. \`list_tasks\` reads (\`effect: 'read'\`, runs at once); \`delete_task\` changes data (\`effect: 'write'\`, \`confirm: true\`: a person approves each call before it runs, shown the line its \`summarize\` writes).
- \`tools.test.ts\`: drives both tools through toolwright's agent loop (\`runAgent\`, \`resumeAgent\`) with the scripted model of \`toolwright/test\`: no API key, no network. It uses \`node:test\` and \`node:assert\`, so no test framework is needed.

## Install

Every package the commands below need, in one command (run it in this folder: its \`package.json\` lists them too, so \`npm i\` alone works as well):

\`\`\`sh
${install}
\`\`\`

${packages}

Node 20.19 or later. ES modules and CommonJS projects both work.

## Test

\`\`\`sh
npx tsx --test tools.test.ts
\`\`\`

## Lint

\`\`\`sh
npx toolwright lint tools.ts
\`\`\`

Exit code 1 on errors. Each finding names its rule and its fix; the rules are described in \`node_modules/toolwright/docs/lint-rules.md\`.

## Run with a model

\`\`\`sh
OPENAI_API_KEY=... npx toolwright run --model openai:gpt-4o-mini --no-interactive tools.ts "Delete the launch post task."
npx toolwright approvals list
\`\`\`

Behind a proxy, or with a local OpenAI-compatible server (Ollama, vLLM, llama.cpp), set \`OPENAI_BASE_URL\` (or pass \`--base-url\`), e.g. \`OPENAI_BASE_URL=http://127.0.0.1:11434/v1\`. \`delete_task\` waits for a person: \`--no-interactive\` leaves it pending in the run store (\`toolwright approvals list\`, then \`toolwright approvals approve <id>\` and \`toolwright resume <run id> --model … --tools tools.ts\`); without it, the run asks in the terminal. Other models: \`anthropic:...\` (\`npm i @anthropic-ai/sdk\`), \`openai-compatible:...\` with \`--base-url\`.

## Serve over MCP

\`\`\`sh
npx toolwright serve --tools tools.ts                        # stdio, for an MCP client that starts the server
npx toolwright serve --tools tools.ts --http 127.0.0.1:3000  # Streamable HTTP at http://127.0.0.1:3000/mcp
\`\`\`

The server asks the client to confirm each \`delete_task\` call (\`--approve delete_task\` runs it unasked).

## Make it yours

Replace \`createTaskStore\` with your own data and rename the tools. Keep each description saying when to call the tool; keep \`effect: 'write'\` and \`confirm\` on every tool that changes, sends, pays or deletes; lint after each change, and extend \`tools.test.ts\` with the calls your users' requests lead to.
`;
}
