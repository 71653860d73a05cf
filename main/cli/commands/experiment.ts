/**
 * `lab experiment --preset tiny|demo|full`: the whole RMSWeb pipeline in one command (collect with
 * and without reflection, shorten, two datasets, SFT both, evaluate, mine, Salvage-DS and each
 * ablation over training seeds, evaluate, report), recorded in lab/experiments/<id>/ and resumable.
 */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { labPaths } from '../../store/layout.ts';
import { EXPERIMENT_ID, EXPERIMENT_PRESETS, experimentConfig, experimentPresets } from '../../experiment/config.ts';
import { ExperimentFolder } from '../../experiment/folder.ts';
import type { ExperimentReport } from '../../experiment/report.ts';
import { createReplay } from '../../experiment/replay.ts';
import { compareExperiments, type Comparison } from '../../experiment/compare.ts';
import { figure, formatColumns, intOption, openLab, printJson, withBrowserOptions, type BrowserFlags, withTaskBrowser } from '../runtime.ts';
import { progressBar } from '../progress.ts';
import type { ExperimentInfo } from '../../../preload/views.ts';
import type { LabStore } from '../../store/lab.ts';
import { formatDuration } from '../../../preload/duration.ts';
import { experimentFiles } from '../../store/lab-files.ts';

/** A repeatable option's values, in order. */
const repeatable = (value: string, previous: string[] = []) => [...previous, value];
/** Stage names, repeatable or comma-separated. */
const stageList = (value: string, previous: string[] = []) => [...previous, ...value.split(',').map((s) => s.trim()).filter(Boolean)];

interface ExperimentFlags extends BrowserFlags {
  preset?: string;
  until?: string;
  out?: string;
  resume?: string;
  replay?: string;
  seeds?: number;
  backend?: string;
  json?: boolean;
}

export function registerExperimentCommand(program: Command): void {
  const experiment = withBrowserOptions(
    program
      .command('experiment')
      .description('the RMSWeb experiment in one command: collect (reflection and plain), shorten, SFT, evaluate, mine, Salvage-DS and ablations, report (resumable)')
      .option('--preset <p>', experimentPresets().map((p) => `${p.name}: ${p.description}`).join('; '))
      .option('--out <name>', 'experiment id, the folder name in lab/experiments/ (default: a timestamp)')
      .option('--resume <id>', 'continue the experiment in lab/experiments/<id> with its recorded configuration')
      .option('--replay <id>', 'run experiment <id> again from its recorded config.json (a new experiment, id <id>-replayN or --out; compare with `experiment compare`)')
      .option('--until <stage>', 'stop once this stage is done, e.g. mine: the SFT policy and its mined states, to choose the Salvage-DS configuration on before anything is evaluated (continue with --resume)')
      .option('--seeds <n>', 'Salvage-DS training seeds (default: 1 for tiny and demo, 3 for full)', intOption('--seeds', 1))
      .option('--backend <id>', 'TensorFlow.js backend for SFT, Salvage-DS and the policy (default: best available)')
      .option('--json', 'print the result as JSON'),
  ).action(async (o: ExperimentFlags, cmd: Command) => {
    const store = openLab(cmd);
    let folder: ExperimentFolder;
    if (o.resume && o.replay) throw new Error('--replay cannot be combined with --resume: continue a stopped replay with --resume <its id>');
    if (o.replay) {
      // The replay's configuration is the recorded one: nothing that would change it is accepted.
      for (const [flag, v] of [['--preset', o.preset], ['--seeds', o.seeds], ['--backend', o.backend]] as const) {
        if (v !== undefined) throw new Error(`${flag} cannot be combined with --replay: a replay runs with the original's recorded configuration`);
      }
      if (o.out !== undefined && !EXPERIMENT_ID.test(o.out)) throw new Error(`--out: "${o.out}" is not a folder name (letters, digits, '_' and '-')`);
      folder = createReplay(store.dir, o.replay, o.out);
    } else if (o.resume) {
      for (const [flag, v] of [['--preset', o.preset], ['--out', o.out], ['--seeds', o.seeds], ['--backend', o.backend]] as const) {
        if (v !== undefined) throw new Error(`${flag} cannot be combined with --resume: a resumed experiment runs with its recorded configuration`);
      }
      folder = ExperimentFolder.open(store.dir, o.resume);
    } else {
      if (!o.preset) throw new Error(`--preset is required (${EXPERIMENT_PRESETS.join(', ')}), or --resume ID`);
      const config = experimentConfig(o.preset, o.out ?? ExperimentFolder.newId(), { seeds: o.seeds, backend: o.backend });
      folder = ExperimentFolder.create(store.dir, config);
    }
    const id = folder.config.id;
    const resumeCmd = `npm run lab -- experiment --resume ${id}${cmd.optsWithGlobals().lab ? ` --lab ${cmd.optsWithGlobals().lab as string}` : ''}`;
    const say = (line: string) => process.stderr.write(line + '\n');
    say(`experiment ${id} (preset ${folder.config.preset}${folder.config.replayOf ? `, a replay of ${folder.config.replayOf}` : ''}) in ${folder.dir}`);

    // Loaded here, not at start-up: the pipeline (TF.js through its stages) and the browser environment.
    const [{ BrowserEnv }, { runExperiment }] = await Promise.all([
      import('../../environment/environment.ts'), import('../../experiment/pipeline.ts'),
    ]);
    await withTaskBrowser(o, [], async ({ server, host, signal, release }) => {
      const envs = Array.from({ length: Math.max(folder.config.collect.parallel, folder.config.eval.parallel) }, () => new BrowserEnv(host));
      for (const e of envs) release(() => e.close());
      // One bar per stage (each has its own total); a stage's start and end stop the last one.
      const bar = await progressBar('  {stage} [{bar}] {value}/{total} {note}', { quiet: o.json });
      const stopBar = () => bar.stop();
      release(stopBar);
      const result = await runExperiment({ folder, store, server, envs, browserKind: host.kind }, {
        signal, until: o.until,
        onStage: (name, i, total, skipped) => {
          stopBar();
          say(`[${i + 1}/${total}] ${name}${skipped ? ': done before, skipped' : ''}`);
        },
        onProgress: (name, done, total, note) => {
          bar.update(done, total, { stage: name, note: note ?? '' });
        },
        onStageEnd: (name, s) => {
          stopBar();
          say(`  ${name}: done in ${s.toFixed(1)} s`);
        },
      }).catch((err: unknown) => {
        stopBar();
        throw new Error(`${err instanceof Error ? err.message : String(err)}\nThe experiment stopped; after fixing the cause, continue it with: ${resumeCmd}`);
      });
      stopBar();
      if (result.stopped) {
        say(result.until ? `\nstopped after stage ${o.until} as asked; ${result.stage} is next. Continue with: ${resumeCmd}` : `\nstopped in stage ${result.stage}; finished stages are kept. Continue with: ${resumeCmd}`);
        if (o.json) printJson({ experimentId: id, dir: folder.dir, stopped: true, stage: result.stage, resume: resumeCmd });
        if (!result.until) process.exitCode = 130;
        return;
      }
      if (o.json) return printJson({ experimentId: id, ...(folder.config.replayOf ? { replayOf: folder.config.replayOf } : {}), dir: folder.dir, stopped: false, report: result.reportPath, html: result.htmlPath, claims: result.report.claims, methods: result.report.methods, totalS: result.report.totalS });
      printSummary(result.report, result.reportPath);
      if (folder.config.replayOf) say(`compare with the original: npm run lab -- experiment compare ${folder.config.replayOf} ${id}`);
    });
  });

  experiment
    .command('status <id>')
    .description('where experiment <id> stands: each stage\'s status, seconds and progress (episodes, steps, iterations), what finished stages measured, and the time left estimated from finished stages of the same kind; reads only, safe while it runs')
    .option('--json', 'print the status as JSON')
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const store = openLab(cmd);
      // Loaded here, not at start-up: the stage list imports the training and browser modules.
      const { experimentStatus } = await import('../../experiment/status.ts');
      const status = experimentStatus(store.dir, id);
      if (cmd.optsWithGlobals().json) return printJson(status);
      printStatus(status);
    });

  experiment
    .command('report <id>')
    .description('the report of finished experiment <id> (its report.json): the claims, methods and verdicts as text, or --markdown (every table, to paste into docs) or --json')
    .option('--markdown', 'print the whole report as Markdown tables')
    .option('--json', 'print report.json')
    .option('--partial', 'an unfinished experiment (running or stopped) once its SFT, evaluation and mining stages are done: the report of the finished stages, each Salvage-DS variant over the training seeds evaluated so far (printed, not written)')
    .action(async (id: string, o: { markdown?: boolean; partial?: boolean }, cmd: Command) => {
      const store = openLab(cmd);
      const [{ readReport }, { renderReportMarkdown }] = await Promise.all([import('../../experiment/report.ts'), import('../../experiment/report-markdown.ts')]);
      const { report, path } = o.partial && !existsSync(experimentFiles(labPaths.experiment(store.dir, id)).report)
        ? await partialReport(store, id)
        : readReport(store.dir, id);
      if (cmd.optsWithGlobals().json) return printJson(report);
      if (o.markdown) return void process.stdout.write(renderReportMarkdown(report));
      printSummary(report, path);
    });

  experiment
    .command('amend <id>')
    .description('change a stopped experiment\'s recorded config and send stages back to run again under it, recorded with the reason in config.json (status, app and report show it; a replay runs the new values from the start). Stages that read a reopened or redone stage\'s outputs are redone too; nothing is deleted: what is moved out of the way goes to set-aside/<time>/')
    .option('--set <path=value>', 'a config value by its dotted path, read as JSON where it parses (eval.runs=3, salvage.rl.lr=3e-5, \'eval.claimHeldoutRuns={"sft":18,"salvage":6}\'); repeatable', repeatable, [])
    .requiredOption('--why <text>', 'why the experiment is amended (recorded with the change)')
    .option('--reopen <stage>', 'run this finished stage again, continuing its own work (an evaluation takes more runs under its id; SFT and Salvage-DS resume from their checkpoint); repeatable or comma-separated', stageList, [])
    .option('--redo <stage>', 'run this stage again from scratch (its policy folder set aside, a new evaluation id); repeatable or comma-separated', stageList, [])
    .option('--dry-run', 'say what would change and be set aside, and write nothing')
    .option('--json', 'print the result as JSON')
    .action(async (id: string, o: { set: string[]; why: string; reopen: string[]; redo: string[]; dryRun?: boolean }, cmd: Command) => {
      const store = openLab(cmd);
      // Loaded here, not at start-up: the stage list imports the training and browser modules.
      const { amendExperiment, parseSetting } = await import('../../experiment/amend.ts');
      const r = amendExperiment(store.dir, id, { set: o.set.map(parseSetting), why: o.why, reopen: o.reopen, redo: o.redo, dryRun: o.dryRun });
      if (cmd.optsWithGlobals().json) return printJson({ experimentId: id, ...r });
      const out = (l: string) => process.stdout.write(l + '\n');
      out(`${r.dryRun ? 'would amend' : 'amended'} experiment ${id}: ${r.change}`);
      for (const s of r.stages) out(`  ${s.how.padEnd(8)} ${s.stage}`);
      if (!r.stages.length) out('  no stage sent back: finished stages keep the values they ran with');
      for (const m of r.setAside) out(`  set aside ${m.from} -> ${m.to}`);
      if (!r.dryRun) out(`continue it: npm run lab -- experiment --resume ${id}`);
    });

  experiment
    .command('compare <original> <replay>')
    .description('compare two experiments\' reports (an original and its replay): every figure, the difference, whether the replay lies inside the original\'s 95% interval; and their configurations')
    .option('--json', 'print the comparison as JSON')
    .action((a: string, b: string, _o: unknown, cmd: Command) => {
      const store = openLab(cmd);
      const c = compareExperiments(store.dir, a, b);
      // `experiment` has a --json of its own, which commander fills first wherever the flag stands.
      if (cmd.optsWithGlobals().json) return printJson(c);
      printComparison(c);
    });
}

function printStatus(x: ExperimentInfo): void {
  const out = (l: string) => process.stdout.write(l + '\n');
  const by = x.runBy ? ` (pid ${x.runBy.pid} on ${x.runBy.host}, since ${x.runBy.startedAt})` : '';
  out(`experiment ${x.id} (preset ${x.preset}, created ${x.createdAt}): ${x.state}${by}`);
  for (const a of x.amendments) out(`amended ${a.at}: ${a.change}${a.reopened.length ? ` (reopened ${a.reopened.join(', ')})` : ''}`);
  out(`${x.stagesDone} of ${x.stages.length} stages done, ${formatDuration(x.elapsedS)} of stages so far`);
  const rows = x.stages.map((s) => [
    s.status,
    s.name,
    s.elapsedS === null ? '' : formatDuration(s.elapsedS),
    s.progress && s.status !== 'done' && s.status !== 'pending' ? `${s.progress.done}/${s.progress.total} ${s.progress.unit}` : '',
    s.status === 'done' ? (s.summary ?? '') : s.estimateS !== null ? `about ${formatDuration(s.estimateS)} left` : s.error ?? '',
  ]);
  process.stdout.write(formatColumns([['status', 'stage', 'time', 'progress', 'measured / left'], ...rows]));
  const { estimateS, unestimated } = x.remaining;
  if (x.stagesDone === x.stages.length) return;
  out(`time left: about ${formatDuration(estimateS)}${unestimated.length ? `, plus ${unestimated.length} stage(s) with nothing to estimate from yet (${unestimated.slice(0, 3).join(', ')}${unestimated.length > 3 ? ', ...' : ''})` : ''}`);
}

function printComparison(c: Comparison): void {
  const out = (l: string) => process.stdout.write(l + '\n');
  const num = (x: number | null) => (x === null ? 'n/a' : Number.isInteger(x) ? String(x) : x.toFixed(4));
  const signed = (x: number | null) => (x === null ? 'n/a' : x === 0 ? '0' : `${x > 0 ? '+' : ''}${num(x)}`);
  out(`${c.original} (original) vs ${c.replay} (replay)`);
  out(c.configsIdentical ? 'configurations: identical (apart from id, createdAt, replayOf)' : `configurations differ in ${c.configDifferences.length} field(s):`);
  for (const d of c.configDifferences) out(`  ${d.field}: ${JSON.stringify(d.original)} vs ${JSON.stringify(d.replay)}`);
  const width = Math.max(...c.rows.map((r) => r.label.length), 10) + 2;
  let group = '';
  for (const r of c.rows) {
    if (r.group !== group) {
      group = r.group;
      out(`\n${group}\n${''.padEnd(width)}${'original'.padStart(12)}${'replay'.padStart(12)}${'difference'.padStart(12)}  replay in original's 95% interval`);
    }
    const inside = r.inside === null ? '' : `${r.inside ? 'yes' : 'NO'} [${num(r.interval!.low)}, ${num(r.interval!.high)}]`;
    out(`${r.label.padEnd(width)}${num(r.original).padStart(12)}${num(r.replay).padStart(12)}${signed(r.difference).padStart(12)}  ${inside}`);
  }
  out('\nverdicts');
  for (const v of c.verdicts) out(`${v.claim.padEnd(width)}${figure(v.original, 'no verdict')} -> ${figure(v.replay, 'no verdict')}${v.original === v.replay ? '' : '  (changed)'}`);
  const differing = c.rows.filter((r) => r.difference !== null && r.difference !== 0 && r.group !== 'time').length;
  const outside = c.rows.filter((r) => r.inside === false).length;
  out(`\n${differing} figure(s) differ (time aside), ${outside} outside the original's interval`);
}

async function partialReport(store: LabStore, id: string): Promise<{ report: ExperimentReport; path: null }> {
  const { buildReport, recordedBrowser } = await import('../../experiment/report.ts');
  const folder = ExperimentFolder.read(store.dir, id);
  // buildReport names the stages a partial report still waits for.
  const browser = folder.isDone('eval-sft-reflect-test') ? recordedBrowser(folder, store) : 'unknown';
  return { report: await buildReport(folder, browser, { partial: true }), path: null };
}

function printSummary(r: ExperimentReport, json: string | null): void {
  const out = (l: string) => process.stdout.write(l + '\n');
  const pct = (x: number | null, why: string) => figure(x === null ? null : `${(100 * x).toFixed(1)}%`, why);
  const pts = (x: number | null) => figure(x === null ? null : `${(100 * x).toFixed(1)} pts`, 'no episodes');
  const c1 = r.claims.fewerSteps;
  const c2 = r.claims.salvageBeatsSft;
  out(`\nexperiment ${r.experimentId}: ${r.totalS.toFixed(0)} s of stages`);
  out(`claim 1 (fewer steps on solved test tasks): ${c1.verdict}: reflection-trained ${figure(c1.reflect.value?.toFixed(2), 'none solved')} vs plain-trained ${figure(c1.plain.value?.toFixed(2), 'none solved')} steps (${pct(c1.relativeReduction, 'needs both')} fewer)`);
  out(`claim 2 (Salvage-DS beats SFT): ${c2.verdict}: test ${pts(c2.test.difference.value)} (${c2.test.verdict}), held-out ${pts(c2.heldout.difference.value)} (${c2.heldout.verdict})`);
  const table = [['method', 'test success', 'held-out success'], ...r.methods.map((m) => [m.method, pct(m.test.success.value, 'no episodes'), m.heldout ? pct(m.heldout.success.value, 'no episodes') : 'not evaluated'])];
  process.stdout.write(formatColumns(table));
  if (r.partial) out(`partial: ${r.partial.stagesDone} of ${r.partial.stages} stages; each Salvage-DS variant over the training seeds evaluated so far`);
  if (json) out(`report: ${json}\n        ${experimentFiles(dirname(json)).reportHtml}`);
}
