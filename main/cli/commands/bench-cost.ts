/**
 * `lab bench forward`: the cost structure behind speculative decoding. Forward-pass time against
 * the number of new positions for several model sizes and backends, the SDSAT ceiling per k that
 * those costs allow, and for the SAT model the speedup its measured acceptance predicts beside the
 * speedup `bench decode` measured.
 */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { intOption, printJson } from '../runtime.ts';
import { SHIPPED_MODEL } from '../../decode/models.ts';
import { modelFiles } from '../../store/lab-files.ts';

const MODES = ['sdsat', 'sdsat-one-pass'] as const;

function intList(flag: string, min = 1): (value: string) => number[] {
  const one = intOption(flag, min);
  return (value) => value.split(',').map((s) => one(s.trim()));
}

/** "128x4" = width 128, 4 blocks (4 heads, MLP 4x width). */
function sizeList(value: string): { dModel: number; nLayer: number }[] {
  return value.split(',').map((s) => {
    const m = /^(\d+)x(\d+)$/.exec(s.trim());
    if (!m || Number(m[1]) % 4 !== 0) throw new Error(`--sizes takes WIDTHxBLOCKS items with a width divisible by 4 (e.g. 128x4), got "${s}"`);
    return { dModel: Number(m[1]), nLayer: Number(m[2]) };
  });
}

interface Opts {
  sizes: { dModel: number; nLayer: number }[];
  model: string;
  backends?: string;
  positions: number[];
  k: number[];
  cache: number;
  repeats: number;
  warmup: number;
  vocab: number;
  decodeReport?: string;
  json?: boolean;
}

export function addCostBenchCommand(bench: Command): void {
  bench.command('forward')
    .description('forward-pass time against new positions per model size and backend, the SDSAT ceiling per k, and expected vs measured speedup')
    .option('--sizes <list>', 'random-weight model sizes, WIDTHxBLOCKS', sizeList, sizeList('64x3,128x4,256x6'))
    .option('--model <dir>', 'SAT-tuned model measured beside them (its acceptance gives the expected speedup)', SHIPPED_MODEL)
    .option('--backends <list>', 'comma-separated backends, or "all" (default: every one that loads here)')
    .option('--positions <list>', 'new positions per pass', intList('--positions'), [1, 2, 3, 4, 5, 8, 9, 16, 17, 25, 32])
    .option('--k <list>', 'draft lengths for the ceiling and prediction', intList('--k'), [1, 2, 3, 4])
    .option('--cache <n>', 'tokens already cached before the timed pass', intOption('--cache', 1), 128)
    .option('--repeats <n>', 'timed passes per position count', intOption('--repeats', 2), 30)
    .option('--warmup <n>', 'untimed passes per position count first', intOption('--warmup', 0), 3)
    .option('--vocab <n>', 'vocabulary of the random-weight models', intOption('--vocab', 260), 1024)
    .option('--decode-report <file>', "a `bench decode --json` report of --model (default: the model folder's bench-decode.json)")
    .option('--json', 'print JSON only')
    .action(async (o: Opts) => {
      const [{ availableBackends, selectBackend }, { loadModel }, { TransformerLM, defaultModelConfig }, cost, { readBenchReport }] = await Promise.all([
        import('../../models/backend.ts'), import('../../models/checkpoint.ts'), import('../../models/model.ts'), import('../../decode/cost.ts'), import('../../decode/bench.ts'),
      ]);
      const backends = !o.backends || o.backends === 'all' ? await availableBackends() : o.backends.split(',').map((b) => b.trim());
      const reportPath = o.decodeReport ?? modelFiles(resolve(o.model)).benchDecode;
      const decodeReport = existsSync(reportPath) ? readBenchReport(reportPath) : null;
      const out = [];
      for (const id of backends) {
        const backend = await selectBackend(id);
        const models: { name: string; make: () => InstanceType<typeof TransformerLM>; sat: boolean }[] = [
          ...o.sizes.map((s) => ({
            name: `${s.dModel}x${s.nLayer}`, sat: false,
            make: () => new TransformerLM({ ...defaultModelConfig, vocabSize: o.vocab, dModel: s.dModel, nLayer: s.nLayer, nHead: 4, dFF: 4 * s.dModel, ctx: 256, seed: 1 }),
          })),
          { name: 'model', sat: true, make: () => loadModel(resolve(o.model)).model },
        ];
        const rows = [];
        for (const m of models) {
          if (!o.json) process.stderr.write(`bench forward: ${backend.id} ${m.name}...\n`);
          const model = m.make();
          try {
            const passes = cost.measurePassCost(model, o.positions, { cacheLength: o.cache, repeats: o.repeats, warmup: o.warmup });
            const at = cost.costAt(passes);
            // Acceptance and the measured speedup come from a decode report of the same model on the same backend.
            const measured = m.sat && decodeReport?.backend === backend.id ? decodeReport : null;
            const perK = o.k.flatMap((k) => MODES.map((mode) => {
              const row = measured?.results.find((r) => r.k === k && r.mode === mode);
              return {
                k, mode, passPositions: cost.loopPasses(mode, k),
                ceiling: cost.predictedSpeedup(at, mode, k, k),
                expected: row ? cost.predictedSpeedup(at, mode, k, cost.expectedAccepted(row.acceptanceRatePerPosition)) : null,
                measured: row ? row.speedup : null,
                acceptanceRatePerPosition: row?.acceptanceRatePerPosition ?? null,
              };
            }));
            const c = model.config;
            rows.push({ model: m.name, dModel: c.dModel, nLayer: c.nLayer, vocabSize: c.vocabSize, parameters: model.parameterCount, passes, perK });
          } finally {
            model.dispose();
          }
        }
        out.push({ backend: backend.id, models: rows });
      }
      const result = { cacheLength: o.cache, repeats: o.repeats, warmup: o.warmup, model: resolve(o.model), decodeReport: decodeReport ? reportPath : null, backends: out };
      if (o.json) return printJson(result);
      for (const b of out) for (const m of b.models) {
        process.stdout.write(`${b.backend} ${m.model} (${m.parameters} parameters): ms per pass by positions\n  `
          + m.passes.map((p) => `${p.positions}: ${p.ms.value?.toFixed(2)}`).join('  ') + '\n');
        for (const r of m.perK) {
          process.stdout.write(`  k=${r.k} ${r.mode.padEnd(15)} ceiling ${r.ceiling.toFixed(2)}x`
            + (r.expected !== null ? `  expected ${r.expected.toFixed(2)}x  measured ${r.measured?.toFixed(2)}x` : '') + '\n');
        }
      }
    });
}
