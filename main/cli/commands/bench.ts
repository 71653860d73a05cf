import type { Command } from 'commander';
import { addModelBenchCommands } from './bench-models.ts';

export function registerBenchCommands(program: Command): void {
  const bench = program.command('bench').description('benchmarks');
  addModelBenchCommands(bench);
}
