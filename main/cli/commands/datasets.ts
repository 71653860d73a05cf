import { join } from 'node:path';
import type { Command } from 'commander';
import { DatasetError, ExportCancelledError } from '../../datasets/errors.ts';
import { EXPORT_FORMATS, isExportFormat, LLAMAFACTORY_CONFIG, REWARD_MODULE, type ExportFormat } from '../../datasets/export/formats.ts';
import { OUTCOMES, type DatasetFilter, type Outcome } from '../../datasets/filter.ts';
import { listDatasetNames, listVersions, readManifest, versionDir, type DatasetManifest } from '../../datasets/manifest.ts';
import { formatColumns, intOption, openLab, printJson, withCleanup } from '../runtime.ts';
import { progressBar } from '../progress.ts';
import { datasetVersionFiles } from '../../store/lab-files.ts';

interface CreateFlags {
  name: string;
  family?: string[];
  status?: string[];
  agent?: string[];
  minSteps?: number;
  maxSteps?: number;
  tag?: string[];
  excludeTag?: string[];
  since?: string;
  until?: string;
  id?: string[];
  search?: string;
  includeOrphans?: boolean;
  allowEvalTasks?: boolean;
  split: string;
  description?: string;
  json?: boolean;
}

/** Repeatable, comma-separable list option: --family shop --family flights, or --family shop,flights. */
const collect = (value: string, previous: string[] = []) => [...previous, ...value.split(',').map((s) => s.trim()).filter(Boolean)];

function filterFromFlags(o: CreateFlags): DatasetFilter {
  for (const s of o.status ?? []) {
    if (!(OUTCOMES as readonly string[]).includes(s)) throw new DatasetError(`--status must be ${OUTCOMES.join(', ')}, got "${s}"`);
  }
  const f: DatasetFilter = {
    families: o.family,
    statuses: o.status as Outcome[] | undefined,
    agents: o.agent,
    minSteps: o.minSteps,
    maxSteps: o.maxSteps,
    tags: o.tag,
    excludeTags: o.excludeTag,
    since: o.since,
    until: o.until,
    ids: o.id,
    search: o.search,
    includeOrphans: o.includeOrphans || undefined,
  };
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as DatasetFilter;
}

const fmtCounts = (c: Record<string, number>) =>
  Object.entries(c)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none';

function describe(m: DatasetManifest): string {
  const s = m.stats;
  return [
    `${m.name} v${m.version}  created ${m.createdAt}${m.description ? `  ${m.description}` : ''}`,
    `  ${s.episodes} episodes, ${s.instances} task instances, ${s.steps} steps; ${m.dedupe.dropped} duplicates dropped`,
    `  split (by family+seed, ${m.split.ratios.train}/${m.split.ratios.validation}/${m.split.ratios.test}): ${fmtCounts(s.bySplit)} episodes; steps ${fmtCounts(s.stepsBySplit)}`,
    `  families: ${fmtCounts(s.byFamily)}`,
    `  tiers: ${fmtCounts(s.byTier)}`,
    `  outcomes: ${fmtCounts(s.byOutcome)}`,
    `  agents: ${fmtCounts(s.byAgent)}`,
    `  filter: ${JSON.stringify(m.filter)}`,
  ].join('\n');
}

export function registerDatasetCommands(program: Command): void {
  const datasets = program.command('datasets').description('curate episodes into frozen, versioned datasets');

  datasets
    .command('create')
    .description('select episodes by a filter, drop duplicates, split by task instance, and freeze the next version')
    .requiredOption('--name <name>', 'dataset name (letters, digits, . _ -)')
    .option('--family <f>', 'task family (repeatable or comma-separated)', collect)
    .option('--status <s>', `outcome after label overrides: ${OUTCOMES.join(' | ')} (repeatable)`, collect)
    .option('--agent <a>', 'agent as recorded (oracle:shop) or its kind (oracle: every family\'s oracle); repeatable', collect)
    .option('--min-steps <n>', 'at least this many steps', intOption('--min-steps'))
    .option('--max-steps <n>', 'at most this many steps', intOption('--max-steps'))
    .option('--tag <t>', 'required label tag (repeatable; all must be present)', collect)
    .option('--exclude-tag <t>', 'leave out episodes with this label tag (repeatable), e.g. branch for the branching episodes of lab mine --confirm', collect)
    .option('--since <date>', 'created at or after this date/time')
    .option('--until <date>', 'created before this date/time')
    .option('--id <id>', 'only these episode ids (repeatable)', collect)
    .option('--search <text>', 'instruction contains this text (case-insensitive)')
    .option('--include-orphans', 'keep orphaned episodes (no step and no end record, left by a run killed as it began); left out by default')
    .option('--split <ratios>', 'train,validation,test ratios', '0.8,0.1,0.1')
    .option('--description <text>', 'a note stored in the manifest')
    .option('--allow-eval-tasks', 'freeze even when episodes of held-out families or of test seeds would go into the train split (refused by default: evaluations would then measure tasks the policy trained on)')
    .option('--json', 'print JSON')
    .action(async (opts: CreateFlags, cmd: Command) => {
      const [{ createDataset }, { parseRatios }, { heldOutFamilies }] = await Promise.all([
        import('../../datasets/curate.ts'), import('../../datasets/split.ts'), import('../../tasks/registry.ts'),
      ]);
      const lab = openLab(cmd);
      const result = createDataset(lab, {
        name: opts.name, filter: filterFromFlags(opts), ratios: parseRatios(opts.split), description: opts.description, heldOutFamilies: heldOutFamilies().map((f) => f.name),
        // The app asks a person to confirm these; here a flag does. Evaluation episodes (agent
        // `policy` on test seeds) are the usual way in: --agent or --family keeps them out.
        confirm: (checks) => {
          const leaks = checks.filter((c) => c.kind !== 'empty-split');
          if (leaks.length && !opts.allowEvalTasks) {
            throw new DatasetError(`dataset ${opts.name} was not frozen: ${leaks.map((c) => c.message).join('; ')}. Narrow the filter (--agent, --family) or pass --allow-eval-tasks`);
          }
        },
      });
      for (const c of result.checks) process.stderr.write(`warning: ${c.message}\n`);
      for (const e of result.errors) process.stderr.write(`warning: skipped unreadable ${e}\n`);
      for (const w of result.warnings) process.stderr.write(`warning: ${w}\n`);
      if (result.orphans) process.stderr.write(`left out ${result.orphans} orphaned episode(s) (no step, no end record: a run killed as it began); --include-orphans keeps them\n`);
      if (opts.json) return printJson({ ...result, path: datasetVersionFiles(versionDir(lab.dir, result.manifest.name, result.manifest.version)).manifest });
      process.stdout.write(`${describe(result.manifest)}\n  (${result.matched} matched the filter${result.orphans ? `, ${result.orphans} orphans left out` : ''})\n`);
    });

  datasets
    .command('list')
    .description('list datasets and their versions')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }, cmd: Command) => {
      const lab = openLab(cmd);
      const rows = listDatasetNames(lab.dir).map((name) => {
        const versions = listVersions(lab.dir, name);
        // Listing must not fail on one edited episode; `show` is where verification is reported.
        const latest = readManifest(lab.dir, { name, version: versions.at(-1) }, { verify: false });
        return { name, versions, latest: { version: latest.version, createdAt: latest.createdAt, stats: latest.stats } };
      });
      if (opts.json) return printJson({ lab: lab.dir, datasets: rows });
      if (!rows.length) {
        process.stdout.write(`no datasets in ${lab.dir}\n`);
        return;
      }
      for (const r of rows) {
        const s = r.latest.stats;
        process.stdout.write(`${r.name.padEnd(24)} v${r.versions.join(', v')}  latest: ${s.episodes} episodes, ${s.steps} steps (${fmtCounts(s.bySplit)})\n`);
      }
    });

  datasets
    .command('show <ref>')
    .description('show a dataset version (NAME or NAME@vN), verifying its episodes are unchanged')
    .option('--no-verify', 'skip checking the frozen episode and label hashes')
    .option('--json', 'print the manifest as JSON')
    .action((ref: string, opts: { verify: boolean; json?: boolean }, cmd: Command) => {
      const m = readManifest(openLab(cmd).dir, ref, { verify: opts.verify });
      if (opts.json) return printJson(m);
      process.stdout.write(`${describe(m)}\n`);
    });

  program
    .command('export')
    .description('export a dataset version for a trainer, or the critical states of a mining report as a verl RL dataset')
    .option('--dataset <ref>', 'NAME or NAME@vN (default: latest version)')
    .option('--mined <ref>', 'instead of a dataset: the critical states `lab mine` found for evaluation ID (or a mining.json path), as a verl RL dataset (--format verl)')
    .option('--confirmed-only', 'with --mined: only the states `lab mine --confirm` confirmed by branching')
    .requiredOption('--format <f>', `${EXPORT_FORMATS.join(' | ')}`)
    .requiredOption('--out <dir>', 'output folder (new or empty)')
    .option('--strict', 'fail when a step\'s screenshot file is missing, instead of leaving the step out with a warning')
    .option('--json', 'print JSON')
    .action(async (opts: ExportFlags, cmd: Command) => {
      if (!isExportFormat(opts.format)) throw new DatasetError(`--format must be one of ${EXPORT_FORMATS.join(', ')}, got "${opts.format}"`);
      if (!!opts.dataset === !!opts.mined) throw new DatasetError('give one of --dataset (a dataset version) or --mined (the critical states of an evaluation)');
      if (opts.mined && opts.format !== 'verl') throw new DatasetError(`--mined exports a verl RL dataset (prompt, reference action, reward module); use --format verl, not ${opts.format}`);
      if (opts.confirmedOnly && !opts.mined) throw new DatasetError('--confirmed-only selects among mined states; it needs --mined');
      await (opts.mined ? exportMined(opts, opts.mined, cmd) : exportVersion(opts, opts.format, opts.dataset!, cmd));
    });
}

interface ExportFlags {
  dataset?: string;
  mined?: string;
  confirmedOnly?: boolean;
  format: string;
  out: string;
  strict?: boolean;
  json?: boolean;
}

/** How to start the trainer on an export, for the lines printed after it. */
function trainerHint(format: ExportFormat, outDir: string): string {
  if (format === 'verl') return `\n  verl: custom_reward_function.path=${join(outDir, REWARD_MODULE)} custom_reward_function.name=compute_score`;
  if (format === 'sharegpt') return `\n  LLaMA-Factory: cd ${outDir} && llamafactory-cli train ${LLAMAFACTORY_CONFIG}`;
  return '';
}

/**
 * Run an export with a progress bar on a TTY; Ctrl-C cancels it, and a cancelled export leaves
 * nothing behind. Returns null when cancelled.
 */
async function withExportProgress<T>(label: string, json: boolean | undefined, run: (signal: AbortSignal, onProgress: (p: { done: number; total: number }) => void) => Promise<T>): Promise<T | null> {
  const bar = await progressBar(`export ${label} [{bar}] {value}/{total}`, { quiet: json });
  try {
    const result = await withCleanup([() => bar.stop()], (signal) => run(signal, ({ done, total }) => bar.update(done, total)));
    bar.stop();
    return result;
  } catch (err) {
    if (err instanceof ExportCancelledError) {
      bar.stop();
      process.stderr.write('lab: export cancelled; nothing was written\n');
      process.exitCode = 130;
      return null;
    }
    throw err;
  }
}

async function exportVersion(opts: ExportFlags, format: ExportFormat, dataset: string, cmd: Command): Promise<void> {
  // The writers load here, not at start-up (hf-parquet brings a Parquet library).
  const { exportDataset } = await import('../../datasets/export/index.ts');
  const lab = openLab(cmd);
  const result = await withExportProgress(`${format} samples`, opts.json, (signal, onProgress) => exportDataset(lab, { dataset, format, outDir: opts.out, strict: opts.strict, signal, onProgress }));
  if (!result) return;
  for (const w of result.warnings) process.stderr.write(`warning: ${w}\n`);
  if (opts.json) return printJson(result);
  const preview = result.preview.map((p) => [`  ${p.split}`, `${p.episodeId.slice(0, 16)} step ${p.step}`, p.readable + (p.corrected ? '  (corrected)' : '')]);
  process.stdout.write(`first samples' targets:\n${formatColumns(preview)}`);
  process.stdout.write(
    `exported ${result.dataset} v${result.version} as ${format}: ${result.samples} samples (${fmtCounts(result.samplesBySplit as Record<string, number>)}), ${result.images} images, ${result.skippedSteps} steps skipped by labels${result.missingScreenshots ? `, ${result.missingScreenshots} left out for a missing screenshot (--strict fails instead)` : ''}\n  ${result.outDir}${trainerHint(format, result.outDir)}\n`,
  );
}

async function exportMined(opts: ExportFlags, mined: string, cmd: Command): Promise<void> {
  const [{ exportMinedStates }, { resolveMiningFile, testSeedsNote }] = await Promise.all([import('../../datasets/export/verl-mined.ts'), import('../../policy/mining-file.ts')]);
  const lab = openLab(cmd);
  const mining = resolveMiningFile(mined, lab.dir);
  const note = testSeedsNote(mining);
  if (note) process.stderr.write(`${note}\n`);
  const result = await withExportProgress('mined states', opts.json, (signal, onProgress) =>
    exportMinedStates(lab, { mining, outDir: opts.out, confirmedOnly: opts.confirmedOnly, strict: opts.strict, signal, onProgress }),
  );
  if (!result) return;
  for (const w of result.warnings) process.stderr.write(`warning: ${w}\n`);
  if (opts.json) return printJson(result);
  const left = [
    result.withoutReferenceAction ? `${result.withoutReferenceAction} without a reference action` : '',
    result.missingScreenshots ? `${result.missingScreenshots} without their screenshot (--strict fails instead)` : '',
  ].filter(Boolean);
  process.stdout.write(
    `exported ${result.states} ${opts.confirmedOnly ? 'confirmed ' : ''}critical states of ${result.mining} as verl (${fmtCounts(result.byMode as Record<string, number>)})${left.length ? `; left out ${left.join(', ')}` : ''}, ${result.images} images\n  ${result.outDir}${trainerHint('verl', result.outDir)}\n`,
  );
}
