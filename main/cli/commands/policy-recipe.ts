/**
 * `lab train policy --preset P --out DIR`: from an empty lab to a trained compact policy in one
 * command (main/policy/recipe.ts): oracle collection, a frozen dataset, SFT. Each stage resumes:
 * the collection run and the dataset are named after the preset (so `--no-copy` or a second
 * `--out` trains on the same episodes instead of collecting them again), the SFT checkpoint is
 * found again in the output folder.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { listVersions, readManifest, type DatasetManifest } from '../../datasets/manifest.ts';
import { policySamples, writeSftSamples } from '../../policy/sft-data.ts';
import { POLICY_RECIPES, POLICY_RECIPE_NAMES, recipeSftJob, type PolicyRecipeName } from '../../policy/recipe.ts';
import type { AttemptEvent } from '../../collection/retries.ts';
import { intOption, openLab, printJson, startBrowser, startTaskServer, withBrowserOptions, withCleanup, type BrowserFlags } from '../runtime.ts';
import { readTrainJob } from '../../models/train-state.ts';
import { runSftJob } from './policy.ts';
import { labPaths } from '../../store/layout.ts';
import { progressBar } from '../progress.ts';
import { modelFiles, runFiles } from '../../store/lab-files.ts';

interface RecipeFlags extends BrowserFlags {
  preset: string;
  out?: string;
  copy: boolean;
  noisySeeds: number;
  json?: boolean;
}

export function registerPolicyRecipeCommand(train: Command): void {
  withBrowserOptions(
    train
      .command('policy')
      .description('from an empty lab to a trained compact policy: oracle episodes on training seeds (and noisy-expert recoveries with --noisy-seeds), a dataset, SFT (resumable)')
      .option('--preset <name>', `${POLICY_RECIPE_NAMES.join(' | ')} (default: the 45-minute recipe; the shipped policy starts from wide, see scripts/train-shipped-policy.sh)`, 'default')
      .option('--out <dir>', 'policy folder (default: LAB/policies/recipe-PRESET)')
      .option('--no-copy', 'the same recipe without the copy path (the ablation)')
      .option('--noisy-seeds <n>', 'also collect this many seeds per family with the noisy expert, its mistakes labelled, so the data holds recoveries (the page after a wrong click or a detour, then the right action) without the mistakes', intOption('--noisy-seeds', 0), 0)
      .option('--json', 'print the result as JSON'),
  ).action(async (o: RecipeFlags, cmd: Command) => {
    if (!(POLICY_RECIPE_NAMES as string[]).includes(o.preset)) throw new Error(`--preset must be one of ${POLICY_RECIPE_NAMES.join(', ')}, got "${o.preset}"`);
    const recipe = POLICY_RECIPES[o.preset as PolicyRecipeName];
    // Loaded here, not at start-up: collection and the browser environment.
    const [{ RunFolder, runCollection }, { createDataset }, { BrowserEnv }] = await Promise.all([
      import('../../collection/collect-run.ts'), import('../../datasets/curate.ts'), import('../../environment/environment.ts'),
    ]);
    const store = openLab(cmd);
    const noisy = o.noisySeeds ? `-noisy${o.noisySeeds}` : '';
    const outDir = resolve(o.out ?? labPaths.policy(store.dir, `recipe-${o.preset}${noisy}${o.copy ? '' : '-nocopy'}`));
    // What is collected depends on the preset only: the ablation and a second --out share it.
    const name = `policy-recipe-${o.preset}`;
    const t0 = performance.now();
    const say = (line: string) => { if (!o.json) process.stderr.write(`${line}\n`); };

    // 1. Oracle episodes (a collection run named after the policy folder, so a rerun resumes it),
    //    and with --noisy-seeds the noisy expert's, its mistakes labelled (a run of their own).
    const openRun = (runId: string, agent: 'oracle' | 'noisy', seeds: number) => existsSync(runFiles(labPaths.run(store.dir, runId)).config) ? RunFolder.open(store.dir, runId) : RunFolder.create(store.dir, {
      runId, tasks: `${recipe.families.join(',')}:train`, agent, agentSeed: 0, retries: 0, reflect: 'none', shorten: false,
      parallel: recipe.parallel, seeds, tier: recipe.tier, ...(agent === 'noisy' ? { labelMistakes: true } : {}),
    });
    const runs = [openRun(name, 'oracle', recipe.seeds), ...(o.noisySeeds ? [openRun(`${name}-noisy${o.noisySeeds}`, 'noisy', o.noisySeeds)] : [])];
    const run = runs[0];
    const server = await startTaskServer();
    const host = await startBrowser(o);
    const envs = Array.from({ length: recipe.parallel }, () => new BrowserEnv(host));
    const bar = await progressBar('collect [{bar}] {value}/{total} tasks', { quiet: o.json });
    const collected = await withCleanup([() => server.stop(), () => host.close(), ...envs.map((e) => () => e.close()), () => bar.stop()], async (signal) => {
      for (const r of runs) {
        const summary = await runCollection({ envs, server, store, browserKind: host.kind }, r, {
          signal,
          onTaskDone: (done, total) => {
            bar.update(done, total);
            if (!bar.drawn && (done % 50 === 0 || done === total)) say(`collect ${r.config.agent}: ${done}/${total} tasks`);
          },
        });
        if (signal.aborted || summary.tasksDone < summary.tasks) return { stopped: r };
      }
      return { stopped: null };
    });
    if (collected.stopped) throw new Error(`collection stopped; run the same command again to continue (run ${collected.stopped.dir})`);
    const collectS = (performance.now() - t0) / 1000;

    // 2. The successful episodes, frozen (split by task instance).
    const ids = [...new Set(runs.flatMap((r) => r.events.filter((e): e is AttemptEvent => e.type === 'attempt' && e.success).map((e) => e.episodeId)))];
    if (!ids.length) throw new Error(`run ${run.dir}: no successful episode to train on`);
    const ratios = { train: 1 - recipe.validationShare, validation: recipe.validationShare, test: 0 };
    const samplesFile = modelFiles(outDir).sftSamples;
    let dataset: { name: string; version: number };
    if (existsSync(samplesFile) && existsSync(modelFiles(outDir).trainState)) {
      dataset = readTrainJob(outDir).dataset as { name: string; version: number };
    } else {
      const datasetName = `${name}${noisy}`;
      const description = `lab train policy --preset ${o.preset}: oracle episodes${noisy ? `, and noisy-expert episodes of ${o.noisySeeds} seeds per family with their mistakes labelled` : ''}`;
      const frozen = sameEpisodes(store.dir, datasetName, ids) ?? createDataset(store, { name: datasetName, description, filter: { ids }, ratios }).manifest;
      dataset = { name: frozen.name, version: frozen.version };
      writeSftSamples(outDir, policySamples(store, readManifest(store.dir, dataset)), recipe.prompt);
    }
    say(`dataset ${dataset.name}@v${dataset.version}: ${ids.length} episodes; collection took ${collectS.toFixed(0)} s`);

    // 3. SFT of the copying policy (or the ablation without copying).
    const result = await runSftJob(recipeSftJob(recipe, outDir, samplesFile, dataset, o.copy), !!o.json, !o.json);
    const out = { preset: o.preset, copy: o.copy, policy: outDir, run: run.dir, dataset, episodes: ids.length, collectS, sft: result, totalS: (performance.now() - t0) / 1000 };
    if (o.json) return printJson(out);
    process.stdout.write(`policy ready in ${out.totalS.toFixed(0)} s: ${outDir}\nevaluate it: npm run lab -- eval --policy ${outDir} --split test --seeds 10 --tier 1 --parallel 2\n`);
  });
}

/** The newest version of the dataset NAME when it holds exactly these episodes (a run that shares the collection). */
function sameEpisodes(labDir: string, name: string, ids: readonly string[]): DatasetManifest | undefined {
  if (!listVersions(labDir, name).length) return undefined;
  const m = readManifest(labDir, { name }); // the newest version
  const held = new Set(m.episodes.map((e) => e.id));
  return held.size === ids.length && ids.every((id) => held.has(id)) ? m : undefined;
}
