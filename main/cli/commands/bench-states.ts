/**
 * `lab bench states --policy SFT_DIR [--policy DIR ...] --mined REF`: the state yardstick
 * (main/evaluation/state-bench.ts): greedy correctness and group statistics at held-out and training
 * critical states and at routine states, each policy against the first on the same states, as
 * JSON or a table. No browser: minutes for a few hundred states.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { intOption, labDir, printJson, withCleanup } from '../runtime.ts';
import { progressBar } from '../progress.ts';
import { LabStore } from '../../store/lab.ts';
import { readJsonFile } from '../../store/json-file.ts';
import { resolveMiningFile } from '../../policy/mining-file.ts';
import { defaultSalvageJob } from '../../policy/salvage/config.ts';
import type { Mean, Rate } from '../../common/stats.ts';
import type { StateBenchReport } from '../../evaluation/state-bench.ts';
import { modelFiles } from '../../store/lab-files.ts';

const repeatable = (v: string, prev: string[] = []) => [...prev, v];

function share(flag: string, v: string, lo: number, hiOpen: number): number {
  const x = Number(v);
  if (!Number.isFinite(x) || x < lo || x >= hiOpen) throw new Error(`${flag}: expected a number in [${lo}, ${hiOpen}), got "${v}"`);
  return x;
}

interface StatesFlags {
  policy: string[];
  mined: string;
  heldoutShare: string;
  confirmedOnly?: boolean;
  routine?: string;
  maxStates?: number;
  group: number;
  temperature: string;
  topP: string;
  seed: number;
  backend?: string;
  baseline?: string;
  out?: string;
  json?: boolean;
}

export function addStatesBenchCommand(bench: Command): void {
  const d = defaultSalvageJob;
  bench
    .command('states')
    .description('the state yardstick: each policy\'s greedy correctness and group statistics at mined critical states (held out of RL and trained on) and at routine states, with 95% intervals, against the first policy on the same states')
    .requiredOption('--policy <dir>', 'policy folder; repeatable, the first is the baseline (the SFT policy the RL started from)', repeatable)
    .requiredOption('--mined <ref>', 'evaluation id whose failures `lab mine` mined, or the path of a mining.json')
    .option('--heldout-share <x>', 'share of mined task instances held out of RL (as the Salvage-DS runs were trained with)', '0.3')
    .option('--confirmed-only', 'only states that branching confirmed')
    .option('--routine <file>', 'sft-samples.jsonl whose validation split gives the routine states (default: the first policy\'s)')
    .option('--max-states <n>', 'at most N states per set, a seeded sample (default: all)', intOption('--max-states', 1))
    .option('--group <n>', 'samples per state (the RL\'s group size)', intOption('--group', 2), d.group)
    .option('--temperature <t>', 'sampling temperature of the groups (the RL\'s)', String(d.temperature))
    .option('--top-p <p>', 'nucleus of the groups (the RL\'s)', String(d.topP))
    .option('--seed <n>', 'sampling and state-sample seed', intOption('--seed', 0), 1)
    .option('--backend <id>', 'TensorFlow.js backend (default: best available)')
    .option('--baseline <file>', 'an earlier report (--out) whose first policy is the baseline: paired with it, not measured again (same states and settings, else refused)')
    .option('--out <file>', 'also write the JSON report here')
    .option('--json', 'print the report as JSON')
    .action(async (o: StatesFlags, cmd: Command) => {
      // Loaded here, not at start-up: the yardstick loads TF.js and the policy.
      const { benchStates, StateBenchBaseline } = await import('../../evaluation/state-bench.ts');
      const lab = labDir(cmd);
      const policies = o.policy.map((p) => resolve(p));
      for (const p of policies) if (!existsSync(modelFiles(p).model)) throw new Error(`--policy: no policy model in ${p}`);
      const baseline = o.baseline ? readJsonFile(resolve(o.baseline), StateBenchBaseline, 'a report of lab bench states --out') : undefined;
      // Routine states: as given, else the baseline's, else the first policy's SFT data.
      const routineSamples = resolve(o.routine ?? baseline?.request.routineSamples ?? modelFiles(policies[0]).sftSamples);
      if (!existsSync(routineSamples)) throw new Error(`--routine: ${routineSamples} is missing (give the SFT policy's sft-samples.jsonl)`);
      const temperature = Number(o.temperature);
      if (!(temperature > 0)) throw new Error(`--temperature: expected a positive number, got "${o.temperature}"`);
      const topP = Number(o.topP);
      if (!(topP > 0 && topP <= 1)) throw new Error(`--top-p: expected a number in (0, 1], got "${o.topP}"`);
      const req = {
        policies, miningPath: resolveMiningFile(o.mined, lab), confirmedOnly: !!o.confirmedOnly, heldoutShare: share('--heldout-share', o.heldoutShare, 0, 1),
        routineSamples, ...(o.maxStates ? { maxStates: o.maxStates } : {}), group: o.group, temperature, topP, seed: o.seed,
        ...(o.backend ? { backend: o.backend } : {}),
      };
      const bar = await progressBar('states [{bar}] {value}/{total} {set}', { quiet: o.json });
      const report = await withCleanup([() => bar.stop()], (signal) => benchStates(new LabStore(lab), req, {
        signal, baseline, onState: (done, total, policy, set) => {
          bar.update(done, total, { set });
          // Without a terminal (a background run, a log): a line every 50 states on stderr, so a long run shows it is moving.
          if (!bar.drawn && (done % 50 === 0 || done === total)) process.stderr.write(`states ${done}/${total} (${set}, ${policy})\n`);
        },
      }));
      bar.stop();
      if (!report) {
        process.stderr.write('cancelled: nothing written\n');
        process.exitCode = 130;
        return;
      }
      if (o.out) writeFileSync(resolve(o.out), JSON.stringify(report, null, 2) + '\n');
      if (o.json) return printJson(report);
      printStatesTable(report);
    });
}

const pct = (x: number | null) => (x === null ? '-' : `${(100 * x).toFixed(1)}`);
const rateText = (r: Rate) => `${pct(r.value)} [${pct(r.ci95?.low ?? null)}, ${pct(r.ci95?.high ?? null)}] (${r.k}/${r.n})`;
const meanText = (m: Mean, signed = false) => {
  const f = (x: number | null) => (x === null ? '-' : `${signed && x > 0 ? '+' : ''}${(100 * x).toFixed(1)}`);
  return `${f(m.value)} [${f(m.ci95?.low ?? null)}, ${f(m.ci95?.high ?? null)}]`;
};

function printStatesTable(r: StateBenchReport): void {
  const out = (l: string) => process.stdout.write(l + '\n');
  out(`states available: ${Object.entries(r.available).map(([k, n]) => `${k} ${n}`).join(', ')}; group ${r.request.group} at T ${r.request.temperature}, top-p ${r.request.topP}; ${r.elapsedS.toFixed(0)} s`);
  for (const p of r.policies) {
    out(`\n${p.policy}`);
    for (const [set, f] of Object.entries(p.sets)) {
      const vs = p.vsBaseline?.[set];
      out(`  ${set.padEnd(17)} greedy correct ${rateText(f.greedyCorrect)}  group correct ${meanText(f.groupCorrect)}  invalid ${meanText(f.groupInvalid)}  mixed groups ${rateText(f.mixedGroups)}${vs ? `  vs first: greedy ${meanText(vs.greedyCorrect, true)} points, group ${meanText(vs.groupCorrect, true)}` : ''}`);
      for (const [mode, m] of Object.entries(f.byMode)) out(`    ${mode.padEnd(18)} greedy correct ${rateText(m.greedyCorrect)}  group correct ${meanText(m.groupCorrect)}`);
      const verbs = Object.entries(f.wrongGreedyVerbs);
      if (verbs.length) out(`    wrong greedy actions: ${verbs.map(([v, n]) => `${v} ${n}`).join(', ')}`);
    }
  }
}
