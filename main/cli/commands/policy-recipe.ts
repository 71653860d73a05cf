/**
 * `lab train policy --preset P --out DIR`: from an empty lab to a trained compact policy in one
 * command (main/policy/recipe.ts): oracle collection, a frozen dataset, SFT. Each stage resumes:
 * the collection run and the dataset are named after the preset (so `--no-copy` or a second
 * `--out` trains on the same episodes instead of collecting them again), the SFT checkpoint is
 * found again in the output folder. With --miniwob DIR, oracle episodes of MiniWoB++ tasks (training
 * seeds) join the data: a collection run of their own that records the checkout, so the same command
 * resumes it on the same tasks.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { listVersions, readManifest, type DatasetManifest } from '../../datasets/manifest.ts';
import { policySamples, writeSftSamples } from '../../policy/sft-data.ts';
import { MINIWOB_TRAINING_SETS, POLICY_RECIPES, POLICY_RECIPE_NAMES, miniwobRecipeRun, miniwobTrainingTasks, recipeSftJob, type PolicyRecipeName } from '../../policy/recipe.ts';
import { miniwobServing, miniwobTaskNames, servedMiniwobFamilies, type MiniwobServing } from '../../tasks/miniwob/loader.ts';
import type { AttemptEvent } from '../../collection/retries.ts';
import { intOption, openLab, printJson, withBrowserOptions, type BrowserFlags, withTaskBrowser } from '../runtime.ts';
import { readTrainJob } from '../../models/train-state.ts';
import { runSftJob } from './policy.ts';
import { labPaths } from '../../store/layout.ts';
import { progressBar } from '../progress.ts';
import { modelFiles } from '../../store/lab-files.ts';

interface RecipeFlags extends BrowserFlags {
  preset: string;
  out?: string;
  copy: boolean;
  noisySeeds: number;
  miniwob?: string;
  miniwobTasks: string;
  miniwobSeeds?: number;
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
      .option('--miniwob <dir>', 'also collect oracle episodes of MiniWoB++ tasks from this local checkout, on their training seeds (lab eval --miniwob uses the test seeds)')
      .option('--miniwob-tasks <spec>', `with --miniwob: ${MINIWOB_TRAINING_SETS.join(' | ')} (the checkout's tasks with an oracle, or those of the 56-task set) or task names`, 'oracle')
      .option('--miniwob-seeds <n>', 'with --miniwob: training seeds per MiniWoB++ task (default: the preset\'s seeds per family)', intOption('--miniwob-seeds', 1))
      .option('--json', 'print the result as JSON'),
  ).action(async (o: RecipeFlags, cmd: Command) => {
    if (!(POLICY_RECIPE_NAMES as string[]).includes(o.preset)) throw new Error(`--preset must be one of ${POLICY_RECIPE_NAMES.join(', ')}, got "${o.preset}"`);
    if (!o.miniwob && (cmd.getOptionValueSource('miniwobTasks') === 'cli' || o.miniwobSeeds !== undefined)) throw new Error('--miniwob-tasks and --miniwob-seeds need --miniwob DIR');
    const recipe = POLICY_RECIPES[o.preset as PolicyRecipeName];
    // MiniWoB++: the tasks chosen now, before a browser starts (a task without an oracle is refused here).
    const mw = o.miniwob ? (() => {
      const serving = miniwobServing(o.miniwob!);
      const seeds = o.miniwobSeeds ?? recipe.seeds;
      const picked = miniwobTrainingTasks(o.miniwobTasks, miniwobTaskNames(serving.root));
      return { serving, seeds, picked, ...miniwobRecipeRun(o.preset, o.miniwobTasks, picked.tasks, seeds) };
    })() : undefined;
    // Loaded here, not at start-up: collection and the browser environment.
    const [{ RunFolder, runCollection }, { createDataset }, { BrowserEnv }] = await Promise.all([
      import('../../collection/collect-run.ts'), import('../../datasets/curate.ts'), import('../../environment/environment.ts'),
    ]);
    const store = openLab(cmd);
    const noisy = o.noisySeeds ? `-noisy${o.noisySeeds}` : '';
    // The MiniWoB++ part of the names: its run's id after the preset's (policy-recipe-P-miniwob-KEYxN).
    const miniwobPart = mw ? mw.runId.slice(`policy-recipe-${o.preset}`.length) : '';
    const outDir = resolve(o.out ?? labPaths.policy(store.dir, `recipe-${o.preset}${noisy}${miniwobPart}${o.copy ? '' : '-nocopy'}`));
    // What is collected depends on the preset only: the ablation and a second --out share it.
    const name = `policy-recipe-${o.preset}`;
    const t0 = performance.now();
    const say = (line: string) => { if (!o.json) process.stderr.write(`${line}\n`); };

    // 1. Oracle episodes (a collection run named after the policy folder, so a rerun resumes it),
    //    and with --noisy-seeds the noisy expert's, its mistakes labelled (a run of their own).
    //    With --miniwob, the oracle's MiniWoB++ episodes, in a run that records the checkout.
    const openRun = (runId: string, agent: 'oracle' | 'noisy', seeds: number, tasks = `${recipe.families.join(',')}:train`, miniwob?: MiniwobServing) => RunFolder.exists(store.dir, runId) ? RunFolder.open(store.dir, runId) : RunFolder.create(store.dir, {
      runId, tasks, agent, agentSeed: 0, retries: 0, reflect: 'none', shorten: false,
      parallel: recipe.parallel, seeds, tier: recipe.tier, ...(agent === 'noisy' ? { labelMistakes: true } : {}), ...(miniwob ? { miniwob } : {}),
    });
    const miniwobResumed = !!mw && RunFolder.exists(store.dir, mw.runId);
    const miniwobRun = mw ? openRun(mw.runId, 'oracle', mw.seeds, mw.tasks, mw.serving) : undefined;
    const runs = [openRun(name, 'oracle', recipe.seeds), ...(o.noisySeeds ? [openRun(`${name}-noisy${o.noisySeeds}`, 'noisy', o.noisySeeds)] : []), ...(miniwobRun ? [miniwobRun] : [])];
    const run = runs[0];
    // A resumed MiniWoB++ run keeps the tasks and settings it recorded; its checkout is the one given now (it may have moved).
    if (mw) say(miniwobResumed ? `MiniWoB++: resuming run ${mw.runId} on the tasks it recorded` : `MiniWoB++: oracle episodes of ${mw.picked.tasks.length} tasks, ${mw.seeds} training seeds each${mw.picked.skipped.length ? ` (${mw.picked.skipped.length} of --miniwob-tasks ${o.miniwobTasks} left out: no oracle, or not in the checkout)` : ''}`);
    const collected = await withTaskBrowser(o, mw ? servedMiniwobFamilies({ ...(miniwobRun?.config.miniwob ?? mw.serving), root: mw.serving.root }) : [], async ({ server, host, signal, release }) => {
      const envs = Array.from({ length: recipe.parallel }, () => new BrowserEnv(host));
      for (const e of envs) release(() => e.close());
      const bar = await progressBar('collect [{bar}] {value}/{total} tasks', { quiet: o.json });
      release(() => bar.stop());
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
    const solvedIn = (r: (typeof runs)[number]) => r.events.filter((e): e is AttemptEvent => e.type === 'attempt' && e.success).map((e) => e.episodeId);
    const ids = [...new Set(runs.flatMap(solvedIn))];
    const miniwobIds = new Set(miniwobRun ? solvedIn(miniwobRun) : []);
    if (!ids.length) throw new Error(`run ${run.dir}: no successful episode to train on`);
    const ratios = { train: 1 - recipe.validationShare, validation: recipe.validationShare, test: 0 };
    const samplesFile = modelFiles(outDir).sftSamples;
    let dataset: { name: string; version: number };
    if (existsSync(samplesFile) && existsSync(modelFiles(outDir).trainState)) {
      dataset = readTrainJob(outDir).dataset as { name: string; version: number };
    } else {
      const datasetName = `${name}${noisy}${miniwobPart}`;
      const description = `lab train policy --preset ${o.preset}: oracle episodes${noisy ? `, and noisy-expert episodes of ${o.noisySeeds} seeds per family with their mistakes labelled` : ''}${mw ? `, and oracle episodes of ${miniwobRun!.config.tasks.split(':')[0].split(',').length} MiniWoB++ tasks (${mw.seeds} training seeds each, run ${mw.runId})` : ''}`;
      const frozen = sameEpisodes(store.dir, datasetName, ids) ?? createDataset(store, { name: datasetName, description, filter: { ids }, ratios }).manifest;
      dataset = { name: frozen.name, version: frozen.version };
      writeSftSamples(outDir, policySamples(store, readManifest(store.dir, dataset)), recipe.prompt);
    }
    say(`dataset ${dataset.name}@v${dataset.version}: ${ids.length} episodes; collection took ${collectS.toFixed(0)} s`);

    // 3. SFT of the copying policy (or the ablation without copying).
    const result = await runSftJob(recipeSftJob(recipe, outDir, samplesFile, dataset, o.copy), !!o.json, !o.json);
    const miniwobOut = miniwobRun ? { miniwob: { run: miniwobRun.dir, tasks: miniwobRun.config.tasks.split(':')[0].split(','), seeds: miniwobRun.config.seeds, episodes: ids.filter((id) => miniwobIds.has(id)).length } } : {};
    const out = { preset: o.preset, copy: o.copy, policy: outDir, run: run.dir, dataset, episodes: ids.length, ...miniwobOut, collectS, sft: result, totalS: (performance.now() - t0) / 1000 };
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
