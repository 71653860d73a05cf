import type { Command } from 'commander';
import { DEFAULT_JUDGE_OPTIONS } from '../../judge/webjudge.ts';
import { intOption, openLab, printJson, withCleanup } from '../runtime.ts';
import { forTerminal } from '../terminal.ts';

interface JudgeFlags {
  allUnjudged?: boolean;
  family?: string;
  endpoint?: string;
  model?: string;
  threshold: number;
  maxScreenshots: number;
  json?: boolean;
}

/** `lab judge`: WebJudge-style verdicts for episodes without a checker, kept in lab/judgments/. */
export function registerJudgeCommand(program: Command): void {
  program
    .command('judge')
    .description('judge episodes of tasks without a checker (imported benchmarks) with an LLM through the OpenAI-compatible endpoint: key points, key screenshots, verdict')
    .argument('[episode-ids...]', 'episodes to judge (judged again if they have a verdict)')
    .option('--all-unjudged', 'every ended episode of a judged task without a readable verdict')
    .option('--family <name>', 'with --all-unjudged: only this task set')
    .option('--endpoint <url>', 'OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1 (default: $LAB_ENDPOINT_URL)')
    .option('--model <name>', 'judge model (default: $LAB_ENDPOINT_MODEL)')
    .option('--threshold <n>', 'screenshots scoring at least this (1-5) are key screenshots', intOption('--threshold', 1), DEFAULT_JUDGE_OPTIONS.threshold)
    .option('--max-screenshots <n>', 'at most this many key screenshots', intOption('--max-screenshots', 0), DEFAULT_JUDGE_OPTIONS.maxKeyScreenshots)
    .option('--json', 'print JSON')
    .action(async (ids: string[], opts: JudgeFlags, cmd: Command) => {
      if (!ids.length && !opts.allUnjudged) throw new Error('name episode ids, or pass --all-unjudged');
      if (ids.length && opts.allUnjudged) throw new Error('name episode ids or pass --all-unjudged, not both');
      if (opts.threshold > 5) throw new Error(`--threshold must be 1-5, got ${opts.threshold}`);
      const [{ ChatEndpoint, endpointFromEnv }, { JudgmentStore }, { judgeAndRecord, unjudgedEpisodes }] = await Promise.all([
        import('../../llm/client.ts'), import('../../store/judgments.ts'), import('../../judge/run.ts'),
      ]);
      const store = openLab(cmd);
      const targets = opts.allUnjudged ? unjudgedEpisodes(store, new JudgmentStore(store.dir), opts.family) : ids;
      for (const id of targets) store.episodePath(id); // invalid ids fail before any request
      const endpoint = endpointFromEnv({
        ...(opts.endpoint ? { baseUrl: opts.endpoint } : {}),
        ...(opts.model ? { model: opts.model } : {}),
        onRetry: (r) => process.stderr.write(`  endpoint: ${forTerminal(r.error)}; retry ${r.attempt} in ${Math.round(r.delayMs / 1000)} s\n`),
      });
      const chat = new ChatEndpoint(endpoint);
      if (!targets.length && !opts.json) process.stdout.write('nothing to judge: every ended episode of a judged task has a verdict\n');
      const results = await withCleanup([], (signal) =>
        judgeAndRecord(store, targets, chat, { model: endpoint.model, baseUrl: endpoint.baseUrl }, {
          threshold: opts.threshold,
          maxKeyScreenshots: opts.maxScreenshots,
          signal,
          onProgress: opts.json ? undefined : (stage) => process.stderr.write(`  ${stage}\n`),
          onEpisode: opts.json
            ? undefined
            : (r, i) => {
                const head = `[${i + 1}/${targets.length}] ${r.episodeId}: `;
                if (r.error) process.stdout.write(`${head}not judged: ${forTerminal(r.error)}\n`);
                else if (!r.judgment!.verdict) process.stdout.write(`${head}MALFORMED judge answer (${forTerminal(r.judgment!.malformed ?? '')}); recorded, judge it again later\n`);
                else process.stdout.write(`${head}${r.judgment!.verdict.toUpperCase()} (${r.judgment!.keyScreenshots.length} key screenshots)\n  ${forTerminal(r.judgment!.reasons, { multiline: true }).replace(/\n+/g, '\n  ')}\n`);
              },
        }),
      );
      if (results.some((r) => r.error)) process.exitCode = 1;
      if (opts.json) printJson({ lab: store.dir, judged: results });
    });
}
