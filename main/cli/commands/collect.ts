import type { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { BrowserEnv } from '../../environment/environment.ts';
import { AGENT_NAMES } from '../../agents/registry.ts';
import { MISTAKE_KINDS } from '../../agents/noisy-expert.ts';
import { RunFolder, runCollection, type CollectSummary } from '../../collection/collect-run.ts';
import { extraFamilies, intOption, openLab, printJson, startBrowser, startTaskServer, withBrowserOptions, withCleanup, withMiniwobOption, type BrowserFlags, type ExtraTaskFlags } from '../runtime.ts';

interface CollectFlags extends BrowserFlags, ExtraTaskFlags {
  tasks: string;
  agent: string;
  agentSeed: number;
  retries: number;
  reflect: string;
  shorten?: boolean;
  parallel: number;
  seeds: number;
  maxSteps?: number;
  rate?: string[];
  resume?: string;
  json?: boolean;
}

/**
 * Collection with reflection-conditioned retries (and blind retries as the baseline at the same
 * attempt budget) and trajectory shortening. A run is a folder under lab/runs/ and can be resumed.
 */
export function registerCollectCommand(program: Command): void {
  withBrowserOptions(withMiniwobOption(
    program
      .command('collect')
      .description('collect episodes with retries (reflection vs blind at the same budget) and shorten successful trajectories')
      .option('--tasks <spec>', 'families (or imported task sets, miniwob.<task>) and split, e.g. shop,flights:train or all:test', 'all:test')
      .option('--agent <name>', `agent: ${AGENT_NAMES.join(' | ')}`, 'noisy')
      .option('--agent-seed <n>', 'seed of the agent (attempt k uses a seed derived from it)', intOption('--agent-seed', 0), 1)
      .option('--retries <r>', 'retries after a failed first attempt (budget: 1 + R attempts per arm)', intOption('--retries', 0), 2)
      .option('--reflect <mode>', 'rules: reflect with the rule-based reflector (and run blind retries as the baseline); none: blind retries only', 'rules')
      .option('--shorten', 'shorten successful trajectories and keep those that pass the checker on replay')
      .option('--parallel <n>', 'browser environments working at once', intOption('--parallel', 1), 1)
      .option('--seeds <n>', 'task instances (seeds) per family', intOption('--seeds', 1), 4)
      .option('--max-steps <n>', 'step limit per episode (default: by tier)', intOption('--max-steps', 1))
      .option('--rate <kind=p>', `noisy-expert mistake rate, repeatable (${MISTAKE_KINDS.join(', ')})`, (v: string, acc: string[] = []) => [...acc, v])
      .option('--resume <run-id>', 'continue a run in lab/runs/<run-id> (its saved config wins over other flags)')
      .option('--json', 'print the summary as JSON'),
  )).action(async (opts: CollectFlags, cmd: Command) => {
    const store = openLab(cmd);
    const run = opts.resume ? RunFolder.open(store.dir, opts.resume) : RunFolder.create(store.dir, configFrom(opts));
    // Imported task sets join only when named; `all` means the built-in families (and MiniWoB++ with --miniwob).
    const named = run.config.tasks.split(':')[0].split(',').map((x) => x.trim());
    const server = await startTaskServer(extraFamilies(store.dir, opts, named));
    const host = await startBrowser(opts);
    const envs = Array.from({ length: run.config.parallel }, () => new BrowserEnv(host));
    const bar = !opts.json && process.stderr.isTTY ? new SingleBar({ format: 'collect [{bar}] {value}/{total} tasks {task}', hideCursor: true }, Presets.shades_classic) : null;
    await withCleanup([() => server.stop(), () => host.close(), ...envs.map((e) => () => e.close()), () => void bar?.stop()], async (signal) => {
      let started = false;
      const summary = await runCollection({ envs, server, store, browserKind: host.kind }, run, {
        signal,
        onTaskDone: (done, total, task) => {
          if (bar) {
            if (!started) bar.start(total, done, { task });
            started = true;
            bar.update(done, { task });
          } else if (task && !opts.json) process.stderr.write(`${task}: done (${done}/${total})\n`);
        },
      });
      bar?.stop();
      if (opts.json) return printJson({ lab: store.dir, run: run.dir, ...summary });
      printSummary(summary, run.dir, signal.aborted);
    });
  });
}

function configFrom(opts: CollectFlags) {
  if (!(AGENT_NAMES as readonly string[]).includes(opts.agent)) throw new Error(`unknown agent "${opts.agent}" (known: ${AGENT_NAMES.join(', ')})`);
  if (opts.reflect !== 'rules' && opts.reflect !== 'none') throw new Error(`--reflect must be rules or none, got "${opts.reflect}"`);
  const rates: Record<string, number> = {};
  for (const r of opts.rate ?? []) {
    const m = r.match(/^([a-z_]+)=([0-9.]+)$/);
    if (!m || !(MISTAKE_KINDS as readonly string[]).includes(m[1]) || !(Number(m[2]) >= 0 && Number(m[2]) <= 1)) throw new Error(`--rate must be KIND=P with KIND one of ${MISTAKE_KINDS.join(', ')} and 0 <= P <= 1, got "${r}"`);
    rates[m[1]] = Number(m[2]);
  }
  return {
    tasks: opts.tasks,
    agent: opts.agent as (typeof AGENT_NAMES)[number],
    agentSeed: opts.agentSeed,
    retries: opts.retries,
    reflect: opts.reflect as 'rules' | 'none',
    shorten: !!opts.shorten,
    parallel: opts.parallel,
    seeds: opts.seeds,
    ...(Object.keys(rates).length ? { rates } : {}),
    ...(opts.maxSteps ? { maxSteps: opts.maxSteps } : {}),
  };
}

function printSummary(s: CollectSummary, dir: string, cancelled: boolean): void {
  const out = (line: string) => process.stdout.write(line + '\n');
  out(`\nrun ${s.runId}: ${s.tasksDone}/${s.tasks} tasks, budget ${s.attemptBudget} attempts per task and arm`);
  out(`${'arm'.padEnd(9)}${'yield'.padEnd(12)}${'1st try'.padEnd(9)}${'attempts/success'.padEnd(18)}${'steps/success'.padEnd(15)}after shortening`);
  for (const a of s.arms) {
    out(
      `${a.arm.padEnd(9)}${`${a.successes}/${a.tasks}`.padEnd(12)}${String(a.firstAttemptSuccesses).padEnd(9)}${String(a.attemptsPerSuccess ?? '-').padEnd(18)}${String(a.stepsPerSuccess ?? '-').padEnd(15)}${a.stepsPerSuccessShortened ?? '-'}`,
    );
  }
  if (s.arms.length > 1) out(`steps/success on tasks every arm solved: ${s.arms.map((a) => `${a.arm} ${a.stepsPerSuccessCommon ?? '-'}`).join(', ')}`);
  if (s.shortening) out(`shortening: ${s.shortening.shortened} of ${s.shortening.trajectories} successful trajectories, mean steps ${s.shortening.stepsBefore} -> ${s.shortening.stepsAfter}`);
  if (cancelled || s.tasksDone < s.tasks) out(`\nStopped early; continue with: npm run lab -- collect --resume ${s.runId}`);
  out(`Run folder: ${dir}`);
}
