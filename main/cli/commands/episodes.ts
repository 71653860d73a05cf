import type { Command } from 'commander';

export function registerEpisodeCommands(program: Command): void {
  void program;
}
