#!/usr/bin/env node
/** The `lab` command line: one entry point; the command tree is ./program.ts, one file per command group under ./commands. */
import { buildProgram } from './program.ts';

// A reader that stops early (`lab episodes list | head`) closes the pipe: end quietly, as Unix tools do.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

buildProgram().parseAsync(process.argv).catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`lab: ${message}\n`);
  process.exitCode = 1;
});
