import { describeAction } from '../../environment/action-target.ts';
import { Option, type Command } from 'commander';
import type { EpisodeOutcome } from '../../collection/episode.ts';
import { agentContextFromFlags, withAgentOptions, withSignal, type AgentFlags } from '../agent-flags.ts';
import type { Tier } from '../../tasks/types.ts';
import { JudgmentStore } from '../../store/judgments.ts';
import { EPISODE_STATUSES } from '../../store/lab.ts';
import { describeProvenance, provenanceOf } from '../../store/provenance.ts';
import { forTerminal } from '../terminal.ts';
import { extraFamilies, formatColumns, intOption, openLab, printJson, withActionSetsOption, withBrowserOptions, withEndOnGoalOption, withMiniwobOption, tierOption, type ActionSetFlags, type BrowserFlags, type EndOnGoalFlags, type ExtraTaskFlags, withTaskBrowser } from '../runtime.ts';

interface EpisodeFlags extends BrowserFlags, ExtraTaskFlags, EndOnGoalFlags, ActionSetFlags, AgentFlags {
  task: string;
  seed: number;
  tier?: Tier;
  maxSteps?: number;
  screenshots?: boolean;
  json?: boolean;
}

export function registerEpisodeCommands(program: Command): void {
  withBrowserOptions(withActionSetsOption(withEndOnGoalOption(withMiniwobOption(withAgentOptions(
    program
      .command('episode')
      .description('run one episode of a task (built-in family, imported task set, MiniWoB++ task) with an agent and record it in the lab')
      .requiredOption('--task <family>', 'task family, imported task set or miniwob.<task> (see `lab tasks list`)')
      .requiredOption('--seed <n>', 'task seed', intOption('--seed'))
      .option('--tier <n>', 'difficulty tier 1-3 (default: derived from the seed)', tierOption())
      .option('--max-steps <n>', 'step budget (default: by tier)', intOption('--max-steps', 1))
      .option('--screenshots', 'record a set-of-marks screenshot at every step')
      .option('--json', 'print JSON'),
  ))))).action(async (opts: EpisodeFlags, cmd: Command) => {
    // The endpoint and policy are checked before anything starts.
    const context = await agentContextFromFlags(opts);
    // Loaded here, not at start-up: the agents (TF.js for the policy) and the browser environment.
    const [{ BrowserEnv }, { runEpisode }, { makeAgent, agentConfigOf }] = await Promise.all([
      import('../../environment/environment.ts'), import('../../collection/episode.ts'), import('../../agents/registry.ts'),
    ]);
    const { endpoint } = context;
    const store = openLab(cmd);
    await withTaskBrowser(opts, extraFamilies(store.dir, opts), async ({ server, host, signal, release }) => {
      const env = new BrowserEnv(host, {
        screenshots: !!opts.screenshots || !!endpoint?.vision,
        ...(opts.imageMaxSide ? { screenshotMaxSide: opts.imageMaxSide } : {}),
        ...(opts.actions ? { actionSets: opts.actions } : {}),
      });
      release(() => env.close());
      const agentConfig = agentConfigOf(opts.agent, opts.seed, context);
      const outcome = await runEpisode(
        {
          env,
          server,
          store,
          browserKind: host.kind,
          signal,
          endOnGoal: opts.endOnGoal,
          onStep: opts.json ? undefined : (i, turn, error) => process.stderr.write(`  step ${i + 1}: ${forTerminal(turn.action)}${error ? `  -> ${forTerminal(error)}` : ''}\n`),
        },
        {
          family: opts.task,
          seed: opts.seed,
          tier: opts.tier,
          maxSteps: opts.maxSteps,
          agent: (instance) => makeAgent(opts.agent, instance, opts.seed, withSignal(context, signal)),
          ...(agentConfig ? { agentConfig } : {}),
        },
      );
      if (opts.json) return printJson({ task: opts.task, seed: opts.seed, agent: opts.agent, ...outcome });
      const verdict = outcome.checker === 'judge' ? 'NOT JUDGED YET' : outcome.success ? 'SUCCESS' : 'FAILURE';
      process.stdout.write(
        `${opts.task} seed ${opts.seed} with ${opts.agent}: ${verdict} in ${outcome.steps} steps (${(outcome.durationMs / 1000).toFixed(1)} s, ended by ${outcome.reason})\n`,
      );
      printOutcomeDetails(outcome);
    });
  });

  const episodes = program.command('episodes').description('episodes recorded in the lab');
  episodes
    .command('list')
    .description('list recorded episodes, newest first')
    .option('--family <name>', 'only this task family (a family of this lab\'s episodes or a built-in one)')
    .addOption(new Option('--status <s>', 'only episodes with this status').choices(EPISODE_STATUSES))
    .option('--limit <n>', 'at most this many', intOption('--limit', 1), 50)
    .option('--json', 'print JSON')
    .action(async (opts: { family?: string; status?: string; limit: number; json?: boolean }, cmd: Command) => {
      const store = openLab(cmd);
      const { episodes: all, errors } = store.listEpisodes();
      if (opts.family !== undefined) {
        const here = [...new Set(all.map((e) => e.family))].sort();
        // A typo would list nothing and look like an empty lab: a name neither here nor built in is refused.
        if (!here.includes(opts.family) && !(await import('../../tasks/registry.ts')).builtinFamilies().has(opts.family)) throw new Error(`--family: no family "${opts.family}" (families of this lab's episodes: ${here.join(', ') || 'none'})`);
      }
      const matching = all.filter((e) => (!opts.family || e.family === opts.family) && (!opts.status || e.status === opts.status));
      const rows = matching.slice(0, opts.limit);
      for (const err of errors) process.stderr.write(`warning: ${err}\n`);
      if (opts.json) return printJson({ lab: store.dir, total: all.length, matching: matching.length, episodes: rows, errors });
      const filtered = opts.family !== undefined || opts.status !== undefined;
      process.stdout.write(filtered ? `${matching.length} of ${all.length} episodes in ${store.dir} match${rows.length < matching.length ? ` (the newest ${rows.length} shown)` : ''}\n` : `${all.length} episodes in ${store.dir}\n`);
      if (rows.length) process.stdout.write(formatColumns(rows.map((e) => [e.id, e.family, `seed ${e.seed}`, `tier ${e.tier}`, e.agent, e.status, `${e.steps} steps`])));
    });
  episodes
    .command('show <id>')
    .description('print one episode step by step')
    .option('--json', 'print the full records as JSON')
    .action((id: string, opts: { json?: boolean }, cmd: Command) => {
      const e = openLab(cmd).readEpisode(id);
      for (const w of e.warnings) process.stderr.write(`warning: ${w}\n`);
      if (opts.json) {
        const judgment = e.header.task.checker === 'judge' ? new JudgmentStore(openLab(cmd).dir).latest(e.header.id) : undefined;
        return printJson(judgment ? { ...e, judgment } : e);
      }
      const t = e.header.task;
      process.stdout.write(`${e.header.id}: ${t.family} seed ${t.seed} (${t.split}, tier ${t.tier}), agent ${e.header.agent.name}\n${forTerminal(t.instruction, { multiline: true })}\n`);
      const from = describeProvenance(provenanceOf(e.header));
      const fork = e.header.links.forkOf;
      if (fork) process.stdout.write(`forked from ${fork.episodeId} at step ${fork.step + 1} (${fork.step === 0 ? 'nothing replayed' : fork.step === 1 ? 'its step 1 replayed' : `its steps 1-${fork.step} replayed`})\n`);
      process.stdout.write(from ? `from ${forTerminal(from)}\n\n` : '\n');
      for (const s of e.steps) {
        process.stdout.write(`${String(s.index + 1).padStart(3)}. ${forTerminal(describeAction(s.action, s.observation.elements))}${s.error ? `  -> ${s.error.code}: ${forTerminal(s.error.message)}` : ''}  [${forTerminal(s.observation.url)}] ${s.timing.totalMs} ms\n`);
        if (s.thought) process.stdout.write(`     ${forTerminal(s.thought)}\n`);
        if (s.llm) {
          const l = s.llm;
          process.stdout.write(`     model: ${l.promptTokens}+${l.completionTokens} tokens, ${l.latencyMs} ms${l.attempts > 1 ? `, ${l.attempts} tries` : ''}${l.malformed !== undefined ? `, malformed output (${forTerminal(l.malformed)})` : ''}\n`);
        }
      }
      if (e.end && t.checker === 'judge') {
        // No checker ran; the verdict, if any, is the judge's (lab/judgments/).
        const j = new JudgmentStore(openLab(cmd).dir).latest(e.header.id);
        const verdict = !j ? 'NOT JUDGED YET (lab judge ' + e.header.id + ')' : j.verdict ? `${j.verdict.toUpperCase()} by the judge (${j.judge.model})` : `MALFORMED judge answer (${j.malformed})`;
        process.stdout.write(`\n${verdict}, ended by ${e.end.reason}\n`);
        if (j?.verdict) process.stdout.write(`${j.keyPoints.map((k) => `  - ${forTerminal(k)}`).join('\n')}\n  ${forTerminal(j.reasons, { multiline: true }).replace(/\n+/g, '\n  ')}\n`);
      } else if (e.end) {
        process.stdout.write(`\n${e.end.success ? 'SUCCESS' : 'FAILURE'} (${e.end.reason})\n`);
        if (e.end.reward) process.stdout.write(`  page reward ${e.end.reward.value} (raw ${e.end.reward.raw})${e.end.reward.reason ? `: ${e.end.reward.reason}` : ''}\n`);
        for (const k of e.end.keyPoints) process.stdout.write(`  ${k.met ? '[x]' : '[ ]'} ${k.name}${k.detail ? ` (${forTerminal(k.detail)})` : ''}\n`);
      } else process.stdout.write('\n(incomplete: the run stopped before the episode ended)\n');
    });
}

/** What `lab episode` and `lab fork` print under the verdict: the page's reward, a judge to ask, the key points, the episode. */
export function printOutcomeDetails(outcome: EpisodeOutcome): void {
  if (outcome.reward) process.stdout.write(`  page reward ${outcome.reward.value} (raw ${outcome.reward.raw})${outcome.reward.reason ? `: ${outcome.reward.reason}` : ''}\n`);
  if (outcome.checker === 'judge') process.stdout.write(`  no checker on the live web: judge it with \`lab judge ${outcome.id}\`\n`);
  for (const k of outcome.keyPoints) process.stdout.write(`  ${k.met ? '[x]' : '[ ]'} ${k.name}${k.detail ? ` (${k.detail})` : ''}\n`);
  process.stdout.write(`episode ${outcome.id}\n  ${outcome.path}\n`);
}
