/**
 * Running the `lab` command line from tests, two ways:
 *
 * - `runLab(...args)`: in this process, through the same command tree (main/cli/program.ts), with
 *   stdout and stderr captured. For tests of what a command does and prints; no process start-up
 *   to pay, and the modules a command loads stay loaded for the next one.
 * - `spawnLab(...args)`: a real `lab` process. Only for what needs one: exit codes, signals,
 *   a server that must be killed, start-up itself.
 *
 * Both resolve to { stdout, stderr } and reject, as execFile does, when the command fails: the
 * error carries `code` (the exit code), `stdout` and `stderr`, and its message includes stderr.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { execFile, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { buildProgram } from '../../main/cli/program.ts';

export const LAB_CLI = join(import.meta.dirname, '..', '..', 'main', 'cli', 'index.ts');

export interface LabOutput {
  stdout: string;
  stderr: string;
}

export type LabError = Error & LabOutput & { code: number };

function labError(args: readonly string[], out: LabOutput, code: number): LabError {
  return Object.assign(new Error(`lab ${args.join(' ')} failed (exit ${code})\n${out.stderr}`), out, { code });
}

const runFile = promisify(execFile);

/** `lab ARGS` as a child process (node --import tsx main/cli/index.ts). */
export async function spawnLab(args: readonly string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeout?: number } = {}): Promise<LabOutput> {
  return runFile(process.execPath, ['--import', 'tsx', LAB_CLI, ...args], { maxBuffer: 64 * 1024 * 1024, ...opts });
}

/** `lab ARGS` as a child process you hold (to read its output as it comes, to signal it). */
export function startLab(args: readonly string[], opts: SpawnOptions = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', LAB_CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

/** Every command of the tree, so each one throws instead of exiting and writes where we capture. */
function everyCommand(c: Command): Command[] {
  return [c, ...c.commands.flatMap(everyCommand)];
}

/** The output of the command whose async context a write comes from; none for anyone else's. */
const capturing = new AsyncLocalStorage<LabOutput>();
let running = false;

/**
 * `lab ARGS` in this process. Commands write to process.stdout and process.stderr directly, so
 * both are captured while the command runs (one command at a time). Only writes made in the
 * command's own async context are captured: the test runner reports to its parent over the same
 * stdout, and its writes pass through. `process.exitCode` a command sets is read as its exit code
 * and then restored.
 */
export async function runLab(...args: string[]): Promise<LabOutput> {
  if (running) throw new Error('runLab: one command at a time (it captures process.stdout)');
  running = true;
  const out: LabOutput = { stdout: '', stderr: '' };
  const program = buildProgram();
  for (const c of everyCommand(program)) {
    c.exitOverride().configureOutput({ writeOut: (s) => void (out.stdout += s), writeErr: (s) => void (out.stderr += s) });
  }
  const write = { stdout: process.stdout.write, stderr: process.stderr.write };
  const capture = (key: keyof LabOutput) => ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const into = capturing.getStore();
    if (!into) return (write[key] as (...a: unknown[]) => boolean).call(process[key], chunk, ...rest);
    into[key] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    done?.();
    return true;
  }) as typeof process.stdout.write;
  const exitCodeBefore = process.exitCode;
  process.exitCode = undefined;
  process.stdout.write = capture('stdout');
  process.stderr.write = capture('stderr');
  let code = 0;
  try {
    await capturing.run(out, () => program.parseAsync(['node', 'lab', ...args]));
    code = Number(process.exitCode ?? 0);
  } catch (err) {
    const e = err as Error & { code?: string; exitCode?: number };
    // Commander has written its own message (and the help) already; anything else is what
    // main/cli/index.ts prints for an error.
    if (e.code?.startsWith('commander.')) code = e.exitCode ?? 1;
    else {
      out.stderr += `lab: ${e.message}\n`;
      code = 1;
    }
    // `--help` and `--version` end through exitOverride with code 0.
  } finally {
    process.stdout.write = write.stdout;
    process.stderr.write = write.stderr;
    process.exitCode = exitCodeBefore;
    running = false;
  }
  if (code !== 0) throw labError(args, out, code);
  return out;
}

/**
 * `runLab` with some environment variables set (or, given undefined, unset) for the command's
 * duration, then restored: for what a command reads from the environment, without a process.
 */
export async function runLabWithEnv(vars: Record<string, string | undefined>, ...args: string[]): Promise<LabOutput> {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const set = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  set(vars);
  try {
    return await runLab(...args);
  } finally {
    set(before);
  }
}
