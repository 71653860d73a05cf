import { resolve } from 'node:path';
import type { Command } from 'commander';
import { SHIPPED_POLICY, SHIPPED_POLICY_NAME } from '../../policy/shipped.ts';
import { AGENT_NAMES } from '../../agents/names.ts';
import { MISTAKE_KINDS } from '../../agents/noisy-expert.ts';
import { ENDPOINT_DEFAULTS } from '../../agents/endpoint-defaults.ts';
import { DEFAULT_TIMEOUT_MS } from '../../llm/defaults.ts';
import { forTerminal } from '../terminal.ts';
import { progressBar } from '../progress.ts';
import type { CollectSummary, EndpointConfig } from '../../collection/collect-run.ts';
import { extraFamilies, figure, formatColumns, intOption, openLab, printJson, withActionSetsOption, withBrowserOptions, withEndOnGoalOption, withImageOptions, withMiniwobOption, tierOption, type ActionSetFlags, type BrowserFlags, type EndOnGoalFlags, type ExtraTaskFlags, type ImageFlags, withTaskBrowser } from '../runtime.ts';
import type { Tier } from '../../tasks/types.ts';
import { miniwobServing } from '../../tasks/miniwob/loader.ts';

interface CollectFlags extends BrowserFlags, ExtraTaskFlags, EndOnGoalFlags, ImageFlags, ActionSetFlags {
  tasks: string;
  agent: string;
  agentSeed: number;
  retries: number;
  reflect: string;
  shorten?: boolean;
  labelMistakes?: boolean;
  parallel: number;
  seeds: number;
  maxSteps?: number;
  tier?: Tier;
  rate?: string[];
  resume?: string;
  runId?: string;
  json?: boolean;
  endpoint?: string;
  model?: string;
  temperature?: string;
  topP?: string;
  maxTokens?: number;
  vision?: boolean;
  screenshots?: boolean;
  stream?: boolean;
  maxMalformed?: number;
  endpointWait?: number;
  endpointTimeout?: number;
  policy?: string;
}

/**
 * Collection with reflection-conditioned retries (and blind retries as the baseline at the same
 * attempt budget) and trajectory shortening. A run is a folder under lab/runs/ and can be resumed.
 */
export function registerCollectCommand(program: Command): void {
  withBrowserOptions(withActionSetsOption(withEndOnGoalOption(withMiniwobOption(withImageOptions(
    program
      .command('collect')
      .description('collect episodes with retries (reflection vs blind at the same budget) and shorten successful trajectories')
      .option('--tasks <spec>', 'families (or imported task sets, miniwob.<task>) and split, e.g. shop,flights:train or all:test', 'all:test')
      .option('--agent <name>', `agent: ${AGENT_NAMES.join(' | ')}`, 'noisy')
      .option('--agent-seed <n>', 'seed of the agent (attempt k uses a seed derived from it)', intOption('--agent-seed', 0), 1)
      .option('--retries <r>', 'retries after a failed first attempt (budget: 1 + R attempts per arm)', intOption('--retries', 0), 2)
      .option('--reflect <mode>', 'llm: reflect through the endpoint; rules: the rule-based reflector (both run blind retries as the baseline); none: blind retries only', 'rules')
      .option('--shorten', 'shorten successful trajectories and keep those that pass the checker on replay')
      .option('--parallel <n>', 'browser environments working at once', intOption('--parallel', 1), 1)
      .option('--seeds <n>', 'task instances (seeds) per family', intOption('--seeds', 1), 4)
      .option('--max-steps <n>', 'step limit per episode (default: by tier)', intOption('--max-steps', 1))
      .option('--tier <t>', 'force this tier (1, 2 or 3) on every instance (default: each seed\'s own tier)', tierOption())
      .option('--rate <kind=p>', `noisy-expert mistake rate, repeatable (${MISTAKE_KINDS.join(', ')})`, (v: string, acc: string[] = []) => [...acc, v])
      .option('--label-mistakes', 'noisy expert: label each injected mistake on its step (wrong, or detour), so a dataset keeps the recovery after it and leaves the mistake out')
      .option('--resume <run-id>', 'continue a run in lab/runs/<run-id> (its saved config wins over other flags, except --endpoint)')
      .option('--run-id <id>', 'name the run: a new run takes this id, and when lab/runs/<id> exists it is continued as with --resume (so a script that names its runs picks up where it stopped)')
      .option('--endpoint <url>', 'OpenAI-compatible base URL for --agent endpoint and --reflect llm, e.g. http://127.0.0.1:8000/v1 (default $LAB_ENDPOINT_URL; key from $LAB_ENDPOINT_KEY or $OPENAI_API_KEY)')
      .option('--model <name>', 'model name at the endpoint (default $LAB_ENDPOINT_MODEL)')
      .option('--temperature <t>', `endpoint agent sampling temperature, 0 = greedy (default ${ENDPOINT_DEFAULTS.temperature})`)
      .option('--top-p <p>', 'endpoint agent nucleus mass')
      .option('--max-tokens <n>', `longest answer per step (default ${ENDPOINT_DEFAULTS.maxTokens})`, intOption('--max-tokens', 1))
      .option('--screenshots', 'record a set-of-marks screenshot at every step, to view the trajectories')
      .option('--vision', 'send the set-of-marks screenshot as an image part (vision models; turns screenshots on)')
      .option('--stream', 'use streamed completions')
      .option('--max-malformed <n>', `malformed outputs in a row that end an episode (default ${ENDPOINT_DEFAULTS.maxMalformed})`, intOption('--max-malformed', 1))
      .option('--endpoint-wait <s>', `seconds to keep retrying a failing endpoint (unreachable, timed out, 429/5xx), from its first failure, before the run stops (default ${ENDPOINT_DEFAULTS.maxWaitMs / 1000})`, intOption('--endpoint-wait', 0))
      .option('--endpoint-timeout <s>', `longest one request may take, in seconds; a request that runs out is retried within --endpoint-wait (default ${DEFAULT_TIMEOUT_MS / 1000})`, intOption('--endpoint-timeout', 1))
      .option('--policy <dir>', `agent policy: the compact policy's model folder (from \`lab train sft\` or \`lab train policy\`; default: the shipped policy, ${SHIPPED_POLICY_NAME})`)
      .option('--json', 'print the summary as JSON'),
  ))))).action(async (opts: CollectFlags, cmd: Command) => {
    // Loaded here, not at start-up: collection, its agents (TF.js for the policy) and the browser environment.
    const [{ BrowserEnv }, { RunFolder, runCollection }, { endpointFromEnv }] = await Promise.all([
      import('../../environment/environment.ts'), import('../../collection/collect-run.ts'), import('../../llm/client.ts'),
    ]);
    const store = openLab(cmd);
    if (opts.resume && opts.runId && opts.resume !== opts.runId) throw new Error(`--resume ${opts.resume} and --run-id ${opts.runId} name two runs; give one`);
    const continued = opts.resume ?? (opts.runId && RunFolder.exists(store.dir, opts.runId) ? opts.runId : undefined);
    const run = continued ? RunFolder.open(store.dir, continued) : RunFolder.create(store.dir, { ...(await configFrom(opts)), ...(opts.runId ? { runId: opts.runId } : {}) });
    if (continued && !opts.json) process.stderr.write(`continuing run ${continued} (its saved config wins over the flags)\n`);
    // A server that moved keeps its run: --endpoint on resume points the saved config at it.
    if (continued && opts.endpoint && run.config.endpoint) run.config.endpoint.baseUrl = opts.endpoint;
    const apiKey = run.config.endpoint ? endpointFromEnv({ baseUrl: run.config.endpoint.baseUrl, model: run.config.endpoint.model }).apiKey : undefined;
    // Imported task sets join only when named; `all` means the built-in families (and MiniWoB++ with --miniwob).
    const named = run.config.tasks.split(':')[0].split(',').map((x) => x.trim());
    // A run that recorded its MiniWoB++ checkout serves it as recorded (--miniwob points it at a moved checkout).
    const recorded = run.config.miniwob;
    const served: ExtraTaskFlags = recorded ? { miniwob: opts.miniwob ?? recorded.root, miniwobTime: recorded.timeLimitMs, miniwobDisplay: recorded.humanDisplay } : opts;
    const screenshots = !!run.config.screenshots || (!!run.config.endpoint?.vision && run.config.agent === 'endpoint');
    const maxSide = run.config.endpoint?.imageMaxSide;
    const envOptions = {
      ...(screenshots ? { screenshots: true, ...(maxSide ? { screenshotMaxSide: maxSide } : {}) } : {}),
      ...(run.config.actionSets ? { actionSets: run.config.actionSets } : {}),
    };
    await withTaskBrowser(opts, extraFamilies(store.dir, served, named), async ({ server, host, signal, release }) => {
      const envs = Array.from({ length: run.config.parallel }, () => new BrowserEnv(host, envOptions));
      for (const e of envs) release(() => e.close());
      const bar = await progressBar('collect [{bar}] {value}/{total} tasks {task}', { quiet: opts.json });
      release(() => bar.stop());
      const summary = await runCollection({ envs, server, store, browserKind: host.kind, browsers: host }, run, {
        signal,
        endpoint: {
          apiKey,
          onRetry: (r) => {
            process.stderr.write(`\nendpoint: ${forTerminal(r.error)}; retry ${r.attempt} in ${(r.delayMs / 1000).toFixed(1)} s\n`);
          },
        },
        onTaskDone: (done, total, task) => {
          bar.update(done, total, { task });
          // Without a terminal (a log file), one line per task instead of the bar.
          if (!bar.drawn && task && !opts.json) process.stderr.write(`${task}: done (${done}/${total})\n`);
        },
        onRerun: (task, lost) => {
          if (!opts.json) process.stderr.write(`\n${task}: ${forTerminal(lost.message)}; running it again on another browser\n`);
        },
      }).catch((err: unknown) => {
        bar.stop();
        // Logged work is kept: say how to carry on (after an endpoint outage, most of all).
        throw new Error(`${err instanceof Error ? err.message : String(err)}\nThe run stopped; continue it with: npm run lab -- collect --resume ${run.config.runId}`);
      });
      bar.stop();
      if (opts.json) return printJson({ lab: store.dir, run: run.dir, ...summary });
      process.stdout.write(formatCollectSummary(summary, run.dir, signal.aborted));
    });
  });
}

async function configFrom(opts: CollectFlags) {
  const { REFLECT_MODES } = await import('../../collection/collect-run.ts');
  if (!(AGENT_NAMES as readonly string[]).includes(opts.agent)) throw new Error(`unknown agent "${opts.agent}" (known: ${AGENT_NAMES.join(', ')})`);
  if (!(REFLECT_MODES as readonly string[]).includes(opts.reflect)) throw new Error(`--reflect must be one of ${REFLECT_MODES.join(', ')}, got "${opts.reflect}"`);
  if (opts.labelMistakes && opts.agent !== 'noisy') throw new Error(`--label-mistakes labels the noisy expert's injected mistakes: it needs --agent noisy, not ${opts.agent}`);
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
    reflect: opts.reflect as (typeof REFLECT_MODES)[number],
    shorten: !!opts.shorten,
    parallel: opts.parallel,
    seeds: opts.seeds,
    ...(Object.keys(rates).length ? { rates } : {}),
    ...(opts.labelMistakes ? { labelMistakes: true } : {}),
    ...(opts.maxSteps ? { maxSteps: opts.maxSteps } : {}),
    ...(opts.tier !== undefined ? { tier: opts.tier } : {}),
    ...(opts.agent === 'endpoint' || opts.reflect === 'llm' ? { endpoint: await endpointConfigFrom(opts) } : {}),
    ...(opts.policy || opts.agent === 'policy' ? { policy: { dir: resolve(opts.policy ?? SHIPPED_POLICY) } } : {}),
    endOnGoal: opts.endOnGoal,
    ...(opts.screenshots ? { screenshots: true } : {}),
    ...(opts.actions ? { actionSets: opts.actions } : {}),
    ...(opts.miniwob ? { miniwob: miniwobServing(opts.miniwob, { episodeMaxTimeMs: opts.miniwobTime, keepHumanDisplay: opts.miniwobDisplay }) } : {}),
  };
}

async function endpointConfigFrom(opts: CollectFlags): Promise<EndpointConfig> {
  const { endpointFromEnv } = await import('../../llm/client.ts');
  const e = endpointFromEnv({ ...(opts.endpoint ? { baseUrl: opts.endpoint } : {}), ...(opts.model ? { model: opts.model } : {}) });
  const num = (flag: string, v: string | undefined, lo: number, hi: number): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!(n >= lo && n <= hi)) throw new Error(`${flag} must be a number in [${lo}, ${hi}], got "${v}"`);
    return n;
  };
  const topP = num('--top-p', opts.topP, 0.001, 1);
  return {
    baseUrl: e.baseUrl,
    model: e.model,
    temperature: num('--temperature', opts.temperature, 0, 2) ?? ENDPOINT_DEFAULTS.temperature,
    ...(topP !== undefined ? { topP } : {}),
    maxTokens: opts.maxTokens ?? ENDPOINT_DEFAULTS.maxTokens,
    vision: !!opts.vision,
    ...(opts.imageDetail ? { imageDetail: opts.imageDetail } : {}),
    ...(opts.imageMaxSide ? { imageMaxSide: opts.imageMaxSide } : {}),
    stream: !!opts.stream,
    maxMalformed: opts.maxMalformed ?? ENDPOINT_DEFAULTS.maxMalformed,
    maxWaitMs: opts.endpointWait !== undefined ? opts.endpointWait * 1000 : ENDPOINT_DEFAULTS.maxWaitMs,
    ...(opts.endpointTimeout !== undefined ? { timeoutMs: opts.endpointTimeout * 1000 } : {}),
  };
}

/** The run's summary as the terminal shows it. */
export function formatCollectSummary(s: CollectSummary, dir: string, cancelled: boolean): string {
  const lines: string[] = [];
  const out = (line: string) => lines.push(line);
  out(`\nrun ${s.runId}: ${s.tasksDone}/${s.tasks} tasks, budget ${s.attemptBudget} attempts per task and arm`);
  const table = [
    ['arm', 'yield', '1st try', 'attempts/success', 'steps/success', 'after shortening'],
    ...s.arms.map((a) => [
      a.arm, `${a.successes}/${a.tasks}`, a.firstAttemptSuccesses, figure(a.attemptsPerSuccess, 'no success'),
      figure(a.stepsPerSuccess, 'no success'), figure(a.stepsPerSuccessShortened, a.successes ? 'not shortened' : 'no success'),
    ]),
  ];
  out(formatColumns(table).trimEnd());
  if (s.arms.length > 1) out(`steps/success on tasks every arm solved: ${s.arms.map((a) => `${a.arm} ${figure(a.stepsPerSuccessCommon, 'no task solved by every arm')}`).join(', ')}`);
  if (s.llm) out(`model calls: ${s.llm.calls}, malformed outputs: ${s.llm.malformed} (${(s.llm.malformedRate * 100).toFixed(1)}%), tokens ${s.llm.promptTokens} prompt + ${s.llm.completionTokens} completion${s.llm.meanLatencyMs === null ? '' : `, mean latency ${s.llm.meanLatencyMs} ms`}`);
  if (s.browsers.lost.length || s.browsers.reruns) {
    out(`browsers lost: ${s.browsers.lost.map((l) => `${l.endpoint} (${l.reason})`).join(', ') || 'none'}; work rerun on another browser: ${s.browsers.reruns} time(s)${s.browsers.rerunTasks.length ? `, tasks ${s.browsers.rerunTasks.join(', ')}` : ''}`);
  }
  if (s.shortening) out(`shortening: ${s.shortening.shortened} of ${s.shortening.trajectories} successful trajectories, mean steps ${s.shortening.stepsBefore} -> ${s.shortening.stepsAfter}`);
  if (cancelled || s.tasksDone < s.tasks) out(`\nStopped early; continue with: npm run lab -- collect --resume ${s.runId}`);
  out(`Run folder: ${dir}`);
  return lines.join('\n') + '\n';
}
