/**
 * `lab bench sft --dataset NAME`: SFT tokens/s of the compact policy's training step, the step as
 * it was (one-hot embedding products, uniformly drawn batches) against what replaced it, in one run.
 */
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { ThoughtMode } from '../../policy/action-accuracy.ts';
import { SHIPPED_POLICY } from '../../policy/shipped.ts';
import { POLICY_RECIPES } from '../../policy/recipe.ts';
import { defaultSftJob } from '../../policy/sft-job.ts';
import { policySamples } from '../../policy/sft-data.ts';
import { intOption, printJson } from '../runtime.ts';
import { loadDataset } from './policy.ts';

export function addSftBenchCommand(bench: Command): void {
  bench
    .command('sft')
    .description('SFT tokens/s of the compact policy (the default recipe\'s model) under each training-step variant, warm-up and repeats, as JSON')
    .requiredOption('--dataset <name>', 'dataset (NAME[@vN]) whose steps are trained on')
    .option('--samples <n>', 'samples encoded (the first N of the training split)', intOption('--samples', 8), 512)
    .option('--steps <n>', 'steps per timed repeat', intOption('--steps', 1), 5)
    .option('--warmup <n>', 'untimed steps first', intOption('--warmup', 0), 2)
    .option('--repeats <n>', 'timed repeats per variant', intOption('--repeats', 1), 3)
    .option('--backend <id>', 'TensorFlow.js backend (default: best available)')
    .action(async (o: { dataset: string; samples: number; steps: number; warmup: number; repeats: number; backend?: string }, cmd: Command) => {
      const [{ selectBackend }, { END_OF_TEXT, SEPARATE_SPACE_PATTERN, trainTokenizer }, { compactSample, encodeSample, tokenizerTexts }, { benchSftSteps }] = await Promise.all([
        import('../../models/backend.ts'), import('../../models/tokenizer.ts'), import('../../policy/sft-data.ts'), import('../../policy/sft-bench.ts'),
      ]);
      const backend = await selectBackend(o.backend);
      const recipe = POLICY_RECIPES.default;
      const { lab, manifest } = loadDataset(o.dataset, cmd);
      const parsed = () => policySamples(lab, manifest, ['train']).slice(0, o.samples);
      // Encoded in a function of their own: the parsed samples are garbage once it returns, as in
      // `train sft`; the variants that measure holding them load them again.
      const { tokenizer, seqs } = ((samples) => {
        if (!samples.length) throw new Error(`--dataset ${o.dataset}: no training samples`);
        const tok = trainTokenizer(tokenizerTexts(samples, recipe.prompt), recipe.sft.vocabSize, [END_OF_TEXT], SEPARATE_SPACE_PATTERN);
        const enc = { prompt: recipe.prompt, ctx: recipe.sft.model.ctx, reserve: defaultSftJob.reserve, targets: defaultSftJob.targets, promptWeight: defaultSftJob.promptWeight };
        return { tokenizer: tok, seqs: samples.map((s) => compactSample(encodeSample(tok, s, enc))) };
      })(parsed());
      const rows = benchSftSteps(seqs, { ...recipe.sft.model, vocabSize: tokenizer.vocabSize }, { batch: recipe.sft.batch, steps: o.steps, warmup: o.warmup, repeats: o.repeats, holdParsed: parsed });
      printJson({
        backend: backend.id, dataset: `${manifest.name}@v${manifest.version}`, samples: seqs.length,
        meanSampleTokens: seqs.reduce((n, s) => n + s.ids.length, 0) / seqs.length, model: recipe.sft.model, batch: recipe.sft.batch,
        steps: o.steps, warmup: o.warmup, repeats: o.repeats, rows,
      });
    });
}

/** action-accuracy.ts's modes, listed here so that `--help` does not load TF.js. */
const THOUGHT_MODES = ['given', 'own'] as const satisfies readonly ThoughtMode[];

export function addActionBenchCommand(bench: Command): void {
  bench
    .command('actions')
    .description('how often policies write the dataset\'s action (and its first argument) on its validation steps, handed the thought they were trained to write or writing their own (guided, as in an episode), as JSON')
    .requiredOption('--dataset <name>', 'dataset (NAME[@vN]) whose validation steps are used')
    .option('--policy <dir...>', 'policy folders, compared on the same steps (default: the shipped policy)')
    .option('--samples <n>', 'validation steps (the first N)', intOption('--samples', 1), 120)
    .addOption(new Option('--thought <mode>', 'given: the policy is handed the thought it was trained to write; own: it writes its own, guided, as the agent does').choices(THOUGHT_MODES).default('given'))
    .option('--backend <id>', 'TensorFlow.js backend (default: best available)')
    .action(async (o: { dataset: string; policy?: string[]; samples: number; thought: ThoughtMode; backend?: string }, cmd: Command) => {
      const [{ selectBackend }, { loadModel }, { actionAccuracy }, { readPolicySettings }] = await Promise.all([
        import('../../models/backend.ts'), import('../../models/checkpoint.ts'), import('../../policy/action-accuracy.ts'), import('../../policy/settings.ts'),
      ]);
      const backend = await selectBackend(o.backend);
      const { lab, manifest } = loadDataset(o.dataset, cmd);
      const samples = policySamples(lab, manifest, ['validation']).slice(0, o.samples);
      if (!samples.length) throw new Error(`--dataset ${o.dataset}: no validation steps`);
      const rows = [];
      for (const dir of (o.policy ?? [SHIPPED_POLICY]).map((d) => resolve(d))) {
        const policy = loadModel(dir);
        rows.push({ policy: dir, copy: !!policy.model.config.copy, ...(await actionAccuracy(policy, readPolicySettings(dir, policy.meta), samples, o.thought)) });
        policy.model.dispose();
      }
      printJson({ backend: backend.id, dataset: `${manifest.name}@v${manifest.version}`, thought: o.thought, rows });
    });
}
