/**
 * Salvage-DS from the command line:
 *   lab train salvage --policy SFT_DIR --mined EVAL_ID|mining.json --out DIR [--confirmed-only] [--preset ...] [ablation flags]
 * The states are frozen into DIR before training; the run goes in a worker thread; the first
 * Ctrl-C stops after the current iteration with a checkpoint, and the same command resumes it.
 */
import { z } from 'zod';
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { cancelOnSigint, labDir } from '../runtime.ts';
import { LabStore } from '../../store/lab.ts';
import { applyPreset, defaultSalvageJob, LOSS_AGGREGATIONS, parseSalvageJob, PRESETS, type Preset, type SalvageJob } from '../../policy/salvage/config.ts';
import { COMPETENCE_KINDS, REWARD_KINDS } from '../../policy/salvage/reward.ts';
import { STATE_SOURCES, type StateSource, freezeStates } from '../../policy/salvage/states.ts';
import { resolveMiningFile, testSeedsNote } from '../../policy/mining-file.ts';
import { startSalvage } from '../../policy/salvage/runner.ts';
import type { IterationStats, SalvageResult } from '../../policy/salvage/train.ts';
import { readPolicySettings } from '../../policy/settings.ts';
import { registerTrainingRun } from '../../policy/registry.ts';
import { modelFiles } from '../../store/lab-files.ts';
import { readJsonFile } from '../../store/json-file.ts';

interface SalvageFlags {
  policy: string;
  out: string;
  mined?: string;
  states: string;
  confirmedOnly?: boolean;
  routineShare: string;
  warmup: string;
  heldoutShare: string;
  preset: string;
  reward?: string;
  gates: boolean;
  dropRejected?: boolean;
  plainGrpo?: boolean;
  iterations: string;
  statesPerIter: string;
  group: string;
  updatesPerIter: string;
  topP: string;
  temperature: string;
  guided: boolean;
  maxNew?: string;
  rewardCorrect: string;
  rewardWrong: string;
  rewardInvalid: string;
  gradedWeights: string;
  advEps: string;
  negativeScale: string;
  minSpread: string;
  competence: string;
  competenceLo: string;
  competenceHi: string;
  anchorCoef: string;
  clipEps: string;
  beta: string;
  lossAgg: string;
  lr: string;
  weightDecay: string;
  gradClip: string;
  seed: string;
  checkpointEvery: string;
  resume: boolean;
  backend?: string;
  json?: boolean;
}

const num = (flag: string, s: string): number => {
  const n = Number(s);
  if (!Number.isFinite(n)) throw new Error(`${flag}: not a number: ${s}`);
  return n;
};
const oneOf = <T extends string>(flag: string, s: string, allowed: readonly T[]): T => {
  if (!(allowed as readonly string[]).includes(s)) throw new Error(`${flag} must be one of ${allowed.join(', ')}, got "${s}"`);
  return s as T;
};

export function registerSalvageCommand(program: Command): void {
  const train = program.commands.find((c) => c.name() === 'train') ?? program.command('train').description('train models');
  const d = defaultSalvageJob;
  train
    .command('salvage')
    .description('Salvage-DS: group-relative RL of a compact policy on mined critical states, with gates and the action-only anchor (worker thread; Ctrl-C keeps a resumable checkpoint)')
    .requiredOption('--policy <dir>', 'the SFT policy folder (start weights and the frozen KL reference)')
    .requiredOption('--out <dir>', 'run folder: a policy folder lab eval reads, plus salvage-config.json, salvage-stats.jsonl, salvage-states.jsonl; an existing run there resumes')
    .option('--mined <ref>', 'evaluation id whose failures `lab mine` mined, or the path of a mining.json (needed with --states mined)')
    .option('--states <s>', `mined (critical states + a share of routine ones) | all (every training state of the SFT policy: the ablation)`, d.states)
    .option('--confirmed-only', 'mined states: only those `lab mine --confirm` confirmed by branching (the policy\'s action there loses the task)')
    .option('--routine-share <x>', 'share of routine states (reference steps of successful trajectories) among mined states', String(d.routineShare))
    .option('--heldout-share <x>', 'share of mined task instances never trained on, kept for the state yardstick (lab bench states --heldout-share, the same value)', String(d.heldoutShare))
    .option('--preset <p>', `${PRESETS.join(' | ')}`, d.preset)
    .option('--reward <kind>', `${REWARD_KINDS.join(' | ')} (ablation: graded partial credit)`)
    .option('--no-gates', 'ablation: keep every group (no contrast or competence gate)')
    .option('--drop-rejected', 'ablation: drop the groups the gates reject instead of anchoring them (DAPO-style)')
    .option('--plain-grpo', 'ablation: plain GRPO (1/0 reward, no gates, no anchor, per-completion mean)')
    .option('--iterations <n>', 'sampling-and-update iterations', String(d.iterations))
    .option('--states-per-iter <n>', 'states (groups) per iteration', String(d.statesPerIter))
    .option('--group <n>', 'samples per state (G)', String(d.group))
    .option('--updates-per-iter <n>', 'gradient steps on each iteration\'s samples', String(d.updatesPerIter))
    .option('--top-p <x>', 'nucleus sampling mass', String(d.topP))
    .option('--temperature <x>', 'sampling temperature', String(d.temperature))
    .option('--no-guided', 'sample freely instead of under the action guide (the guide `lab eval` decodes with)')
    .option('--max-new <n>', 'most tokens per sample (default: the policy\'s reserve)')
    .option('--reward-correct <x>', 'reward of an action meaning the reference', String(d.reward.correct))
    .option('--reward-wrong <x>', 'reward of a valid action with another meaning', String(d.reward.wrong))
    .option('--reward-invalid <x>', 'reward of an unparsable action or one naming no element', String(d.reward.invalid))
    .option('--graded-weights <t,g,x>', 'graded reward: credit for the same type, target and text (summing to 1)', `${d.reward.gradedWeights.type},${d.reward.gradedWeights.target},${d.reward.gradedWeights.text}`)
    .option('--min-spread <x>', 'contrast gate: least max - min reward of a kept group', String(d.gates.minSpread))
    .option('--competence <kind>', `competence gate measure: ${COMPETENCE_KINDS.join(' | ')} (share of correct samples, or p(reference action))`, d.gates.competence)
    .option('--competence-lo <x>', 'competence gate: lower end of the band', String(d.gates.lo))
    .option('--competence-hi <x>', 'competence gate: upper end of the band', String(d.gates.hi))
    .option('--anchor-coef <x>', 'weight of the action-only anchor on rejected groups', String(d.anchorCoef))
    .option('--clip-eps <x>', 'importance-ratio clip range', String(d.clipEps))
    .option('--beta <x>', 'weight of the KL penalty to the SFT policy', String(d.beta))
    .option('--adv-eps <x>', 'epsilon of the group-relative advantage (r - mean) / (std + eps)', String(d.advEps))
    .option('--negative-scale <x>', 'scale of negative advantages (1: as designed; 0: wrong samples are not pushed down)', String(d.negativeScale))
    .option('--loss-agg <a>', `${LOSS_AGGREGATIONS.join(' | ')} mean of the policy-gradient loss`, d.lossAgg)
    .option('--lr <x>', 'learning rate (constant after --warmup)', String(d.lr))
    .option('--warmup <n>', 'updates over which the learning rate rises linearly to --lr (0: none)', String(d.warmup))
    .option('--weight-decay <x>', 'AdamW weight decay', String(d.weightDecay))
    .option('--grad-clip <x>', 'global gradient-norm clip', String(d.gradClip))
    .option('--seed <n>', 'seed of state draws and sampling', String(d.seed))
    .option('--checkpoint-every <n>', 'iterations between checkpoints', String(d.checkpointEvery))
    .option('--no-resume', 'start over even if the folder holds a run')
    .option('--backend <id>', 'TensorFlow.js backend (default: best available)')
    .option('--json', 'print the result as JSON')
    .action(async (o: SalvageFlags, cmd: Command) => {
      const outDir = resolve(o.out);
      const statesFile = modelFiles(outDir).salvageStates;
      const statePath = modelFiles(outDir).salvageState;
      let job: SalvageJob;
      if (o.resume && existsSync(statePath) && existsSync(statesFile)) {
        // A resumed run keeps its recorded configuration and frozen states; only --iterations may extend it.
        job = parseSalvageJob(readJsonFile(statePath, z.object({ job: z.unknown() }).passthrough(), 'a Salvage-DS run state').job, statePath);
        if (cmd.getOptionValueSource('iterations') === 'cli') job.iterations = Number(o.iterations);
        process.stderr.write(`resuming the run in ${outDir} with its recorded configuration\n`);
      } else {
        job = buildJob(o, outDir, statesFile);
        let miningPath: string | undefined;
        if (job.states === 'mined') {
          if (!o.mined) throw new Error('--mined is required with --states mined (or use --states all)');
          miningPath = resolveMiningFile(o.mined, labDir(cmd));
          const note = testSeedsNote(miningPath);
          if (note) process.stderr.write(`${note}\n`);
        }
        // A fresh start freezes its states anew (an earlier run's, without its state file, are not resumed).
        rmSync(statesFile, { force: true });
        const frozen = freezeStates(new LabStore(labDir(cmd)), job, { miningPath, sftSamples: modelFiles(resolve(o.policy)).sftSamples });
        process.stderr.write(`${frozen.states} states (${frozen.critical} critical) frozen in ${statesFile}\n`);
      }
      registerTrainingRun(labDir(cmd), 'salvage', outDir); // so the app's training view finds the run
      await runSalvageJob(job, !!o.json);
    });
}

function buildJob(o: SalvageFlags, outDir: string, statesFile: string): SalvageJob {
  const policy = resolve(o.policy);
  const d = defaultSalvageJob;
  let job: SalvageJob = {
    ...d, policy, outDir, statesFile,
    states: oneOf<StateSource>('--states', o.states, STATE_SOURCES),
    confirmedOnly: !!o.confirmedOnly,
    routineShare: num('--routine-share', o.routineShare),
    heldoutShare: num('--heldout-share', o.heldoutShare),
    iterations: num('--iterations', o.iterations), statesPerIter: num('--states-per-iter', o.statesPerIter), group: num('--group', o.group),
    updatesPerIter: num('--updates-per-iter', o.updatesPerIter), topP: num('--top-p', o.topP), temperature: num('--temperature', o.temperature),
    guided: o.guided,
    maxNew: o.maxNew ? num('--max-new', o.maxNew) : readPolicySettings(policy).reserve,
    reward: {
      ...d.reward, correct: num('--reward-correct', o.rewardCorrect), wrong: num('--reward-wrong', o.rewardWrong), invalid: num('--reward-invalid', o.rewardInvalid),
      gradedWeights: gradedWeights(o.gradedWeights),
    },
    advEps: num('--adv-eps', o.advEps), negativeScale: num('--negative-scale', o.negativeScale),
    gates: { ...d.gates, minSpread: num('--min-spread', o.minSpread), competence: oneOf('--competence', o.competence, COMPETENCE_KINDS), lo: num('--competence-lo', o.competenceLo), hi: num('--competence-hi', o.competenceHi) },
    anchorCoef: num('--anchor-coef', o.anchorCoef), clipEps: num('--clip-eps', o.clipEps), beta: num('--beta', o.beta),
    lossAgg: oneOf('--loss-agg', o.lossAgg, LOSS_AGGREGATIONS), lr: num('--lr', o.lr), warmup: num('--warmup', o.warmup), weightDecay: num('--weight-decay', o.weightDecay),
    gradClip: num('--grad-clip', o.gradClip), seed: num('--seed', o.seed), checkpointEvery: num('--checkpoint-every', o.checkpointEvery),
    resume: o.resume, backend: o.backend,
  };
  // The preset first, then the single-switch flags on top (they name one ablation each).
  let preset = oneOf<Preset>('--preset', o.preset, PRESETS);
  if (o.plainGrpo) preset = 'plain-grpo';
  job = applyPreset(job, preset);
  if (job.confirmedOnly && job.states !== 'mined') throw new Error('--confirmed-only selects among mined states; it does not combine with --states all');
  if (o.reward) job.reward.kind = oneOf('--reward', o.reward, REWARD_KINDS);
  if (!o.gates) job.gates.enabled = false;
  if (o.dropRejected) job.rejected = 'drop';
  return parseSalvageJob(job, 'command line');
}

function gradedWeights(s: string): SalvageJob['reward']['gradedWeights'] {
  const parts = s.split(',').map((x) => num('--graded-weights', x));
  if (parts.length !== 3 || Math.abs(parts[0] + parts[1] + parts[2] - 1) > 1e-6) throw new Error(`--graded-weights: three credits summing to 1 (type,target,text), got "${s}"`);
  return { type: parts[0], target: parts[1], text: parts[2] };
}

/** Run in a worker: one line per iteration, the first Ctrl-C stops with a checkpoint, a second kills. */
export async function runSalvageJob(job: SalvageJob, json: boolean): Promise<SalvageResult> {
  const onIteration = (s: IterationStats, n: number) => {
    if (json) return;
    process.stderr.write(`salvage ${s.iteration + 1}/${n} reward ${s.meanReward.toFixed(2)} correct ${(100 * s.correctShare).toFixed(0)}% kept ${s.kept}/${s.groups} anchored ${s.anchored} pg ${s.pgLoss.toFixed(3)} kl ${s.kl.toFixed(4)} anchor ${s.anchorLoss.toFixed(3)} clip ${(100 * s.clipFraction).toFixed(0)}% ${s.elapsedS.toFixed(1)} s\n`);
  };
  const handle = startSalvage(job, { iteration: onIteration, log: (line) => { if (!json) process.stderr.write(`${line}\n`); } });
  const stopSigint = cancelOnSigint(handle, 'iteration');
  try {
    const r = await handle.result;
    if (json) process.stdout.write(JSON.stringify(r, null, 2) + '\n');
    else process.stdout.write(`${r.cancelled ? 'cancelled (run the same command again to resume)' : 'done'}: ${r.iterationsDone} iterations on ${r.backend}, mean reward ${r.meanReward.toFixed(3)}, ${(100 * r.keptShare).toFixed(0)}% of groups kept; policy in ${r.outDir} (statistics: salvage-stats.jsonl)\n`);
    return r;
  } finally {
    stopSigint();
  }
}
