import type { Command } from 'commander';

export function registerTasksCommands(program: Command): void {
  void program;
}
