/** What CLI commands share: the lab folder, a browser, the task server, output helpers. */
import type { Command } from 'commander';
import { ChromiumHost } from '../environment/chromium.ts';
import { defaultLabDir } from '../paths.ts';
import { LabStore } from '../store/lab.ts';
import { TaskServer } from '../tasks/server.ts';
import { builtinFamilies } from '../tasks/registry.ts';

export interface BrowserFlags {
  browser?: string;
  chromium?: string;
}

/** Add --browser and --chromium to a command that needs a browser. */
export function withBrowserOptions(cmd: Command): Command {
  return cmd
    .option('--browser <ws-url>', 'attach to a running browser at this DevTools endpoint (ws://host:port/devtools/browser/...)')
    .option('--chromium <path>', 'Chromium or Chrome executable to launch (default: $LAB_CHROMIUM, then auto-detect)');
}

export function openLab(cmd: Command): LabStore {
  const dir = (cmd.optsWithGlobals().lab as string | undefined) ?? defaultLabDir();
  return new LabStore(dir);
}

export function startBrowser(flags: BrowserFlags): Promise<ChromiumHost> {
  return ChromiumHost.start({ browserUrl: flags.browser, executable: flags.chromium });
}

export function startTaskServer(): Promise<TaskServer> {
  return new TaskServer(builtinFamilies()).start();
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** Parse an integer option, naming the flag in the error. */
export function intOption(flag: string, min = 0): (value: string) => number {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new Error(`${flag} must be an integer >= ${min}, got "${value}"`);
    return n;
  };
}

/** Run fn with resources that must be released even on Ctrl-C or an error. */
export async function withCleanup<T>(cleanups: Array<() => Promise<void> | void>, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nlab: cancelling (Ctrl-C again to quit at once)...\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    return await fn(controller.signal);
  } finally {
    process.off('SIGINT', onSigint);
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => {});
  }
}
