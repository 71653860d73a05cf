/**
 * `lab tasks list|show|import|validate`. The families (and the browser, for validate) are loaded
 * when a command runs, not when the CLI starts (see ../program.ts).
 */
import type { Command } from 'commander';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabStore } from '../../store/lab.ts';
import { maxStepsForTier } from '../../tasks/server.ts';
import type { InstanceContext, TaskFamily, Tier } from '../../tasks/types.ts';
import { extraFamilies, withEndOnGoalOption, withMiniwobOption, type EndOnGoalFlags, type ExtraTaskFlags, intOption, openLab, tierOption, printJson, withBrowserOptions, type BrowserFlags, withTaskBrowser } from '../runtime.ts';
import { registerImportCommand } from './tasks-import.ts';
import { progressBar } from '../progress.ts';
import { formatMiniwobReport, pickMiniwobTasks, runMiniwobReport, type MiniwobValidateFlags } from './tasks-miniwob.ts';

/** The built-in families, loaded on first use (some eighty modules of task sites). */
const loadBuiltins = async () => (await import('../../tasks/registry.ts')).builtinFamilies();

function familyOrThrow(name: string, builtins: Map<string, TaskFamily>, extra: TaskFamily[] = []): TaskFamily {
  const all = new Map([...builtins, ...extra.map((x) => [x.name, x] as const)]);
  const f = all.get(name);
  if (!f) throw new Error(`unknown task family "${name}" (known: ${[...all.keys()].join(', ')})`);
  return f;
}

function splitOf(f: TaskFamily, seed: number): 'train' | 'test' | 'other' {
  const inR = (r: { from: number; to: number }) => seed >= r.from && seed < r.to;
  return inR(f.seeds.train) ? 'train' : inR(f.seeds.test) ? 'test' : 'other';
}

/** A generated task as `lab tasks show` prints it: the checker's key points are read from the untouched instance. */
export function describeTask(f: TaskFamily, seed: number, tier?: Tier) {
  const g = f.generate(seed, tier);
  const ctx: InstanceContext = { id: 'preview', family: f.name, seed, tier: g.tier, baseUrl: 'http://127.0.0.1/i/preview', state: g.state, agentMessages: [] };
  const check = f.check(ctx);
  return {
    family: f.name,
    heldOut: !!f.heldOut,
    seed,
    split: splitOf(f, seed),
    tier: g.tier,
    instruction: g.instruction,
    startPath: g.startPath,
    goalKind: g.goalKind,
    maxSteps: g.maxSteps ?? maxStepsForTier(g.tier),
    ...(g.startUrl ? { startUrl: g.startUrl } : {}),
    ...(f.checker && f.checker !== 'site' ? { checker: f.checker } : {}),
    keyPoints: check.keyPoints.map((k) => k.name),
  };
}

type MiniwobFlags = Omit<MiniwobValidateFlags, 'seeds' | 'endOnGoal'>;

/** `validate --miniwob`: the named agent on every task of the checkout, one row per task. */
async function validateMiniwob(opts: BrowserFlags & EndOnGoalFlags & ExtraTaskFlags & MiniwobFlags & { seeds: number; record?: boolean; json?: boolean }, cmd: Command): Promise<void> {
  const { miniwobFamilies } = await import('../../tasks/miniwob/loader.ts');
  const families = pickMiniwobTasks(miniwobFamilies(opts.miniwob!, { episodeMaxTimeMs: opts.miniwobTime, keepHumanDisplay: opts.miniwobDisplay }), opts.task);
  const tmp = opts.record ? null : mkdtempSync(join(tmpdir(), 'lab-validate-'));
  const store = tmp ? new LabStore(tmp) : openLab(cmd);
  let reports: Awaited<ReturnType<typeof runMiniwobReport>> = [];
  await withTaskBrowser(opts, families, async ({ server, host, signal, release }) => {
    release(() => void (tmp && rmSync(tmp, { recursive: true, force: true })));
    reports = await runMiniwobReport(
      { host, server, store, browserKind: host.kind, signal, onEpisode: opts.json ? undefined : (line) => process.stderr.write(`${line}\n`) },
      families,
      { ...opts, seeds: opts.seeds, endOnGoal: opts.endOnGoal },
    );
  });
  if (opts.json) return printJson({ agent: opts.agent, seedsPerTask: opts.seeds, tasks: reports });
  process.stdout.write(formatMiniwobReport(reports, opts.agent));
}

interface FamilyReport {
  family: string;
  heldOut: boolean;
  seeds: number[];
  /** reasons: how the oracle's episodes ended (goal_reached: the checker ended a page-state goal). */
  oracle: { episodes: number; successes: number; successRate: number; meanStepsByTier: Record<string, number | null>; reasons: Record<string, number>; failures: Array<{ seed: number; tier: Tier; reason: string; unmet: string[] }> };
  random: { episodes: number; successes: number; successRate: number } | null;
}

export function registerTasksCommands(program: Command): void {
  const tasks = program.command('tasks').description('the built-in task families');
  withMiniwobOption(
    tasks
      .command('list')
      .description('list task families with their seed ranges (and the lab\'s imported task sets, MiniWoB++ tasks with --miniwob)')
      .option('--json', 'print JSON'),
  ).action(async (opts: ExtraTaskFlags & { json?: boolean }, cmd: Command) => {
      const rows = [...(await loadBuiltins()).values(), ...extraFamilies(openLab(cmd).dir, opts)].map((f) => ({
        family: f.name,
        description: f.description,
        heldOut: !!f.heldOut,
        ...(f.drill ? { drill: true } : {}),
        ...(f.checker && f.checker !== 'site' ? { checker: f.checker } : {}),
        trainSeeds: [f.seeds.train.from, f.seeds.train.to - 1],
        testSeeds: [f.seeds.test.from, f.seeds.test.to - 1],
      }));
      if (opts.json) return printJson(rows);
      for (const r of rows) {
        const seeds =
          r.checker === 'judge'
            ? `imported: tasks (seeds) ${r.testSeeds.join('-')}, test only, judged by lab judge`
            : r.heldOut
              ? `held out: test seeds ${r.testSeeds.join('-')} only, never trained on`
              : `${r.drill ? 'drill (not in eval\'s default families): ' : ''}train seeds ${r.trainSeeds.join('-')}, test seeds ${r.testSeeds.join('-')}`;
        process.stdout.write(`${r.family.padEnd(12)} ${r.description}\n${''.padEnd(12)} ${seeds}\n`);
      }
    });

  withMiniwobOption(
    tasks
      .command('show')
      .description('show a generated task: instruction, tier, start path and the key points its checker judges')
      .argument('<family>', 'task family, imported task set or miniwob.<task>')
      .option('--seed <n>', 'seed (default: the first test seed)', intOption('--seed', 0))
      .option('--tier <t>', 'tier 1-3 (default: derived from the seed)', tierOption())
      .option('--json', 'print JSON'),
  ).action(async (name: string, opts: ExtraTaskFlags & { seed?: number; tier?: Tier; json?: boolean }, cmd: Command) => {
      const builtins = await loadBuiltins();
      const f = familyOrThrow(name, builtins, builtins.has(name) ? [] : extraFamilies(openLab(cmd).dir, opts));
      const d = describeTask(f, opts.seed ?? f.seeds.test.from, opts.tier);
      if (opts.json) return printJson(d);
      process.stdout.write(
        `${d.family} seed ${d.seed} (${d.split}${d.heldOut ? ', held-out family' : ''}), tier ${d.tier}, at most ${d.maxSteps} steps\n` +
          `goal: ${d.goalKind === 'state' ? 'a page state (the episode ends when the checker passes)' : 'an answer (the episode ends with the agent\'s message)'}\n` +
          `start: ${d.startUrl ?? d.startPath}\n\n${d.instruction}\n\n` +
          (d.checker === 'judge' ? 'no checker: episodes are judged afterwards (lab judge)\n' : `key points:\n${d.keyPoints.map((k) => `  - ${k}`).join('\n')}\n`),
      );
    });

  registerImportCommand(tasks);

  withBrowserOptions(withEndOnGoalOption(withMiniwobOption(
    tasks
      .command('validate')
      .description('run the oracle (and a random agent) on test seeds of every family in the real browser environment; with --miniwob, run --agent on every task of a MiniWoB++ checkout and print which it solves')
      .option('--seeds <n>', 'test seeds per family (tiers 1, 2, 3 in turn)', intOption('--seeds', 1), 3)
      .option('--family <name...>', 'only these families')
      .option('--no-random', 'skip the random agent')
      .option('--agent <name>', 'with --miniwob: the agent to run (random | endpoint | policy)', 'random')
      .option('--task <name...>', 'with --miniwob: only these MiniWoB++ tasks')
      .option('--endpoint <url>', 'agent endpoint: OpenAI-compatible base URL (default $LAB_ENDPOINT_URL)')
      .option('--model <name>', 'agent endpoint: model name (default $LAB_ENDPOINT_MODEL)')
      .option('--policy <dir>', "agent policy: the compact policy's model folder (default: the shipped policy)")
      .option('--record', 'record the episodes in the lab (default: a temporary lab, removed afterwards)')
      .option('--json', 'print JSON'),
  ))).action(async (opts: BrowserFlags & EndOnGoalFlags & ExtraTaskFlags & MiniwobFlags & { seeds: number; family?: string[]; random: boolean; record?: boolean; json?: boolean }, cmd: Command) => {
    if (opts.miniwob) return validateMiniwob(opts, cmd);
    const [{ randomAgent }, { runEpisode }, { BrowserEnv }] = await Promise.all([
      import('../../agents/random.ts'), import('../../collection/episode.ts'), import('../../environment/environment.ts'),
    ]);
    const builtins = await loadBuiltins();
    const families = opts.family ? opts.family.map((n) => familyOrThrow(n, builtins)) : [...builtins.values()];
    const tmp = opts.record ? null : mkdtempSync(join(tmpdir(), 'lab-validate-'));
    const store = tmp ? new LabStore(tmp) : openLab(cmd);
    const total = families.length * opts.seeds * (opts.random ? 2 : 1);
    const reports: FamilyReport[] = [];
    await withTaskBrowser(opts, [], async ({ server, host, signal, release }) => {
      release(() => void (tmp && rmSync(tmp, { recursive: true, force: true })));
      const env = new BrowserEnv(host, {});
      release(() => env.close());
      const bar = await progressBar('validate [{bar}] {value}/{total} {task}', { quiet: opts.json });
      release(() => bar.stop());
      bar.update(0, total, { task: '' });
      let done = 0;
      for (const f of families) {
        const seeds = Array.from({ length: opts.seeds }, (_, k) => f.seeds.test.from + k);
        const steps: Record<Tier, number[]> = { 1: [], 2: [], 3: [] };
        const rep: FamilyReport = { family: f.name, heldOut: !!f.heldOut, seeds, oracle: { episodes: 0, successes: 0, successRate: 0, meanStepsByTier: {}, reasons: {}, failures: [] }, random: opts.random ? { episodes: 0, successes: 0, successRate: 0 } : null };
        for (const [k, seed] of seeds.entries()) {
          if (signal.aborted) break;
          const tier = ((k % 3) + 1) as Tier;
          bar.update(done, total, { task: `${f.name} seed ${seed} oracle` });
          const o = await runEpisode({ env, server, store, browserKind: host.kind, signal, endOnGoal: opts.endOnGoal }, { family: f.name, seed, tier, agent: (i) => i.family.oracle(i.ctx) });
          rep.oracle.episodes++;
          rep.oracle.reasons[o.reason] = (rep.oracle.reasons[o.reason] ?? 0) + 1;
          if (o.success) {
            rep.oracle.successes++;
            steps[tier].push(o.steps);
          } else rep.oracle.failures.push({ seed, tier, reason: o.reason, unmet: o.keyPoints.filter((x) => !x.met).map((x) => x.name) });
          done++;
          if (!bar.drawn && !opts.json) process.stderr.write(`${f.name} seed ${seed} tier ${tier} oracle: ${o.success ? 'success' : 'FAILURE'} in ${o.steps} steps\n`);
          if (rep.random) {
            if (signal.aborted) break;
            bar.update(done, total, { task: `${f.name} seed ${seed} random` });
            const r = await runEpisode({ env, server, store, browserKind: host.kind, signal, endOnGoal: opts.endOnGoal }, { family: f.name, seed, tier, agent: randomAgent(seed) });
            rep.random.episodes++;
            if (r.success) rep.random.successes++;
            done++;
          }
        }
        const mean = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10 : null);
        rep.oracle.meanStepsByTier = { '1': mean(steps[1]), '2': mean(steps[2]), '3': mean(steps[3]) };
        rep.oracle.successRate = rep.oracle.episodes ? rep.oracle.successes / rep.oracle.episodes : 0;
        if (rep.random) rep.random.successRate = rep.random.episodes ? rep.random.successes / rep.random.episodes : 0;
        reports.push(rep);
      }
      bar.update(done, total, { task: 'done' });
      bar.stop();
    });
    const ok = reports.length === families.length && reports.every((r) => r.oracle.episodes === opts.seeds && r.oracle.successes === r.oracle.episodes);
    if (!ok) process.exitCode = 1;
    if (opts.json) return printJson({ ok, seedsPerFamily: opts.seeds, endOnGoal: opts.endOnGoal, families: reports });
    const pct = (x: number) => `${Math.round(x * 100)}%`;
    const fmt = (x: number | null) => (x === null ? 'n/a' : x.toFixed(1));
    process.stdout.write(`\n${'family'.padEnd(13)}${'oracle'.padEnd(12)}${'steps t1 / t2 / t3'.padEnd(22)}random\n`);
    for (const r of reports) {
      const o = r.oracle;
      const name = r.family + (r.heldOut ? '*' : '');
      const st = `${fmt(o.meanStepsByTier['1'])} / ${fmt(o.meanStepsByTier['2'])} / ${fmt(o.meanStepsByTier['3'])}`;
      const rnd = r.random ? `${r.random.successes}/${r.random.episodes} (${pct(r.random.successRate)})` : 'not run';
      process.stdout.write(`${name.padEnd(13)}${`${o.successes}/${o.episodes} (${pct(o.successRate)})`.padEnd(12)}${st.padEnd(22)}${rnd}\n`);
      for (const x of o.failures) process.stdout.write(`  oracle failed on seed ${x.seed} tier ${x.tier} (${x.reason}): ${x.unmet.join('; ')}\n`);
    }
    if (reports.some((r) => r.heldOut)) process.stdout.write('* held-out family (test seeds only)\n');
    const byGoal = reports.reduce((n, r) => n + (r.oracle.reasons.goal_reached ?? 0), 0);
    const episodes = reports.reduce((n, r) => n + r.oracle.episodes, 0);
    process.stdout.write(
      opts.endOnGoal
        ? `Page-state goals end when the checker passes: ${byGoal} of ${episodes} oracle episodes ended so (goal_reached).\n`
        : 'Page-state goals ran until the agent stopped (--no-end-on-goal).\n',
    );
    process.stdout.write(ok ? '\nEvery oracle succeeded.\n' : '\nSome oracles failed.\n');
  });
}
