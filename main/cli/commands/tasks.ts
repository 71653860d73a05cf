import type { Command } from 'commander';
import { builtinFamilies } from '../../tasks/registry.ts';
import { printJson } from '../runtime.ts';

export function registerTasksCommands(program: Command): void {
  const tasks = program.command('tasks').description('the built-in task families');
  tasks
    .command('list')
    .description('list task families with their seed ranges')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) => {
      const rows = [...builtinFamilies().values()].map((f) => ({
        family: f.name,
        description: f.description,
        trainSeeds: [f.seeds.train.from, f.seeds.train.to - 1],
        testSeeds: [f.seeds.test.from, f.seeds.test.to - 1],
      }));
      if (opts.json) return printJson(rows);
      for (const r of rows) {
        process.stdout.write(`${r.family.padEnd(10)} ${r.description}\n${''.padEnd(10)} train seeds ${r.trainSeeds.join('-')}, test seeds ${r.testSeeds.join('-')}\n`);
      }
    });
}
