/**
 * `lab fork EPISODE --step N --agent A`: fork a recorded episode at one of its steps. The parent's
 * steps before N are replayed on a fresh instance of its task (each page checked against the
 * recorded one), then the agent continues; the fork is recorded as a new episode linked to its
 * parent and step (main/collection/fork.ts). Takes `lab episode`'s agent flags.
 */
import type { Command } from 'commander';
import { forTerminal } from '../terminal.ts';
import { agentContextFromFlags, withAgentOptions, withSignal, type AgentFlags } from '../agent-flags.ts';
import { printOutcomeDetails } from './episodes.ts';
import { extraFamilies, intOption, openLab, printJson, withBrowserOptions, withMiniwobOption, type BrowserFlags, type ExtraTaskFlags, withTaskBrowser } from '../runtime.ts';

interface ForkFlags extends BrowserFlags, ExtraTaskFlags, AgentFlags {
  step: number;
  maxSteps?: number;
  screenshots?: boolean;
  json?: boolean;
}

export function registerForkCommand(program: Command): void {
  withBrowserOptions(withMiniwobOption(withAgentOptions(
    program
      .command('fork <episode-id>')
      .description("fork a recorded episode at a step: replay its steps before it on a fresh instance of the task (each page checked against the recorded one), then let an agent continue; recorded as a new episode linked to its parent and step")
      .requiredOption('--step <n>', 'the step where the agent takes over, counted from 1 as `lab episodes show` and the viewer number them (the steps before it are replayed)', intOption('--step', 1))
      .option('--max-steps <n>', 'step budget of the fork, replayed steps included (default: by tier)', intOption('--max-steps', 1))
      .option('--screenshots', 'record a set-of-marks screenshot at every step (default: as the parent did)')
      .option('--json', 'print JSON'),
  ))).action(async (parentId: string, opts: ForkFlags, cmd: Command) => {
    const store = openLab(cmd);
    const { planFork, forkEpisode } = await import('../../collection/fork.ts');
    // An unknown episode, a step out of range, an unknown agent or a missing endpoint: refused before anything starts.
    const plan = planFork(store, parentId, opts.step - 1);
    const context = await agentContextFromFlags(opts);
    const [{ BrowserEnv }, { makeAgent, agentConfigOf }] = await Promise.all([import('../../environment/environment.ts'), import('../../agents/registry.ts')]);
    const task = plan.parent.header.task;
    await withTaskBrowser(opts, extraFamilies(store.dir, opts), async ({ server, host, signal, release }) => {
      const env = new BrowserEnv(host, {
        screenshots: !!opts.screenshots || plan.parent.header.env.screenshots || !!context.endpoint?.vision,
        ...(opts.imageMaxSide ? { screenshotMaxSide: opts.imageMaxSide } : {}),
        ...plan.envOptions,
      });
      release(() => env.close());
      const agentConfig = agentConfigOf(opts.agent, task.seed, context);
      const outcome = await forkEpisode(
        {
          env,
          server,
          store,
          browserKind: host.kind,
          signal,
          onStep: opts.json ? undefined : (i, turn, error) => process.stderr.write(`  step ${i + 1}: ${forTerminal(turn.action)}${i < plan.step ? ' (replayed)' : ''}${error ? `  -> ${forTerminal(error)}` : ''}\n`),
        },
        plan,
        (instance) => makeAgent(opts.agent, instance, task.seed, withSignal(context, signal)),
        { ...(agentConfig ? { agentConfig } : {}), ...(opts.maxSteps !== undefined ? { maxSteps: opts.maxSteps } : {}) },
      );
      if (opts.json) return printJson({ parent: parentId, step: opts.step, replayed: plan.step, task: task.family, seed: task.seed, agent: opts.agent, ...outcome });
      const verdict = outcome.checker === 'judge' ? 'NOT JUDGED YET' : outcome.success ? 'SUCCESS' : 'FAILURE';
      process.stdout.write(
        `fork of ${parentId} at step ${opts.step} (${task.family} seed ${task.seed}) with ${opts.agent}: ${verdict} in ${outcome.steps} steps, ${plan.step} of them replayed (${(outcome.durationMs / 1000).toFixed(1)} s, ended by ${outcome.reason})\n`,
      );
      printOutcomeDetails(outcome);
    });
  });
}
