/**
 * `lab bench decode`: AR vs SDSAT decoding speed, acceptance and output identity, per k, one run.
 * `lab bench train`: training tokens/s and effective GFLOP/s on every backend that runs here.
 */
import type { Command } from 'commander';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ModelConfig } from '../../models/model.ts';
import { startTraining } from '../../models/train-runner.ts';
import { defaultTrainJob, type TrainJob } from '../../models/train-job.ts';
import type { TrainProgress } from '../../models/train.ts';
import { DECODE_MODES, DEFAULT_BENCH_MODES, type DecodeMode } from '../../decode/types.ts';
import type { BenchRow } from '../../decode/bench.ts';
import { DEFAULT_PROMPTS, readPrompts } from '../../decode/prompts.ts';
import { SHIPPED_MODEL, TINY_MODEL } from '../../decode/models.ts';
import { DEFAULT_CORPUS } from './train.ts';
import { reportPath } from '../../paths.ts';
import { int, addSamplingOptions, intOption, onInterrupt, parseSampling, type SamplingOpts } from '../runtime.ts';
import { progressBar } from '../progress.ts';

function cancellable(): { stopped: () => boolean; dispose: () => void } {
  let stop = false;
  const dispose = onInterrupt(
    () => {
      stop = true;
      process.stderr.write('\nstopping after the current prompt (Ctrl-C again to abort)\n');
    },
    () => process.exit(130),
  );
  return { stopped: () => stop, dispose };
}

export function addModelBenchCommands(bench: Command): void {
  addSamplingOptions(bench.command('decode').description('AR vs SDSAT decoding: tokens/s, speedup, acceptance, identical outputs'))
    .option('--model <dir>', 'SAT-tuned model folder', SHIPPED_MODEL)
    .option('--k <list>', 'comma-separated draft lengths (default: 1..trained k)')
    .option('--modes <list>', 'modes to compare with AR: sdsat, sdsat-one-pass, lookup (drafts copied from the context), sdsat-lookup (copied drafts where there are any, else SATs, one pass), sdsat-tree and lookup-tree (several candidates per loop under a tree mask), merged-tree (SAT candidates and copied continuations in one tree)', DEFAULT_BENCH_MODES.join(','))
    .option('--prompts <file>', 'JSON Lines prompts ({"text": ...})', DEFAULT_PROMPTS)
    .option('--limit <n>', 'use only the first n prompts')
    .option('--max-new <n>', 'tokens to generate per prompt', '64')
    .option('--seed <n>', 'sampling seed', '0')
    .option('--repeats <n>', 'decode each k\'s prompt set this many times; the speedup gets a 95% interval over them', intOption('--repeats', 1), 3)
    .option('--backend <id>', 'TensorFlow.js backend (default: best available)')
    .option('--backends <list>', 'run the whole benchmark on each of these backends in turn (comma-separated, or "all" for every one that loads here), reported side by side')
    .option('--json', 'print JSON')
    .action(async (o: SamplingOpts & { model: string; k?: string; modes: string; prompts: string; limit?: string; maxNew: string; seed: string; repeats: number; backend?: string; backends?: string; json?: boolean }) => {
      // Loaded here, not at start-up: the decoders and TF.js.
      const [{ availableBackends, selectBackend }, { loadModel }, { runDecodeBench }] = await Promise.all([
        import('../../models/backend.ts'), import('../../models/checkpoint.ts'), import('../../decode/bench.ts'),
      ]);
      let prompts = readPrompts(o.prompts);
      if (o.limit) prompts = prompts.slice(0, int(o.limit));
      const sampling = parseSampling(o);
      const modes = o.modes.split(',').map((m) => m.trim()) as DecodeMode[];
      for (const m of modes) if (m === 'ar' || !DECODE_MODES.includes(m)) throw new Error(`--modes takes ${DECODE_MODES.filter((d) => d !== 'ar').join(', ')} (any of them), not ${m}`);
      const backends: (string | undefined)[] = !o.backends ? [o.backend]
        : o.backends === 'all' ? await availableBackends() : o.backends.split(',').map((b) => b.trim());
      const stop = cancellable();
      const reports = [];
      try {
        for (const id of backends) {
          if (stop.stopped()) break;
          const report = await benchOneBackend(id);
          reports.push(report);
          if (!o.json) printDecodeReport(report, prompts.length);
        }
      } finally {
        stop.dispose();
      }
      if (o.json) {
        const out = !o.backends ? reports[0] : {
          cancelled: stop.stopped(),
          // One line per backend: AR speed, and the best SDSAT speedup per mode.
          byBackend: reports.map((r) => ({ backend: r.backend, arTokensPerSec: r.results[0]?.arTokensPerSec ?? null, best: r.best })),
          runs: reports,
        };
        process.stdout.write(JSON.stringify(out, null, 2) + '\n');
      }

      // The model is loaded after its backend is chosen, so its weights live on that backend.
      async function benchOneBackend(id: string | undefined) {
        const backend = await selectBackend(id);
        const loaded = loadModel(resolve(o.model));
        try {
          const { sat } = loaded;
          if (!sat) throw new Error(`${o.model} has no SAT tokens: fine-tune it with \`lab train sdsat\``);
          const ks = o.k ? o.k.split(',').map((s) => int(s.trim())) : Array.from({ length: sat.k }, (_, i) => i + 1);
          const bar = await progressBar(`bench decode ${backend.id} [{bar}] {value}/{total} generations`, { quiet: o.json });
          try {
            const { cancelled, best, results } = await runDecodeBench(loaded, { prompts, ks, modes, sampling, maxNew: int(o.maxNew), seed: int(o.seed), repeats: o.repeats }, {
              stopped: stop.stopped,
              onProgress: (done, total) => bar.update(done, total),
            });
            return { backend: backend.id, model: reportPath(o.model), sat, sampling, maxNew: int(o.maxNew), promptsFile: reportPath(o.prompts), cancelled, best, results };
          } finally {
            bar.stop();
          }
        } finally {
          loaded.model.dispose();
        }
      }
    });

  bench.command('train').description('training tokens/s and effective GFLOP/s for each available backend')
    .option('--backends <list>', 'comma-separated backend ids (default: every one that loads here)')
    .option('--steps <n>', 'optimizer steps per backend (the first one is not timed)', '5')
    .option('--batch <n>', 'sequences per step', '8')
    .option('--seq-len <n>', 'tokens per sequence', '128')
    .option('--d-model <n>', 'model width', '64')
    .option('--layers <n>', 'transformer blocks', '3')
    .option('--json', 'print JSON')
    .action(async (o: { backends?: string; steps: string; batch: string; seqLen: string; dModel: string; layers: string; json?: boolean }) => {
      const { availableBackends } = await import('../../models/backend.ts');
      const ids = o.backends ? o.backends.split(',').map((s) => s.trim()) : await availableBackends();
      const dir = mkdtempSync(join(tmpdir(), 'lab-bench-train-'));
      const stop = cancellable();
      const results = [];
      try {
        for (const id of ids) {
          if (stop.stopped()) break;
          const d = int(o.dModel);
          const model = { dModel: d, nLayer: int(o.layers), nHead: 4, dFF: 4 * d, ctx: 256 };
          const job: TrainJob = {
            ...defaultTrainJob, kind: 'lm', outDir: join(dir, id), trainFile: join(DEFAULT_CORPUS, 'train.txt'), valFile: join(DEFAULT_CORPUS, 'validation.txt'),
            steps: int(o.steps), batch: int(o.batch), seqLen: int(o.seqLen), evalEvery: 1e9, checkpointEvery: 1e9, evalTokens: int(o.seqLen),
            resume: false, backend: id, model, vocabSize: 768, tokenizerFrom: TINY_MODEL,
          };
          if (!o.json) process.stderr.write(`bench train: ${id}...\n`);
          // The first step compiles kernels and sizes memory: time from the end of step 1 on.
          let first: TrainProgress | null = null;
          let last: TrainProgress | null = null;
          const handle = startTraining(job, { progress: (p) => { first ??= p; last = p; } });
          const poll = setInterval(() => { if (stop.stopped()) handle.cancel(); }, 100);
          try {
            const r = await handle.result;
            const flops = trainingFlopsPerToken({ ...model, vocabSize: 768, satTokens: 0 }, job.seqLen);
            const f = first as TrainProgress | null;
            const l = last as TrainProgress | null;
            const tps = f && l && l.step > f.step ? ((l.step - f.step) * job.batch * job.seqLen) / (l.elapsedS - f.elapsedS) : r.tokensPerSec;
            results.push({ backend: r.backend, steps: r.stepsDone, timedSteps: f && l ? l.step - f.step : r.stepsDone, tokensPerSec: tps, effectiveGflops: (tps * flops) / 1e9, flopsPerToken: flops, parameters: r.parameters });
          } catch (err) {
            results.push({ backend: id, error: err instanceof Error ? err.message.split('\n')[0] : String(err) });
          } finally {
            clearInterval(poll);
          }
        }
      } finally {
        stop.dispose();
        rmSync(dir, { recursive: true, force: true });
      }
      if (o.json) process.stdout.write(JSON.stringify({ cancelled: stop.stopped(), results }, null, 2) + '\n');
      else for (const r of results) process.stdout.write('error' in r ? `${r.backend}: ${r.error}\n` : `${r.backend}: ${r.tokensPerSec.toFixed(0)} tok/s, ${r.effectiveGflops.toFixed(2)} GFLOP/s effective\n`);
    });
}

/**
 * Floating-point work per trained token, counting every matmul the model runs (one-hot embedding
 * products and masked attention entries included, hence "effective"): forward x 3 for training.
 */
export function trainingFlopsPerToken(c: Pick<ModelConfig, 'vocabSize' | 'satTokens' | 'ctx' | 'dModel' | 'nLayer' | 'dFF'>, seqLen: number): number {
  const d = c.dModel;
  const perLayer = 2 * (4 * d * d + 2 * d * c.dFF) + 2 * 2 * seqLen * d;
  const forward = 2 * ((c.vocabSize + c.satTokens) * d + c.ctx * d + d * c.vocabSize) + c.nLayer * perLayer;
  return 3 * forward;
}

function printDecodeReport(report: { backend: string; sampling: { kind: string }; maxNew: number; results: BenchRow[] }, prompts: number): void {
  process.stdout.write(`backend ${report.backend}, ${report.sampling.kind}, ${prompts} prompts x ${report.maxNew} tokens\n`);
  process.stdout.write('k  mode             AR tok/s  tok/s  speedup  95% interval   accept.len  tok/loop  identical  ceiling\n');
  for (const r of report.results) {
    process.stdout.write(`${String(r.k).padEnd(3)}${r.mode.padEnd(15)}${r.arTokensPerSec.toFixed(1).padStart(10)}${r.tokensPerSec.toFixed(1).padStart(8)}`
      + `${r.speedup.toFixed(2).padStart(9)}  ${(r.speedupCi95 ? `${r.speedupCi95.low.toFixed(2)}-${r.speedupCi95.high.toFixed(2)}` : 'one run').padEnd(12)}${(r.meanAcceptanceLength ?? 0).toFixed(2).padStart(12)}${r.tokensPerLoop.toFixed(2).padStart(10)}  ${String(r.identicalOutputs ?? 'n/a').padEnd(9)}${r.ceilingSpeedup?.toFixed(2) ?? 'n/a'}\n`);
  }
}
