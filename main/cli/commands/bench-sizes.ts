/**
 * `lab bench sizes`: SDSAT against model size. Every given SAT-tuned model decodes the same prompts
 * with each mode and with AR beside it; the report (main/decode/size-curve-report.ts) holds, per
 * size, training losses, SAT acceptance per draft position with one and three candidates, measured
 * and predicted speedups, and which decoder wins. It is saved under LAB/bench/sizes/ (the decoding
 * dashboard lists it there) and, with --out, where you say.
 */
import type { Command } from 'commander';
import { mkdirSync } from 'node:fs';
import { stampedId } from '../../store/stamped-id.ts';
import { dirname, join, relative, resolve } from 'node:path';
import { DECODE_MODES, type DecodeMode } from '../../decode/types.ts';
import { DEFAULT_PROMPTS, readPrompts } from '../../decode/prompts.ts';
import { PROJECT_ROOT, reportPath } from '../../paths.ts';
import { labPaths } from '../../store/layout.ts';
import { writeFileAtomic } from '../../store/json-file.ts';
import { SAT_PAY_TARGET, type SizeCurveReport, type SizePoint } from '../../decode/size-curve-report.ts';
import { int, intOption, labDir, onInterrupt } from '../runtime.ts';
import { progressBar } from '../progress.ts';

/** SAT drafts alone (one candidate, three), copied drafts as a tree, and both merged: the curve's question. */
export const SIZE_CURVE_MODES: readonly DecodeMode[] = ['sdsat', 'sdsat-tree', 'lookup-tree', 'merged-tree'];

interface Opts {
  models: string;
  prompts: string;
  limit?: string;
  k: string;
  modes: string;
  maxNew: string;
  repeats: number;
  costRepeats: number;
  backend?: string;
  out?: string;
  json?: boolean;
}

export function addSizeBenchCommand(bench: Command): void {
  bench.command('sizes')
    .description('SDSAT against model size: per SAT-tuned model, training losses, SAT acceptance per draft position (1 and 3 candidates), measured and predicted speedups of each mode over AR')
    .requiredOption('--models <list>', 'comma-separated SAT-tuned model folders of one family (same tokenizer), any order')
    .option('--prompts <file>', 'JSON Lines prompts ({"text": ...})', DEFAULT_PROMPTS)
    .option('--limit <n>', 'use only the first n prompts')
    .option('--k <list>', 'draft lengths (those above a model\'s trained k are skipped for it)', '1,2,4')
    .option('--modes <list>', 'modes compared with AR', SIZE_CURVE_MODES.join(','))
    .option('--max-new <n>', 'tokens to generate per prompt', '64')
    .option('--repeats <n>', 'times each k\'s prompt set is decoded (an interval over them)', intOption('--repeats', 1), 3)
    .option('--cost-repeats <n>', 'timed forward passes per position count for the cost table', intOption('--cost-repeats', 2), 20)
    .option('--backend <id>', 'TensorFlow.js backend (default: best available)')
    .option('--out <file>', 'also write the report here (docs/…, resources/models/bench-sizes.json)')
    .option('--json', 'print the report as JSON')
    .action(async (o: Opts, cmd: Command) => {
      const dirs = o.models.split(',').map((d) => d.trim()).filter(Boolean);
      if (!dirs.length) throw new Error('--models: give at least one model folder');
      const modes = o.modes.split(',').map((m) => m.trim()) as DecodeMode[];
      for (const m of modes) if (m === 'ar' || !DECODE_MODES.includes(m)) throw new Error(`--modes takes ${DECODE_MODES.filter((d) => d !== 'ar').join(', ')}, not ${m}`);
      const ks = o.k.split(',').map((s) => int(s.trim()));
      let prompts = readPrompts(o.prompts);
      if (o.limit) prompts = prompts.slice(0, int(o.limit));
      const [{ selectBackend }, { isCheckpoint, loadModel }, { measureSizePoint }] = await Promise.all([
        import('../../models/backend.ts'), import('../../models/checkpoint.ts'), import('../../decode/size-curve.ts'),
      ]);
      for (const d of dirs) if (!isCheckpoint(resolve(d))) throw new Error(`--models: ${d} is not a model folder (no model.json and weights.bin)`);
      const backend = await selectBackend(o.backend);

      let stop = false;
      const dispose = onInterrupt(() => {
        stop = true;
        process.stderr.write('\nstopping after the current prompt (Ctrl-C again to abort)\n');
      }, () => process.exit(130));
      const bar = await progressBar('bench sizes {model} [{bar}] {value}/{total} generations', { quiet: o.json });
      const points: SizePoint[] = [];
      try {
        for (const [i, dir] of dirs.entries()) {
          if (stop) break;
          const loaded = loadModel(resolve(dir));
          try {
            const name = `${i + 1}/${dirs.length} ${relative(PROJECT_ROOT, resolve(dir)) || dir}`;
            const { point } = await measureSizePoint(dir, loaded, { prompts, ks, modes, maxNew: int(o.maxNew), repeats: o.repeats, costRepeats: o.costRepeats }, {
              stopped: () => stop,
              onProgress: (done, total) => bar.update(done, total, { model: name }),
            });
            points.push(point);
          } finally {
            loaded.model.dispose();
          }
        }
      } finally {
        bar.stop();
        dispose();
      }
      points.sort((a, b) => a.parameters - b.parameters);
      const report: SizeCurveReport = {
        kind: 'size-curve', time: new Date().toISOString(), backend: backend.id, promptsFile: reportPath(o.prompts),
        prompts: prompts.length, maxNew: int(o.maxNew), repeats: o.repeats, ks, modes, cancelled: stop, payTarget: SAT_PAY_TARGET, points,
      };
      const text = JSON.stringify(report, null, 2) + '\n';
      // Named by time (newest last in a listing) and a random tail, so two runs in one second keep both.
      const saved = join(labPaths.sizeCurves(labDir(cmd)), `${stampedId(3, new Date(report.time))}.json`);
      for (const path of [saved, ...(o.out ? [resolve(o.out)] : [])]) {
        mkdirSync(dirname(path), { recursive: true });
        writeFileAtomic(path, text);
      }
      if (o.json) process.stdout.write(text);
      else printSizeCurve(report, saved);
    });
}

const fmt = (x: number | null | undefined, digits = 2) => (x === null || x === undefined ? 'n/a' : x.toFixed(digits));

function printSizeCurve(r: SizeCurveReport, saved: string): void {
  const w = process.stdout.write.bind(process.stdout);
  w(`${r.backend}, ${r.prompts} prompts x ${r.maxNew} tokens, ${r.repeats} repeats, greedy${r.cancelled ? ' (stopped early)' : ''}\n`);
  for (const p of r.points) {
    const t = p.training;
    w(`\n${p.model}: ${(p.parameters / 1e6).toFixed(2)}M parameters (${p.config.dModel} x ${p.config.nLayer}), AR ${p.arTokensPerSec.toFixed(0)} tokens/s\n`);
    const minutes = (sec: number | null) => (sec === null ? 'n/a' : `${(sec / 60).toFixed(0)} min`);
    w(`  validation loss: base ${fmt(t.baseValLoss, 3)}, SAT-tuned ${fmt(t.valLoss, 3)}, SAT ${fmt(t.valSatLoss, 3)}; trained ${minutes(t.baseTrainS)} + SAT-tuned ${minutes(t.satTuneS)}${t.trainTokens ? ` on a ${(t.trainTokens / 1e6).toFixed(1)}M-token corpus` : ''}\n`);
    w(`  SAT acceptance per position (k = ${p.acceptance.k}): 1 candidate ${p.acceptance.oneCandidate?.map((a) => a.toFixed(2)).join(' ') ?? 'n/a'}; 3 candidates ${p.acceptance.threeCandidates?.map((a) => a.toFixed(2)).join(' ') ?? 'n/a'}\n`);
    for (const [mode, m] of Object.entries(p.modes)) {
      w(`  ${mode.padEnd(12)} k=${m.k} ${m.speedup.toFixed(2)}x${m.speedupCi95 ? ` [${m.speedupCi95.low.toFixed(2)}, ${m.speedupCi95.high.toFixed(2)}]` : ''} acceptance length ${fmt(m.meanAcceptanceLength)}${m.identicalOutputs === false ? '  OUTPUTS DIFFER FROM AR' : ''}\n`);
    }
    for (const q of p.predicted) {
      const needed = q.neededRate === undefined ? '' : `; ${r.payTarget}x needs acceptance ${q.neededRate === null ? 'beyond 1 (out of reach)' : q.neededRate.toFixed(2)} at every position`;
      w(`  sdsat k=${q.k}: predicted ${fmt(q.expected)}x, ceiling ${q.ceiling.toFixed(2)}x, measured ${fmt(q.measured)}x${needed}\n`);
    }
    w(`  best: ${p.best ? `${p.best.mode} at k = ${p.best.k}, ${p.best.speedup.toFixed(2)}x` : 'AR (no mode beat it)'}\n`);
  }
  w(`\nreport: ${saved}\n`);
}
