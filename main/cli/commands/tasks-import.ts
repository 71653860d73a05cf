import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { IMPORT_FORMATS, parseImportFile, type ImportFormat } from '../../tasks/imported/formats.ts';
import { checkTaskSetName, saveTaskSet } from '../../tasks/imported/taskset.ts';
import { openLab, printJson } from '../runtime.ts';

/** `lab tasks import FILE --format F`: validate a benchmark's task file and keep it in the lab as a task set. */
export function registerImportCommand(tasks: Command): void {
  tasks
    .command('import')
    .description('import a benchmark task file (WebVoyager JSONL, Online-Mind2Web JSON, WebTailBench TSV) into the lab as a task set')
    .argument('<file>', 'the task file')
    .requiredOption('--format <f>', IMPORT_FORMATS.join(' | '))
    .option('--name <name>', 'task set name, used as the family in `lab episode --task` and `lab collect --tasks` (default: the format)')
    .option('--start-url <url>', 'WebTailBench only: the page every task starts on (its TSV has none)')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { format: string; name?: string; startUrl?: string; json?: boolean }, cmd: Command) => {
      if (!(IMPORT_FORMATS as readonly string[]).includes(opts.format)) throw new Error(`--format must be one of ${IMPORT_FORMATS.join(', ')}, got "${opts.format}"`);
      const format = opts.format as ImportFormat;
      if (opts.startUrl && format !== 'webtailbench') throw new Error('--start-url is only for WebTailBench (the other formats carry a start URL per task)');
      const name = opts.name ?? format;
      // The built-in families load here, not at start-up: a task set must not take one's name.
      const { builtinFamilies } = await import('../../tasks/registry.ts');
      checkTaskSetName(name, builtinFamilies().keys());
      const path = resolve(file);
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (err) {
        throw new Error(`cannot read ${file}: ${(err as Error).message}`);
      }
      const tasks = parseImportFile(format, file, text, { startUrl: opts.startUrl });
      const store = openLab(cmd);
      const saved = saveTaskSet(store.dir, name, tasks);
      const tiers = [1, 2, 3].map((t) => tasks.filter((x) => x.tier === t).length);
      if (opts.json) return printJson({ name, format, tasks: tasks.length, tiers: { '1': tiers[0], '2': tiers[1], '3': tiers[2] }, path: saved });
      process.stdout.write(
        `imported ${tasks.length} ${format} tasks as task set "${name}" (tiers 1/2/3: ${tiers.join('/')})\n  ${saved}\n` +
          `run one: lab episode --task ${name} --seed 0 --agent random --screenshots; then judge it: lab judge --all-unjudged\n`,
      );
    });
}
