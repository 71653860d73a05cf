#!/usr/bin/env node
/** The `lab` command line: one entry point, one file per command group under ./commands. */
import { Command } from 'commander';
import { registerTasksCommands } from './commands/tasks.ts';
import { registerEpisodeCommands } from './commands/episodes.ts';
import { registerBenchCommands } from './commands/bench.ts';
import { registerDemoCommand } from './commands/demo.ts';
import { registerWebCommand } from './commands/web.ts';
import { registerDatasetCommands } from './commands/datasets.ts';
import { registerTrainCommands } from './commands/train.ts';
import { registerDecodeCommands } from './commands/decode.ts';
import { registerCollectCommand } from './commands/collect.ts';
import { registerServeCommand } from './commands/serve.ts';
import { registerJudgeCommand } from './commands/judge.ts';
import { registerPolicyCommands } from './commands/policy.ts';
import { registerSalvageCommand } from './commands/salvage.ts';
import { registerExperimentCommand } from './commands/experiment.ts';
import { registerPolicyRecipeCommand } from './commands/policy-recipe.ts';

const program = new Command();
program
  .name('lab')
  .description('Agent lab workbench: environments, episodes, training and decoding from the command line')
  .showHelpAfterError()
  .option('--lab <dir>', 'lab folder (default: $LAB_DIR or the user data directory)');

registerTasksCommands(program);
registerEpisodeCommands(program);
registerBenchCommands(program);
registerDemoCommand(program);
registerWebCommand(program);
registerDatasetCommands(program);
registerTrainCommands(program);
registerDecodeCommands(program);
registerCollectCommand(program);
registerServeCommand(program);
registerJudgeCommand(program);
registerPolicyCommands(program);
registerPolicyRecipeCommand(program.commands.find((c) => c.name() === 'train')!);
registerSalvageCommand(program);
registerExperimentCommand(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`lab: ${message}\n`);
  process.exitCode = 1;
});
