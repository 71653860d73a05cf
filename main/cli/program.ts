/**
 * The `lab` command tree: every command's name, options and help, and nothing heavier. A command
 * loads what it runs on (TF.js, the browser, vite, the task sites) inside its action, with
 * `await import(...)`, so `lab --help` and `lab tasks list` answer in about a second; a test
 * (test/cli/startup.test.ts) holds that. Tests build the tree here to run a command in-process.
 */
import { Command } from 'commander';
import { registerTasksCommands } from './commands/tasks.ts';
import { registerEpisodeCommands } from './commands/episodes.ts';
import { registerForkCommand } from './commands/fork.ts';
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

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('lab')
    .description('Agent lab workbench: environments, episodes, training and decoding from the command line')
    .showHelpAfterError('(add --help for usage)')
    .configureHelp({ showGlobalOptions: true })
    .option('--lab <dir>', 'lab folder (default: $LAB_DIR or the user data directory)');

  registerTasksCommands(program);
  registerEpisodeCommands(program);
  registerForkCommand(program);
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
  return program;
}
