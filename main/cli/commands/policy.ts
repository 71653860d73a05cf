/**
 * The compact policy from the command line:
 *   lab train sft --dataset NAME[@vN]|MANIFEST --out DIR   supervised fine-tuning in a worker thread
 *   lab eval --policy DIR --tasks SPEC --seeds N --split test|heldout   episodes + report with 95% intervals
 *   lab eval --miniwob DIR [--tasks set56|all|oracle|a,b]   the same on MiniWoB++ tasks' test seeds, with the 56-task set's mean
 *   lab mine --eval ID... [--confirm [--confirm-max N]] [--parallel N]   critical states of failed episodes, optionally confirmed by branching
 */
import { z } from 'zod';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { readManifest } from '../../datasets/manifest.ts';
import { LabStore } from '../../store/lab.ts';
import { DECODE_MODES, type DecodeMode } from '../../decode/types.ts';
import type { TrainProgress } from '../../models/train.ts';
import { SHIPPED_POLICY, SHIPPED_POLICY_NAME } from '../../policy/shipped.ts';
import { NO_REPEAT_NGRAM } from '../../policy/action-guide.ts';
import { ANSWER_FORMS, defaultPromptSettings, ELEMENT_LAYOUTS, ELEMENT_ORDERS, PromptSettings, THOUGHT_KINDS } from '../../policy/prompt.ts';
import { policySamples, writeSftSamples, TARGETS, type Targets } from '../../policy/sft-data.ts';
import { TOKENIZER_SPACES, defaultSftJob, defaultSftModel, type SftJob, type TokenizerSpaces } from '../../policy/sft-job.ts';
import type { SftResult } from '../../policy/sft.ts';
import { startSft } from '../../policy/sft-runner.ts';
import { readTrainJob } from '../../models/train-state.ts';
import { registerTrainingRun } from '../../policy/registry.ts';
import { EVAL_SPLITS, type EvalSplit } from '../../evaluation/eval-splits.ts';
import type { EvalReport, EvalRequest, GroupMetrics } from '../../evaluation/eval.ts';
import type { Tier } from '../../tasks/types.ts';
import type { miningReport } from '../../policy/mining.ts';
import { CONFIRMATION_STATUSES } from '../../policy/mining-file.ts';
import type { ConfirmationReport } from '../../evaluation/branching.ts';
import { addSamplingOptions, cancelOnSigint, intOption, parseSampling, type SamplingOpts, openLab, printJson, withActionSetsOption, withBrowserOptions, withTaskBrowser, withMiniwobOption, tierOption, type ActionSetFlags, type BrowserFlags, type ExtraTaskFlags, int, labDir } from '../runtime.ts';
import { findMiniwobRoot, miniwobServing, miniwobTaskNames, servedMiniwobFamilies } from '../../tasks/miniwob/loader.ts';
import { MINIWOB_TASK_SETS, notRunByReason, selectMiniwobTasks, type MiniwobServing } from '../../evaluation/miniwob.ts';
import { isLabId, labPaths } from '../../store/layout.ts';
import { progressBar } from '../progress.ts';
import { evalFiles, checkpointFiles, modelFiles } from '../../store/lab-files.ts';
import { readJsonFile } from '../../store/json-file.ts';
import { EvalRequestFile } from '../../policy/output-files.ts';

interface SftFlags {
  dataset: string;
  out: string;
  targets: string;
  steps: string;
  batch: string;
  lr: string;
  minLr: string;
  warmup: string;
  seed: string;
  vocab: string;
  dModel: string;
  layers: string;
  heads: string;
  dFf: string;
  ctx: string;
  maxPageChars: string;
  elementOrder: string;
  promptWeight: string;
  markTaskMatches?: boolean;
  markValues?: boolean;
  elementLayout: string;
  thought: PromptSettings['thought'];
  answer: PromptSettings['answer'];
  tokenizerSpaces: string;
  copy: boolean;
  copyNext?: boolean;
  lengthBuckets?: boolean;
  maxTextChars?: string;
  init?: string;
  history: string;
  evalEvery: string;
  checkpointEvery: string;
  resume: boolean;
  backend?: string;
  json?: boolean;
}

/**
 * A dataset named in the lab (NAME or NAME@vN), or a manifest file: lab/datasets/NAME/vN/manifest.json
 * (its lab folder is the one four levels up).
 */
export function loadDataset(ref: string, cmd: Command): { lab: LabStore; manifest: ReturnType<typeof readManifest> } {
  if (ref.endsWith('.json')) {
    const path = resolve(ref);
    if (!existsSync(path)) throw new Error(`--dataset: no manifest at ${path}`);
    const raw = readJsonFile(path, z.object({ name: z.string(), version: z.number().int() }).passthrough(), 'a dataset manifest');
    const dir = resolve(dirname(path), '../../..');
    return { lab: new LabStore(dir), manifest: readManifest(dir, { name: raw.name, version: raw.version }) };
  }
  const dir = labDir(cmd);
  return { lab: new LabStore(dir), manifest: readManifest(dir, ref) };
}

/** A loss weight in [0, 1], or an error naming the flag. */
function weight(s: string, flag: string): number {
  const x = Number(s);
  if (!Number.isFinite(x) || x < 0 || x > 1) throw new Error(`${flag} must be a number from 0 to 1, got "${s}"`);
  return x;
}

export function registerPolicyCommands(program: Command): void {
  const train = program.commands.find((c) => c.name() === 'train') ?? program.command('train').description('train models');
  const m = defaultSftModel;
  train
    .command('sft')
    .description('supervised fine-tuning of the compact web policy on a frozen dataset (worker thread; Ctrl-C keeps a resumable checkpoint)')
    .requiredOption('--dataset <ref>', 'dataset NAME, NAME@vN, or the path of its manifest.json')
    .requiredOption('--out <dir>', 'policy folder (model, tokenizer, policy.json, checkpoints); an existing run there resumes')
    .option('--targets <t>', `what carries loss: ${TARGETS.join(' | ')} (prompt tokens never do)`, defaultSftJob.targets)
    .option('--steps <n>', 'optimizer steps', String(defaultSftJob.steps))
    .option('--batch <n>', 'samples per step', String(defaultSftJob.batch))
    .option('--lr <x>', 'peak learning rate', String(defaultSftJob.lr))
    .option('--min-lr <x>', 'final learning rate (cosine decay)', String(defaultSftJob.minLr))
    .option('--warmup <n>', 'warm-up steps', String(defaultSftJob.warmup))
    .option('--seed <n>', 'random seed (initial weights, batch order)', String(defaultSftJob.seed))
    .option('--vocab <n>', 'tokenizer vocabulary (trained on the policy\'s own prompts and targets)', String(defaultSftJob.vocabSize))
    .option('--d-model <n>', 'model width', String(m.dModel))
    .option('--layers <n>', 'transformer blocks', String(m.nLayer))
    .option('--heads <n>', 'attention heads', String(m.nHead))
    .option('--d-ff <n>', 'MLP width', String(m.dFF))
    .option('--ctx <n>', 'context length in tokens', String(m.ctx))
    .option('--max-page-chars <n>', 'character budget of the page text in a prompt', String(defaultPromptSettings.maxPageChars))
    .option('--max-text-chars <n>', 'longest text run printed in a prompt (default: the name limit, 40)')
    .option('--init <policy>', 'start from this policy folder\'s weights and tokenizer (a fine-tune; its architecture replaces --d-model, --layers, --heads, --d-ff, --ctx and --vocab)')
    .option('--history <n>', 'previous actions shown in a prompt', String(defaultPromptSettings.maxHistory))
    .option('--element-order <order>', 'which elements fill the page budget first: task (shares words with the task, controls, overlays), task-values (task, and the value beside a label the task names comes with it), task-layout (task-values, with overlays found by layout and kept first, task words common on the page ignored, echoing headings dropped) or page (viewport, then page order)', defaultPromptSettings.elementOrder)
    .option('--element-layout <layout>', `element lines: ${ELEMENT_LAYOUTS.join(' | ')} (\`link "Shoes" [12]\`: the id after the name it stands for)`, defaultPromptSettings.elementLayout)
    .addOption(new Option('--thought <kind>', 'the thought line learned: dataset (the collecting agent\'s thought) or element (the acted-on element\'s line as the prompt prints it, `link "Shoes" [12]`, which the pointer copies)').choices(THOUGHT_KINDS).default(defaultPromptSettings.thought))
    .addOption(new Option('--answer <form>', 'how answers are learned: message (the collecting agent\'s sentence), value (the goal\'s value alone, `send_msg_to_user(\'$233.00\')`, where the task names it; every checker accepts it) or cite (the sentence, with the line of the element showing the value as the thought; needs --thought element)').choices(ANSWER_FORMS).default(defaultPromptSettings.answer))
    .option('--tokenizer-spaces <s>', `${TOKENIZER_SPACES.join(' | ')}: whether a space joins the word after it in the tokenizer (separate: a word is one token sequence wherever it stands, so it can be copied)`, defaultSftJob.tokenizerSpaces)
    .option('--no-copy', 'no copy (pointer) path in the model: the ablation of what copying buys')
    .option('--copy-next', 'the pointer also scores, by a learned amount, the position after the one holding the current token (continuing a copied span); with --init, added to a policy trained without it')
    .option('--length-buckets', 'draw each batch from samples of similar length (less padding per step) instead of uniformly')
    .option('--mark-task-matches', 'mark the element lines sharing the most words with the task, and options the task names, in every prompt')
    .option('--mark-values', 'mark "= " the value of a label the task names in every prompt (the table cells whose row and column headers share the most task words, the line after a term or a short label line), and rank the first few first')
    .option('--prompt-weight <x>', 'loss weight of prompt tokens (0: context only; the validation loss counts target tokens only)', String(defaultSftJob.promptWeight))
    .option('--eval-every <n>', 'steps between validation losses', String(defaultSftJob.evalEvery))
    .option('--checkpoint-every <n>', 'steps between checkpoints', String(defaultSftJob.checkpointEvery))
    .option('--no-resume', 'start over even if the folder holds a checkpoint')
    .option('--backend <id>', 'TensorFlow.js backend (default: best available)')
    .option('--json', 'print the result as JSON')
    .action(async (o: SftFlags, cmd: Command) => {
      if (!(TARGETS as readonly string[]).includes(o.targets)) throw new Error(`--targets must be ${TARGETS.join(' or ')}, got "${o.targets}"`);
      if (!(ELEMENT_ORDERS as readonly string[]).includes(o.elementOrder)) throw new Error(`--element-order must be ${ELEMENT_ORDERS.join(' or ')}, got "${o.elementOrder}"`);
      if (!(ELEMENT_LAYOUTS as readonly string[]).includes(o.elementLayout)) throw new Error(`--element-layout must be ${ELEMENT_LAYOUTS.join(' or ')}, got "${o.elementLayout}"`);
      if (o.copyNext && !o.copy) throw new Error('--copy-next is part of the copy path: it cannot go with --no-copy');
      if (o.answer === 'cite' && o.thought !== 'element') throw new Error('--answer cite needs --thought element: the cited line is an element thought');
      if (!(TOKENIZER_SPACES as readonly string[]).includes(o.tokenizerSpaces)) throw new Error(`--tokenizer-spaces must be ${TOKENIZER_SPACES.join(' or ')}, got "${o.tokenizerSpaces}"`);
      const prompt: PromptSettings = {
        ...defaultPromptSettings, maxPageChars: int(o.maxPageChars), maxHistory: int(o.history), elementOrder: o.elementOrder as PromptSettings['elementOrder'],
        markTaskMatches: o.markTaskMatches ?? defaultPromptSettings.markTaskMatches, markValues: o.markValues ?? defaultPromptSettings.markValues, elementLayout: o.elementLayout as PromptSettings['elementLayout'],
        thought: o.thought, answer: o.answer, ...(o.maxTextChars ? { maxTextChars: int(o.maxTextChars) } : {}),
      };
      const init = o.init ? resolve(o.init) : undefined;
      if (init && !checkpointFiles(init).every((f) => existsSync(f))) throw new Error(`--init: no policy checkpoint in ${init} (model.json, weights.bin, tokenizer.json)`);
      const outDir = resolve(o.out);
      const samplesFile = modelFiles(outDir).sftSamples;
      const resuming = o.resume && existsSync(modelFiles(outDir).trainState) && existsSync(samplesFile);
      let dataset: SftJob['dataset'];
      // What shapes the encoded samples: flags for a new run, the recorded job's for a resumed one.
      let encoding: Pick<SftJob, 'prompt' | 'targets' | 'promptWeight'> = { prompt, targets: o.targets as Targets, promptWeight: weight(o.promptWeight, '--prompt-weight') };
      if (resuming) {
        // The samples were frozen with the run, and so is how they are encoded: a resumed run trains on exactly the same data.
        const recorded = readTrainJob(outDir) as unknown as SftJob;
        dataset = recorded.dataset;
        encoding = { prompt: PromptSettings.parse(recorded.prompt), targets: recorded.targets, promptWeight: recorded.promptWeight ?? 0 };
        registerTrainingRun(labDir(cmd), 'sft', outDir);
      } else {
        const { lab, manifest } = loadDataset(o.dataset, cmd);
        registerTrainingRun(lab.dir, 'sft', outDir); // so the app's training view finds the run
        writeSftSamples(outDir, policySamples(lab, manifest), prompt);
        dataset = { name: manifest.name, version: manifest.version };
      }
      const job: SftJob = {
        ...defaultSftJob,
        outDir, samplesFile, dataset,
        steps: int(o.steps), batch: int(o.batch), lr: Number(o.lr), minLr: Number(o.minLr), warmup: int(o.warmup), seed: int(o.seed),
        evalEvery: int(o.evalEvery), checkpointEvery: int(o.checkpointEvery), resume: o.resume, backend: o.backend,
        vocabSize: int(o.vocab), ...encoding, tokenizerSpaces: o.tokenizerSpaces as TokenizerSpaces, lengthBuckets: !!o.lengthBuckets,
        model: { dModel: int(o.dModel), nLayer: int(o.layers), nHead: int(o.heads), dFF: int(o.dFf), ctx: int(o.ctx), copy: o.copy, ...(o.copyNext ? { copyNext: true } : {}) },
        ...(init ? { init } : {}),
      };
      await runSftJob(job, !!o.json);
    });

  registerMineCommand(program);
  withBrowserOptions(withActionSetsOption(withMiniwobOption(
    addSamplingOptions(program
      .command('eval')
      .description('evaluate a compact policy on test seeds or held-out families: success, steps on solved tasks, invalid actions, with 95% intervals')
      .option('--policy <dir>', `policy folder (from lab train sft or lab train policy, or SAT-tuned from one with lab train sdsat; default: the shipped policy, ${SHIPPED_POLICY_NAME})`, SHIPPED_POLICY)
      .option('--tasks <spec>', `families: all, or comma-separated names of the chosen split (test and train also take a drill by name, factbook or directory; all never includes them); with --miniwob, MiniWoB++ tasks: ${MINIWOB_TASK_SETS.join(' | ')} (default set56, the 56 of Gur et al.) or task names`, 'all')
      .option('--split <s>', `${EVAL_SPLITS.join(' | ')} (test seeds of the training families, the held-out families, or training instances)`, 'test')
      .option('--seeds <n>', 'task instances per family and run', intOption('--seeds', 1), 5)
      .option('--runs <n>', 'evaluation runs (each on its own block of test seeds, with its own sampling seed)', intOption('--runs', 1), 1)
      .option('--first-seed <n>', 'start this far into the split\'s seed range (e.g. sampled rollouts for mining on other training instances than greedy ones)', intOption('--first-seed', 0))
      .option('--tier <t>', 'force this tier (1, 2 or 3) on every instance', tierOption())
      .option('--decode <mode>', `${DECODE_MODES.join(' | ')} (default: what the policy folder's bench-decode.json measured fastest, if it ships one; else lookup-tree under greedy decoding, SAT-tuned or not, and ar under sampling)`)
      .option('--k <n>', 'drafts per loop (SDSAT, lookup: the longest branch)', intOption('--k', 1))
      .option('--compare-decode <mode>', 'also decode every step with this mode (e.g. ar beside sdsat) on the same prompt; the report compares speed, acceptance and identical outputs')
      .option('--no-prompt-cache', 'prefill every step\'s prompt from scratch (by default a step starts from the KV cache of a recent prompt it begins like: the task line, much of an unchanged page)')
      .option('--no-output-history', 'draft only from the prompt (by default copy-drafting decoders also draft from the policy\'s earlier outputs where the prompt holds no continuation: the action after the thought line, the call\'s closing; actions are the same either way)')
      .option('--no-guided', 'decode freely instead of guiding the output to an action on an element id the prompt shows')
      .option('--ngram-ban <n>', `guided: no token may repeat an n-gram of n tokens on the same output line (0: off; default ${NO_REPEAT_NGRAM})`, intOption('--ngram-ban', 0))
      .option('--parallel <n>', 'browser environments at once', intOption('--parallel', 1), 1)
      .option('--max-steps <n>', 'step limit per episode (default: by tier)', intOption('--max-steps', 1))
      .option('--backend <id>', 'TensorFlow.js backend')
      .option('--no-end-on-goal', 'run page-state goals until the agent stops, as before, instead of ending them when the checker passes')
      .option('--no-message-words', 'guided: let messages and typed text hold any word (by default a policy whose policy.json lists messageWords keeps them to those and the prompt\'s)')
      .option('--no-stated-value', 'guided: let a cite policy\'s message leave out the value its thought cited (by default the message must state it)')
      .option('--stall-ban', 'guided: the policy may not write again an action that left the page unchanged')
      .option('--stall-ban-all', 'guided: as --stall-ban, and such an action stays banned on that page for the rest of the episode (not only at the next step)')
      .option('--screenshots', 'record a set-of-marks screenshot at every step, to view the trajectories')
      .option('--resume <id>', 'continue a stopped evaluation (lab/evals/ID): its recorded request, keeping the episodes it finished; the flags that choose the policy, tasks, seeds and decoding are ignored, but --runs N adds runs to it (a finished one too), to narrow its intervals')
      .option('--json', 'print the report as JSON')))),
  ).action(async (o: BrowserFlags & ActionSetFlags & ExtraTaskFlags & SamplingOpts & { endOnGoal: boolean; stallBan?: boolean; stallBanAll?: boolean; messageWords: boolean; statedValue: boolean; screenshots?: boolean; policy: string; tasks: string; split: string; seeds: number; runs: number; firstSeed?: number; tier?: Tier; decode?: string; compareDecode?: string; promptCache: boolean; outputHistory: boolean; k?: number; guided: boolean; ngramBan?: number; parallel: number; maxSteps?: number; backend?: string; resume?: string; json?: boolean }, cmd: Command) => {
    if (!(EVAL_SPLITS as readonly string[]).includes(o.split)) throw new Error(`--split must be ${EVAL_SPLITS.join(' or ')}, got "${o.split}"`);
    if (o.decode && !(DECODE_MODES as readonly string[]).includes(o.decode)) throw new Error(`--decode must be one of ${DECODE_MODES.join(', ')}`);
    if (o.compareDecode && !(DECODE_MODES as readonly string[]).includes(o.compareDecode)) throw new Error(`--compare-decode must be one of ${DECODE_MODES.join(', ')}`);
    const sampling = parseSampling(o);
    // Loaded here, not at start-up: the policy agent (TF.js) and the browser environment.
    const [{ BrowserEnv }, { evalFamilies, runEval, newEvalId, readEvalRequest }] = await Promise.all([
      import('../../environment/environment.ts'), import('../../evaluation/eval.ts'),
    ]);
    const store = openLab(cmd);
    const recorded = o.resume ? recordedRequest(store.dir, o.resume, readEvalRequest, {
      parallel: cmd.getOptionValueSource('parallel') === 'cli' ? o.parallel : undefined,
      runs: cmd.getOptionValueSource('runs') === 'cli' ? o.runs : undefined,
    }) : undefined;
    // MiniWoB++: the checkout given, or the one a continued evaluation recorded (--miniwob then points it at a moved checkout).
    const serving: MiniwobServing | undefined = recorded
      ? recorded.miniwob && { ...recorded.miniwob, ...(o.miniwob ? { root: findMiniwobRoot(o.miniwob) } : {}) }
      : o.miniwob ? miniwobServing(o.miniwob, { episodeMaxTimeMs: o.miniwobTime, keepHumanDisplay: o.miniwobDisplay }) : undefined;
    const miniwob = serving ? servedMiniwobFamilies(serving) : [];
    let families: string[] = [];
    if (!recorded && serving) {
      if (o.split !== 'test') throw new Error(`--miniwob evaluates MiniWoB++ tasks on their test seeds: --split test, not ${o.split}`);
      const picked = selectMiniwobTasks(cmd.getOptionValueSource('tasks') === 'cli' ? o.tasks : 'set56', miniwobTaskNames(serving.root));
      families = picked.families;
      if (picked.notRun.length && !o.json) process.stderr.write(`not run: ${picked.notRun.length} tasks of --tasks ${cmd.getOptionValueSource('tasks') === 'cli' ? o.tasks : 'set56'} (the report lists them)\n`);
    } else if (!recorded) families = evalFamilies(o.tasks, o.split as EvalSplit); // a wrong family fails before a browser starts
    const request: EvalRequest = recorded ? { ...recorded, ...(serving ? { miniwob: serving } : {}) } : {
      policy: { dir: resolve(o.policy), decode: o.decode as DecodeMode | undefined, compareDecode: o.compareDecode as DecodeMode | undefined, k: o.k, sampling, backend: o.backend, guided: o.guided, stallBan: !!(o.stallBan || o.stallBanAll), ...(o.stallBanAll ? { stallBanAll: true } : {}), messageWords: o.messageWords, statedValue: o.statedValue, ...(o.ngramBan !== undefined ? { noRepeatNgram: o.ngramBan } : {}), ...(o.promptCache ? {} : { promptCache: false }), ...(o.outputHistory ? {} : { outputHistory: false }) },
      // The families by name, not "all": a continuation must run the same set after families are added.
      tasks: families.join(','), split: o.split as EvalSplit, seeds: o.seeds, runs: o.runs, ...(o.firstSeed ? { firstSeed: o.firstSeed } : {}), tier: o.tier, parallel: o.parallel, maxSteps: o.maxSteps, endOnGoal: o.endOnGoal,
      ...(serving ? { miniwob: serving } : {}),
    };
    const evalId = o.resume ?? newEvalId();
    await withTaskBrowser(o, miniwob, async ({ server, host, signal, release }) => {
      const envs = Array.from({ length: request.parallel }, () => new BrowserEnv(host, { screenshots: !!o.screenshots, ...(o.actions ? { actionSets: o.actions } : {}) }));
      for (const e of envs) release(() => e.close());
      const bar = await progressBar('eval [{bar}] {value}/{total} episodes, {ok} solved', { quiet: o.json });
      release(() => bar.stop());
      let solved = 0;
      const report = await runEval({ envs, server, store, browserKind: host.kind }, request, {
        signal, evalId,
        onEpisode: (done, total, e) => {
          if (e.success) solved++;
          bar.update(done, total, { ok: solved });
          if (!bar.drawn && !o.json) process.stderr.write(`${e.family}:${e.seed} run ${e.run}: ${e.success ? 'solved' : 'failed'} in ${e.steps} steps (${done}/${total})\n`);
        },
      });
      bar.stop();
      if (signal.aborted) process.stderr.write(`stopped after ${report.episodes.length} episodes; continue with: npm run lab -- eval --resume ${evalId}\n`);
      if (o.json) return printJson(report);
      printReport(report);
    });
  });
}

/** The request an evaluation recorded (lab/evals/ID/request.json), with another width or more runs if asked for. */
function recordedRequest(labDir: string, id: string, read: (path: string) => EvalRequest, over: { parallel?: number; runs?: number }): EvalRequest {
  const path = isLabId(id) ? evalFiles(labPaths.eval(labDir, id)).request : '';
  if (!path || !existsSync(path)) throw new Error(`--resume: no evaluation ${id} to continue in ${labPaths.evals(labDir)} (an evaluation records request.json when it starts)`);
  const req = read(path);
  return { ...req, ...(over.parallel !== undefined ? { parallel: over.parallel } : {}), ...(over.runs !== undefined ? { runs: over.runs } : {}) };
}

/**
 * `lab mine --eval ID [--eval ID ...] [--confirm [--confirm-max N] [--branches N]] [--parallel N]`:
 * failure modes of the evaluations' failed episodes against oracle references; with --confirm,
 * critical states are branched (main/evaluation/branching.ts). One mining.json for all of them, beside
 * the first evaluation (or at --out), rewritten after every state: the same command continues a
 * stopped run, keeping what it mined and branched.
 */
function registerMineCommand(program: Command): void {
  withBrowserOptions(
    program
      .command('mine')
      .description('failure-mode mining: the critical state of each failed episode of one or more evaluations, against an oracle reference on the same instance (resumable)')
      .requiredOption('--eval <id>', 'evaluation id (a folder in lab/evals/); repeatable, e.g. greedy and sampled rollouts of tiers 1 and 2', (v: string, prev: string[] = []) => [...prev, v])
      .option('--out <file>', 'where the mining report goes (default: mining.json beside the first evaluation)')
      .option('--confirm', 'confirm critical states by branching: the reference action and the policy\'s action there, each followed by the oracle')
      .option('--confirm-max <n>', 'with --confirm: branch at most N states, a sample fixed by a hash of each rollout\'s id', intOption('--confirm-max', 1))
      .option('--branches <n>', 'with --confirm: runs per branch (default 1); a branch succeeds when most of its runs do', intOption('--branches', 1))
      .option('--parallel <n>', 'browsers mining and branching at once', intOption('--parallel', 1), 1)
      .option('--examples <n>', 'examples kept per failure mode', intOption('--examples', 0), 5)
      .option('--json', 'print the report as JSON'),
  ).action(async (o: BrowserFlags & { eval: string[]; out?: string; confirm?: boolean; confirmMax?: number; branches?: number; parallel: number; examples: number; json?: boolean }, cmd: Command) => {
    if (o.branches !== undefined && !o.confirm) throw new Error('--branches needs --confirm');
    if (o.confirmMax !== undefined && !o.confirm) throw new Error('--confirm-max needs --confirm');
    const [{ BrowserEnv }, { mineEvaluations }] = await Promise.all([import('../../environment/environment.ts'), import('../../evaluation/mine-run.ts')]);
    const store = openLab(cmd);
    for (const id of o.eval) {
      const dir = isLabId(id) ? labPaths.eval(store.dir, id) : '';
      if (!dir || !existsSync(evalFiles(dir).report)) throw new Error(`--eval: no finished evaluation ${id} in ${labPaths.evals(store.dir)}`);
    }
    const miningPath = o.out ? resolve(o.out) : evalFiles(labPaths.eval(store.dir, o.eval[0])).mining;
    // Evaluations of MiniWoB++ tasks: the checkout their requests recorded (the first one's), so the oracle's references run there too.
    // (An evaluation recorded before request.json existed ran the built-in families only.)
    const requestOf = (id: string) => evalFiles(labPaths.eval(store.dir, id)).request;
    const served = o.eval.map((id) => (existsSync(requestOf(id)) ? readJsonFile(requestOf(id), EvalRequestFile, 'an evaluation request').miniwob : undefined)).find((m) => m);
    await withTaskBrowser(o, served ? servedMiniwobFamilies(served) : [], async ({ server, host, signal, release }) => {
      const envs = Array.from({ length: o.parallel }, () => new BrowserEnv(host));
      for (const e of envs) release(() => e.close());
      const r = await mineEvaluations({ envs, server, store, browserKind: host.kind, signal }, o.eval, miningPath, {
        confirm: !!o.confirm, confirmMax: o.confirmMax, branches: o.branches ?? 1, examplesPerMode: o.examples,
        onProgress: (phase, done, total, note) => {
          if (o.json) return;
          if (phase === 'mining') process.stderr.write(`mined ${done}/${total}\r`);
          else process.stderr.write(`confirmed ${done}/${total} (${note})\n`);
        },
      });
      if (o.json) return printJson(r.report);
      process.stdout.write(`\n${r.report.failures} failed episodes mined (of ${r.failed}), ${r.report.distinctStates} distinct critical states; mining report: ${miningPath}\n`);
      if (r.cancelled) process.stdout.write('cancelled: the report holds what was done; run the same command to go on\n');
      printMiningTable(r.report);
    });
  });
}

/** Failures per mode (and family), with the branching outcomes once states were confirmed. */
function printMiningTable(r: ReturnType<typeof miningReport> & { confirmation?: ConfirmationReport }): void {
  const out = (l: string) => process.stdout.write(l.trimEnd() + '\n');
  const c = r.confirmation;
  const head = (name: string) => `${name.padEnd(20)}${'failures'.padEnd(10)}${c ? CONFIRMATION_STATUSES.map((s) => s.replace('_', ' ').padEnd(16)).join('') : ''}`;
  const line = (name: string, n: number, counts: Record<string, number> | undefined) =>
    `${name.padEnd(20)}${String(n).padEnd(10)}${c ? CONFIRMATION_STATUSES.map((s) => String(counts?.[s] ?? 0).padEnd(16)).join('') : ''}`;
  out(head('mode'));
  for (const [mode, n] of Object.entries(r.byMode)) if (n) out(line(mode, n, c?.byMode[mode]));
  if (!c) return;
  out(head('family'));
  for (const [family, modes] of Object.entries(r.byFamily)) out(line(family, Object.values(modes).reduce((a, b) => a + (b ?? 0), 0), c.byFamily[family]));
  out(`${c.branched} of ${c.of} states branched`);
}

/**
 * Runs an SFT job in a worker with a progress bar (or lines without a terminal); the first Ctrl-C
 * stops with a checkpoint, a second kills. Prints its result unless `print` is false.
 */
export async function runSftJob(job: SftJob, json: boolean, print = true): Promise<SftResult> {
  const bar = await progressBar('sft [{bar}] {value}/{total} loss {loss} val {val} | {tps} tok/s', { quiet: json });
  let printed = 0;
  const onProgress = (p: TrainProgress) => {
    const fields = { loss: p.loss.toFixed(3), val: p.valLoss?.toFixed(3) ?? 'not yet', tps: p.tokensPerSec.toFixed(0) };
    bar.update(p.step, p.steps, fields);
    if (!bar.drawn && !json && (p.step - printed >= 25 || p.step === p.steps)) {
      process.stderr.write(`sft step ${p.step}/${p.steps} loss ${fields.loss} val ${fields.val} ${fields.tps} tok/s ${p.elapsedS.toFixed(0)} s\n`);
      printed = p.step;
    }
  };
  const handle = startSft(job, { progress: onProgress, log: (line) => { if (!json && !bar.drawn) process.stderr.write(`${line}\n`); } });
  const stopSigint = cancelOnSigint(handle, 'step');
  try {
    const r = await handle.result;
    bar.stop();
    if (!print) return r;
    if (json) process.stdout.write(JSON.stringify(r, null, 2) + '\n');
    else {
      process.stdout.write(`${r.cancelled ? 'cancelled (run the same command again to resume)' : 'done'}: ${r.stepsDone} steps on ${r.backend}, ${r.tokensPerSec.toFixed(0)} tok/s, ${r.parameters} parameters, policy in ${r.outDir}\n`);
      process.stdout.write(`${r.valOn} loss (loss tokens only): ${r.valLoss.toFixed(4)}\n`);
    }
    return r;
  } finally {
    bar.stop();
    stopSigint();
  }
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);
const ci = (c: { low: number; high: number } | null, f: (x: number) => string) => (c ? `[${f(c.low)}, ${f(c.high)}]` : '');

function row(name: string, g: GroupMetrics, width = 12): string {
  const s = g.success;
  const st = g.stepsOnSolved;
  return `${name.padEnd(width)}${`${s.k}/${s.n}`.padEnd(8)}${`${pct(s.value)} ${ci(s.ci95, (x) => pct(x))}`.padEnd(24)}${`${st.value?.toFixed(2) ?? 'none solved'} ${ci(st.ci95, (x) => x.toFixed(2))}`.padEnd(22)}${pct(g.invalidActions.value)} ${ci(g.invalidActions.ci95, (x) => pct(x))}`;
}

function printReport(r: EvalReport & { path: string }): void {
  const out = (l: string) => process.stdout.write(l + '\n');
  out(`\neval ${r.evalId}: ${r.policy.dir} (${r.policy.decode}, ${r.policy.sampling.kind}${r.policy.guided ? ', guided' : ''}), split ${r.request.split}, ${r.request.runs} run(s) x ${r.request.seeds} seeds per family`);
  const width = Math.max(12, ...Object.keys(r.byFamily).map((f) => f.length + 2));
  out(`${'group'.padEnd(width)}${'solved'.padEnd(8)}${'success (95% Wilson)'.padEnd(24)}${'steps on solved'.padEnd(22)}invalid actions`);
  out(row('all', r.overall, width));
  for (const [f, g] of Object.entries(r.byFamily)) out(row(f, g, width));
  for (const [t, g] of Object.entries(r.byTier)) out(row(`tier ${t}`, g, width));
  const m = r.miniwob;
  if (m) {
    out(`MiniWoB++: mean success over the ${m.run.tasks} tasks run ${pct(m.run.mean)}; over the 56-task set ${pct(m.set56.mean)} (${m.set56.run} run, ${m.set56.notRun.length} counted as failures)`);
    for (const g of notRunByReason(m.set56.notRun)) out(`  not run, ${g.reason}: ${g.tasks.join(', ')}`);
  }
  if (r.overall.successByRun.ci95) out(`success over runs: ${pct(r.overall.successByRun.value)} ${ci(r.overall.successByRun.ci95, pct)} (t, ${r.request.runs} runs)`);
  const prefill = r.decoding.prefillMsPerStep !== undefined ? ` (prefill ${r.decoding.prefillMsPerStep.toFixed(0)} ms, ${pct(r.decoding.reusedPromptShare ?? 0)} of prompt tokens from the prompt cache)` : '';
  out(`decoding: ${r.decoding.tokensPerSec.toFixed(0)} generated tok/s (prefill apart), ${r.decoding.msPerStep.toFixed(0)} ms per step${prefill}, ${r.decoding.invalidOutputs} outputs with no parsable action`);
  const c = r.decodeComparison;
  if (c) {
    const fig = (f: typeof c.primary) => `${f.mode} ${f.tokensPerSec.toFixed(0)} tok/s, ${f.decodeMsPerStep.toFixed(1)} ms generating and ${f.prefillMsPerStep.toFixed(1)} ms prefilling per step (${pct(f.reusedPromptShare)} of the prompt cached)${f.meanAcceptanceLength !== null ? `, acceptance length ${f.meanAcceptanceLength.toFixed(2)}` : ''}`;
    out(`side by side on ${c.steps} steps: ${fig(c.primary)} | ${fig(c.other)}`);
    out(`${c.primary.mode} generates ${c.decodeSpeedup.toFixed(2)}x as fast as ${c.other.mode} (per step ${c.decodeSpeedupPerStep.value?.toFixed(2)}x ${ci(c.decodeSpeedupPerStep.ci95, (x) => x.toFixed(2))}), whole steps ${c.stepSpeedup.toFixed(2)}x${c.stepSpeedupPerStep ? ` (per step ${c.stepSpeedupPerStep.value?.toFixed(2)}x ${ci(c.stepSpeedupPerStep.ci95, (x) => x.toFixed(2))})` : ''}; identical outputs on ${c.identicalSteps}/${c.steps} steps`);
  }
  if (r.browserReruns) out(`browsers lost: ${r.browserReruns.endpoints.join(', ')}; ${r.browserReruns.reruns} episode(s) run again on another browser`);
  out(`report: ${r.path}`);
}
